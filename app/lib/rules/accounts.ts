// The accounts area's rules (log in, register): limits, the messages as message refs
// (app/locales/<lng>/account.json: the original wording in its language and a translation in the
// other), the field checks and the register form's schema. Pure functions: the server is the
// authority, and the same checks give the page's on-blur feedback (app/lib/useBlurChecks.ts). The
// profile's rules are in ./profile.ts.

import { formSchema } from "../forms/parse.ts";
import { TEXT_MESSAGES, checkText } from "../forms/text.ts";

export const MSG = {
  usernameRequired: "account:msg.usernameRequired",
  usernameTooLong: "account:msg.usernameTooLong",
  usernameTaken: "account:msg.usernameTaken",
  usernameInvisible: "account:msg.usernameInvisible",
  passwordRequired: "account:msg.passwordRequired",
  checkPassRequired: "account:msg.checkPassRequired",
  passwordsDiffer: "account:msg.passwordsDiffer",
  phoneRequired: "account:msg.phoneRequired",
  phoneNumeric: "account:msg.phoneNumeric",
  phoneLength: "account:msg.phoneLength",
  codeRequired: "account:msg.codeRequired",
  codeWrong: "account:msg.codeWrong",
  adminCodeWrong: "account:msg.adminCodeWrong",
  authorityInvalid: "account:msg.authorityInvalid",
  registered: "account:msg.registered",
  registerFailed: "account:msg.registerFailed",
  userMissing: "account:msg.userMissing",
  wrongCredentials: "account:msg.wrongCredentials",
  loginCaptchaWrong: "account:msg.loginCaptchaWrong",
  loginFirst: "account:msg.loginFirst",
  pwdRequired: "account:msg.pwdRequired",
  pwdAgain: "account:msg.pwdAgain",
  pwdMismatch: "account:msg.pwdMismatch",
  modified: "account:msg.modified",
  unchanged: "account:msg.unchanged",
  oldPasswordWrong: "account:msg.oldPasswordWrong",
  unknownAction: "account:msg.unknownAction",
  /** A session that is no longer valid (token失效，请重新登录). */
  sessionExpired: "account:msg.sessionExpired",
  sessionExpiredUnsaved: "account:msg.sessionExpiredUnsaved",
} as const;

export const USERNAME_MAX = 200;
/** Longer than any password manager makes; argon2 need not hash megabytes (docs/security.md "Fields"). */
export const PASSWORD_MAX = 256;
export const INSTITUTE_MAX = 200;
/** The admin register code and captcha answers: short secrets. */
export const CODE_MAX = 256;
export const PHONE_DIGITS = 11;

export type FieldErrors = Partial<Record<string, string>>;

/** Control (Cc) and format (Cf) characters: invisible, so they would make look-alike names. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

/** Only the fields that have a message. */
export const onlyErrors = (errors: FieldErrors): FieldErrors => Object.fromEntries(Object.entries(errors).filter(([, v]) => v)) as FieldErrors;

export function checkUsername(v: string): string | undefined {
  if (!v.trim()) return MSG.usernameRequired;
  if (v.length > USERNAME_MAX) return MSG.usernameTooLong;
  if (INVISIBLE.test(v)) return MSG.usernameInvisible;
}

export function checkPassword(v: string): string | undefined {
  if (!v) return MSG.passwordRequired;
  if (v.length > PASSWORD_MAX) return TEXT_MESSAGES.tooLong(PASSWORD_MAX);
}

/** Free text: a maximum with a message instead of a silent cut; no control characters. */
export function checkInstitute(v: string): string | undefined {
  return checkText(v, { max: INSTITUTE_MAX });
}

export function checkConfirmation(pass: string, checkPass: string): string | undefined {
  if (!checkPass) return MSG.checkPassRequired;
  if (pass !== checkPass) return MSG.passwordsDiffer;
}

export function checkPhone(v: string): string | undefined {
  if (!v) return MSG.phoneRequired;
  if (!/^\d+$/.test(v)) return MSG.phoneNumeric;
  if (v.length !== PHONE_DIGITS) return MSG.phoneLength;
}

export function checkCodePresent(v: string): string | undefined {
  if (!v.trim()) return MSG.codeRequired;
  if (v.length > CODE_MAX) return TEXT_MESSAGES.tooLong(CODE_MAX);
}

/** An optional secret (the admin register code): only its length is the form's business. */
export function checkOptionalCode(v: string): string | undefined {
  if (v.length > CODE_MAX) return TEXT_MESSAGES.tooLong(CODE_MAX);
}

export interface RegisterInput {
  account: string;
  pass: string;
  checkPass: string;
  phoneNumber: string;
  verificationCode: string;
  institute: string;
  authority: string;
  checkAdministrator: string;
}

/** Every rule that needs no server state (uniqueness, captcha and admin code are checked by the action). */
export function validateRegisterShape(input: RegisterInput): FieldErrors {
  return onlyErrors({
    account: checkUsername(input.account),
    pass: checkPassword(input.pass),
    checkPass: checkConfirmation(input.pass, input.checkPass),
    phoneNumber: checkPhone(input.phoneNumber),
    verificationCode: checkCodePresent(input.verificationCode),
    institute: checkInstitute(input.institute),
    checkAdministrator: checkOptionalCode(input.checkAdministrator),
    authority: input.authority === "0" || input.authority === "1" ? undefined : MSG.authorityInvalid,
  });
}

/**
 * The register form: names, readings and rules. An authority left out reads as ordinary user ("0");
 * parse with `parseForm(form, registerSchema)`.
 */
export const registerSchema = formSchema(
  {
    account: "trim",
    pass: "raw",
    checkPass: "raw",
    phoneNumber: "trim",
    verificationCode: "raw",
    institute: "trim",
    authority: "trim",
    checkAdministrator: "raw",
  },
  (v) => validateRegisterShape({ ...v, authority: v.authority || "0" }),
).transform((v): RegisterInput => ({ ...v, authority: v.authority || "0" }));

/** The log-in form's fields; the checks run in the strategy's order (throttle, captcha, name, password: app/.server/auth.server.ts). */
export interface LoginInput {
  username: string;
  password: string;
  code: string;
  captchaId: string;
}

/**
 * The log-in form's own rules, one message at a time: a name (nothing longer can exist, as
 * registration refuses it), then a password no longer than any that can be set (answered as wrong
 * credentials, like any other wrong password).
 */
export function validateLogin(input: Pick<LoginInput, "username" | "password">): FieldErrors {
  if (!input.username) return { username: MSG.usernameRequired };
  if (input.username.length > USERNAME_MAX) return { username: MSG.usernameTooLong };
  if (input.password.length > PASSWORD_MAX) return { password: MSG.wrongCredentials };
  return {};
}

/** The log-in form read through its rules (parseForm(form, loginSchema)); the strategy says them after the throttle and captcha. */
export const loginSchema = formSchema({ username: "trim", password: "raw" }, validateLogin);
