// /admin/manage_server — compute servers (seed 000 §2 screen 8, §3 Server, §5, §8): list with
// online state, last login, total memory and GPU processes; create and delete entries.
// Create and delete redirect back here, so the list reloads after both, even on failure.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { Dialog } from "primereact/dialog";
import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { useRef } from "react";
import { requireAdmin } from "~/.server/session.server.ts";
import { SERVER_MSG, createServer, deleteServers, listServers, onlineThresholdMs, type ServerFormErrors } from "~/.server/servers.server.ts";
import { useHydrated } from "~/lib/useHydrated.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { ServerTable } from "~/components/ServerTable.tsx";
import { checkFormData } from "~/.server/forms.server.ts";
import { useTranslation } from "react-i18next";

export const handle = { i18n: "admin" };

export const meta: MetaFunction = () => [{ title: "Server management — Meta-Rank" }];

const NOTICES = {
  created: { kind: "success", text: SERVER_MSG.created },
  "create-failed": { kind: "error", text: SERVER_MSG.createFailed },
  deleted: { kind: "success", text: SERVER_MSG.deleted },
  "delete-failed": { kind: "error", text: SERVER_MSG.deleteFailed },
} as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const msg = new URL(request.url).searchParams.get("msg");
  let servers: Awaited<ReturnType<typeof listServers>> = [];
  let loadFailed = false;
  try {
    servers = await listServers();
  } catch {
    // Seed: a failed list load leaves an empty list.
    loadFailed = true;
  }
  return {
    servers,
    loadFailed,
    thresholdSeconds: Math.round(onlineThresholdMs() / 1000),
    notice: msg && msg in NOTICES ? NOTICES[msg as keyof typeof NOTICES] : null,
  };
}

type ActionResult = { errors: ServerFormErrors };

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const form = checkFormData(await request.formData());
  const intent = String(form.get("intent") ?? "");
  if (intent === "create") {
    const input = {
      username: String(form.get("username") ?? ""),
      password: String(form.get("password") ?? ""),
      password2: String(form.get("password2") ?? ""),
    };
    const r = await createServer(input);
    if (r.ok) return redirect("/admin/manage_server?msg=created");
    // Field errors keep the form open with what was typed; any other failure reloads the list.
    if (Object.keys(r.errors).length) return data<ActionResult>({ errors: r.errors }, { status: 400 });
    return redirect("/admin/manage_server?msg=create-failed");
  }
  if (intent === "delete") {
    // One row's button sends only=<id>; "Delete selected" sends the ticked server_ids.
    const only = form.get("only");
    const raw = only !== null ? [only] : form.getAll("server_ids");
    const ids = raw.map((v) => Number(v));
    const ok = ids.length > 0 && (await deleteServers(ids));
    return redirect(`/admin/manage_server?msg=${ok ? "deleted" : "delete-failed"}`);
  }
  return data<ActionResult>({ errors: {} }, { status: 400 });
}

export default function ManageServer() {
  const { servers, loadFailed, thresholdSeconds, notice } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const [params] = useSearchParams();
  const busy = useNavigation().state === "submitting";
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
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      {loadFailed ? <Notice kind="error">{t("servers.loadFailed")}</Notice> : null}
      <Form method="post" action="/admin/manage_server" aria-label={t("servers.title")}>
        <input type="hidden" name="intent" value="delete" />
        <ServerTable servers={servers} />
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
        <InputText id="server-username" name="username" autoComplete="off" maxLength={200} aria-describedby="username-error" />
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
