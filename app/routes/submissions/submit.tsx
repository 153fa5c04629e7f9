// SUBMISSION (signed-in): three steps (name, MoRF, LeRF) → "Get your current scores and meta-rank"
// → the two boards → optional .py, email, information → "Submit your algorithm". Without
// JavaScript: one multipart form scores (name + both files), one submits; the scored files wait
// server-side in the user's draft. With JavaScript each box uploads on its own (fetcher) and every
// message is also a toast (6 s).
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useFetcher, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { InputTextarea } from "primereact/inputtextarea";
import { Toast } from "primereact/toast";
import metarankHref from "~/styles/metarank.css?url";
// Brings the AppLoadContext typing (context.uploads, filled by multer in server.ts).
import type {} from "~/.server/context.server.ts";
import { requireUser } from "~/.server/session.server.ts";
import { chooseSuite, listSuites, pageHolding, pageParam, paginate } from "~/.server/board.server.ts";
import { draftView, submissionQuota, findSuite, scoreDraft, submitDraft, uploadPythonFile, uploadResultFile } from "~/.server/submissions.server.ts";
import { filesOf, readSubmissionForm, uploadLimitMessage } from "~/.server/submissionFiles.server.ts";
import { RankTable } from "~/components/RankTable.tsx";
import { VerifiedEvaluation } from "~/components/VerifiedEvaluation.tsx";
import { latestMapsRun, startMapsRun } from "~/.server/mapsRuns.server.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { useHydrated } from "~/lib/useHydrated.ts";
import { Trans, useTranslation } from "react-i18next";
import { i18nServer, requestLanguage } from "~/.server/i18n.server.ts";
import { translateMessage } from "~/lib/forms/messages.ts";
import { EMAIL_MAX, INFO_MAX, MAX_UPLOAD_BYTES, MSG } from "~/lib/rules/submission.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];
export const handle = { i18n: "submission" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Submission"} — Meta-Rank` }];

const TOAST_LIFE = 6000;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const suites = await listSuites(await requestLanguage(request));
  const suite = chooseSuite(suites, url.searchParams.get("suite"));
  const title = (await i18nServer.getFixedT(request, "submission"))("page.title");
  if (!suite) return { title, suite: null, suites: [], draft: null, quota: null, boards: null, flash: null, mapsRun: null };
  const [draft, quota, mapsRun] = await Promise.all([draftView(user.id, suite.id), submissionQuota(user.id), latestMapsRun(user.id, suite.id)]);
  // The current board opens on the page that holds the researcher's own row (a walk found it on
  // page 2, unseen); a page asked for in the address wins.
  const boards = draft.result
    ? {
        original: paginate(draft.result.original, pageParam(url, "origPage")),
        current: paginate(draft.result.current, pageHolding(url, "curPage", draft.result.current, "candidate")),
      }
    : null;
  const submitted = url.searchParams.get("submitted") === "1";
  return {
    title,
    suite: {
      id: suite.id,
      name: suite.name,
      tasks: suite.tasks,
      grid: suite.grid,
      splitImages: suite.splitImages,
      acceptsSelfReported: suite.acceptsSelfReported,
    },
    mapsRun,
    suites: suites.map((s) => ({ id: s.id, name: s.name })),
    draft,
    quota,
    boards,
    flash: submitted
      ? { submitted: MSG.submitted, python: url.searchParams.get("py") === "1" ? MSG.withPython : MSG.noPython, withPython: url.searchParams.get("py") === "1" }
      : null,
  };
}

