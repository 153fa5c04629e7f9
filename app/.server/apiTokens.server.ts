// Personal API tokens (docs/api.md "Tokens"): created and revoked on /profile, presented as
// `Authorization: Bearer mr_…` to /api/v1. The secret is shown once; only its SHA-256 is kept. A
// token acts as its user with the user's rights as they are at each request (the user row is read
// every time), so a role change applies at once and a deleted user's tokens stop working. Each
// token has the lifetime its owner chose (or none), checked on every call, and a password change
// revokes every token of the account: whoever learnt the old password may have made one.
import crypto from "node:crypto";
import { Op } from "sequelize";
import { ApiToken } from "../../models/ApiToken.ts";
import { User, inWriteTransaction } from "./db.server.ts";
import { toCurrentUser, type CurrentUser } from "./session.server.ts";
import type { Transaction } from "sequelize";
import { MAX_LIVE_TOKENS, TOKEN_MSG, TOKEN_PATTERN, TOKEN_PREFIX_LENGTH, checkTokenName, parseTokenExpiry } from "~/lib/rules/apiTokens.ts";
import { messageRef } from "~/lib/forms/messages.ts";

const digest = (secret: string) => crypto.createHash("sha256").update(secret).digest("hex");

/** A last-use time is written at most this often per token: a busy script must not write on every call. */
const LAST_USED_EVERY_MS = 60_000;

export interface TokenRow {
  id: number;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** null: never expires. */
  expiresAt: string | null;
  expired: boolean;
}

const isExpired = (t: ApiToken, now = Date.now()) => t.expiresAt !== null && t.expiresAt !== undefined && t.expiresAt.getTime() <= now;

const rowOf = (t: ApiToken): TokenRow => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  createdAt: t.createdAt.toISOString(),
  lastUsedAt: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
  expiresAt: t.expiresAt ? t.expiresAt.toISOString() : null,
  expired: isExpired(t),
});

export async function listTokens(userId: number): Promise<TokenRow[]> {
  const rows = await ApiToken.findAll({ where: { userId }, order: [["id", "ASC"]] });
  return rows.map(rowOf);
}

export type CreateTokenResult = { ok: true; secret: string; token: TokenRow } | { ok: false; error: string };

/**
 * A new token for the user, living `expiresIn` days ("30", "90", "365") or "never" (default 90);
 * the secret is returned here and never again.
 */
export async function createToken(userId: number, name: string, expiresIn?: string | null): Promise<CreateTokenResult> {
  const problem = checkTokenName(name);
  if (problem) return { ok: false, error: problem };
  const days = parseTokenExpiry(expiresIn);
  if (days === undefined) return { ok: false, error: TOKEN_MSG.expiryInvalid };
  const expiresAt = days === null ? null : new Date(Date.now() + days * 86_400_000);
  const secret = `mr_${crypto.randomBytes(32).toString("base64url")}`;
  const created = await inWriteTransaction(async (transaction) => {
    // Counted under the write lock (SQLite IMMEDIATE; the user's row locked on MariaDB), so two
    // forms sent at once cannot pass the limit together.
    await User.findByPk(userId, { transaction, lock: transaction.LOCK.UPDATE });
    if ((await ApiToken.count({ where: { userId }, transaction })) >= MAX_LIVE_TOKENS) return null;
    return ApiToken.create({ userId, name: name.trim(), tokenHash: digest(secret), prefix: secret.slice(0, TOKEN_PREFIX_LENGTH), expiresAt }, { transaction });
  });
  if (!created) return { ok: false, error: messageRef(TOKEN_MSG.tooMany, { count: MAX_LIVE_TOKENS }) };
  return { ok: true, secret, token: rowOf(created) };
}

/** Revokes one of the user's own tokens (another user's id changes nothing). */
export async function revokeToken(userId: number, id: number): Promise<boolean> {
  if (!Number.isInteger(id) || id <= 0 || id > 2 ** 31 - 1) return false;
  return (await ApiToken.destroy({ where: { id, userId } })) === 1;
}

/** Revokes every token of the user (a password change); how many there were. */
export async function revokeAllTokens(userId: number, transaction?: Transaction): Promise<number> {
  return ApiToken.destroy({ where: { userId }, transaction });
}

export interface TokenUser {
  user: CurrentUser;
  tokenId: number;
}

/** The user a bearer secret stands for, or null (malformed, revoked, expired, or its user is gone). */
export async function userOfSecret(secret: string): Promise<TokenUser | null> {
  // Anything not of the generated shape cannot match: refused before hashing or querying.
  if (!TOKEN_PATTERN.test(secret)) return null;
  const token = await ApiToken.findOne({ where: { tokenHash: digest(secret) } });
  if (!token) return null;
  const now = Date.now();
  if (isExpired(token, now)) return null;
  const user = await User.findByPk(token.userId);
  if (!user) return null;
  if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    // A conditional update, so parallel requests write it once; a failure here never refuses the call.
    await ApiToken.update(
      { lastUsedAt: new Date(now) },
      { where: { id: token.id, [Op.or]: [{ lastUsedAt: null }, { lastUsedAt: { [Op.lt]: new Date(now - LAST_USED_EVERY_MS) } }] } },
    ).catch(() => undefined);
  }
  return { user: toCurrentUser(user), tokenId: token.id };
}
