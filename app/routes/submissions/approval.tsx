// APPROVAL (administrators; the server enforces it): every submission with its details and,
// for In Process rows, Approve / Reject behind a Cancel/Confirm step. With JavaScript the step
// is a dialog; without it, ?confirm=ID&decision=… renders the same question as a page section.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Button } from "primereact/button";
import { Column } from "primereact/column";
import { Dialog } from "primereact/dialog";
import { Toast } from "primereact/toast";
import metarankHref from "~/styles/metarank.css?url";
import { requireAdmin } from "~/.server/session.server.ts";
import { decideSubmission, historySortParams, listSubmissions, type Decision } from "~/.server/submissionReview.server.ts";
import { MSG } from "~/lib/rules/submission.ts";
import { ProvenanceBadge, SubmissionTable, StatusText, type SubmissionRow } from "~/components/SubmissionTable.tsx";
import { useHrefWith } from "~/components/RankTable.tsx";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { useHydrated } from "~/lib/useHydrated.ts";
import { checkFormData } from "~/.server/forms.server.ts";
import { useTranslation } from "react-i18next";
import { i18nServer, requestLanguage } from "~/.server/i18n.server.ts";
import { translateMessage } from "~/lib/forms/messages.ts";
import { SubmissionStatus } from "../../../lib/submissionStatus.ts";
import { DECISION_NOTE_MAX, decisionSchema, sentDecisionNote } from "~/lib/rules/submission.ts";
import { parseForm } from "~/lib/forms/parse.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];
export const handle = { i18n: "submission" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Submissions"} — Meta-Rank` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const { sort, dir } = historySortParams(url);
  const rows = await listSubmissions({}, sort, dir, await requestLanguage(request));
  const done = url.searchParams.get("done");
  const confirmId = Number(url.searchParams.get("confirm"));
  const decision = url.searchParams.get("decision");
  const pending = rows.find((r) => r.id === confirmId && r.status === SubmissionStatus.inProcess);
  const t = await i18nServer.getFixedT(request, "submission");
  return {
    title: t("approval.title"),
    rows,
    sort,
    dir,
    done: done === "approved" ? MSG.approved : done === "rejected" ? MSG.rejected : null,
    confirm:
      pending && (decision === "approve" || decision === "reject")
        ? { id: pending.id, decision: decision as Decision, algorithm: pending.algorithm, username: pending.username }
        : null,
  };
}

type DecisionResult = { ok: false; message: string; detail?: string; note?: { value: string; problem: string } };

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = checkFormData(await request.formData());
  const checked = parseForm(form, decisionSchema);
  if (!checked.ok) {
    const problem = checked.errors.note;
    if (!problem) return data<DecisionResult>({ ok: false, message: MSG.unknownDecision }, { status: 400 });
    // The question stays open with what was typed, and the field says what is wrong.
    const typed = sentDecisionNote(String(form.get("note") ?? ""));
    return data<DecisionResult>({ ok: false, message: problem, note: { value: typed.slice(0, 2 * DECISION_NOTE_MAX), problem } }, { status: 400 });
  }
  const { id, decision, note } = checked.value;
  const r = await decideSubmission(admin, id, decision, note);
  if (r.ok) return redirect(`/approval?done=${decision === "approve" ? "approved" : "rejected"}`);
  return data<DecisionResult>({ ok: false, message: r.message, detail: r.detail }, { status: 409 });
}

export default function Approval() {
  const { rows, sort, dir, done, confirm } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as DecisionResult | undefined;
  // A refused reason is said beside its field when the rejection's question is open; otherwise on top.
  const failure = result?.note && confirm?.decision === "reject" ? undefined : result;
  const hydrated = useHydrated();
  const toast = useRef<Toast>(null);
  const { t } = useTranslation("submission");
  useEffect(() => {
    if (done) toast.current?.show({ severity: "success", summary: translateMessage(t, done), life: 6000 });
  }, [done, t]);
  useEffect(() => {
    if (failure) toast.current?.show({ severity: "error", summary: translateMessage(t, failure.message), detail: failure.detail, life: 6000 });
  }, [failure, t]);

  const extra = [
    <Column key="details" header={t("approval.details")} body={(r: SubmissionRow) => <Details row={r} />} className="details-cell" />,
    <Column
      key="decisions"
      header={t("approval.decisions")}
      body={(r: SubmissionRow) => (r.status === SubmissionStatus.inProcess ? <DecisionButtons row={r} /> : <StatusText status={r.status} />)}
    />,
  ];
  return (
    <section className="card">
      <Toast ref={toast} position="bottom-right" />
      <h1>{t("approval.title")}</h1>
      {done ? <Notice kind="success">{done}</Notice> : null}
      {failure ? (
        <Notice kind="error">
          {translateMessage(t, failure.message)} {failure.detail}
        </Notice>
      ) : null}
      {confirm && !hydrated ? <ConfirmPanel confirm={confirm} /> : null}
      {confirm && hydrated ? <ConfirmDialog confirm={confirm} /> : null}
      <SubmissionTable rows={rows} sort={sort} dir={dir} extraColumns={extra} testId="approval-table" />
    </section>
  );
}

