// /admin/evaluations — MoRF/LeRF evaluation runs computed by a sidecar as queue jobs (the
// evaluation issue): a form to start one (suite and method from the sidecar's own lists)
// and the table of runs with their progress, errors, result files and the metascore each
// would get on its suite's board. With JavaScript the table reloads every 2.5 s while a
// run is queued or running; without it, a refresh link does the same.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ProgressBar } from "primereact/progressbar";
import { requireAdmin } from "~/.server/session.server.ts";
import { listSuites } from "~/.server/board.server.ts";
import {
  MAX_LIMIT,
  MIN_LIMIT,
  MSG,
  cancelEvaluation,
  evaluationCatalog,
  listEvaluationRuns,
  startEvaluation,
  type RunView,
  type StartErrors,
} from "~/.server/evaluations.server.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { usePeriodicRevalidation } from "~/lib/usePeriodicRevalidation.ts";
import { checkFormData } from "~/.server/forms.server.ts";
import { Trans, useTranslation } from "react-i18next";
import { parseForm } from "~/lib/forms/parse.ts";
import { translateMessage } from "~/lib/forms/messages.ts";
import { startSchema } from "~/lib/rules/evaluation.ts";
import { pageTitle } from "~/lib/pageTitle.ts";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "admin:tabs.evaluations");

export const REFRESH_MS = 2500;
const DEFAULT_LIMIT = 4;

const NOTICES = {
  started: { kind: "success", text: MSG.started },
  cancelled: { kind: "success", text: MSG.cancelled },
  "not-cancellable": { kind: "warn", text: MSG.notCancellable },
} as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const [{ catalog, message }, runs] = await Promise.all([evaluationCatalog(), listEvaluationRuns()]);
  // Without the sidecar's list the form still offers the platform's suites, and a run
  // queued now waits for a compute server (the queue retries).
  const suites = catalog
    ? catalog.suites.map((s) => ({
        id: s.id,
        name: s.name,
        splitImages: s.splitImages,
        tasks: s.tasks.map((t) => ({ id: t.id, available: t.available, problem: t.problem })),
      }))
    : (await listSuites()).map((s) => ({
        id: s.id,
        name: s.name,
        splitImages: MAX_LIMIT,
        tasks: s.tasks.map((t) => ({ id: t, available: true, problem: "" })),
      }));
  const msg = url.searchParams.get("msg");
  return {
    suites,
    methods: catalog?.methods.map((m) => m.name) ?? [],
    catalogMessage: message,
    catalogProblems: catalog?.problems ?? [],
    runs,
    active: runs.some((r) => r.state === "queued" || r.state === "running"),
    notice: msg && msg in NOTICES ? NOTICES[msg as keyof typeof NOTICES] : null,
    minLimit: MIN_LIMIT,
    // The largest split offered (the sidecar checks the chosen suite's own).
    maxLimit: Math.min(MAX_LIMIT, Math.max(MIN_LIMIT, ...suites.map((s) => s.splitImages))),
  };
}

type ActionResult = { errors: StartErrors; values: Record<string, string> };

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = checkFormData(await request.formData());
  const intent = String(form.get("intent") ?? "");
  if (intent === "start") {
    const values = {
      suite: String(form.get("suite") ?? ""),
      method: String(form.get("method") ?? ""),
      limit: String(form.get("limit") ?? ""),
      params: String(form.get("params") ?? ""),
    };
    const parsed = parseForm(form, startSchema);
    if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, values }, { status: 400 });
    const r = await startEvaluation({ id: admin.id, username: admin.username }, parsed.value);
    if (r.ok) return redirect("/admin/evaluations?msg=started");
    return data<ActionResult>({ errors: r.errors, values }, { status: 400 });
  }
  if (intent === "cancel") {
    const id = Number(form.get("id"));
    const ok = Number.isInteger(id) && id > 0 && (await cancelEvaluation(id, admin));
    return redirect(`/admin/evaluations?msg=${ok ? "cancelled" : "not-cancellable"}`);
  }
  return data<ActionResult>({ errors: { form: "admin:runs.unknownAction" }, values: {} }, { status: 400 });
}

