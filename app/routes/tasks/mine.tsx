// /task/my_tasks: the signed-in user's tasks, 10 a page, latest start first; category, name,
// datasets, created, start and completion time, progress (failed / waiting for training to complete
// / training completed, with the share done while it trains), and actions: download (a warning that
// the model is taken from the prototype-tree page), cancel while it runs, delete (删除成功 / 删除失败, then
// the list reloads: every action redirects back here). Deleting asks first: the row's Delete opens
// ?confirm=<id> (a GET), shown as a section of the page without JavaScript and as PrimeReact's
// ConfirmDialog with it; only that step's button posts the deletion (confirmed=1). With JavaScript
// the list reloads every 3 s while a task is queued or running; without it a refresh link does.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { ConfirmDeletion } from "~/components/DeleteConfirmDialog.tsx";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { checkFormData } from "~/.server/forms.server.ts";
import { DomainError } from "~/.server/domainErrors.server.ts";
import { logger } from "~/.server/logger.server.ts";
import { cancelTreeTask, deleteTreeTask } from "~/.server/treeTasks.server.ts";
import { listTreeTasks } from "~/.server/treeTaskViews.server.ts";
import { OutcomeDialog, orDashes } from "~/components/tasks/OutcomeDialog.tsx";
import { TaskProgress } from "~/components/tasks/TaskProgress.tsx";
import { usePeriodicRevalidation } from "~/lib/usePeriodicRevalidation.ts";
import { TASK_MSG } from "~/lib/rules/treeTasks.ts";

export const handle = { i18n: ["tasks"] };

export const REFRESH_MS = 3000;

const OUTCOMES = {
  deleted: { kind: "success", text: TASK_MSG.deleted },
  "delete-failed": { kind: "error", text: TASK_MSG.deleteFailed },
  cancelled: { kind: "success", text: TASK_MSG.cancelled },
  "not-cancellable": { kind: "warn", text: TASK_MSG.notCancellable },
  download: { kind: "warn", text: TASK_MSG.downloadWarning },
} as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const list = await listTreeTasks(user, Number.isFinite(page) ? page : 1);
  // The confirmation step of a deletion: one of the tasks listed on this page, else nothing to ask.
  const asked = Number(new URL(request.url).searchParams.get("confirm"));
  const named = list.tasks.find((x) => x.id === asked);
  const confirm = named ? { id: named.id, name: named.name } : null;
  return { ...list, confirm, active: list.tasks.some((x) => x.state === "queued" || x.state === "running") };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = checkFormData(await request.formData());
  const id = /^\d{1,12}$/.test(String(form.get("id") ?? "")) ? Number(form.get("id")) : 0;
  const page = /^\d{1,6}$/.test(String(form.get("page") ?? "")) ? String(form.get("page")) : "1";
  const back = (outcome: keyof typeof OUTCOMES) => redirect(`/task/my_tasks?page=${page}&outcome=${outcome}`);
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "delete") {
      // Nothing is deleted without the confirmation step's own button.
      if (form.get("confirmed") !== "1") return redirect(`/task/my_tasks?page=${page}&confirm=${id}`);
      await deleteTreeTask(user, id);
      return back("deleted");
    }
    if (intent === "cancel") return back((await cancelTreeTask(user, id)) ? "cancelled" : "not-cancellable");
  } catch (err) {
    // Another user's or an unknown task: the plain deletion failure (删除失败, docs/product.md "Training tasks"), nothing said about whose it is.
    if (!(err instanceof DomainError)) logger("tree-tasks").error({ err, id }, "task action failed");
    return back(intent === "cancel" ? "not-cancellable" : "delete-failed");
  }
  return back("delete-failed");
}

