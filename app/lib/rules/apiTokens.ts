// Personal API tokens (docs/api.md "Tokens"): the limits the profile page and the server share, the
// messages (app/locales/<lng>/account.json "apiTokens"/"api") and the creation form's schema. No
// server imports: the page reads it.
import { formSchema, type FieldErrors } from "../forms/parse.ts";

/** A label the owner chooses ("laptop", "CI"); long enough for that, short enough for a table cell. */
export const TOKEN_NAME_MAX = 100;
/** Live tokens per user: enough for a few machines and pipelines, few enough to review at a glance. */
export const MAX_LIVE_TOKENS = 10;
/** `mr_` + 32 random bytes in base64url (43 characters): the only shape a secret can have. */
export const TOKEN_PATTERN = /^mr_[A-Za-z0-9_-]{43}$/;
/** Characters of the secret kept in clear for display ("mr_AbCdEfGh…"). */
export const TOKEN_PREFIX_LENGTH = 11;

/** How long a new token may live, in days, as the creation form offers it; "never" is offered too. */
export const TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;
/** The form's default: long enough for a project's pipeline, short enough that a forgotten token dies. */
export const DEFAULT_TOKEN_EXPIRY = "90";
/** The form's values: a number of days, or "never". */
export const TOKEN_EXPIRY_CHOICES = [...TOKEN_EXPIRY_DAYS.map(String), "never"] as const;

/**
 * A chosen lifetime as days (null: never expires), or undefined for a value the form does not
 * offer. A form without the field gets the default, so an older page or a script still works.
 */
export function parseTokenExpiry(value: string | null | undefined): number | null | undefined {
  const v = value ?? DEFAULT_TOKEN_EXPIRY;
  if (v === "never") return null;
  return (TOKEN_EXPIRY_DAYS as readonly number[]).includes(Number(v)) && /^\d+$/.test(v) ? Number(v) : undefined;
}

export const TOKEN_MSG = {
  nameRequired: "account:apiTokens.msg.nameRequired",
  nameTooLong: "account:apiTokens.msg.nameTooLong",
  tooMany: "account:apiTokens.msg.tooMany",
  created: "account:apiTokens.msg.created",
  revoked: "account:apiTokens.msg.revoked",
  revokedByPassword: "account:apiTokens.msg.revokedByPassword",
  notFound: "account:apiTokens.msg.notFound",
  expiryInvalid: "account:apiTokens.msg.expiryInvalid",
} as const;

export function checkTokenName(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return TOKEN_MSG.nameRequired;
  if (trimmed.length > TOKEN_NAME_MAX) return TOKEN_MSG.nameTooLong;
  return undefined;
}

/** The creation form: a name and a lifetime, each with its message. */
export function validateTokenForm(input: { name: string; expiresIn: string }): FieldErrors {
  const errors: FieldErrors = {};
  const nameProblem = checkTokenName(input.name);
  if (nameProblem) errors.name = nameProblem;
  // Shown under the name, where the page has always said it: the lifetime is a choice among offered values.
  else if (parseTokenExpiry(input.expiresIn || null) === undefined) errors.name = TOKEN_MSG.expiryInvalid;
  return errors;
}

/**
 * The creation form read through its rules (parseForm(form, tokenSchema)): the trimmed name and the
 * lifetime as sent ("" when left out, which is the default).
 */
export const tokenSchema = formSchema({ name: "trim", expiresIn: "trim" }, validateTokenForm);
