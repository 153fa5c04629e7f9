// /task_detail/$id/basic_task_info (the task's details: created, started and completed time, tasks,
// models, datasets; empty lists shown as --), plus what the task was asked for and, once trained,
// the tree it wrote with its test accuracy next to its backbone CNN's on the same test split
// (tree.proto TrainDone).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { orRefusal } from "~/.server/domainErrors.server.ts";
import { ownTask } from "~/.server/treeTasks.server.ts";
import { toTaskRecord } from "~/.server/treeTaskViews.server.ts";
import { orDashes } from "~/components/tasks/OutcomeDialog.tsx";
import { translateMessage } from "~/lib/forms/messages.ts";

export const handle = { i18n: ["tasks"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { task: toTaskRecord(await orRefusal(ownTask(user, Number(params.id)))) };
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? null : `${(x * 100).toFixed(2)} %`);

export default function BasicTaskInfo() {
  const { task } = useLoaderData<typeof loader>();
  const { t } = useTranslation("tasks");
  const args = Object.entries(task.args).map(([k, v]) => `${k}=${v}`);
  const rows: [string, string][] = [
    [t("info.created"), orDashes(task.createdTime)],
    [t("info.started"), orDashes(task.startedTime)],
    [t("info.completed"), orDashes(task.completedTime)],
    [t("info.tasks"), orDashes([task.category])],
    [t("info.models"), orDashes(task.treeId ? [task.name, task.treeId] : [])],
    [t("info.datasets"), orDashes(task.datasets)],
    [t("info.depth"), String(task.depth)],
    [t("info.iterations"), String(task.iterations)],
    [t("info.protoDim"), String(task.protoDim)],
    [t("info.ddp"), task.ddpTraining ? t("info.ddpOn", { count: task.ddpNum }) : t("info.ddpOff")],
    [t("info.args"), orDashes(args)],
    [t("info.remarks"), orDashes(task.remarks)],
    [t("info.state"), t(`state.${task.state}`)],
    [t("info.error"), orDashes(task.error ? translateMessage(t, task.error) : null)],
    [t("info.treeAccuracy"), orDashes(pct(task.result?.testAccuracy))],
    [t("info.cnnAccuracy"), orDashes(pct(task.result?.cnnAccuracy))],
    [t("info.leaves"), task.result ? t("info.leavesValue", { leaves: task.result.leaves, pruned: task.result.leavesAfterPruning }) : "--"],
  ];
  return (
    <>
      <h2>{t("detail.tab.basic_task_info")}</h2>
      <table className="data-table" data-testid="task-info">
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {task.state === "completed" ? <p className="muted">{t("info.whereModel")}</p> : null}
    </>
  );
}
