// A task's progress in three words: failed; waiting for training to complete while it has no
// completion time (with the share the sidecar reports while it trains); training completed. A
// cancelled task says so (cancelling is the platform's addition).
import { ProgressBar } from "primereact/progressbar";
import { useTranslation } from "react-i18next";
import { translateMessage } from "~/lib/forms/messages.ts";

interface Shown {
  label: string;
  state: string;
  /** 0..1 */
  progress: number;
  error: string | null;
}

export function TaskProgress({ task, withReason = true }: { task: Shown; withReason?: boolean }) {
  const { t } = useTranslation("tasks");
  const percent = Math.round(task.progress * 100);
  return (
    <div data-testid="task-progress" data-label={task.label} data-progress={percent}>
      <strong>{t(`progress.${task.label}`)}</strong>
      {task.state === "running" || task.state === "queued" ? (
        <>
          <span className="muted"> · {t(`state.${task.state}`)}</span>
          <ProgressBar value={percent} style={{ height: "0.9rem", marginTop: ".25rem" }} aria-label={t("mine.progress")} />
        </>
      ) : null}
      {withReason && task.error && task.state !== "completed" ? (
        <div className="muted" data-testid="task-error" style={{ fontSize: ".85em" }}>
          {translateMessage(t, task.error)}
        </div>
      ) : null}
    </div>
  );
}