export type SubmissionActionResult = {
  intent: string;
  ok: boolean;
  message?: string;
  warning?: string;
  errors?: Record<string, string>;
  fileErrors?: string[];
};

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const form = await readSubmissionForm(request, context.uploads);
  const intent = form.fields.intent ?? url.searchParams.get("intent") ?? "";
  const reply = (r: SubmissionActionResult, status = r.ok ? 200 : 400) => data<SubmissionActionResult>(r, { status });
  const suite = await findSuite(form.fields.suite ?? url.searchParams.get("suite") ?? "");
  if (!suite) return reply({ intent, ok: false, message: MSG.unknownSuite }, 404);
  if (form.error) {
    const field = form.error.field === "file" ? (intent === "upload-python" ? "python" : intent.replace("upload-", "")) : (form.error.field ?? "form");
    const message = uploadLimitMessage({ ...form.error, field });
    return reply({ intent, ok: false, message, errors: { [field]: message } }, 413);
  }
  const back = (extra: Record<string, string>) => `/submission?${new URLSearchParams({ suite: suite.id, ...extra })}`;

  if (intent === "upload-maps") {
    // Streamed to disk by the multipart middleware (the maps' own limits, read from ?intent=).
    const file = filesOf(form, "maps")[0];
    const r = await startMapsRun(
      user,
      suite,
      file?.path ? { path: file.path, originalName: file.originalName, size: file.size } : null,
      form.fields.method ?? "",
    );
    if (r.ok) return redirect(back({ maps: String(r.id) }) + "#verified");
    const field = r.message.startsWith("submission:maps.") ? "maps" : "method";
    return reply({ intent, ok: false, message: r.message, errors: { [field]: r.message }, fileErrors: r.errors }, r.status);
  }

  if (intent === "upload-morf" || intent === "upload-lerf") {
    const protocol = intent === "upload-morf" ? "morf" : "lerf";
    const r = await uploadResultFile(user.id, suite, protocol, filesOf(form, "file"));
    return r.ok
      ? reply({ intent, ok: true, message: r.message, warning: r.warning })
      : reply({ intent, ok: false, message: r.message, errors: { [protocol]: r.message }, fileErrors: r.errors });
  }
  if (intent === "upload-python") {
    const r = await uploadPythonFile(user.id, suite, filesOf(form, "file"));
    return r.ok ? reply({ intent, ok: true, message: r.message }) : reply({ intent, ok: false, message: r.message, errors: { python: r.message } });
  }
  if (intent === "score") {
    const r = await scoreDraft(user, suite, { algorithm: form.fields.algorithm ?? "", morf: filesOf(form, "morf"), lerf: filesOf(form, "lerf") });
    if (r.ok) return redirect(back({ scored: "1" }) + "#results");
    return reply({ intent, ok: false, message: r.message, errors: r.errors, fileErrors: r.fileErrors }, r.message ? 503 : 400);
  }
  if (intent === "submit") {
    const r = await submitDraft(user, suite, {
      algorithm: form.fields.algorithm ?? "",
      email: form.fields.email ?? "",
      info: form.fields.info ?? "",
      python: filesOf(form, "python"),
    });
    if (r.ok) return redirect(back({ submitted: "1", py: r.withPython ? "1" : "0" }));
    return reply({ intent, ok: false, message: r.message, errors: r.errors, fileErrors: r.fileErrors }, r.message ? 409 : 400);
  }
  return reply({ intent, ok: false, message: MSG.unknownAction });
}

/** Every message of a result, as toasts (JS only; the same words are rendered in the page). */
function useResultToasts(toast: React.RefObject<Toast>, result: SubmissionActionResult | undefined) {
  const { t } = useTranslation("submission");
  useEffect(() => {
    if (!result || !toast.current) return;
    if (result.ok) {
      toast.current.show({ severity: "success", summary: translateMessage(t, result.message), life: TOAST_LIFE });
      if (result.warning) toast.current.show({ severity: "warn", summary: translateMessage(t, result.warning), life: TOAST_LIFE });
      return;
    }
    // The maps form lists its problems in place, under its own heading and fields: a toast of the
    // same lines covered that list (a new-user walk saw one problem four times).
    if (result.intent === "upload-maps") return;
    const messages = [...new Set([...Object.values(result.errors ?? {}), ...(result.message ? [result.message] : [])])];
    for (const m of messages) toast.current.show({ severity: "error", summary: translateMessage(t, m), life: TOAST_LIFE });
    if (result.fileErrors?.length)
      toast.current.show({
        severity: "error",
        summary: t("page.fileProblemsToast"),
        detail: result.fileErrors
          .slice(0, 5)
          .map((e) => translateMessage(t, e))
          .join("\n"),
        life: TOAST_LIFE,
      });
  }, [result, toast, t]);
}

