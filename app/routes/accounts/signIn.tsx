import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type RefObject } from "react";
import { solveWork, type WorkChallenge } from "~/lib/captchaWork.ts";
import { useHydrated } from "~/lib/useHydrated.ts";
import { useTranslation } from "react-i18next";
import { i18nServer } from "~/.server/i18n.server.ts";
import { InputText } from "primereact/inputtext";
import { Button } from "primereact/button";
import { issueCaptcha } from "~/.server/captcha.server.ts";
import { authenticator, LoginError, readRegisterInput, registerUser } from "~/.server/auth.server.ts";
import { getUser, safeRedirect, startSession } from "~/.server/session.server.ts";
import {
  INSTITUTE_MAX,
  MSG,
  checkConfirmation,
  checkPassword,
  checkPhone,
  checkUsername,
  checkCodePresent,
  registerSchema,
  type FieldErrors,
} from "~/lib/rules/accounts.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { useBlurChecks } from "~/lib/useBlurChecks.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { TextField } from "~/components/TextField.tsx";
import { checkFormData } from "~/.server/forms.server.ts";

export const handle = { i18n: "account" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Log in / Register"} — Meta-Rank` }];

/** Notices a link to this page may ask for: why the visitor is here (app/.server/session.server.ts). */
const NOTICES = {
  "login-first": { kind: "warn", text: MSG.loginFirst },
  expired: { kind: "warn", text: MSG.sessionExpired },
  "expired-unsaved": { kind: "warn", text: MSG.sessionExpiredUnsaved },
} as const;

/**
 * After a failed log-in or registration the loader runs again, so the form gets a fresh captcha
 * (each answer is spent when checked; Remix would otherwise keep the page's data after a 400).
 */
export const shouldRevalidate = () => true;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await getUser(request);
  const t = await i18nServer.getFixedT(request, "account");
  const asked = url.searchParams.get("notice");
  return {
    title: t("signin.title"),
    user: user ? { username: user.username } : null,
    captcha: await issueCaptcha(),
    tab: url.searchParams.get("tab") === "register" ? ("register" as const) : ("login" as const),
    notice: url.searchParams.get("registered")
      ? ({ kind: "success", text: MSG.registered } as const)
      : asked && asked in NOTICES
        ? NOTICES[asked as keyof typeof NOTICES]
        : null,
    redirectTo: safeRedirect(url.searchParams.get("redirectTo")),
  };
}

type ActionResult =
  { intent: "login"; error: string; field: string; values: { username: string } } | { intent: "register"; errors: FieldErrors; values: Record<string, string> };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = checkFormData(await request.clone().formData());
  const intent = form.get("intent");
  if (intent === "login") {
    try {
      const user = await authenticator.authenticate("login", request);
      const cookie = await startSession(user, request, context);
      return redirect(safeRedirect(form.get("redirectTo")), { headers: { "Set-Cookie": cookie } });
    } catch (err) {
      if (err instanceof LoginError) {
        return data<ActionResult>(
          { intent: "login", error: err.message, field: err.field, values: { username: String(form.get("username") ?? "") } },
          { status: 400 },
        );
      }
      throw err;
    }
  }
  if (intent === "register") {
    const parsed = parseForm(form, registerSchema);
    const result = parsed.ok
      ? await registerUser(parsed.value, String(form.get("captchaId") ?? ""), context.ip, String(form.get("captchaWork") ?? ""))
      : parsed;
    if (result.ok) {
      // Back to log in, still on the way to where the visitor was going.
      const redirectTo = form.get("redirectTo");
      const next = new URLSearchParams({ tab: "login", registered: "1" });
      if (typeof redirectTo === "string" && redirectTo && safeRedirect(redirectTo, "") === redirectTo) next.set("redirectTo", redirectTo);
      return redirect(`/signin?${next}`);
    }
    // What was typed comes back, secrets excepted.
    const { pass: _p, checkPass: _c, checkAdministrator: _a, verificationCode: _v, ...keep } = readRegisterInput(form);
    return data<ActionResult>({ intent: "register", errors: result.errors, values: keep }, { status: 400 });
  }
  throw new Response(MSG.unknownAction, { status: 400, statusText: "Bad Request" });
}

