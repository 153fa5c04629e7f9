import { Authenticator } from "remix-auth";
import { messageRef } from "~/lib/forms/messages.ts";
import { FormStrategy } from "remix-auth-form";
import { UniqueConstraintError } from "sequelize";
import { MSG, loginSchema, validateRegisterShape, type FieldErrors, type RegisterInput } from "~/lib/rules/accounts.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { User, usernameKey } from "./db.server.ts";
import { hashPassword, verifyPassword } from "./password.server.ts";
import { consumeCaptcha } from "./captcha.server.ts";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { addressOf, adminCodeKeys, attemptSucceeded, beginAttempt, keysFor, requestCounter } from "./throttle.server.ts";
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
    const captcha = await consumeCaptcha({ id: text(form, "captchaId"), answer: text(form, "code"), work: text(form, "captchaWork"), ip: clientIp(request) });
    if (!captcha.ok) throw new LoginError(captcha.waitS ? noscriptLimit(captcha.waitS) : MSG.loginCaptchaWrong, "code");
    // The form's own rules come after the throttle and the captcha, so they cannot be probed for free.
    const fields = parseForm(form, loginSchema);
    if (!fields.ok) {
      const [field, message] = Object.entries(fields.errors)[0] ?? ["form", MSG.wrongCredentials];
      throw new LoginError(message ?? MSG.wrongCredentials, field as LoginError["field"]);
    }
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

/** The address sent more forms without JavaScript's proof of work than a person does (captcha.server.ts). */
const noscriptLimit = (waitS: number) => messageRef("account:msg.noscriptLimit", { minutes: Math.ceil(waitS / 60) });

/**
 * Accounts one address may create per hour (REGISTRATIONS_PER_HOUR, default 20): a script that
 * reads the captcha still makes no more than that from one address, while a class registering
 * together behind one NAT address mostly fits (docs/security.md "Captcha").
 */
export const REGISTRATIONS_PER_HOUR = Number(process.env.REGISTRATIONS_PER_HOUR) || 20;
let registrations: RateLimiterAbstract | null = null;

/**
 * Wrong captcha answers on registration, counted per address (MAX_FAILURES in WINDOW_S, then a
 * lock: throttle.server.ts). Its own key, not the address's count over every secret: an address
 * locked for wrong log-ins may still register, and the other way round.
 */
const captchaKeys = (ip: string) => [`captcha@${addressOf(ip)}`];

/**
 * Registration. The cheap checks come first and the admin register code last: a name that is
 * taken is answered "taken" whatever code came with it, so the form cannot be used to test codes
 * without creating an account; and the code is guessed under the throttle of every secret
 * (per address, shared with Edit Profile's code check: throttle.server.ts adminCodeKeys).
 */
export async function registerUser(input: RegisterInput, captchaId: string, ip = "unknown", captchaWork = ""): Promise<RegisterResult> {
  const errors = validateRegisterShape(input);
  if (Object.keys(errors).length) return { ok: false, errors };
  // Captcha guesses are throttled like log-ins (counted before the answer is checked): a script
  // that cannot read the picture cannot try it endlessly (docs/security.md "Captcha").
  const guesses = captchaKeys(ip);
  const locked = await beginAttempt(guesses);
  if (locked > 0) return { ok: false, errors: { verificationCode: messageRef("account:msg.tooManyAttempts", { minutes: Math.ceil(locked / 60) }) } };
  const captcha = await consumeCaptcha({ id: captchaId, answer: input.verificationCode, work: captchaWork, ip });
  if (!captcha.ok) return { ok: false, errors: { verificationCode: captcha.waitS ? noscriptLimit(captcha.waitS) : MSG.codeWrong } };
  await attemptSucceeded(guesses);
  if (await User.findOne({ where: { usernameKey: usernameKey(input.account) } })) return { ok: false, errors: { account: MSG.usernameTaken } };
  if (input.authority === "1") {
    const keys = adminCodeKeys(ip);
    const wait = await beginAttempt(keys);
    if (wait > 0) return { ok: false, errors: { checkAdministrator: messageRef("account:msg.tooManyAttempts", { minutes: Math.ceil(wait / 60) }) } };
    const code = adminRegisterCode();
    if (!code || input.checkAdministrator !== code) return { ok: false, errors: { checkAdministrator: MSG.adminCodeWrong } };
    await attemptSucceeded(keys);
  }
  registrations ??= requestCounter("register", REGISTRATIONS_PER_HOUR, 3600);
  const made = await registrations.penalty(addressOf(ip), 1);
  if (made.consumedPoints > REGISTRATIONS_PER_HOUR)
    return { ok: false, errors: { form: messageRef("account:msg.tooManyRegistrations", { minutes: Math.ceil(made.msBeforeNext / 60_000) }) } };
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