function Details({ row }: { row: SubmissionRow }) {
  const { t } = useTranslation("submission");
  const link = (kind: string, name: string | null) =>
    name ? (
      <a href={`/files/submission/${row.id}/${kind}`} download>
        {name}
      </a>
    ) : (
      <span>{t("approval.notProvided")}</span>
    );
  return (
    // Keyed by the status: a decided row's panel closes with the decision instead of staying open.
    <details key={row.status} data-testid={`details-${row.id}`}>
      <summary>{t("approval.details")}</summary>
      <dl>
        <dt>{t("approval.morfFile")}</dt>
        <dd>{link("morf", row.morfName)}</dd>
        <dt>{t("approval.lerfFile")}</dt>
        <dd>{link("lerf", row.lerfName)}</dd>
        <dt>{t("table.source")}</dt>
        <dd>
          <ProvenanceBadge provenance={row.provenance} />{" "}
          {row.provenance === "verified" ? (
            <>
              {t("approval.verifiedBy", { id: row.evaluationRunId })} {link("maps", t("approval.mapsFile"))}
            </>
          ) : (
            t("approval.selfReportedNote")
          )}
        </dd>
        <dt>{t("approval.pythonFile")}</dt>
        <dd>{link("python", row.pythonName)}</dd>
        <dt>{t("page.email")}</dt>
        <dd>{row.email}</dd>
        <dt>{t("page.info")}</dt>
        <dd style={{ whiteSpace: "pre-wrap" }}>{row.info}</dd>
      </dl>
    </details>
  );
}

/** Links to the confirmation step: a page section without JavaScript, a dialog with it. */
/** The two decisions, each a link to its confirmation: its button colour and its words. */
const DECISIONS = [
  ["approve", "success", "submission:approval.approve"],
  ["reject", "danger", "submission:approval.reject"],
] as const;

function DecisionButtons({ row }: { row: SubmissionRow }) {
  const hrefWith = useHrefWith();
  const { t } = useTranslation("submission");
  return (
    <div className="decision-buttons">
      {DECISIONS.map(([decision, severity, label]) => (
        <Link
          key={decision}
          to={hrefWith({ confirm: row.id, decision, done: null })}
          preventScrollReset
          className={`p-button p-button-${severity} p-button-sm`}
          data-testid={`${decision}-${row.id}`}
        >
          {t(label)}
        </Link>
      ))}
    </div>
  );
}

type Confirm = { id: number; decision: Decision; algorithm: string; username: string };

function DecisionForm({ confirm, onCancelHref }: { confirm: Confirm; onCancelHref: string }) {
  const busy = useNavigation().state !== "idle";
  const failure = useActionData<typeof action>() as DecisionResult | undefined;
  const { search } = useLocation();
  const { t } = useTranslation("submission");
  const noteId = `decision-note-${confirm.id}`;
  return (
    // Posted with the page's query, so a refused reason comes back to this same open question.
    <Form method="post" action={`/approval${search}`} className="decision-form" preventScrollReset>
      <input type="hidden" name="id" value={confirm.id} />
      <input type="hidden" name="decision" value={confirm.decision} />
      {confirm.decision === "reject" ? (
        <>
          <label htmlFor={noteId}>{t("approval.noteLabel", { max: DECISION_NOTE_MAX })}</label>
          <textarea
            id={noteId}
            name="note"
            rows={3}
            maxLength={DECISION_NOTE_MAX}
            defaultValue={failure?.note?.value ?? ""}
            aria-invalid={failure?.note ? true : undefined}
            aria-describedby={failure?.note ? `${noteId}-error` : undefined}
            data-testid="decision-note-field"
          />
          <FieldError id={`${noteId}-error`} message={failure?.note?.problem} />
        </>
      ) : null}
      <div className="decision-buttons">
        <Link to={onCancelHref} className="p-button p-button-text" preventScrollReset replace>
          {t("approval.cancel")}
        </Link>
        <Button
          type="submit"
          label={t("approval.confirm")}
          severity={confirm.decision === "approve" ? "success" : "danger"}
          loading={busy}
          data-testid="confirm-decision"
        />
      </div>
    </Form>
  );
}

function Question({ confirm: c }: { confirm: Confirm }) {
  const { t } = useTranslation("submission");
  return <>{t(c.decision === "approve" ? "approval.approveQuestion" : "approval.rejectQuestion", { algorithm: c.algorithm, user: c.username })}</>;
}

function ConfirmPanel({ confirm }: { confirm: Confirm }) {
  const hrefWith = useHrefWith();
  const { t } = useTranslation("submission");
  return (
    <div className="notice notice-warn" role="alertdialog" aria-label={t("approval.confirmDecision")}>
      <p>
        <strong>
          <Question confirm={confirm} />
        </strong>{" "}
        {t("approval.warning")}
      </p>
      <DecisionForm confirm={confirm} onCancelHref={hrefWith({ confirm: null, decision: null })} />
    </div>
  );
}

function ConfirmDialog({ confirm }: { confirm: Confirm }) {
  const hrefWith = useHrefWith();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const cancel = hrefWith({ confirm: null, decision: null });
  const { t } = useTranslation("submission");
  return (
    <Dialog
      header={t("approval.warningTitle")}
      visible
      onHide={() => navigate(cancel, { replace: true, preventScrollReset: true })}
      style={{ width: "min(440px, 95vw)" }}
      key={params.toString()}
    >
      <p>
        <i className="pi pi-exclamation-triangle" style={{ color: "#ea580c", marginRight: ".5rem" }} />
        <Question confirm={confirm} /> {t("approval.warning")}
      </p>
      <DecisionForm confirm={confirm} onCancelHref={cancel} />
    </Dialog>
  );
}
