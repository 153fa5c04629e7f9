import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { Dialog } from "primereact/dialog";
import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { useRef } from "react";
import { requireUser, endOtherSessions } from "~/.server/session.server.ts";
import { changePassword, updateProfile } from "~/.server/profile.server.ts";
import { MSG, checkPhone, type FieldErrors } from "~/lib/rules/accounts.ts";
import { authorityLabel, checkNewPasswordConfirmation, passwordChangeSchema, profileEditSchema } from "~/lib/rules/profile.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { useBlurChecks } from "~/lib/useBlurChecks.ts";
import { useHydrated } from "~/lib/useHydrated.ts";
import { useTranslation } from "react-i18next";
import { i18nServer } from "~/.server/i18n.server.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { checkFormData } from "~/.server/forms.server.ts";

export const handle = { i18n: "account" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Your profile"} — Meta-Rank` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const t = await i18nServer.getFixedT(request, "account");
  return { title: t("profile.title"), user, modified: url.searchParams.get("msg") === "modified" };
}

type Result = { intent: "edit" | "password"; errors?: FieldErrors; notice?: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = checkFormData(await request.formData());
  const intent = String(form.get("intent") ?? "");
  if (intent === "edit") {
    const parsed = parseForm(form, profileEditSchema);
    if (!parsed.ok) return data<Result>({ intent, errors: parsed.errors }, { status: 400 });
    const r = await updateProfile(user.id, parsed.value, context.ip);
    if (!r.ok) return data<Result>({ intent, errors: r.errors }, { status: 400 });
    if (!r.changed) return data<Result>({ intent, notice: MSG.unchanged });
    return redirect("/profile?msg=modified");
  }
  if (intent === "password") {
    const parsed = parseForm(form, passwordChangeSchema);
    if (!parsed.ok) return data<Result>({ intent, errors: parsed.errors }, { status: 400 });
    const r = await changePassword(user.id, parsed.value, context.ip);
    if (!r.ok) return data<Result>({ intent, errors: r.errors }, { status: 400 });
    await endOtherSessions(user.id, request);
    return redirect("/profile?msg=modified");
  }
  return data<Result>({ intent: "edit", errors: { form: MSG.unknownAction } }, { status: 400 });
}

export default function Profile() {
  const { user, modified } = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  const result = useActionData<typeof action>() as Result | undefined;
  const [params] = useSearchParams();
  const open = result?.errors ? result.intent : params.get("dialog");
  return (
    <section className="card narrow">
      <h1>{t("profile.title")}</h1>
      {/* The last step's notice; an answer to a form on this page replaces it. */}
      {modified && !result ? <Notice kind="success">{MSG.modified}</Notice> : null}
      {result?.notice ? <Notice kind="info">{result.notice}</Notice> : null}
      <div style={{ display: "flex", gap: "1.5rem", alignItems: "center", marginBottom: "1.5rem" }}>
        <div className="avatar" aria-hidden>
          {user.username.slice(0, 1).toUpperCase()}
        </div>
        <dl className="profile-grid">
          <dt>{t("profile.username")}</dt>
          <dd data-testid="profile-username">{user.username}</dd>
          <dt>{t("profile.phone")}</dt>
          <dd data-testid="profile-phone">{user.telephone}</dd>
          <dt>{t("profile.institute")}</dt>
          <dd data-testid="profile-institute">{user.institute || "—"}</dd>
          <dt>{t("profile.authority")}</dt>
          <dd data-testid="profile-authority">{t(authorityLabel(user.authority))}</dd>
        </dl>
      </div>
      <div style={{ display: "flex", gap: ".75rem" }}>
        <Link to="?dialog=edit" className="p-button p-component" preventScrollReset>
          <i className="pi pi-pencil" style={{ marginRight: ".5rem" }} /> {t("profile.edit")}
        </Link>
        <Link to="?dialog=password" className="p-button p-button-outlined p-component" preventScrollReset>
          <i className="pi pi-lock" style={{ marginRight: ".5rem" }} /> {t("profile.changePassword")}
        </Link>
      </div>
      <ProfileDialog open={open === "edit"} title={t("profile.edit")}>
        <EditForm errors={result?.intent === "edit" ? result.errors : undefined} authority={user.authority} />
      </ProfileDialog>
      <ProfileDialog open={open === "password"} title={t("profile.changePassword")}>
        <PasswordForm errors={result?.intent === "password" ? result.errors : undefined} />
      </ProfileDialog>
    </section>
  );
}