export default function SubmissionPage() {
  const { suite, suites, draft, quota, boards, flash, mapsRun } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as SubmissionActionResult | undefined;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const toast = useRef<Toast>(null);
  const [params] = useSearchParams();
  const { t } = useTranslation("submission");
  useResultToasts(toast, actionData);
  useEffect(() => {
    if (!flash || !toast.current) return;
    toast.current.show({ severity: "success", summary: translateMessage(t, flash.submitted), life: TOAST_LIFE });
    toast.current.show({ severity: flash.withPython ? "info" : "warn", summary: translateMessage(t, flash.python), life: TOAST_LIFE });
  }, [flash, t]);
  useEffect(() => {
    if (params.get("scored") === "1" && draft?.result && toast.current) {
      toast.current.show({
        severity: "success",
        summary: t("page.scoredToast", { score: draft.result.metascoreText, rank: draft.result.rank }),
        life: TOAST_LIFE,
      });
    }
    // Only on arrival from scoring.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params.get("scored")]);

  if (!suite || !draft) {
    return (
      <section className="card">
        <h1>{t("page.title")}</h1>
        <p>{t("page.noSuite")}</p>
      </section>
    );
  }
  const scoring = navigation.state !== "idle" && navigation.formData?.get("intent") === "score";
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === "submit";
  const errors = actionData?.errors ?? {};
  const scoreResult = actionData?.intent === "score" ? actionData : undefined;
  const submitResult = actionData?.intent === "submit" ? actionData : undefined;

  return (
    <section className="card">
      <Toast ref={toast} position="bottom-right" />
      <h1>{t("page.heading")}</h1>
      {suites.length > 1 ? (
        <nav className="tabs" aria-label={t("page.suites")}>
          {suites.map((s) => (
            <a key={s.id} href={`?suite=${encodeURIComponent(s.id)}`} className={"tab" + (s.id === suite.id ? " active" : "")}>
              {s.name}
            </a>
          ))}
        </nav>
      ) : null}
      {quota ? (
        <Notice kind={quota.left > 0 ? "info" : "warn"}>
          <span data-testid="quota">{t(quota.left > 0 ? "page.quota" : "page.quotaUsed", { left: quota.left, limit: quota.limit })}</span>
        </Notice>
      ) : null}
      {actionData && !actionData.ok && actionData.message && !scoreResult && !submitResult && actionData.intent !== "upload-maps" ? (
        // An upload sent on its own (a fetcher with JavaScript, or a crafted request) that failed.
        <Notice kind="error">{actionData.message}</Notice>
      ) : null}
      {submitResult && !submitResult.ok && !(draft.result && boards) ? (
        // A submission sent before scoring: the submit form is not on the page, so its messages are shown here.
        <Notice kind="error">
          {[submitResult.message, ...Object.values(submitResult.errors ?? {})]
            .filter((m): m is string => Boolean(m))
            .map((m) => translateMessage(t, m))
            .join(" ")}
        </Notice>
      ) : null}
      {flash ? (
        <>
          <Notice kind="success">{flash.submitted}</Notice>
          <Notice kind={flash.withPython ? "info" : "warn"}>{flash.python}</Notice>
        </>
      ) : null}

      <VerifiedEvaluation
        suite={suite}
        run={mapsRun}
        draftRunId={draft.verifiedRunId}
        algorithm={draft.algorithm}
        scored={Boolean(draft.result)}
        result={actionData?.intent === "upload-maps" ? actionData : undefined}
      />

      <h2 id="self-reported">{t("page.selfReportedHeading")}</h2>
      <p className="muted">
        <Trans
          t={t}
          i18nKey="page.suiteHelp"
          values={{ name: suite.name, header: `task,${suite.grid.join(",")}`, tasks: suite.tasks.join(", ") }}
          components={{ b: <strong />, c: <code /> }}
        />
      </p>
      {!suite.acceptsSelfReported ? <Notice kind="warn">{MSG.verifiedOnly}</Notice> : null}
      {draft.verifiedRunId ? (
        <Notice kind="info">
          <span data-testid="draft-verified">{t("page.draftVerified", { id: draft.verifiedRunId })}</span>
        </Notice>
      ) : null}
      {/* Explicit actions: after a maps upload the page's own URL carries ?intent=upload-maps. */}
      <ScoreForm suite={suite} draft={draft} result={scoreResult} errors={errors} scoring={scoring} hydrated={hydrated} toast={toast} />

      {draft.result && boards ? (
        <div id="results" data-testid="results">
          <h2>{t("page.yourScores")}</h2>
          <p data-testid="candidate-score">
            <Trans
              t={t}
              i18nKey="page.candidateScore"
              values={{ name: draft.result.algorithm, score: draft.result.metascoreText, rank: draft.result.rank, total: draft.result.current.length }}
              components={{ b: <strong /> }}
            />
          </p>
          <div className="boards-2">
            <RankTable title={t("page.originalBoard")} page={boards.original} param="origPage" testId="board-original" emptyMessage={t("page.emptyOriginal")} />
            <RankTable title={t("page.currentBoard")} page={boards.current} param="curPage" testId="board-current" highlightId="candidate" />
          </div>

          <SubmitForm suite={suite} draft={draft} result={submitResult} submitting={submitting} hydrated={hydrated} toast={toast} />
        </div>
      ) : null}
    </section>
  );
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;
/** What a step of the page's forms shows: the suite, the visitor's draft, and the page's toasts. */
interface FormProps {
  suite: NonNullable<Loaded["suite"]>;
  draft: NonNullable<Loaded["draft"]>;
  hydrated: boolean;
  toast: React.RefObject<Toast>;
}

/** "Get your current scores": the method's name and its two result files (steps 1 to 3). */
function ScoreForm({
  suite,
  draft,
  result,
  errors,
  scoring,
  hydrated,
  toast,
}: FormProps & { result?: SubmissionActionResult; errors: NonNullable<SubmissionActionResult["errors"]>; scoring: boolean }) {
  const { t } = useTranslation("submission");
  return (
    <SuiteForm suite={suite} intent="score" label={t("page.scoreForm")}>
      {result?.message ? <Notice kind="error">{result.message}</Notice> : null}
      <div className="steps">
        <div className="step">
          <h3>{t("page.step1")}</h3>
          <label htmlFor="algorithm">{t("page.algorithmLabel")}</label>
          <InputText
            // Keyed by the stored name: after a submit (draft emptied) the field starts empty
            // again instead of keeping what was typed, as an uncontrolled input would.
            key={draft.algorithm}
            id="algorithm"
            name="algorithm"
            defaultValue={draft.algorithm}
            maxLength={200}
            style={{ width: "100%" }}
            aria-describedby="algorithm-error"
          />
          <FieldError id="algorithm-error" message={errors.algorithm} />
        </div>
        <ResultFileStep
          protocol="morf"
          title={t("page.step2")}
          suiteId={suite.id}
          current={draft.morfName}
          hydrated={hydrated}
          toast={toast}
          error={result ? errors.morf : undefined}
        />
        <ResultFileStep
          protocol="lerf"
          title={t("page.step3")}
          suiteId={suite.id}
          current={draft.lerfName}
          hydrated={hydrated}
          toast={toast}
          error={result ? errors.lerf : undefined}
        />
      </div>
      <FileErrors errors={result?.fileErrors} />
      <div style={{ marginTop: "1rem" }}>
        <Button type="submit" label={t("page.scoreButton")} icon="pi pi-chart-bar" loading={scoring} />
      </div>
    </SuiteForm>
  );
}

/** A form of this page: posted (multipart, for the files) to the suite's submission page with its intent. */
function SuiteForm({ suite, intent, label, children }: { suite: { id: string }; intent: string; label: string; children: ReactNode }) {
  return (
    <Form method="post" action={`/submission?suite=${encodeURIComponent(suite.id)}`} encType="multipart/form-data" aria-label={label} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="suite" value={suite.id} />
      {children}
    </Form>
  );
}
/** "Submit your algorithm", once scored: the optional Python file, email and information. */
function SubmitForm({ suite, draft, result, submitting, hydrated, toast }: FormProps & { result?: SubmissionActionResult; submitting: boolean }) {
  const { t } = useTranslation("submission");
  return (
    <SuiteForm suite={suite} intent="submit" label={t("page.submitForm")}>
      <input type="hidden" name="algorithm" value={draft.algorithm} />
      <h2>{t("page.submitForm")}</h2>
      {result?.message ? <Notice kind="error">{result.message}</Notice> : null}
      <FileErrors errors={result?.fileErrors} />
      {result?.errors?.morf || result?.errors?.lerf || result?.errors?.algorithm ? (
        <Notice kind="error">
          {[result.errors.algorithm, result.errors.morf, result.errors.lerf]
            .filter(Boolean)
            .map((m) => translateMessage(t, m))
            .join(" ")}
        </Notice>
      ) : null}
      <PythonStep suiteId={suite.id} current={draft.pythonName} hydrated={hydrated} toast={toast} error={result?.errors?.python} />
      <div className="field">
        {/* Both are required (their messages say so after Submit: docs/product.md "Submission, history and approval"); the labels say it before. */}
        <label htmlFor="email">
          {t("page.email")} <span className="muted">{t("page.requiredHint")}</span>
        </label>
        <InputText id="email" name="email" type="email" maxLength={EMAIL_MAX} aria-required="true" aria-describedby="email-error" />
        <FieldError id="email-error" message={result?.errors?.email} />
      </div>
      <div className="field">
        <label htmlFor="info">
          {t("page.info")} <span className="muted">{t("page.requiredHint")}</span>
        </label>
        <InputTextarea id="info" name="info" rows={5} maxLength={INFO_MAX} aria-required="true" aria-describedby="info-error" />
        <FieldError id="info-error" message={result?.errors?.info} />
      </div>
      <Button type="submit" label={t("page.submitButton")} icon="pi pi-send" loading={submitting} />
    </SuiteForm>
  );
}

function FileErrors({ errors }: { errors?: string[] }) {
  const { t } = useTranslation("submission");
  if (!errors || errors.length === 0) return null;
  return (
    <div className="notice notice-error" role="alert" data-testid="csv-errors">
      {t("page.fileProblems")}
      <ul className="csv-errors">
        {errors.map((e, i) => (
          <li key={i}>{translateMessage(t, e)}</li>
        ))}
      </ul>
    </div>
  );
}

/** The upload boxes' checks (docs/product.md "Submission, history and approval"), before a byte is sent (the server repeats them). */
function precheck(file: File, kind: "csv" | "python"): string | undefined {
  if (kind === "csv") {
    if (!/\.csv$/i.test(file.name) && file.type !== "text/csv") return MSG.csvType;
    if (file.size > MAX_UPLOAD_BYTES) return MSG.csvSize;
  } else {
    if (!/\.py$/i.test(file.name)) return MSG.pyType;
    if (file.size > MAX_UPLOAD_BYTES) return MSG.pySize;
  }
  return undefined;
}

/**
 * One upload box. Without JavaScript it is a file input of the surrounding form; with it,
 * choosing a file uploads it at once through a fetcher and toasts the outcome.
 */
function UploadBox({
  intent,
  field,
  accept,
  kind,
  suiteId,
  hydrated,
  toast,
  label,
}: {
  intent: string;
  field: string;
  accept: string;
  kind: "csv" | "python";
  suiteId: string;
  hydrated: boolean;
  toast: React.RefObject<Toast>;
  label: string;
}) {
  const fetcher = useFetcher<SubmissionActionResult>({ key: intent });
  const { t } = useTranslation("submission");
  const input = useRef<HTMLInputElement>(null);
  // A file refused before sending stays named under the box, not only in a toast that fades:
  // otherwise the submission goes on without it and the page says nothing more.
  const [refused, setRefused] = useState<string | undefined>();
  useResultToasts(toast, fetcher.data);
  const busy = fetcher.state !== "idle";
  if (!hydrated) return <input type="file" name={field} accept={accept} aria-label={label} />;
  return (
    <div>
      <input
        ref={input}
        type="file"
        accept={accept}
        aria-label={label}
        data-testid={`upload-${field}`}
        disabled={busy}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (!file) return;
          const problem = precheck(file, kind);
          setRefused(problem);
          if (problem) {
            toast.current?.show({ severity: "error", summary: translateMessage(t, problem), life: TOAST_LIFE });
            e.currentTarget.value = "";
            return;
          }
          const body = new FormData();
          body.set("intent", intent);
          body.set("suite", suiteId);
          body.set("file", file);
          fetcher.submit(body, { method: "post", encType: "multipart/form-data", action: `/submission?suite=${encodeURIComponent(suiteId)}` });
          e.currentTarget.value = "";
        }}
      />
      {busy ? <i className="pi pi-spin pi-spinner" aria-label={t("page.uploading")} /> : null}
      {refused ? <FieldError id={`${field}-refused`} message={refused} /> : null}
      {!refused && fetcher.data && !fetcher.data.ok ? (
        <>
          <FieldError id={`${field}-upload-error`} message={fetcher.data.message} />
          <FileErrors errors={fetcher.data.fileErrors} />
        </>
      ) : null}
    </div>
  );
}

function ResultFileStep(props: {
  protocol: "morf" | "lerf";
  title: string;
  suiteId: string;
  current: string | null;
  hydrated: boolean;
  toast: React.RefObject<Toast>;
  error?: string;
}) {
  const name = props.protocol === "morf" ? "MoRF" : "LeRF";
  const { t } = useTranslation("submission");
  return (
    <div className="step">
      <h3>{props.title}</h3>
      <UploadBox
        intent={`upload-${props.protocol}`}
        field={props.protocol}
        accept=".csv,text/csv"
        kind="csv"
        suiteId={props.suiteId}
        hydrated={props.hydrated}
        toast={props.toast}
        label={t("page.resultFile", { name })}
      />
      {props.current ? (
        <div className="file-state" data-testid={`${props.protocol}-state`}>
          <i className="pi pi-check-circle" /> {t(props.hydrated ? "page.uploaded" : "page.uploadedReplace", { name: props.current })}
        </div>
      ) : null}
      {/* "Please upload your … result!" is about a file that was missing: once one is uploaded
          (the draft names it) the message is stale, though the scoring answer that carried it stays. */}
      <FieldError id={`${props.protocol}-error`} message={props.current && props.error === MISSING[props.protocol] ? undefined : props.error} />
    </div>
  );
}

/** The messages of a result file that is not there (rules/submission.ts). */
const MISSING = { morf: MSG.morfRequired, lerf: MSG.lerfRequired } as const;

function PythonStep(props: { suiteId: string; current: string | null; hydrated: boolean; toast: React.RefObject<Toast>; error?: string }) {
  const { t } = useTranslation("submission");
  return (
    <div className="field">
      {/* The upload box labels its own input; this is the field's caption. */}
      <span className="field-label">{t("page.pythonLabel")}</span>
      <UploadBox
        intent="upload-python"
        field="python"
        accept=".py"
        kind="python"
        suiteId={props.suiteId}
        hydrated={props.hydrated}
        toast={props.toast}
        label={t("page.pythonButton")}
      />
      {props.current ? (
        <div className="file-state" data-testid="python-state">
          <i className="pi pi-check-circle" /> {t("page.uploaded", { name: props.current })}
        </div>
      ) : null}
      <FieldError id="python-error" message={props.error} />
    </div>
  );
}
