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
import { TextField } from "~/components/TextField.tsx";
import { authorityLabel, checkNewPasswordConfirmation, passwordChangeSchema, profileEditSchema } from "~/lib/rules/profile.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { useBlurChecks } from "~/lib/useBlurChecks.ts";
import { useHydrated } from "~/lib/useHydrated.ts";
import { Trans, useTranslation } from "react-i18next";
import { i18nServer } from "~/.server/i18n.server.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { checkFormData } from "~/.server/forms.server.ts";
import { createToken, listTokens, revokeToken, type TokenRow } from "~/.server/apiTokens.server.ts";
import { DEFAULT_TOKEN_EXPIRY, MAX_LIVE_TOKENS, TOKEN_EXPIRY_CHOICES, TOKEN_MSG, TOKEN_NAME_MAX, tokenSchema } from "~/lib/rules/apiTokens.ts";
import { translateMessage } from "~/lib/forms/messages.ts";

export const handle = { i18n: "account" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Your profile"} — Meta-Rank` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const t = await i18nServer.getFixedT(request, "account");
  const msg = url.searchParams.get("msg");
  return {
    title: t("profile.title"),
    user,
    modified: msg === "modified" || msg === "password-tokens",
    tokensEnded: msg === "password-tokens",
    revoked: msg === "token-revoked",
    tokens: await listTokens(user.id),
  };
}

type Result = {
  intent: "edit" | "password" | "token-create" | "token-revoke";
  errors?: FieldErrors;
  notice?: string;
  /** A token just created: its secret, shown in this one answer and never again. */
  created?: { secret: string; name: string };
};

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
    // The tokens went with the old password: say so, or a script's sudden 401 is a mystery.
    return redirect(r.tokensRevoked ? "/profile?msg=password-tokens" : "/profile?msg=modified");
  }
  if (intent === "token-create") {
    const parsed = parseForm(form, tokenSchema);
    if (!parsed.ok) return data<Result>({ intent, errors: parsed.errors }, { status: 400 });
    const r = await createToken(user.id, parsed.value.name, parsed.value.expiresIn || null);
    if (!r.ok) return data<Result>({ intent, errors: { name: r.error } }, { status: 400 });
    // Not a redirect: the secret must reach this one page and no URL or later page.
    return data<Result>({ intent, created: { secret: r.secret, name: r.token.name } }, { headers: { "Cache-Control": "no-store" } });
  }
  if (intent === "token-revoke") {
    const ok = await revokeToken(user.id, Number(form.get("id")));
    if (!ok) return data<Result>({ intent, errors: { token: TOKEN_MSG.notFound } }, { status: 404 });
    return redirect("/profile?msg=token-revoked#api-tokens");
  }
  return data<Result>({ intent: "edit", errors: { form: MSG.unknownAction } }, { status: 400 });
}

export default function Profile() {
  const { user, modified, tokensEnded, revoked, tokens } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("account");
  const result = useActionData<typeof action>() as Result | undefined;
  const [params] = useSearchParams();
  const open = result?.errors ? result.intent : params.get("dialog");
  return (
    <section className="card narrow">
      <h1>{t("profile.title")}</h1>
      {/* The last step's notice; an answer to a form on this page replaces it. */}
      {modified && !result ? (
        <Notice kind="success">
          {translateMessage(t, MSG.modified)}
          {/* Chinese sentences follow a full-width stop without a space. */}
          {tokensEnded ? `${i18n.language === "zh" ? "" : " "}${translateMessage(t, TOKEN_MSG.revokedByPassword)}` : null}
        </Notice>
      ) : null}
      {result?.notice ? <Notice kind="info">{result.notice}</Notice> : null}
      <div className="profile-head">
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
      <ApiTokens tokens={tokens} result={result?.intent === "token-create" || result?.intent === "token-revoke" ? result : undefined} revoked={revoked} />
    </section>
  );
}