export default function SignIn() {
  const { t } = useTranslation("account");
  const { captcha, tab: loaderTab, notice, redirectTo, user } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionResult | undefined;
  const [params] = useSearchParams();
  const tab = actionData?.intent === "register" ? "register" : actionData?.intent === "login" ? "login" : loaderTab;
  const qs = (t: string) => {
    const p = new URLSearchParams(params);
    p.set("tab", t);
    p.delete("registered");
    return `?${p}`;
  };
  return (
    <section className="card narrow signin-card">
      <h1 className="visually-hidden">{t("signin.title")}</h1>
      <div className="tabs" role="tablist">
        <Link to={qs("login")} role="tab" aria-selected={tab === "login"} className={"tab" + (tab === "login" ? " active" : "")} replace preventScrollReset>
          {t("signin.tabLogin")}
        </Link>
        <Link
          to={qs("register")}
          role="tab"
          aria-selected={tab === "register"}
          className={"tab" + (tab === "register" ? " active" : "")}
          replace
          preventScrollReset
        >
          {t("signin.tabRegister")}
        </Link>
      </div>
      {user ? <Notice kind="info">{t("signin.signedInAs", { name: user.username })}</Notice> : null}
      {/* The notice of the step that led here; an answer to this page's own form replaces it. */}
      {notice && tab === "login" && !actionData ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      {tab === "login" ? (
        <LoginForm captcha={captcha} redirectTo={redirectTo} result={actionData?.intent === "login" ? actionData : undefined} />
      ) : (
        <RegisterForm captcha={captcha} redirectTo={redirectTo} result={actionData?.intent === "register" ? actionData : undefined} />
      )}
    </section>
  );
}

type IssuedCaptcha = { id: string; image: string; work: WorkChallenge };

/** The proof of work's number into the form's field (empty: none found yet). */
function writeWork(input: RefObject<HTMLInputElement>, n: number | null) {
  if (input.current) input.current.value = n === null ? "" : String(n);
}

/**
 * The captcha's proof of work (app/lib/captchaWork.ts, docs/security.md "Captcha"), found while the
 * person reads the picture and types. A form sent before the number is found waits for it, then
 * goes; without JavaScript the field stays empty and the server counts the form against the
 * address's no-JavaScript allowance instead.
 */
function useCaptchaWork(captcha: IssuedCaptcha) {
  const input = useRef<HTMLInputElement>(null);
  const found = useRef<Promise<number | null>>(Promise.resolve(null));
  // The number found for this captcha, kept apart from the field: the field is only where the form
  // reads it, and it is written again just before each send.
  const solved = useRef<number | null>(null);
  const submit = useSubmit();
  useEffect(() => {
    const ctrl = new AbortController();
    solved.current = null;
    writeWork(input, null);
    found.current = solveWork(captcha.work, ctrl.signal)
      .then((n) => {
        if (n !== null && !ctrl.signal.aborted) {
          solved.current = n;
          writeWork(input, n);
        }
        return n;
      })
      // A browser whose WebCrypto refuses PBKDF2 sends the form as one without JavaScript would.
      .catch(() => null);
    return () => ctrl.abort();
  }, [captcha.id, captcha.work]);
  const waiting = useRef(false);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    writeWork(input, solved.current);
    if (input.current?.value) return;
    e.preventDefault();
    // A second click while the work is still being found must not send the form (and spend its captcha) twice.
    if (waiting.current) return;
    waiting.current = true;
    const form = e.currentTarget;
    void found.current.then(() => {
      waiting.current = false;
      writeWork(input, solved.current);
      submit(form, { method: "post", replace: true });
    });
  };
  return { input, onSubmit };
}

