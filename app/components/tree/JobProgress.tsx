// A running tree job (adjust the whole tree, save it under a name): the server renders its state;
// with JavaScript the page polls /trees/jobs/$jobId every second and shows the progress bar, then
// old → new accuracy or the saved model. After more than MAX_FAILED_POLLS failed polls it says
// 服务器出错，请稍后再试 (in the page's language) and stops polling. The page keys this component by the job's
// id and state, so a reloaded state starts it afresh. Without JavaScript a Refresh link reloads the
// page, which shows the same state.
import { Link, useRevalidator } from "@remix-run/react";
import { ProgressBar } from "primereact/progressbar";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TreeJobView } from "~/.server/trees.server.ts";
import { translateMessage } from "~/lib/forms/messages.ts";
import { MAX_FAILED_POLLS, TREE_MSG } from "~/lib/rules/trees.ts";
import { percent } from "./urls.ts";

const POLL_MS = 1000;
const finished = (j: TreeJobView) => j.state === "completed" || j.state === "failed";

export function JobProgress({ job: initial, refreshHref, savedHref }: { job: TreeJobView; refreshHref: string; savedHref: (treeId: string) => string }) {
  const { t } = useTranslation("trees");
  const [job, setJob] = useState(initial);
  const [pollsFailed, setPollsFailed] = useState(false);
  const failures = useRef(0);
  const revalidator = useRevalidator();
  useEffect(() => {
    if (finished(job) || pollsFailed) return;
    let stop = false;
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(`/trees/jobs/${encodeURIComponent(job.id)}`, { headers: { Accept: "application/json" } });
        if (!res.ok) throw new Error(String(res.status));
        const next = (await res.json()) as TreeJobView;
        if (stop) return;
        failures.current = 0;
        setJob(next);
        // Done: the loader lists the saved model and draws the adjusted tree.
        if (finished(next)) revalidator.revalidate();
      } catch {
        if (stop) return;
        failures.current += 1;
        if (failures.current > MAX_FAILED_POLLS) setPollsFailed(true);
        else setJob((j) => ({ ...j }));
      }
    }, POLL_MS);
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [job, pollsFailed, revalidator]);
  const what = t(job.op === "adjust" ? "jobAdjust" : "jobSave", { name: job.name ?? "" });
  return (
    <div className="card" id="job" data-testid="tree-job" data-state={job.state} role="status" aria-live="polite">
      <h2 style={{ marginTop: 0 }}>{what}</h2>
      {pollsFailed ? (
        <p className="notice-error" data-testid="polls-failed">
          {translateMessage(t, TREE_MSG.pollsFailed)}
        </p>
      ) : job.state === "failed" ? (
        <p className="notice-error" data-testid="job-failed">
          {t("jobFailed", { reason: job.error ?? "" })}
        </p>
      ) : job.done ? (
        <>
          <p data-testid="job-done">
            {job.op === "adjust"
              ? t("adjusted", { old: percent(job.done.oldAccuracy), new: percent(job.done.newAccuracy) })
              : t("saved", { name: job.name ?? "", old: percent(job.done.oldAccuracy), new: percent(job.done.newAccuracy) })}
          </p>
          {job.op === "save" && job.done.treeId ? (
            <Link to={savedHref(job.done.treeId)} data-testid="use-saved">
              {t("useSaved", { name: job.name ?? "" })}
            </Link>
          ) : null}
        </>
      ) : (
        <>
          <ProgressBar value={job.progress} aria-label={what} />
          <p className="muted">{t(job.op === "adjust" ? "adjustNotice" : "saveNotice")}</p>
          <Link to={refreshHref} className="tree-refresh" data-testid="job-refresh">
            {t("refresh")}
          </Link>
        </>
      )}
    </div>
  );
}
