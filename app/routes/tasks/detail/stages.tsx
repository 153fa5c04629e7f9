// /task_detail/$id/vis_stages (the "training flow" tab): data, training, pruning, projection and
// visualisation, each with its state and times as the sidecar reported them.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { orRefusal } from "~/.server/domainErrors.server.ts";
import { treeTaskDetails } from "~/.server/treeTaskViews.server.ts";
import { orDashes } from "~/components/tasks/OutcomeDialog.tsx";

export const handle = { i18n: ["tasks"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { stages } = await orRefusal(treeTaskDetails(user, Number(params.id)));
  return { stages };
}

const KNOWN_STATES = ["waiting", "running", "done", "failed"];

// The sidecar's ISO times ("2026-11-26T19:24:30.270Z") written as the other tabs write theirs
// (UTC, app/.server/treeTaskViews.server.ts stamp), and how long the stage took: the raw form read as
// two long codes per stage, and a reader had to subtract them to see where the time went.
const stamp = (iso: string | null | undefined) => (iso ? iso.replace("T", " ").slice(0, 19) : null);
const seconds = (from: string | null | undefined, to: string | null | undefined) =>
  from && to && Number.isFinite(Date.parse(from)) && Number.isFinite(Date.parse(to)) ? ((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1) : null;

export default function VisStages() {
  const { stages } = useLoaderData<typeof loader>();
  const { t } = useTranslation("tasks");
  return (
    <>
      <h2>{t("detail.tab.vis_stages")}</h2>
      <ol className="task-stages" data-testid="task-stages" style={{ paddingLeft: "1.25rem" }}>
        {stages.map((s) => (
          <li key={s.name} data-stage={s.name} data-state={s.state} style={{ marginBottom: ".5rem" }}>
            <strong>{t(`stage.${s.name}`, { defaultValue: s.name })}</strong> — {KNOWN_STATES.includes(s.state) ? t(`stageState.${s.state}`) : s.state}
            <div className="muted">
              {t("stages.started")}: {orDashes(stamp(s.startedAt))} · {t("stages.finished")}: {orDashes(stamp(s.finishedAt))}
              {seconds(s.startedAt, s.finishedAt) !== null ? ` · ${t("stages.took", { seconds: seconds(s.startedAt, s.finishedAt) })}` : ""}
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}
