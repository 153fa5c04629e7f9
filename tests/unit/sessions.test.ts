// Password hashing, captchas, throttling and sessions against a real SQLite database.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const file = path.resolve(`var/test/unit-sessions-${process.pid}.sqlite`);
process.env.DATABASE_URL = `sqlite:${file}`;
process.env.CAPTCHA_FIXED_ANSWER = "";

const models = await import("../../models/index.ts");
const { migrate } = await import("../../models/migrate.ts");
const { hashPassword, verifyPassword } = await import("../../models/password.ts");
const { issueCaptcha, consumeCaptcha, NOSCRIPT_ANSWERS } = await import("../../app/.server/captcha.server.ts");
// The browser's part, as the page's script does it, on Node's WebCrypto.
const { solveWork } = await import("../../app/lib/captchaWork.ts");
const throttle = await import("../../app/.server/throttle.server.ts");
const session = await import("../../app/.server/session.server.ts");

beforeAll(async () => {
  await migrate(models.sequelize);
});
afterAll(async () => {
  await models.sequelize.close();
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
});

describe("argon2id", () => {
  it("hashes with argon2id and verifies only the right password", async () => {
    const h = await hashPassword("correct horse");
    expect(h.startsWith("$argon2id$")).toBe(true);
    expect(await verifyPassword(h, "correct horse")).toBe(true);
    expect(await verifyPassword(h, "wrong")).toBe(false);
    expect(await verifyPassword("not-a-hash", "x")).toBe(false);
  });
  it("salts: the same password hashes differently", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });
});

describe("captcha", () => {
  const answer = async (id: string) => (await models.Captcha.findByPk(id))!.answer;
  const check = async (id: string, text: string, work = "", ip = "10.9.0.1") => (await consumeCaptcha({ id, answer: text, work, ip })).ok;

  it("keeps the answer server-side, draws a PNG, and accepts the answer once with the proof of work", async () => {
    const c = await issueCaptcha();
    expect(c.image.startsWith("data:image/png;base64,")).toBe(true);
    expect(Buffer.from(c.image.split(",")[1], "base64").subarray(1, 4).toString()).toBe("PNG");
    const work = String(await solveWork(c.work));
    const text = await answer(c.id);
    expect(await check(c.id, text.toUpperCase(), work)).toBe(true);
    expect(await check(c.id, text, work)).toBe(false); // replay
  });
  it("a wrong answer, or a wrong number for the work, burns the captcha", async () => {
    const c = await issueCaptcha();
    const text = await answer(c.id);
    expect(await check(c.id, "nope", String(await solveWork(c.work)))).toBe(false);
    expect(await check(c.id, text)).toBe(false);
    const d = await issueCaptcha();
    const n = (await solveWork(d.work))!;
    expect(await check(d.id, await answer(d.id), String((n + 1) % d.work.max))).toBe(false);
  });
  it("without the work (JavaScript off) an address has NOSCRIPT_ANSWERS answers in 15 minutes; others are unaffected", async () => {
    for (let i = 0; i < NOSCRIPT_ANSWERS; i++) {
      const c = await issueCaptcha();
      expect(await check(c.id, await answer(c.id), "", "10.9.0.2")).toBe(true);
    }
    const c = await issueCaptcha();
    const refused = await consumeCaptcha({ id: c.id, answer: await answer(c.id), ip: "10.9.0.2" });
    expect(refused).toMatchObject({ ok: false });
    expect((refused as { waitS?: number }).waitS).toBeGreaterThan(0);
    const other = await issueCaptcha();
    expect(await check(other.id, await answer(other.id), "", "10.9.0.3")).toBe(true);
    // With the work the address still gets through.
    const d = await issueCaptcha();
    expect(await check(d.id, await answer(d.id), String(await solveWork(d.work)), "10.9.0.2")).toBe(true);
  });
  it("expired captchas fail", async () => {
    const c = await issueCaptcha();
    const row = await models.Captcha.findByPk(c.id);
    await row!.update({ expiresAt: new Date(Date.now() - 1000) });
    expect(await check(c.id, row!.answer, String(await solveWork(c.work)))).toBe(false);
  });
  it("forged ids fail", async () => expect(await check("f".repeat(32), "abcd", "1")).toBe(false));
});

describe("login throttle", () => {
  it("allows MAX_FAILURES attempts, locks the next for LOCK_S, and a success starts the account's count again", async () => {
    const keys = [throttle.keysFor("mallory", "10.0.0.1")[0]];
    for (let i = 0; i < throttle.MAX_FAILURES; i++) expect(await throttle.beginAttempt(keys)).toBe(0);
    const wait = await throttle.beginAttempt(keys);
    expect(wait).toBeGreaterThan(throttle.LOCK_S - 5);
    expect(wait).toBeLessThanOrEqual(throttle.LOCK_S);
    await throttle.attemptSucceeded(keys);
    expect(await throttle.beginAttempt(keys)).toBe(0);
  });
  it("an address gets only its own attempt back on success", async () => {
    const keys = [throttle.keysFor("nobody", "10.0.0.2")[1]];
    for (let i = 0; i < throttle.MAX_FAILURES_PER_IP - 1; i++) await throttle.beginAttempt(keys);
    await throttle.attemptSucceeded(keys); // 18 left counted
    expect(await throttle.beginAttempt(keys)).toBe(0); // 19
    expect(await throttle.beginAttempt(keys)).toBe(0); // 20
    expect(await throttle.beginAttempt(keys)).toBeGreaterThan(0); // 21: locked
  });
});

