// Sessions, redirects and cross-site requests (docs/security.md "Cases").
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { login, register } from "../support/accounts.ts";
import { CAPTCHA } from "../support/stack.ts";

let stack: Stack;
beforeAll(async () => {
  // One trusted proxy hop, so X-Forwarded-Proto from it counts.
  stack = await startStack({ sidecar: false, env: { TRUST_PROXY: "1" } });
  await register(new Client(stack.baseUrl), "session-sam");
});
afterAll(async () => {
  await stack?.stop();
});

async function loginWith(redirectTo: string, headers: Record<string, string> = {}): Promise<Response> {
  const c = new Client(stack.baseUrl);
  const captchaId = await c.captchaId("/signin");
  return c.request("/signin", {
    method: "POST",
    headers,
    body: new URLSearchParams({ intent: "login", username: "session-sam", password: "secret-pass-1", code: CAPTCHA, captchaId, redirectTo }),
  });
}

describe(`sessions on ${process.env.TEST_DB}`, () => {
  it("after log-in only same-site paths are followed; no redirectTo makes log-in fail", async () => {
    for (const to of ["https://evil.example/", "//evil.example", "/\\evil.example", "/%2F%2Fevil.example", "/\t/evil.example", "/%E0%A4%A"]) {
      const res = await loginWith(to);
      expect(res.status, JSON.stringify(to)).toBe(302);
      expect(location(res), JSON.stringify(to)).toBe("/homepage");
    }
    // A raw NUL is refused with the form (400, app/.server/forms.server.ts) before any redirect is considered.
    const nul = await loginWith("/\u0000");
    expect(nul.status).toBe(400);
    expect(nul.headers.get("location")).toBeNull();
    expect(location(await loginWith("/history?page=2"))).toBe("/history?page=2");
  });

  it("the session cookie is Secure only over HTTPS (here: a trusted proxy's X-Forwarded-Proto), so plain-HTTP labs can sign in", async () => {
    const plain = (await loginWith("/profile")).headers.getSetCookie().find((c) => c.startsWith("mr_session="))!;
    expect(plain).not.toMatch(/;\s*Secure/i);
    expect(plain).toMatch(/HttpOnly/i);
    expect(plain).toMatch(/SameSite=Lax/i);
    const viaHttps = (await loginWith("/profile", { "X-Forwarded-Proto": "https" })).headers.getSetCookie().find((c) => c.startsWith("mr_session="))!;
    expect(viaHttps).toMatch(/;\s*Secure/i);
  });

  it("sign-out and other actions refuse requests from another site; same-site ones work", async () => {
    const c = new Client(stack.baseUrl);
    await login(c, "session-sam");
    const foreign = await c.request("/signout", { method: "POST", headers: { Origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect((await c.get("/profile")).status).toBe(200); // still signed in
    const crossSite = await c.request("/language", { method: "POST", headers: { "Sec-Fetch-Site": "cross-site" }, body: new URLSearchParams({ lng: "zh" }) });
    expect(crossSite.status).toBe(403);
    // A browser gets a page in the site's colours with a way back, in both languages; a script the sentence.
    const page = await c.request("/signout", { method: "POST", headers: { Origin: "https://evil.example", Accept: "text/html,application/xhtml+xml" } });
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain("This request came from another site and was refused.");
    expect(html).toContain("该请求来自其他网站，已被拒绝。");
    expect(html).toContain('<a href="/homepage">Back to the homepage</a>');
    expect(await foreign.text()).toBe("This request came from another site and was refused.");
    const own = await c.request("/signout", { method: "POST", headers: { Origin: stack.baseUrl } });
    expect(own.status).toBe(302);
    expect(location(await c.get("/profile"))).toMatch(/^\/signin/);
  });

  it("HTML pages send a Content-Security-Policy that forbids framing, and the usual headers", async () => {
    const res = await new Client(stack.baseUrl).get("/signin");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain("unsafe-inline'; script"); // inline scripts only with the nonce
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("without SESSION_SECRET a random secret is kept under var/ readable by the service account only", () => {
    expect(stack.env.SESSION_SECRET).toBeUndefined();
    const file = path.join(ROOT, "var/session.secret");
    const stat = fs.statSync(file);
    expect(stat.mode & 0o077).toBe(0);
    expect(fs.readFileSync(file, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it("the SQLite database file is readable by the service account only", () => {
    if (!stack.dbUrl.startsWith("sqlite:")) return; // MariaDB keeps its own files
    const stat = fs.statSync(stack.dbUrl.slice("sqlite:".length));
    expect(stat.mode & 0o077).toBe(0);
  });
});

describe(`an expired session on ${process.env.TEST_DB}`, () => {
  it("says 'token失效，请重新登录' as the original site, says a sent form was not saved, and returns to the page after log-in", async () => {
    const { createSequelize } = await import("../../models/db.ts");
    const db = createSequelize(stack.dbUrl);
    try {
      const c = new Client(stack.baseUrl);
      await login(c, "session-sam");
      // The session ends on the server (as it does after its lifetime, or a sign-out elsewhere).
      await db.query("UPDATE sessions SET expires_at = ?", { replacements: [new Date(Date.now() - 60_000)] });
      const read = await c.get("/history");
      expect(location(read)).toBe("/signin?notice=expired&redirectTo=%2Fhistory");
      expect(await c.html(location(read)!)).toContain("Your session has expired, please log in again.");
      const sent = await c.post("/profile", { intent: "edit", telephone: "13900139000", identify: "" });
      expect(location(sent)).toBe("/signin?notice=expired-unsaved&redirectTo=%2Fprofile");
      await c.post("/language", { lng: "zh", redirectTo: "/homepage" });
      const zh = await c.html(location(sent)!);
      expect(zh).toContain("token失效，请重新登录。您刚才提交的内容没有保存");
      // Logging in from there returns to the page.
      const captchaId = await c.captchaId("/signin");
      const back = await c.post("/signin", {
        intent: "login",
        username: "session-sam",
        password: "secret-pass-1",
        code: CAPTCHA,
        captchaId,
        redirectTo: "/profile",
      });
      expect(location(back)).toBe("/profile");
      // A visitor who never signed in still gets 'Please log in first.'.
      expect(location(await new Client(stack.baseUrl).get("/history"))).toBe("/signin?notice=login-first&redirectTo=%2Fhistory");
    } finally {
      await db.close();
    }
  });
});
