// Personal API tokens against a real SQLite database (docs/api.md "Tokens", docs/security.md):
// each token lives as long as its owner chose and is refused after; a password change revokes
// every token of the account; the API's rate limit counts a user's tokens together.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const file = path.resolve(`var/test/unit-api-tokens-${process.pid}.sqlite`);
fs.mkdirSync(path.dirname(file), { recursive: true });
process.env.DATABASE_URL = `sqlite:${file}`;
process.env.API_RATE_PER_MINUTE = "3";

const models = await import("../../models/index.ts");
const { ApiToken } = await import("../../models/ApiToken.ts");
const { migrate } = await import("../../models/migrate.ts");
const { hashPassword } = await import("../../models/password.ts");
const tokens = await import("../../app/.server/apiTokens.server.ts");
const { changePassword } = await import("../../app/.server/profile.server.ts");
const { apiGet, json } = await import("../../app/.server/api/endpoint.server.ts");

beforeAll(async () => {
  await migrate(models.sequelize);
});
afterAll(async () => {
  await models.sequelize.close();
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
});

const newUser = async (username: string) =>
  models.User.create({ username, passwordHash: await hashPassword("old-pass-1"), telephone: "13800138000", institute: "" });
const secretOf = (r: Awaited<ReturnType<typeof tokens.createToken>>) => {
  if (!r.ok) throw new Error(r.error);
  return r.secret;
};
const DAY = 86_400_000;

describe("token lifetimes", () => {
  it("lives the days its owner chose (90 by default, or never); the form offers nothing else", async () => {
    const u = await newUser("tok-life");
    const near = (iso: string | null, days: number) => expect(Math.abs(new Date(iso!).getTime() - (Date.now() + days * DAY))).toBeLessThan(60_000);
    const month = await tokens.createToken(u.id, "month", "30");
    const plain = await tokens.createToken(u.id, "default", undefined);
    const forever = await tokens.createToken(u.id, "forever", "never");
    near(month.ok ? month.token.expiresAt : null, 30);
    near(plain.ok ? plain.token.expiresAt : null, 90);
    expect(forever.ok && forever.token.expiresAt).toBeNull();
    for (const bad of ["7", "3650", "90.5", "-1", ""])
      expect(await tokens.createToken(u.id, "odd", bad), bad).toEqual({ ok: false, error: "account:apiTokens.msg.expiryInvalid" });
    expect((await tokens.listTokens(u.id)).map((t) => t.name)).toEqual(["month", "default", "forever"]);
  });

  it("is refused once it has expired, and listed as expired", async () => {
    const u = await newUser("tok-expired");
    const secret = secretOf(await tokens.createToken(u.id, "soon", "30"));
    expect((await tokens.userOfSecret(secret))?.user.username).toBe("tok-expired");
    await ApiToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: u.id } });
    expect(await tokens.userOfSecret(secret)).toBeNull();
    expect((await tokens.listTokens(u.id))[0].expired).toBe(true);
  });
});

describe("password change", () => {
  it("revokes every API token of the account, and only of that account", async () => {
    const u = await newUser("tok-pw");
    const other = await newUser("tok-pw-other");
    const mine = [secretOf(await tokens.createToken(u.id, "a", "never")), secretOf(await tokens.createToken(u.id, "b", "365"))];
    const theirs = secretOf(await tokens.createToken(other.id, "c", "30"));
    const r = await changePassword(u.id, { oldPassword: "old-pass-1", newPassword: "new-pass-2", confirmPassword: "new-pass-2" }, "10.2.0.1");
    expect(r).toEqual({ ok: true, changed: true, tokensRevoked: 2 });
    for (const s of mine) expect(await tokens.userOfSecret(s)).toBeNull();
    expect(await tokens.listTokens(u.id)).toEqual([]);
    expect((await tokens.userOfSecret(theirs))?.user.username).toBe("tok-pw-other");
  });
});

describe("API rate limit", () => {
  it("counts all of a user's tokens together (ten tokens are not ten allowances)", async () => {
    const u = await newUser("tok-rate");
    const other = await newUser("tok-rate-other");
    const [first, second] = [secretOf(await tokens.createToken(u.id, "1", "30")), secretOf(await tokens.createToken(u.id, "2", "30"))];
    const theirs = secretOf(await tokens.createToken(other.id, "3", "30"));
    const endpoint = apiGet("user", async () => json({ ok: true }));
    const call = (secret: string) =>
      endpoint({
        request: new Request("http://x/api/v1/suites", { headers: { Authorization: `Bearer ${secret}` } }),
        params: {},
        context: { ip: "10.3.0.1", requestId: "t", cspNonce: "" },
      });
    for (let i = 0; i < 3; i++) expect((await call(i % 2 ? second : first)).status).toBe(200);
    expect((await call(second)).status).toBe(429);
    expect((await call(first)).status).toBe(429);
    expect((await call(theirs)).status).toBe(200);
  });
});
