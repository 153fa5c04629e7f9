// /admin/manage_server — compute servers (models/Server.ts): list with online state, last login,
// total memory and GPU processes; create and delete entries. Create and delete redirect back here,
// so the list reloads after both, even on failure. Deleting asks first: the delete buttons open
// ?confirm=delete&server_ids=… (a GET), which shows the question as a PrimeReact ConfirmDialog with
// JavaScript and as a page section without it; only its Delete button posts the deletion
// (confirmed=1).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { Dialog } from "primereact/dialog";
import { ConfirmDeletion } from "~/components/DeleteConfirmDialog.tsx";
import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { useRef } from "react";
import { requireAdmin } from "~/.server/session.server.ts";
import { createServer, deleteServers, listServers, onlineThresholdMs } from "~/.server/servers.server.ts";
import { SERVER_MSG, SERVER_NAME_MAX, newServerSchema, parseServerIds, type ServerFormErrors } from "~/lib/rules/servers.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { useHydrated } from "~/lib/useHydrated.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { ServerTable } from "~/components/ServerTable.tsx";
import { checkFormData } from "~/.server/forms.server.ts";
import { useTranslation } from "react-i18next";
import { pageTitle } from "~/lib/pageTitle.ts";

export const handle = { i18n: "admin" };

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "admin:tabs.servers");

const NOTICES = {
  created: { kind: "success", text: SERVER_MSG.created },
  "create-failed": { kind: "error", text: SERVER_MSG.createFailed },
  deleted: { kind: "success", text: SERVER_MSG.deleted },
  "delete-failed": { kind: "error", text: SERVER_MSG.deleteFailed },
} as const;

/** The ids a delete button names: its own row (`only`), or the ticked rows (`server_ids`). */
const namedIds = (values: { get(name: string): unknown; getAll(name: string): unknown[] }) => {
  const only = values.get("only");
  return parseServerIds(only !== null && only !== undefined ? [only] : values.getAll("server_ids"));
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const msg = url.searchParams.get("msg");
  let servers: Awaited<ReturnType<typeof listServers>> = [];
  let loadFailed = false;
  try {
    servers = await listServers();
  } catch {
    // A failed list load leaves an empty list (docs/product.md "Administration and servers").
    loadFailed = true;
  }
  // The confirmation step of a deletion: the listed servers it names.
  let confirm: { ids: number[]; names: string[] } | null = null;
  let notice: { kind: "success" | "error" | "warn"; text: string } | null = msg && msg in NOTICES ? NOTICES[msg as keyof typeof NOTICES] : null;
  if (url.searchParams.get("confirm") === "delete") {
    const ids = namedIds(url.searchParams);
    const named = ids ? servers.filter((s) => ids.includes(s.id)) : [];
    if (ids && !ids.length) notice = { kind: "warn", text: SERVER_MSG.selectServers };
    else if (!named.length) notice = { kind: "error", text: SERVER_MSG.deleteFailed };
    else confirm = { ids: named.map((s) => s.id), names: named.map((s) => s.username) };
  }
  return {
    servers,
    loadFailed,
    thresholdSeconds: Math.round(onlineThresholdMs() / 1000),
    notice,
    confirm,
  };
}

type ActionResult = { errors: ServerFormErrors };

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const form = checkFormData(await request.formData());
  const intent = String(form.get("intent") ?? "");
  if (intent === "create") {
    const parsed = parseForm(form, newServerSchema);
    if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors }, { status: 400 });
    const r = await createServer(parsed.value);
    if (r.ok) return redirect("/admin/manage_server?msg=created");
    // Field errors keep the form open with what was typed; any other failure reloads the list.
    if (Object.keys(r.errors).length) return data<ActionResult>({ errors: r.errors }, { status: 400 });
    return redirect("/admin/manage_server?msg=create-failed");
  }
  if (intent === "delete") {
    // One row's button sends only=<id>; "Delete selected" sends the ticked server_ids.
    const ids = namedIds(form);
    // Nothing is deleted without the confirmation step's own button.
    if (form.get("confirmed") !== "1") {
      const ask = new URLSearchParams({ confirm: "delete" });
      for (const id of ids ?? []) ask.append("server_ids", String(id));
      return redirect(`/admin/manage_server?${ask}`);
    }
    const ok = Boolean(ids?.length) && (await deleteServers(ids!));
    return redirect(`/admin/manage_server?msg=${ok ? "deleted" : "delete-failed"}`);
  }
  return data<ActionResult>({ errors: {} }, { status: 400 });
}

