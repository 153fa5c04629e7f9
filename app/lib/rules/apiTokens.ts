// Personal API tokens (issue 13 §4): the limits the profile page and the server share, and the
// messages (app/locales/<lng>/account.json "apiTokens"/"api"). No server imports: the page reads it.

/** A label the owner chooses ("laptop", "CI"); long enough for that, short enough for a table cell. */
export const TOKEN_NAME_MAX = 100;
/** Live tokens per user: enough for a few machines and pipelines, few enough to review at a glance. */
export const MAX_LIVE_TOKENS = 10;
/** `mr_` + 32 random bytes in base64url (43 characters): the only shape a secret can have. */
export const TOKEN_PATTERN = /^mr_[A-Za-z0-9_-]{43}$/;
/** Characters of the secret kept in clear for display ("mr_AbCdEfGh…"). */
export const TOKEN_PREFIX_LENGTH = 11;

export const TOKEN_MSG = {
  nameRequired: "account:apiTokens.msg.nameRequired",
  nameTooLong: "account:apiTokens.msg.nameTooLong",
  tooMany: "account:apiTokens.msg.tooMany",
  created: "account:apiTokens.msg.created",
  revoked: "account:apiTokens.msg.revoked",
  notFound: "account:apiTokens.msg.notFound",
} as const;

export function checkTokenName(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return TOKEN_MSG.nameRequired;
  if (trimmed.length > TOKEN_NAME_MAX) return TOKEN_MSG.nameTooLong;
  return undefined;
}