export default function AdminEvaluations() {
  const { suites, methods, catalogMessage, catalogProblems, runs, active, notice, minLimit, maxLimit } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  usePeriodicRevalidation(REFRESH_MS, active);
  const values = result?.values ?? {};
  const { t } = useTranslation("admin");
  return (
    <>
      <section className="card">
        <h2>{t("runs.start")}</h2>
        <p className="muted">
          <Trans t={t} i18nKey="runs.lead" components={{ c: <code /> }} />
        </p>
        {/* The last step's notice; an answer to the form replaces it. */}
        {notice && !result ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
        {catalogMessage ? <Notice kind="warn">{catalogMessage}</Notice> : null}
        {catalogProblems.map((p) => (
          <Notice key={p} kind="warn">
            {p}
          </Notice>
        ))}
        {result?.errors.form ? <Notice kind="error">{result.errors.form}</Notice> : null}
        <Form method="post" action="/admin/evaluations" aria-label={t("runs.start")} className="evaluation-form">
          <input type="hidden" name="intent" value="start" />
          <StartField name="suite" label={t("runs.suite")} error={result?.errors.suite}>
            <select id="evaluation-suite" name="suite" defaultValue={values.suite} aria-describedby="suite-error" required>
              {suites.map((s) => (
                <option key={s.id} value={s.id}>
                  {t("runs.suiteOption", {
                    name: s.name,
                    id: s.id,
                    installed: s.tasks.filter((task) => task.available).length,
                    tasks: s.tasks.length,
                    images: s.splitImages,
                  })}
                </option>
              ))}
            </select>
          </StartField>
          <StartField name="method" label={t("runs.method")} error={result?.errors.method}>
            {methods.length ? (
              <select id="evaluation-method" name="method" defaultValue={values.method ?? "Saliency"} aria-describedby="method-error" required>
                {methods.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            ) : (
              // No list from a sidecar: the name is typed, and the sidecar checks it when the run starts.
              <input id="evaluation-method" name="method" defaultValue={values.method ?? "Saliency"} aria-describedby="method-error" required maxLength={100} />
            )}
          </StartField>
          <StartField name="limit" label={t("runs.limit")} error={result?.errors.limit}>
            <input
              id="evaluation-limit"
              name="limit"
              type="number"
              min={minLimit}
              max={maxLimit}
              step={1}
              defaultValue={values.limit ?? String(DEFAULT_LIMIT)}
              aria-describedby="limit-error"
              required
            />
          </StartField>
          <StartField name="params" label={t("runs.params")} error={result?.errors.params}>
            <input
              id="evaluation-params"
              name="params"
              defaultValue={values.params ?? ""}
              placeholder={t("runs.paramsPlaceholder")}
              aria-describedby="params-error"
              maxLength={10000}
            />
          </StartField>
          <button type="submit" className="p-button p-component" disabled={busy} data-testid="start-evaluation">
            {busy ? t("runs.starting") : t("runs.startButton")}
          </button>
        </Form>
      </section>
      <section className="card">
        <div style={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: "1rem" }}>
          <h2 style={{ margin: 0 }}>{t("runs.title")}</h2>
          {/* Without JavaScript the page does not refresh itself: this link does. */}
          <Link to="/admin/evaluations" data-testid="refresh-runs">
            {t("runs.refresh")}
          </Link>
        </div>
        <RunTable runs={runs} />
      </section>
    </>
  );
}

const STATE_TAG: Record<RunView["state"], string> = {
  queued: "p-tag-secondary",
  running: "p-tag-info",
  completed: "p-tag-success",
  failed: "p-tag-danger",
  cancelled: "p-tag-warning",
};

/** One field of the start form: its label, its control (id evaluation-<name>) and its error line (<name>-error). */
function StartField({ name, label, error, children }: { name: string; label: string; error?: string; children: React.ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={`evaluation-${name}`}>{label}</label>
      {children}
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

function RunTable({ runs }: { runs: RunView[] }) {
  const { t } = useTranslation("admin");
  if (!runs.length) return <p data-testid="no-runs">{t("runs.none")}</p>;
  return (
    <div className="p-datatable p-component p-datatable-sm" style={{ overflowX: "auto" }}>
      <table className="p-datatable-table" style={{ width: "100%", borderCollapse: "collapse" }} data-testid="run-table">
        <thead className="p-datatable-thead">
          <tr>
            <th>#</th>
            <th>{t("runs.suite")}</th>
            <th>{t("runs.colMethod")}</th>
            <th>{t("runs.colImages")}</th>
            <th>{t("servers.colState")}</th>
            <th style={{ minWidth: "12rem" }}>{t("runs.colProgress")}</th>
            <th>{t("runs.colMetascore")}</th>
            <th>{t("runs.colFiles")}</th>
            <th>{t("runs.colUser")}</th>
            <th />
          </tr>
        </thead>
        <tbody className="p-datatable-tbody">
          {runs.map((r) => (
            <tr key={r.id} data-testid={`run-${r.id}`} data-state={r.state}>
              <td>{r.id}</td>
              <td>{r.suite}</td>
              <td>
                {r.method}
                {r.kind === "maps" ? (
                  // A researcher's uploaded maps (a verified evaluation), not a registry method.
                  <div className="muted" style={{ fontSize: ".8rem" }} data-testid="run-kind">
                    {t("evaluations.mapsRun", { name: r.mapsName ?? "maps.zip" })}
                  </div>
                ) : null}
                {r.params && r.params !== "{}" ? (
                  <div className="muted" style={{ fontSize: ".8rem" }}>
                    {r.params}
                  </div>
                ) : null}
              </td>
              <td>{r.limit}</td>
              <td>
                <span className={`p-tag ${STATE_TAG[r.state]}`} data-testid="run-state">
                  {t(`runs.state.${r.state}`)}
                </span>
                {r.attempts > 1 ? (
                  <div className="muted" style={{ fontSize: ".8rem" }}>
                    {t("runs.attempt", { n: r.attempts })}
                  </div>
                ) : null}
              </td>
              <td>
                <ProgressBar value={r.progress} aria-label={t("runs.progressOf", { id: r.id })} style={{ height: "1.1rem" }} />
                <div className="muted" style={{ fontSize: ".8rem" }} data-testid="run-progress">
                  {r.imagesTotal ? t("runs.imagesDone", { done: r.imagesDone, total: r.imagesTotal }) : `${r.progress} %`}
                  {r.currentTask ? ` · ${r.currentTask}` : ""}
                  {r.eta ? ` · ETA ${r.eta}` : ""}
                  {r.state === "completed" && r.seconds !== null ? ` · ${r.seconds.toFixed(1)} s` : ""}
                </div>
                {r.error ? (
                  <div className={r.state === "failed" ? "field-error" : "muted"} role={r.state === "failed" ? "alert" : undefined} data-testid="run-error">
                    {translateMessage(t, r.error)}
                  </div>
                ) : null}
              </td>
              <td data-testid="run-metascore">
                {r.metascore !== null ? (
                  <>
                    <strong>{r.metascore}</strong>
                    {r.rank !== null && r.boardSize !== null ? (
                      <div className="muted" style={{ fontSize: ".8rem" }}>
                        {t("runs.rankOf", { rank: r.rank, size: r.boardSize })}
                      </div>
                    ) : null}
                  </>
                ) : r.metascoreNote ? (
                  <span className="muted" style={{ fontSize: ".8rem" }}>
                    {r.metascoreNote}
                  </span>
                ) : (
                  "—"
                )}
                {r.localisation.length ? (
                  <div className="muted" style={{ fontSize: ".8rem" }} data-testid="run-localisation">
                    {t("runs.localisation")} {r.localisation.map((l) => `${l.task} ${l.share}`).join(", ")}
                  </div>
                ) : null}
              </td>
              <td>
                {r.files ? (
                  <span style={{ display: "flex", gap: ".5rem", flexWrap: "wrap" }}>
                    <a href={`/admin/evaluations/${r.id}/morf.csv`} download data-testid="download-morf">
                      morf.csv
                    </a>
                    <a href={`/admin/evaluations/${r.id}/lerf.csv`} download data-testid="download-lerf">
                      lerf.csv
                    </a>
                    <a href={`/admin/evaluations/${r.id}/images.json`} download>
                      images.json
                    </a>
                  </span>
                ) : (
                  "—"
                )}
              </td>
              <td>
                {r.user}
                <div className="muted" style={{ fontSize: ".8rem" }}>
                  {r.createdAt} UTC
                </div>
              </td>
              <td>
                {r.state === "queued" || r.state === "running" ? (
                  <Form method="post" action="/admin/evaluations">
                    <input type="hidden" name="intent" value="cancel" />
                    <input type="hidden" name="id" value={r.id} />
                    <button type="submit" className="p-button p-component p-button-outlined p-button-danger p-button-sm" data-testid="cancel-run">
                      {t("runs.cancel")}
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