export default function ManageServer() {
  const { servers, loadFailed, thresholdSeconds, notice, confirm } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "GET" && navigation.location.search.includes("confirm=delete");
  const open = Boolean(result?.errors && Object.keys(result.errors).length) || params.get("dialog") === "create";
  const { t } = useTranslation("admin");
  return (
    <section className="card">
      <div style={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: "1rem" }}>
        <h2 style={{ margin: 0 }}>{t("servers.title")}</h2>
        <Link to="?dialog=create" className="p-button p-component" preventScrollReset data-testid="new-server">
          <i className="pi pi-plus" style={{ marginRight: ".5rem" }} /> {t("servers.new")}
        </Link>
      </div>
      <p className="muted">{t("servers.lead", { seconds: thresholdSeconds })}</p>
      {/* The last step's notice; an answer to the create form replaces it. */}
      {notice && !result ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      {loadFailed ? <Notice kind="error">{t("servers.loadFailed")}</Notice> : null}
      {confirm ? <ConfirmServerDeletion confirm={confirm} /> : null}
      {/* A GET: the buttons ask for the confirmation step, they do not delete. */}
      <Form method="get" action="/admin/manage_server" aria-label={t("servers.title")} preventScrollReset>
        <input type="hidden" name="confirm" value="delete" />
        <ServerTable servers={servers} selected={confirm?.ids} />
        {servers.length ? (
          <Button type="submit" label={t("servers.deleteSelected")} severity="danger" outlined loading={busy} style={{ marginTop: "1rem" }} />
        ) : null}
      </Form>
      <CreateDialog open={open}>
        <CreateForm errors={result?.errors} />
      </CreateDialog>
    </section>
  );
}

/** A PrimeReact dialog once hydrated; without JavaScript the same form renders inline. */
function CreateDialog({ open, children }: { open: boolean; children: React.ReactNode }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const { t } = useTranslation("admin");
  if (!open) return null;
  if (!hydrated)
    return (
      <div className="card" style={{ marginTop: "1.5rem" }}>
        <h2>{t("servers.new")}</h2>
        {children}
        <a href="/admin/manage_server">{t("close")}</a>
      </div>
    );
  return (
    <Dialog
      header={t("servers.new")}
      visible
      onHide={() => navigate("/admin/manage_server", { replace: true, preventScrollReset: true })}
      style={{ width: "min(480px, 95vw)" }}
    >
      {children}
    </Dialog>
  );
}

function CreateForm({ errors }: { errors?: ServerFormErrors }) {
  const busy = useNavigation().state === "submitting";
  const pwd = useRef<HTMLInputElement>(null);
  const { t } = useTranslation("admin");
  return (
    <Form method="post" action="/admin/manage_server" aria-label={t("servers.new")}>
      <input type="hidden" name="intent" value="create" />
      <div className="field">
        <label htmlFor="server-username">{t("servers.name")}</label>
        <InputText id="server-username" name="username" autoComplete="off" maxLength={SERVER_NAME_MAX} aria-describedby="username-error" />
        <FieldError id="username-error" message={errors?.username} />
      </div>
      <div className="field">
        <label htmlFor="server-password">{t("servers.password")}</label>
        <InputText id="server-password" name="password" type="password" autoComplete="new-password" ref={pwd} aria-describedby="password-error" />
        <FieldError id="password-error" message={errors?.password} />
      </div>
      <div className="field">
        <label htmlFor="server-password2">{t("servers.password2")}</label>
        <InputText id="server-password2" name="password2" type="password" autoComplete="new-password" aria-describedby="password2-error" />
        <FieldError id="password2-error" message={errors?.password2} />
      </div>
      <Button type="submit" label={t("servers.create")} loading={busy} />
    </Form>
  );
}

type ConfirmDelete = { ids: number[]; names: string[] };

/** The deletion itself: posts the confirmed ids. */
function DeleteQuestion({ confirm }: { confirm: ConfirmDelete }) {
  const { t } = useTranslation("admin");
  return (
    <>
      <strong>{t("servers.deleteQuestion", { names: confirm.names.join(", ") })}</strong> {t("servers.deleteWarning")}
    </>
  );
}

/** The question before servers are deleted (components/DeleteConfirmDialog.tsx: in the page without JavaScript, a dialog with it). */
function ConfirmServerDeletion({ confirm }: { confirm: ConfirmDelete }) {
  const { t } = useTranslation("admin");
  return (
    <ConfirmDeletion
      header={t("servers.confirmTitle")}
      question={<DeleteQuestion confirm={confirm} />}
      acceptLabel={t("servers.confirmDelete")}
      rejectLabel={t("servers.cancel")}
      action="/admin/manage_server"
      fields={confirm.ids.map((id) => ["server_ids", String(id)])}
      backTo="/admin/manage_server"
    />
  );
}