export default function MyTasks() {
  const { tasks, page, pages, total, active, confirm } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const outcome = params.get("outcome");
  const shownOutcome = outcome && outcome in OUTCOMES ? OUTCOMES[outcome as keyof typeof OUTCOMES] : null;
  const { t } = useTranslation("tasks");
  usePeriodicRevalidation(REFRESH_MS, active);
  return (
    <>
      <h2>{t("mine.title")}</h2>
      {shownOutcome ? <OutcomeDialog kind={shownOutcome.kind} message={shownOutcome.text} closeTo={`/task/my_tasks?page=${page}`} /> : null}
      {confirm ? <ConfirmTaskDeletion confirm={confirm} page={page} /> : null}
      <p className="muted">
        {t("mine.count", { count: total })}{" "}
        {active ? (
          <a href={`/task/my_tasks?page=${page}`} data-testid="refresh">
            {t("refresh")}
          </a>
        ) : null}
      </p>
      <div className="table-scroll">
        <table className="data-table" data-testid="my-tasks">
          <thead>
            <tr>
              <th scope="col">{t("mine.category")}</th>
              <th scope="col">{t("mine.name")}</th>
              <th scope="col">{t("mine.datasets")}</th>
              <th scope="col">{t("mine.created")}</th>
              <th scope="col">{t("mine.started")}</th>
              <th scope="col">{t("mine.completed")}</th>
              <th scope="col">{t("mine.progress")}</th>
              <th scope="col">{t("mine.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {tasks.length === 0 ? (
              <tr>
                <td colSpan={8} className="muted">
                  {t("mine.none")} <Link to="/task/create_task">{t("createTab")}</Link>
                </td>
              </tr>
            ) : null}
            {tasks.map((task) => (
              <tr key={task.id} data-task-id={task.id} data-state={task.state}>
                <td>{task.category}</td>
                <td>
                  <Link to={`/task_detail/${task.id}/basic_task_info`}>{task.name}</Link>
                </td>
                <td>{orDashes(task.datasets)}</td>
                <td>{task.createdTime}</td>
                <td>{orDashes(task.startedTime)}</td>
                <td>{orDashes(task.completedTime)}</td>
                <td style={{ minWidth: 180 }}>
                  <TaskProgress task={task} />
                </td>
                <td>
                  <div style={{ display: "flex", gap: ".25rem", flexWrap: "wrap" }}>
                    <a href={`/task/my_tasks?page=${page}&outcome=download`} className="p-button p-button-sm p-button-outlined">
                      {t("mine.download")}
                    </a>
                    {task.state === "queued" || task.state === "running" ? (
                      <Form method="post" action="/task/my_tasks">
                        <input type="hidden" name="id" value={task.id} />
                        <input type="hidden" name="page" value={page} />
                        <button type="submit" name="intent" value="cancel" className="p-button p-button-sm p-button-warning">
                          {t("mine.cancel")}
                        </button>
                      </Form>
                    ) : null}
                    {/* A link to the confirmation step: it asks, it does not delete. */}
                    <Link
                      to={`/task/my_tasks?page=${page}&confirm=${task.id}`}
                      preventScrollReset
                      className="p-button p-button-sm p-button-danger"
                      aria-label={t("mine.deleteOne", { name: task.name })}
                      data-testid={`delete-${task.id}`}
                    >
                      {t("mine.delete")}
                    </Link>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* The pager is hidden when there is only one page. */}
      {pages > 1 ? (
        <nav className="pager" aria-label={t("mine.pages")}>
          {Array.from({ length: pages }, (_, i) => i + 1)
            .filter((p) => Math.abs(p - page) <= 3)
            .map((p) => (
              <Link key={p} to={`/task/my_tasks?page=${p}`} aria-current={p === page ? "page" : undefined} className="p-button p-button-text p-button-sm">
                {p}
              </Link>
            ))}
        </nav>
      ) : null}
    </>
  );
}

type ConfirmDelete = { id: number; name: string };

/** The deletion itself: posts the confirmed task, or goes back to the list. */
function DeleteQuestion({ confirm }: { confirm: ConfirmDelete }) {
  const { t } = useTranslation("tasks");
  return (
    <>
      <strong>{t("mine.deleteQuestion", { name: confirm.name })}</strong> {t("mine.deleteWarning")}
    </>
  );
}

/** The question before a task is deleted (components/DeleteConfirmDialog.tsx: in the page without JavaScript, a dialog with it). */
function ConfirmTaskDeletion({ confirm, page }: { confirm: ConfirmDelete; page: number }) {
  const { t } = useTranslation("tasks");
  return (
    <ConfirmDeletion
      header={t("mine.confirmTitle")}
      question={<DeleteQuestion confirm={confirm} />}
      acceptLabel={t("mine.confirmDelete")}
      rejectLabel={t("mine.keep")}
      action="/task/my_tasks"
      fields={[
        ["id", String(confirm.id)],
        ["page", String(page)],
      ]}
      backTo={`/task/my_tasks?page=${page}`}
    />
  );
}
