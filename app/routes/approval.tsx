// APPROVAL (administrators; the server enforces it): every submission with its details and,
// for In Process rows, Approve / Reject behind a Cancel/Confirm step. With JavaScript the step
// is a dialog; without it, ?confirm=ID&decision=… renders the same question as a page section.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Button } from "primereact/button";
import { Column } from "primereact/column";
import { Dialog } from "primereact/dialog";
import { Toast } from "primereact/toast";
import metarankHref from "~/styles/metarank.css?url";
import { requireAdmin } from "~/.server/session.server.ts";
import { MSG, decideSubmission, historySortParams, listSubmissions, type Decision } from "~/.server/submissions.server.ts";
import { SubmissionTable, StatusText, type SubmissionRow } from "~/components/SubmissionTable.tsx";
import { useHrefWith } from "~/components/RankTable.tsx";
import { Notice } from "~/components/FieldError.tsx";
import { useHydrated } from "~/lib/useHydrated.ts";
import { checkFormData } from "~/.server/forms.server.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: metarankHref }];
export const meta: MetaFunction = () => [{ title: "Submissions — Meta-Rank" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const { sort, dir } = historySortParams(url);
  const rows = await listSubmissions({}, sort, dir);
  const done = url.searchParams.get("done");
  const confirmId = Number(url.searchParams.get("confirm"));
  const decision = url.searchParams.get("decision");
  const pending = rows.find((r) => r.id === confirmId && r.status === "In Process");
  return {
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

type DecisionResult = { ok: false; message: string; detail?: string };

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = checkFormData(await request.formData());
  const id = Number(form.get("id"));
  const decision = form.get("decision");
  if (!Number.isInteger(id) || id <= 0 || (decision !== "approve" && decision !== "reject")) {
    return data<DecisionResult>({ ok: false, message: "Unknown decision." }, { status: 400 });
  }
  const r = await decideSubmission(admin, id, decision);
  if (r.ok) return redirect(`/approval?done=${decision === "approve" ? "approved" : "rejected"}`);
  return data<DecisionResult>({ ok: false, message: r.message, detail: r.detail }, { status: 409 });
}

const WARNING = "This decision is irreversible. Are you sure?";

export default function Approval() {
  const { rows, sort, dir, done, confirm } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as DecisionResult | undefined;
  const hydrated = useHydrated();
  const toast = useRef<Toast>(null);
  useEffect(() => {
    if (done) toast.current?.show({ severity: "success", summary: done, life: 6000 });
  }, [done]);
  useEffect(() => {
    if (failure) toast.current?.show({ severity: "error", summary: failure.message, detail: failure.detail, life: 6000 });
  }, [failure]);

  const extra = [
    <Column key="details" header="Details" body={(r: SubmissionRow) => <Details row={r} />} className="details-cell" />,
    <Column
      key="decisions"
      header="Decisions"
      body={(r: SubmissionRow) => (r.status === "In Process" ? <DecisionButtons row={r} /> : <StatusText status={r.status} />)}
    />,
  ];
  return (
    <section className="card">
      <Toast ref={toast} position="top-right" />
      <h1>Submissions</h1>
      {done ? <Notice kind="success">{done}</Notice> : null}
      {failure ? (
        <Notice kind="error">
          {failure.message} {failure.detail}
        </Notice>
      ) : null}
      {confirm && !hydrated ? <ConfirmPanel confirm={confirm} /> : null}
      {confirm && hydrated ? <ConfirmDialog confirm={confirm} /> : null}
      <SubmissionTable rows={rows} sort={sort} dir={dir} extraColumns={extra} testId="approval-table" />
    </section>
  );
}

function Details({ row }: { row: SubmissionRow }) {
  const link = (kind: string, name: string | null) =>
    name ? (
      <a href={`/files/submission/${row.id}/${kind}`} download>
        {name}
      </a>
    ) : (
      <span>Not Provided</span>
    );
  return (
    <details data-testid={`details-${row.id}`}>
      <summary>Details</summary>
      <dl>
        <dt>MoRF file</dt>
        <dd>{link("morf", row.morfName)}</dd>
        <dt>LeRF file</dt>
        <dd>{link("lerf", row.lerfName)}</dd>
        <dt>Algorithm file</dt>
        <dd>{link("python", row.pythonName)}</dd>
        <dt>Email</dt>
        <dd>{row.email}</dd>
        <dt>Detailed information</dt>
        <dd style={{ whiteSpace: "pre-wrap" }}>{row.info}</dd>
      </dl>
    </details>
  );
}

/** Links to the confirmation step: a page section without JavaScript, a dialog with it. */
function DecisionButtons({ row }: { row: SubmissionRow }) {
  const hrefWith = useHrefWith();
  return (
    <div className="decision-buttons">
      <Link
        to={hrefWith({ confirm: row.id, decision: "approve", done: null })}
        preventScrollReset
        className="p-button p-button-success p-button-sm"
        data-testid={`approve-${row.id}`}
      >
        Approve
      </Link>
      <Link
        to={hrefWith({ confirm: row.id, decision: "reject", done: null })}
        preventScrollReset
        className="p-button p-button-danger p-button-sm"
        data-testid={`reject-${row.id}`}
      >
        Reject
      </Link>
    </div>
  );
}

type Confirm = { id: number; decision: Decision; algorithm: string; username: string };

function DecisionForm({ confirm, onCancelHref }: { confirm: Confirm; onCancelHref: string }) {
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" action="/approval" className="decision-buttons" preventScrollReset>
      <input type="hidden" name="id" value={confirm.id} />
      <input type="hidden" name="decision" value={confirm.decision} />
      <Link to={onCancelHref} className="p-button p-button-text" preventScrollReset replace>
        Cancel
      </Link>
      <Button type="submit" label="Confirm" severity={confirm.decision === "approve" ? "success" : "danger"} loading={busy} data-testid="confirm-decision" />
    </Form>
  );
}

const question = (c: Confirm) => `${c.decision === "approve" ? "Approve" : "Reject"} “${c.algorithm}” by ${c.username}?`;

function ConfirmPanel({ confirm }: { confirm: Confirm }) {
  const hrefWith = useHrefWith();
  return (
    <div className="notice notice-warn" role="alertdialog" aria-label="Confirm decision">
      <p>
        <strong>{question(confirm)}</strong> {WARNING}
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
  return (
    <Dialog
      header="Warning"
      visible
      onHide={() => navigate(cancel, { replace: true, preventScrollReset: true })}
      style={{ width: "min(440px, 95vw)" }}
      key={params.toString()}
    >
      <p>
        <i className="pi pi-exclamation-triangle" style={{ color: "#ea580c", marginRight: ".5rem" }} />
        {question(confirm)} {WARNING}
      </p>
      <DecisionForm confirm={confirm} onCancelHref={cancel} />
    </Dialog>
  );
}
