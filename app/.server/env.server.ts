// Server-only configuration. Secrets never reach client bundles: this module is .server.
export const isProduction = process.env.NODE_ENV === "production";

/** Test hook: a fixed captcha answer. Refused in production (server.ts says so at start). */
export function fixedCaptchaAnswer(): string | undefined {
  const v = process.env.CAPTCHA_FIXED_ANSWER;
  return v && !isProduction ? v : undefined;
}

/** The code that lets a registration choose the administrator role (seed 000 §5). Unset = nobody can. */
export function adminRegisterCode(): string | undefined {
  return process.env.ADMIN_REGISTER_CODE || undefined;
}

export function sessionSecret(): string {
  return process.env.SESSION_SECRET || "meta-rank-dev-secret-change-me";
}

/** Who runs this server, shown in the footer (SITE_TEAM, SITE_CONTACT); the defaults say so plainly. */
export function siteInfo(): { team: string; contact: string } {
  return {
    team: process.env.SITE_TEAM || "the Meta-Rank open-source contributors",
    contact: process.env.SITE_CONTACT || "the administrator of this server (SITE_CONTACT is not set)",
  };
}
