import { messageRef } from "~/lib/forms/messages.ts";
import { MSG, type FieldErrors } from "~/lib/rules/accounts.ts";
import { validatePasswordChange, validateProfileEdit, type PasswordChangeInput, type ProfileEditInput } from "~/lib/rules/profile.ts";
import { User, inWriteTransaction } from "./db.server.ts";
import { adminRegisterCode } from "./env.server.ts";
import { hashPassword, verifyPassword } from "./password.server.ts";
import { adminCodeKeys, attemptSucceeded, beginAttempt, keysFor } from "./throttle.server.ts";
import { revokeAllTokens } from "./apiTokens.server.ts";

const tooMany = (seconds: number) => messageRef("account:msg.tooManyAttempts", { minutes: Math.ceil(seconds / 60) });

/** tokensRevoked: how many personal API tokens a password change ended (the page says so). */
export type ProfileResult = { ok: true; changed: boolean; tokensRevoked?: number } | { ok: false; errors: FieldErrors };

/**
 * Edit Profile: phone and role, each applied only when given. Raising one's own role needs the
 * admin register code, or anyone could make themselves an administrator here.
 */
export async function updateProfile(userId: number, input: ProfileEditInput, ip = "unknown"): Promise<ProfileResult> {
  const shape = validateProfileEdit(input);
  if (Object.keys(shape).length) return { ok: false, errors: shape };
  const user = await User.findByPk(userId);
  if (!user) return { ok: false, errors: { form: MSG.userMissing } };
  const changes: Partial<{ telephone: string; authority: number }> = {};
  const errors: FieldErrors = {};
  if (input.telephone && input.telephone !== user.telephone) changes.telephone = input.telephone;
  if (input.identify) {
    const wanted = Number(input.identify);
    if (wanted > user.authority) {
      // The code is guessed under the registration form's lock (per address over both forms),
      // per account, and under the address's lock shared with passwords (throttle.server.ts).
      const keys = adminCodeKeys(ip, user.id);
      const wait = await beginAttempt(keys);
      const code = adminRegisterCode();
      if (wait > 0) errors.adminCode = tooMany(wait);
      else if (!code || input.adminCode !== code) errors.adminCode = MSG.adminCodeWrong;
      else {
        changes.authority = wanted;
        await attemptSucceeded(keys);
      }
    } else if (wanted !== user.authority) changes.authority = wanted;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  if (!Object.keys(changes).length) return { ok: true, changed: false };
  await user.update(changes);
  return { ok: true, changed: true };
}

/** Change password: the old one is required and checked (the original site sent only the new one: docs/product.md "Accounts and profile"). */
export async function changePassword(userId: number, input: PasswordChangeInput, ip = "unknown"): Promise<ProfileResult> {
  const errors = validatePasswordChange(input);
  if (Object.keys(errors).length) return { ok: false, errors };
  const user = await User.findByPk(userId);
  if (!user) return { ok: false, errors: { form: MSG.userMissing } };
  // The old password is guessed under the log-in lock of the same account from the same address.
  const keys = keysFor(user.username, ip);
  const wait = await beginAttempt(keys);
  if (wait > 0) return { ok: false, errors: { oldPassword: tooMany(wait) } };
  if (!(await verifyPassword(user.passwordHash, input.oldPassword))) return { ok: false, errors: { oldPassword: MSG.oldPasswordWrong } };
  await attemptSucceeded(keys);
  const passwordHash = await hashPassword(input.newPassword);
  // The new password and the end of every API token in one transaction: whoever knew the old
  // password may have made a token with it, and a token must not outlive the password it came from.
  const tokensRevoked = await inWriteTransaction(async (transaction) => {
    await user.update({ passwordHash }, { transaction });
    return revokeAllTokens(user.id, transaction);
  });
  return { ok: true, changed: true, tokensRevoked };
}