function Captcha({
  captcha,
  name,
  error,
  onBlur,
  workInput,
}: {
  captcha: IssuedCaptcha;
  name: string;
  error?: string;
  onBlur?: (value: string) => void;
  workInput: RefObject<HTMLInputElement>;
}) {
  const location = useLocation();
  const { t } = useTranslation("account");
  return (
    <div className="field">
      <label htmlFor={name}>{t("signin.captcha")}</label>
      <div className="captcha-row">
        <InputText
          // A new picture needs a new answer: the field starts empty with each captcha.
          key={captcha.id}
          id={name}
          name={name}
          autoComplete="off"
          aria-invalid={Boolean(error)}
          aria-describedby={`${name}-error`}
          onBlur={(e) => onBlur?.(e.currentTarget.value)}
        />
        <img src={captcha.image} alt={t("signin.captchaAlt")} width={132} height={44} />
        <Link
          to={{ search: location.search }}
          preventScrollReset
          replace
          title={t("signin.newCaptcha")}
          className="pi pi-refresh"
          aria-label={t("signin.newCaptcha")}
        />
      </div>
      <input type="hidden" name="captchaId" value={captcha.id} />
      {/* The challenge is in the markup too, so any script (not only this page's bundle) can solve it.
          No value or defaultValue prop: a hidden input's value is its default value, which React
          writes back ("") on every re-render of the form (an on-blur check, the admin choice), and
          the found number would be lost, the form sent as one without JavaScript. */}
      <input type="hidden" name="captchaWork" ref={workInput} key={`work-${captcha.id}`} data-work={JSON.stringify(captcha.work)} />
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

function LoginForm({ captcha, redirectTo, result }: { captcha: IssuedCaptcha; redirectTo: string; result?: Extract<ActionResult, { intent: "login" }> }) {
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("account");
  const work = useCaptchaWork(captcha);
  const err = (f: string) => (result?.field === f ? result.error : undefined);
  return (
    <Form method="post" replace aria-label={t("signin.logIn")} onSubmit={work.onSubmit}>
      <input type="hidden" name="intent" value="login" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {result?.field === "form" ? <Notice kind="error">{result.error}</Notice> : null}
      <TextField
        id="username"
        label={t("signin.username")}
        error={err("username")}
        autoComplete="username"
        defaultValue={result?.values.username}
        required
        aria-invalid={Boolean(err("username"))}
      />
      <TextField id="password" label={t("signin.password")} error={err("password")} type="password" autoComplete="current-password" required />
      <Captcha captcha={captcha} name="code" error={err("code")} workInput={work.input} />
      <Button type="submit" label={t("signin.logIn")} icon="pi pi-sign-in" loading={busy} className="w-full" />
    </Form>
  );
}

function RegisterForm({ captcha, redirectTo, result }: { captcha: IssuedCaptcha; redirectTo: string; result?: Extract<ActionResult, { intent: "register" }> }) {
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("account");
  const work = useCaptchaWork(captcha);
  const { errorOf, check } = useBlurChecks(result?.errors);
  const [authority, setAuthority] = useState(result?.values.authority ?? "0");
  const passRef = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  const v = result?.values ?? {};
  return (
    <Form method="post" replace aria-label={t("signin.register")} onSubmit={work.onSubmit}>
      <input type="hidden" name="intent" value="register" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {result?.errors.form ? <Notice kind="error">{result.errors.form}</Notice> : null}
      <TextField
        id="account"
        label={t("signin.username")}
        error={errorOf("account")}
        autoComplete="username"
        defaultValue={v.account}
        maxLength={400}
        onBlur={(e) => check("account", checkUsername(e.currentTarget.value.trim()))}
      />
      <TextField
        id="pass"
        label={t("signin.password")}
        error={errorOf("pass")}
        type="password"
        autoComplete="new-password"
        ref={passRef}
        onBlur={(e) => check("pass", checkPassword(e.currentTarget.value))}
      />
      <TextField
        id="checkPass"
        label={t("signin.confirmPassword")}
        error={errorOf("checkPass")}
        type="password"
        autoComplete="new-password"
        onBlur={(e) => check("checkPass", checkConfirmation(passRef.current?.value ?? "", e.currentTarget.value))}
      />
      <TextField
        id="phoneNumber"
        label={t("signin.phone")}
        error={errorOf("phoneNumber")}
        inputMode="numeric"
        autoComplete="tel"
        defaultValue={v.phoneNumber}
        onBlur={(e) => check("phoneNumber", checkPhone(e.currentTarget.value.trim()))}
      />
      <TextField
        id="institute"
        label={t("signin.institute")}
        error={errorOf("institute")}
        autoComplete="organization"
        defaultValue={v.institute}
        maxLength={INSTITUTE_MAX}
        aria-describedby="institute-error"
      />
      <div className="field">
        <label htmlFor="authority">{t("signin.authority")}</label>
        <select id="authority" name="authority" className="p-inputtext" value={authority} onChange={(e) => setAuthority(e.currentTarget.value)}>
          <option value="0">{t("signin.ordinaryUser")}</option>
          <option value="1">{t("signin.administrators")}</option>
        </select>
        <FieldError id="authority-error" message={errorOf("authority")} />
      </div>
      {/* Shown only for Administrators: hidden once JavaScript runs, and without it by a CSS rule
          on the chosen option (app/styles/app.css) where the browser has :has(). */}
      <div className="field" hidden={hydrated && authority !== "1"} data-admin-code>
        <label htmlFor="checkAdministrator">{t("signin.adminCode")}</label>
        <InputText id="checkAdministrator" name="checkAdministrator" type="password" autoComplete="off" />
        <FieldError id="checkAdministrator-error" message={errorOf("checkAdministrator")} />
      </div>
      <Captcha
        captcha={captcha}
        name="verificationCode"
        error={errorOf("verificationCode")}
        onBlur={(value) => check("verificationCode", checkCodePresent(value))}
        workInput={work.input}
      />
      <Button type="submit" label={t("signin.register")} icon="pi pi-user-plus" loading={busy} className="w-full" />
    </Form>
  );
}
