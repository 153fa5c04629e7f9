// Account form rules with the seed's messages (seed 000 §5) as message refs: their texts are in
// app/locales/<lng>/account.json, the seed's own words in its language and a translation in the
// other. Pure functions: the server is the authority, and the same code gives on-blur feedback.

import { TEXT_MESSAGES } from "./forms/text.ts";

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
  sessionExpired: "account:msg.sessionExpired",
  sessionExpiredUnsaved: "account:msg.sessionExpiredUnsaved",
} as const;

export const USERNAME_MAX = 200;
/** Longer than any password manager makes; argon2 need not hash megabytes (issue 11). */
export const PASSWORD_MAX = 256;
export const INSTITUTE_MAX = 200;
/** The admin register code and captcha answers: short secrets. */
export const CODE_MAX = 256;
export const PHONE_DIGITS = 11;

export type FieldErrors = Partial<Record<string, string>>;

/** Control (Cc) and format (Cf) characters: invisible, so they would make look-alike names. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

export function checkUsername(v: string): string | undefined {
  if (!v.trim()) return MSG.usernameRequired;
  if (v.length > USERNAME_MAX) return MSG.usernameTooLong;
  if (INVISIBLE.test(v)) return MSG.usernameInvisible;
}

export function checkPassword(v: string): string | undefined {
  if (!v) return MSG.passwordRequired;
  if (v.length > PASSWORD_MAX) return TEXT_MESSAGES.tooLong(PASSWORD_MAX);
}

/** Free text: a maximum with a message instead of a silent cut. */
export function checkInstitute(v: string): string | undefined {
  if (v.length > INSTITUTE_MAX) return TEXT_MESSAGES.tooLong(INSTITUTE_MAX);
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
  const errors: FieldErrors = {
    account: checkUsername(input.account),
    pass: checkPassword(input.pass),
    checkPass: checkConfirmation(input.pass, input.checkPass),
    phoneNumber: checkPhone(input.phoneNumber),
    verificationCode: checkCodePresent(input.verificationCode),
    institute: checkInstitute(input.institute),
    checkAdministrator: input.checkAdministrator.length > CODE_MAX ? TEXT_MESSAGES.tooLong(CODE_MAX) : undefined,
    authority: input.authority === "0" || input.authority === "1" ? undefined : MSG.authorityInvalid,
  };
  return Object.fromEntries(Object.entries(errors).filter(([, v]) => v)) as FieldErrors;
}

/** Password dialog (seed 000 §5): old, new, confirmation. */
export function validatePasswordChange(input: { oldPassword: string; newPassword: string; confirmPassword: string }): FieldErrors {
  const errors: FieldErrors = {
    oldPassword: !input.oldPassword ? MSG.pwdRequired : input.oldPassword.length > PASSWORD_MAX ? TEXT_MESSAGES.tooLong(PASSWORD_MAX) : undefined,
    newPassword: !input.newPassword ? MSG.pwdRequired : input.newPassword.length > PASSWORD_MAX ? TEXT_MESSAGES.tooLong(PASSWORD_MAX) : undefined,
    confirmPassword: !input.confirmPassword ? MSG.pwdAgain : input.confirmPassword !== input.newPassword ? MSG.pwdMismatch : undefined,
  };
  return Object.fromEntries(Object.entries(errors).filter(([, v]) => v)) as FieldErrors;
}

/** The translation key of a role's name (account namespace). */
export function authorityLabel(authority: number | null | undefined): "profile.roleAdmin" | "profile.roleUser" {
  return authority === 1 ? "profile.roleAdmin" : "profile.roleUser";
}
