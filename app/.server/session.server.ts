import crypto from "node:crypto";
import { createCookie, redirect, type AppLoadContext } from "@remix-run/node";
import { Op } from "sequelize";
import { Session, User } from "./db.server.ts";
import { sessionSecret } from "./env.server.ts";

const SESSION_DAYS = 14;

// The cookie carries only an opaque random token; the session itself is a row, so
// signing out and role changes take effect on the very next request.
// `Secure` follows the request (docs/security.md): a lab serving the platform over plain HTTP on
// its own address can sign in, and HTTPS (directly or through a trusted proxy) gets Secure cookies.
export const sessionCookie = createCookie("mr_session", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secrets: [sessionSecret()],
  maxAge: SESSION_DAYS * 86_400,
});

/** COOKIE_SECURE=1|0 decides; otherwise the request's own scheme (Express applied the trusted proxy hops). */
export function cookieSecure(request: Request): boolean {
  const forced = process.env.COOKIE_SECURE;
  if (forced === "1" || forced === "true") return true;
  if (forced === "0" || forced === "false") return false;
  return new URL(request.url).protocol === "https:";
}

const digest = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

export interface CurrentUser {
  id: number;
  username: string;
  telephone: string;
  institute: string;
  authority: number;
  isAdmin: boolean;
}

export const toCurrentUser = (u: User): CurrentUser => ({
  id: u.id,
  username: u.username,
  telephone: u.telephone,
  institute: u.institute,
  authority: u.authority,
  isAdmin: u.authority === 1,
});

async function readToken(request: Request): Promise<string | null> {
  const value = await sessionCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value) ? value : null;
}

/** Creates the session row and returns the Set-Cookie header value. */
export async function startSession(user: User, request: Request, context?: AppLoadContext): Promise<string> {
  const token = crypto.randomBytes(32).toString("hex");
  await Session.create({
    id: digest(token),
    userId: user.id,
    expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000),
    ip: context?.ip ?? null,
    userAgent: (request.headers.get("User-Agent") ?? "").slice(0, 255) || null,
  });
  return sessionCookie.serialize(token, { secure: cookieSecure(request) });
}

export async function endSession(request: Request): Promise<string> {
  const token = await readToken(request);
  if (token) await Session.destroy({ where: { id: digest(token) } });
  return sessionCookie.serialize("", { maxAge: 0, secure: cookieSecure(request) });
}

/** Ends every session of a user (after a password change, other browsers must sign in again). */
export async function endOtherSessions(userId: number, request: Request): Promise<void> {
  const token = await readToken(request);
  await Session.destroy({ where: { userId, ...(token ? { id: { [Op.ne]: digest(token) } } : {}) } });
}

/** The signed-in user of a token, or null when its session is gone or expired. */
async function userOfToken(token: string): Promise<CurrentUser | null> {
  const session = await Session.findByPk(digest(token));
  if (!session) return null;
  if (session.expiresAt.getTime() < Date.now()) {
    await session.destroy();
    return null;
  }
  const user = await User.findByPk(session.userId);
  return user ? toCurrentUser(user) : null;
}

export async function getUser(request: Request): Promise<CurrentUser | null> {
  const token = await readToken(request);
  return token ? userOfToken(token) : null;
}

/** Where a visitor sent to log in returns afterwards: the page they were on. */
export function returnPath(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const own = url.pathname + url.search;
  if (request.method === "GET" || request.method === "HEAD") return own;
  // An action's form sits on a page of its own (a dialog's ?dialog=…, a ?tab=…): the Referer
  // names it when it is this site's; otherwise the action's path stands in.
  const referer = request.headers.get("Referer");
  if (referer) {
    try {
      const from = new URL(referer);
      if (from.host === url.host) return safeRedirect(from.pathname + from.search, own);
    } catch {
      // not a URL: the action's path
    }
  }
  return own;
}

/** Why a request is sent to log in: never signed in, or a session that ended (during a read, or while sending a form). */
export type LoginReason = "login-first" | "expired" | "expired-unsaved";

function loginRedirect(request: Request, reason: LoginReason): never {
  throw redirect(`/signin?notice=${reason}&redirectTo=${encodeURIComponent(returnPath(request))}`);
}

/**
 * Signed-in users only. Anonymous visitors go to log in with 'Please log in first.'; a visitor
 * whose session ended (the cookie names one that expired or was signed out elsewhere) gets the
 * message 'token失效，请重新登录', and, for a form they sent, that it was not saved, so nobody believes
 * lost work was kept.
 */
export async function requireUser(request: Request): Promise<CurrentUser> {
  const token = await readToken(request);
  const user = token ? await userOfToken(token) : null;
  if (user) return user;
  if (!token) loginRedirect(request, "login-first");
  loginRedirect(request, request.method === "GET" || request.method === "HEAD" ? "expired" : "expired-unsaved");
}

/** Administrators only: 403 for signed-in users, log in for anonymous visitors. */
export async function requireAdmin(request: Request): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw new Response("account:msg.adminsOnly", { status: 403, statusText: "Forbidden" });
  return user;
}

/**
 * Only same-site paths, so a crafted link cannot bounce a fresh login elsewhere: one leading
 * slash, no backslash or control character anywhere (browsers read `/\\host` and `/\thost` as
 * another host), nothing that decodes to one of those, and a bounded length. What comes back is
 * ASCII: a `Location` header takes bytes only, so a path such as `/数据集` (typed or pasted in a
 * link) is sent percent-encoded, as browsers send it, instead of failing the response with a 500.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/homepage"): string {
  if (typeof to !== "string" || to.length > 2048) return fallback;
  let decoded = to;
  try {
    decoded = decodeURIComponent(to);
  } catch {
    return fallback;
  }
  for (const candidate of [to, decoded]) {
    if (!candidate.startsWith("/") || candidate.startsWith("//")) return fallback;
    // eslint-disable-next-line no-control-regex -- control characters are what this refuses
    if (/[\\\u0000-\u001f\u007f]/.test(candidate)) return fallback;
  }
  try {
    // The browser's reading of it must stay on this site.
    if (new URL(to, "http://same.site").host !== "same.site") return fallback;
  } catch {
    return fallback;
  }
  // Escapes already in it stay as they are; a space and anything outside printable ASCII is
  // encoded as UTF-8 (a lone surrogate, which has no UTF-8 form, sends the visitor to the fallback).
  try {
    return to.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  } catch {
    return fallback;
  }
}
