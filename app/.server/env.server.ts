// Server-only configuration. Secrets never reach client bundles: this module is .server.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
export const isProduction = process.env.NODE_ENV === "production";

/** Test hook: a fixed captcha answer. Refused in production (server.ts says so at start). */
export function fixedCaptchaAnswer(): string | undefined {
  const v = process.env.CAPTCHA_FIXED_ANSWER;
  return v && !isProduction ? v : undefined;
}

/** The code that lets a registration choose the administrator role. Unset = nobody can. */
export function adminRegisterCode(): string | undefined {
  return process.env.ADMIN_REGISTER_CODE || undefined;
}

/**
 * The key that signs session cookies: SESSION_SECRET; otherwise one generated at random on first
 * start and kept in var/session.secret (mode 0600), so restarts keep sessions and no two
 * installations share a key. Never a built-in string (docs/security.md).
 */
export function sessionSecret(): string {
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET;
  const file = path.resolve(process.env.SESSION_SECRET_FILE ?? "var/session.secret");
  try {
    const kept = fs.readFileSync(file, "utf8").trim();
    if (kept.length >= 32) return kept;
  } catch {
    // Not there yet: created below.
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = crypto.randomBytes(32).toString("hex");
  // Written whole under a temporary name, then linked into place: processes starting together
  // either create the file or find it complete (a link fails when the name exists), never half.
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, secret + "\n", { mode: 0o600 });
  try {
    fs.linkSync(tmp, file);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return fs.readFileSync(file, "utf8").trim();
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Who runs this server, shown in the footer (SITE_TEAM, SITE_CONTACT). Null where unset: the
 * footer then names the open-source contributors in the page's language (common.json
 * footer.defaultTeam) and leaves the contact line out.
 */
export function siteInfo(): { team: string | null; contact: string | null } {
  return { team: process.env.SITE_TEAM || null, contact: process.env.SITE_CONTACT || null };
}