describe("server-side sessions", () => {
  it("a cookie maps to a session row; ending it signs out at once", async () => {
    const user = await models.User.create({ username: "sess-user", passwordHash: await hashPassword("x"), telephone: "13800138000", institute: "" });
    const setCookie = await session.startSession(user, new Request("http://x/"));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(";")[0];
    const req = new Request("http://x/", { headers: { Cookie: cookie } });
    expect((await session.getUser(req))?.username).toBe("sess-user");
    // Role changes are read from the row on every request.
    await user.update({ authority: 1 });
    expect((await session.getUser(req))?.isAdmin).toBe(true);
    await session.endSession(req);
    expect(await session.getUser(req)).toBeNull();
  });
  it("a forged or tampered cookie is nobody", async () => {
    expect(await session.getUser(new Request("http://x/", { headers: { Cookie: "mr_session=abc" } }))).toBeNull();
  });
  it("expired sessions are refused", async () => {
    const user = await models.User.create({ username: "sess-old", passwordHash: "x", telephone: "13800138000", institute: "" });
    const cookie = (await session.startSession(user, new Request("http://x/"))).split(";")[0];
    await models.Session.update({ expiresAt: new Date(Date.now() - 1) }, { where: { userId: user.id } });
    expect(await session.getUser(new Request("http://x/", { headers: { Cookie: cookie } }))).toBeNull();
  });
  it("requireAdmin: 403 for users, login redirect for visitors", async () => {
    const user = await models.User.create({ username: "plain", passwordHash: "x", telephone: "13800138000", institute: "" });
    const cookie = (await session.startSession(user, new Request("http://x/"))).split(";")[0];
    const r1 = await session.requireAdmin(new Request("http://x/approval", { headers: { Cookie: cookie } })).catch((e) => e);
    expect(r1).toBeInstanceOf(Response);
    expect((r1 as Response).status).toBe(403);
    const r2 = await session.requireAdmin(new Request("http://x/approval")).catch((e) => e);
    expect((r2 as Response).status).toBe(302);
    expect((r2 as Response).headers.get("Location")).toBe("/signin?notice=login-first&redirectTo=%2Fapproval");
  });
  it("safeRedirect refuses other sites", () => {
    expect(session.safeRedirect("//evil.com")).toBe("/homepage");
    expect(session.safeRedirect("https://evil.com")).toBe("/homepage");
    expect(session.safeRedirect("/\\evil.com")).toBe("/homepage");
    expect(session.safeRedirect("/history?x=1")).toBe("/history?x=1");
  });
});

describe("throttle keys", () => {
  it("failures from one address do not lock the same account at another (no lock-out by others)", async () => {
    const attacker = throttle.keysFor("victim-v", "10.1.0.1");
    for (let i = 0; i <= throttle.MAX_FAILURES; i++) await throttle.beginAttempt(attacker);
    expect(await throttle.beginAttempt(attacker)).toBeGreaterThan(0);
    expect(await throttle.beginAttempt(throttle.keysFor("Victim-V", "10.1.0.2"))).toBe(0);
  });
  it("the admin code's count is per address over registration and Edit Profile", async () => {
    for (let i = 0; i < throttle.MAX_FAILURES; i++) expect(await throttle.beginAttempt(throttle.adminCodeKeys("10.1.0.3"))).toBe(0);
    expect(await throttle.beginAttempt(throttle.adminCodeKeys("10.1.0.3", 42))).toBeGreaterThan(0);
    expect(await throttle.beginAttempt(throttle.adminCodeKeys("10.1.0.4", 42))).toBe(0);
  });
  it("counts an IPv4-mapped address as IPv4 and an IPv6 address by its /64", () => {
    expect(throttle.addressOf("::ffff:10.0.0.7")).toBe("10.0.0.7");
    expect(throttle.addressOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(throttle.addressOf("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(throttle.addressOf("::1")).toBe("0:0:0:0::/64");
    expect(throttle.keysFor("a", "2001:db8:1:2::5")).toEqual(throttle.keysFor("a", "2001:db8:1:2:9::9"));
  });
});

describe("address throttle", () => {
  it("an address gets a larger allowance than one username", async () => {
    const [, ip] = throttle.keysFor("x", "10.9.9.9");
    for (let i = 0; i < throttle.MAX_FAILURES_PER_IP; i++) expect(await throttle.beginAttempt([ip])).toBe(0);
    expect(await throttle.beginAttempt([ip])).toBeGreaterThan(0);
  });
});