/** Personal API tokens (docs/api.md): plain forms, so creating and revoking work without JavaScript. */
function ApiTokens({ tokens, result, revoked }: { tokens: TokenRow[]; result?: Result; revoked: boolean }) {
  const { t } = useTranslation("account");
  const busy = useNavigation().state === "submitting";
  const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") + " UTC" : t("apiTokens.never"));
  return (
    <section id="api-tokens" aria-labelledby="api-tokens-title" style={{ marginTop: "2rem" }}>
      <h2 id="api-tokens-title">{t("apiTokens.title")}</h2>
      <p className="muted">
        {/* The API's reference is served as an OpenAPI document (app/routes/api/v1/openapi.ts). */}
        <Trans
          t={t}
          i18nKey="apiTokens.help"
          values={{ count: MAX_LIVE_TOKENS }}
          components={{ docs: <Link to="/api/v1/openapi.json" reloadDocument data-testid="api-docs-link" /> }}
        />
      </p>
      {revoked && !result ? <Notice kind="success">{TOKEN_MSG.revoked}</Notice> : null}
      {result?.errors?.token ? <Notice kind="error">{result.errors.token}</Notice> : null}
      {result?.created ? (
        <div className="card" data-testid="api-token-created" role="status">
          <p>
            <strong>{translateMessage(t, TOKEN_MSG.created)}</strong> {t("apiTokens.copyNow", { name: result.created.name })}
          </p>
          <label htmlFor="api-token-secret">{t("apiTokens.secret")}</label>
          <InputText
            id="api-token-secret"
            readOnly
            value={result.created.secret}
            style={{ width: "100%", fontFamily: "monospace" }}
            data-testid="api-token-secret"
          />
        </div>
      ) : null}
      <Form
        method="post"
        action="/profile#api-tokens"
        aria-label={t("apiTokens.create")}
        style={{ display: "flex", gap: ".75rem", alignItems: "flex-end", flexWrap: "wrap" }}
      >
        <input type="hidden" name="intent" value="token-create" />
        <div className="field" style={{ marginBottom: 0 }}>
          <label htmlFor="api-token-name">{t("apiTokens.name")}</label>
          <InputText id="api-token-name" name="name" maxLength={TOKEN_NAME_MAX} required aria-describedby="api-token-name-error" />
          <FieldError id="api-token-name-error" message={result?.errors?.name} />
        </div>
        <div className="field" style={{ marginBottom: 0 }}>
          <label htmlFor="api-token-expiry">{t("apiTokens.expiresIn")}</label>
          <select id="api-token-expiry" name="expiresIn" defaultValue={DEFAULT_TOKEN_EXPIRY} className="p-inputtext" data-testid="api-token-expiry">
            {TOKEN_EXPIRY_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {choice === "never" ? t("apiTokens.noExpiry") : t("apiTokens.days", { count: Number(choice) })}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" label={t("apiTokens.create")} loading={busy} disabled={tokens.length >= MAX_LIVE_TOKENS} />
      </Form>
      {tokens.length === 0 ? (
        <p className="muted">{t("apiTokens.none")}</p>
      ) : (
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a region that may scroll sideways must be reachable by keyboard (WCAG 2.1.1)
        <div className="p-datatable-wrapper" style={{ overflowX: "auto" }} role="region" aria-labelledby="api-tokens-title" tabIndex={0}>
          <table className="p-datatable-table token-table" style={{ width: "100%", borderCollapse: "collapse" }} data-testid="api-token-table">
            <thead>
              <tr>
                <th scope="col">{t("apiTokens.name")}</th>
                <th scope="col">{t("apiTokens.prefix")}</th>
                <th scope="col">{t("apiTokens.created")}</th>
                <th scope="col">{t("apiTokens.lastUsed")}</th>
                <th scope="col">{t("apiTokens.expires")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("apiTokens.revoke")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((tok) => (
                <tr key={tok.id} data-testid={`api-token-${tok.id}`}>
                  <td data-label={t("apiTokens.name")}>{tok.name}</td>
                  <td data-label={t("apiTokens.prefix")}>
                    <code>{tok.prefix}…</code>
                  </td>
                  <td data-label={t("apiTokens.created")}>{when(tok.createdAt)}</td>
                  <td data-label={t("apiTokens.lastUsed")}>{when(tok.lastUsedAt)}</td>
                  <td data-label={t("apiTokens.expires")} data-testid={`api-token-expires-${tok.id}`}>
                    <span>
                      {tok.expiresAt ? when(tok.expiresAt) : t("apiTokens.noExpiry")}
                      {tok.expired ? <strong> ({t("apiTokens.expired")})</strong> : null}
                    </span>
                  </td>
                  <td>
                    <Form method="post" action="/profile#api-tokens">
                      <input type="hidden" name="intent" value="token-revoke" />
                      <input type="hidden" name="id" value={tok.id} />
                      <Button
                        type="submit"
                        severity="danger"
                        outlined
                        size="small"
                        label={t("apiTokens.revoke")}
                        aria-label={t("apiTokens.revokeNamed", { name: tok.name })}
                      />
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
      <TextField
        id="telephone"
        label={t("profile.phone")}
        error={errorOf("telephone")}
        inputMode="numeric"
        placeholder={t("profile.phonePlaceholder")}
        onBlur={(e) => check("telephone", e.currentTarget.value ? checkPhone(e.currentTarget.value.trim()) : undefined)}
      />
      <div className="field">
        <label htmlFor="identify">{t("profile.role")}</label>
        <select id="identify" name="identify" className="p-inputtext" defaultValue="">
          <option value="">{t("profile.keepRole", { role: t(authorityLabel(authority)) })}</option>
          <option value="0">{t("profile.roleUser")}</option>
          <option value="1">{t("profile.roleAdmin")}</option>
        </select>
        <FieldError id="identify-error" message={errorOf("identify")} />
      </div>
      <TextField id="adminCode" label={t("profile.adminCode")} error={errorOf("adminCode")} type="password" autoComplete="off" />
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
      <TextField
        id="oldPassword"
        label={t("profile.oldPassword")}
        error={errorOf("oldPassword")}
        type="password"
        autoComplete="current-password"
        onBlur={(e) => check("oldPassword", e.currentTarget.value ? undefined : MSG.pwdRequired)}
      />
      <TextField
        id="newPassword"
        label={t("profile.newPassword")}
        error={errorOf("newPassword")}
        type="password"
        autoComplete="new-password"
        ref={newRef}
        onBlur={(e) => {
          check("newPassword", e.currentTarget.value ? undefined : MSG.pwdRequired);
          // A non-empty confirmation is re-checked when the new password changes (docs/product.md "Accounts and profile").
          if (confirmRef.current?.value) checkConfirm();
        }}
      />
      <TextField
        id="confirmPassword"
        label={t("profile.confirmNewPassword")}
        error={errorOf("confirmPassword")}
        type="password"
        autoComplete="new-password"
        ref={confirmRef}
        onBlur={checkConfirm}
      />
      <Button type="submit" label={t("profile.changePassword")} loading={busy} />
    </Form>
  );
}
