// /task_detail/$id/training_log: the task's training log as the sidecar streamed it (the last
// lines only: app/.server/treeTasks.server.ts TASK_LIMITS.logLines); live while the task runs
// through the parent route's reloads.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { orRefusal } from "~/.server/domainErrors.server.ts";
import { TASK_LIMITS } from "~/.server/treeTasks.server.ts";
import { treeTaskLog } from "~/.server/treeTaskViews.server.ts";

export const handle = { i18n: ["tasks"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { lines: await orRefusal(treeTaskLog(user, Number(params.id))), limit: TASK_LIMITS.logLines };
}

export default function TrainingLog() {
  const { lines, limit } = useLoaderData<typeof loader>();
  const { t } = useTranslation("tasks");
  return (
    <>
      <h2>{t("detail.tab.training_log")}</h2>
      <p className="muted">{t("log.note", { limit })}</p>
      {lines.length ? (
        <pre data-testid="training-log" style={{ maxHeight: "60vh", overflow: "auto", whiteSpace: "pre-wrap" }}>
          {lines.map((l) => `${l.at}  ${l.line}`).join("\n")}
        </pre>
      ) : (
        <p data-testid="training-log">--</p>
      )}
    </>
  );
}
