// The profile's rules: Edit Profile (phone and role, each applied only when given) and Change
// password (old, new, confirmation), with the page's messages as message refs of the account
// namespace. Shared by the dialogs' on-blur checks and the server.

import { formSchema } from "../forms/parse.ts";
import { TEXT_MESSAGES } from "../forms/text.ts";
import { MSG, PASSWORD_MAX, checkOptionalCode, checkPhone, onlyErrors, type FieldErrors } from "./accounts.ts";

export interface ProfileEditInput {
  telephone: string;
  identify: string;
  adminCode: string;
}

/** Edit Profile: an empty phone or role keeps the current one (each is applied only when given: docs/product.md "Accounts and profile"). */
export function validateProfileEdit(input: ProfileEditInput): FieldErrors {
  return onlyErrors({
    telephone: input.telephone ? checkPhone(input.telephone) : undefined,
    identify: input.identify === "" || input.identify === "0" || input.identify === "1" ? undefined : MSG.authorityInvalid,
    adminCode: checkOptionalCode(input.adminCode),
  });
}

export const profileEditSchema = formSchema({ telephone: "trim", identify: "trim", adminCode: "raw" }, validateProfileEdit);

export interface PasswordChangeInput {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const passwordField = (v: string) => (!v ? MSG.pwdRequired : v.length > PASSWORD_MAX ? TEXT_MESSAGES.tooLong(PASSWORD_MAX) : undefined);

/** The confirmation check (docs/product.md "Accounts and profile"): required (请再次输入密码), then equal (两次输入密码不一致!). */
export function checkNewPasswordConfirmation(newPassword: string, confirmPassword: string): string | undefined {
  if (!confirmPassword) return MSG.pwdAgain;
  if (confirmPassword !== newPassword) return MSG.pwdMismatch;
}

/** Password dialog: old, new, confirmation. */
export function validatePasswordChange(input: PasswordChangeInput): FieldErrors {
  return onlyErrors({
    oldPassword: passwordField(input.oldPassword),
    newPassword: passwordField(input.newPassword),
    confirmPassword: checkNewPasswordConfirmation(input.newPassword, input.confirmPassword),
  });
}

export const passwordChangeSchema = formSchema({ oldPassword: "raw", newPassword: "raw", confirmPassword: "raw" }, validatePasswordChange);

/** The translation key of a role's name (account namespace). */
export function authorityLabel(authority: number | null | undefined): "profile.roleAdmin" | "profile.roleUser" {
  return authority === 1 ? "profile.roleAdmin" : "profile.roleUser";
}
