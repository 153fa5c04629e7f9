import { Authenticator } from "remix-auth";
import { messageRef } from "~/lib/forms/messages.ts";
import { FormStrategy } from "remix-auth-form";
import { UniqueConstraintError } from "sequelize";
import { MSG, PASSWORD_MAX, USERNAME_MAX, validateRegisterShape, type FieldErrors, type RegisterInput } from "~/lib/rules/accounts.ts";
import { User, usernameKey } from "./db.server.ts";
import { hashPassword, verifyPassword } from "./password.server.ts";
import { consumeCaptcha } from "./captcha.server.ts";
import { adminCodeKeys, attemptSucceeded, beginAttempt, keysFor } from "./throttle.server.ts";
import { adminRegisterCode } from "./env.server.ts";

/** A login refusal a person can act on; `field` says which input it belongs to. */
export class LoginError extends Error {
  constructor(
    message: string,
    readonly field: "username" | "password" | "code" | "form",
  ) {
    super(message);
  }
}

/** server.ts overwrites this header with the socket's address, so clients cannot forge it. */
export const CLIENT_IP_HEADER = "x-metarank-client-ip";
const clientIp = (request: Request) => request.headers.get(CLIENT_IP_HEADER) ?? "unknown";

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

export const authenticator = new Authenticator<User>();

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const username = text(form, "username").trim();
    const password = text(form, "password");
    const keys = keysFor(username, clientIp(request));
    const wait = await beginAttempt(keys);
    if (wait > 0) throw new LoginError(messageRef("account:msg.tooManyLogins", { minutes: Math.ceil(wait / 60) }), "form");
    if (!(await consumeCaptcha(text(form, "captchaId"), text(form, "code")))) throw new LoginError(MSG.loginCaptchaWrong, "code");
    if (!username) throw new LoginError(MSG.usernameRequired, "username");
    // Nothing longer can exist (registration refuses it); say so rather than look it up.
    if (username.length > USERNAME_MAX) throw new LoginError(MSG.usernameTooLong, "username");
    if (password.length > PASSWORD_MAX) throw new LoginError(MSG.wrongCredentials, "password");
    const user = await User.findOne({ where: { username } });
    if (!user) throw new LoginError(MSG.userMissing, "username");
    if (!(await verifyPassword(user.passwordHash, password))) throw new LoginError(MSG.wrongCredentials, "password");
    await attemptSucceeded(keys);
    return user;
  }),
  "login",
);

export function readRegisterInput(form: FormData): RegisterInput {
  return {
    account: text(form, "account").trim(),
    pass: text(form, "pass"),
    checkPass: text(form, "checkPass"),
    phoneNumber: text(form, "phoneNumber").trim(),
    verificationCode: text(form, "verificationCode"),
    institute: text(form, "institute").trim(),
    authority: text(form, "authority") || "0",
    checkAdministrator: text(form, "checkAdministrator"),
  };
}

export type RegisterResult = { ok: true; user: User } | { ok: false; errors: FieldErrors };

/**
 * Registration. The cheap checks come first and the admin register code last: a name that is
 * taken is answered "taken" whatever code came with it, so the form cannot be used to test codes
 * without creating an account; and the code is guessed under the throttle of every secret
 * (per address, shared with Edit Profile's code check: throttle.server.ts adminCodeKeys).
 */
export async function registerUser(input: RegisterInput, captchaId: string, ip = "unknown"): Promise<RegisterResult> {
  const errors = validateRegisterShape(input);
  if (Object.keys(errors).length) return { ok: false, errors };
  if (!(await consumeCaptcha(captchaId, input.verificationCode))) return { ok: false, errors: { verificationCode: MSG.codeWrong } };
  if (await User.findOne({ where: { usernameKey: usernameKey(input.account) } })) return { ok: false, errors: { account: MSG.usernameTaken } };
  if (input.authority === "1") {
    const keys = adminCodeKeys(ip);
    const wait = await beginAttempt(keys);
    if (wait > 0) return { ok: false, errors: { checkAdministrator: messageRef("account:msg.tooManyAttempts", { minutes: Math.ceil(wait / 60) }) } };
    const code = adminRegisterCode();
    if (!code || input.checkAdministrator !== code) return { ok: false, errors: { checkAdministrator: MSG.adminCodeWrong } };
    await attemptSucceeded(keys);
  }
  try {
    const user = await User.create({
      username: input.account,
      passwordHash: await hashPassword(input.pass),
      telephone: input.phoneNumber,
      institute: input.institute,
      authority: input.authority === "1" ? 1 : 0,
    });
    return { ok: true, user };
  } catch (err) {
    // Two registrations of one name at the same moment: the unique index decides.
    if (err instanceof UniqueConstraintError) return { ok: false, errors: { account: MSG.usernameTaken } };
    throw err;
  }
}
