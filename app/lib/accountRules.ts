// Account form rules with the seed's exact messages (seed 000 §5). Pure functions: the
// server is the authority, and the same code gives on-blur feedback in the browser.

import { TEXT_MESSAGES } from "./forms/text.ts";

export const MSG = {
  usernameRequired: "Please enter your Username.",
  usernameTooLong: "Username is too long!",
  usernameTaken: "This username is already registered.",
  usernameInvisible: "The username may not contain control or invisible formatting characters.",
  passwordRequired: "Please enter your password!",
  checkPassRequired: "Please check your password!",
  passwordsDiffer: "The passwords are different!",
  phoneRequired: "Please enter your phone number.",
  phoneNumeric: "Please enter numbers!",
  phoneLength: "The phone number must be 11 digits!",
  codeRequired: "Please enter the verification code!",
  codeWrong: "The verification code is wrong!",
  adminCodeWrong: "The admin register code is wrong!",
  authorityInvalid: "Please choose Ordinary user or Administrators.",
  registered: "Register successfully, now you can log in.",
  registerFailed: "Register failed.",
  userMissing: "User does not exist!",
  wrongCredentials: "Wrong username or password!",
  loginCaptchaWrong: "the verification code is wrong",
  loginFirst: "Please log in first.",
  // Profile dialogs (seed 000 §5, §8)
  pwdRequired: "请输入密码",
  pwdAgain: "请再次输入密码",
  pwdMismatch: "两次输入密码不一致!",
  modified: "修改成功！",
  unchanged: "未修改！",
  oldPasswordWrong: "原密码错误！",
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

export function authorityLabel(authority: number | null | undefined): string {
  return authority === 1 ? "Admin" : "User";
}