/** A PrimeReact dialog once hydrated; without JavaScript the same form renders inline. Closing unmounts the form, which clears it. */
function ProfileDialog({ open, title, children }: { open: boolean; title: string; children: React.ReactNode }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const { t } = useTranslation("account");
  if (!open) return null;
  if (!hydrated)
    return (
      <div className="card" style={{ marginTop: "1.5rem" }}>
        <h2>{title}</h2>
        {children}
        <a href="/profile">{t("profile.close")}</a>
      </div>
    );
  return (
    <Dialog header={title} visible onHide={() => navigate("/profile", { replace: true, preventScrollReset: true })} style={{ width: "min(480px, 95vw)" }}>
      {children}
    </Dialog>
  );
}

function EditForm({ errors, authority }: { errors?: FieldErrors; authority: number }) {
  const busy = useNavigation().state === "submitting";
  const { errorOf, check } = useBlurChecks(errors);
  const { t } = useTranslation("account");
  return (
    <Form method="post" action="/profile" aria-label={t("profile.edit")}>
      <input type="hidden" name="intent" value="edit" />
      {errors?.form ? <Notice kind="error">{errors.form}</Notice> : null}
      <div className="field">
        <label htmlFor="telephone">{t("profile.phone")}</label>
        <InputText
          id="telephone"
          name="telephone"
          inputMode="numeric"
          placeholder={t("profile.phonePlaceholder")}
          onBlur={(e) => check("telephone", e.currentTarget.value ? checkPhone(e.currentTarget.value.trim()) : undefined)}
        />
        <FieldError id="telephone-error" message={errorOf("telephone")} />
      </div>
      <div className="field">
        <label htmlFor="identify">{t("profile.role")}</label>
        <select id="identify" name="identify" className="p-inputtext" defaultValue="">
          <option value="">{t("profile.keepRole", { role: t(authorityLabel(authority)) })}</option>
          <option value="0">{t("profile.roleUser")}</option>
          <option value="1">{t("profile.roleAdmin")}</option>
        </select>
        <FieldError id="identify-error" message={errorOf("identify")} />
      </div>
      <div className="field">
        <label htmlFor="adminCode">{t("profile.adminCode")}</label>
        <InputText id="adminCode" name="adminCode" type="password" autoComplete="off" />
        <FieldError id="adminCode-error" message={errorOf("adminCode")} />
      </div>
      <Button type="submit" label={t("profile.save")} loading={busy} />
    </Form>
  );
}

function PasswordForm({ errors }: { errors?: FieldErrors }) {
  const busy = useNavigation().state === "submitting";
  const { errorOf, check } = useBlurChecks(errors);
  const newRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const { t } = useTranslation("account");
  const checkConfirm = () => {
    const c = confirmRef.current?.value ?? "";
    check("confirmPassword", checkNewPasswordConfirmation(newRef.current?.value ?? "", c));
  };
  return (
    <Form method="post" action="/profile" aria-label={t("profile.changePassword")}>
      <input type="hidden" name="intent" value="password" />
      <div className="field">
        <label htmlFor="oldPassword">{t("profile.oldPassword")}</label>
        <InputText
          id="oldPassword"
          name="oldPassword"
          type="password"
          autoComplete="current-password"
          onBlur={(e) => check("oldPassword", e.currentTarget.value ? undefined : MSG.pwdRequired)}
        />
        <FieldError id="oldPassword-error" message={errorOf("oldPassword")} />
      </div>
      <div className="field">
        <label htmlFor="newPassword">{t("profile.newPassword")}</label>
        <InputText
          id="newPassword"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          ref={newRef}
          onBlur={(e) => {
            check("newPassword", e.currentTarget.value ? undefined : MSG.pwdRequired);
            // The seed re-checks a non-empty confirmation when the new password changes.
            if (confirmRef.current?.value) checkConfirm();
          }}
        />
        <FieldError id="newPassword-error" message={errorOf("newPassword")} />
      </div>
      <div className="field">
        <label htmlFor="confirmPassword">{t("profile.confirmNewPassword")}</label>
        <InputText id="confirmPassword" name="confirmPassword" type="password" autoComplete="new-password" ref={confirmRef} onBlur={checkConfirm} />
        <FieldError id="confirmPassword-error" message={errorOf("confirmPassword")} />
      </div>
      <Button type="submit" label={t("profile.changePassword")} loading={busy} />
    </Form>
  );
}
