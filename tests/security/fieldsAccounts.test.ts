// Every field of the accounts and admin forms is bounded and clean (docs/security.md "Fields"):
// each form's rules module (app/lib/rules/accounts.ts, profile.ts, servers.ts, evaluation.ts,
// ranking.ts) answers an over-long, malformed or smuggled value with 400 and a message naming the
// field's rule, and writes nothing; never a 500.
import { QueryTypes, type Sequelize } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { adminClient, login, register, userClient } from "../support/accounts.ts";
import { Client, alerts, location } from "../support/client.ts";
import { ADMIN_CODE, CAPTCHA, startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
let db: Sequelize;
let alice: Client;
let admin: Client;

beforeAll(async () => {
  stack = await startStack({ sidecar: false });
  db = createSequelize(stack.dbUrl);
  alice = await userClient(stack.baseUrl, "alice");
  admin = await adminClient(stack.baseUrl);
});
afterAll(async () => {
  await db?.close();
  await stack?.stop();
});

const count = async (sql: string, replacements: unknown[] = []) => Number((await db.query<{ n: number }>(sql, { type: QueryTypes.SELECT, replacements }))[0].n);
const TOO_LONG = (max: number) => `At most ${max} characters, please.`;
const CONTROL = "This field contains control characters (such as NUL) that cannot be stored. Please remove them.";

/** 400 and the messages shown next to the fields. */
async function refused(res: Response): Promise<string[]> {
  expect(res.status).toBe(400);
  return alerts(await res.text());
}

describe("registration", () => {
  it.each([
    ["account", "u".repeat(201), "Username is too long!"],
    ["account", "zero\u200bwidth", "The username may not contain control or invisible formatting characters."],
    ["pass", "p".repeat(257), TOO_LONG(256)],
    ["checkPass", "different", "The passwords are different!"],
    ["phoneNumber", "1380013800x", "Please enter numbers!"],
    ["phoneNumber", "1".repeat(12), "The phone number must be 11 digits!"],
    ["institute", "I".repeat(201), TOO_LONG(200)],
    ["institute", "tab\there", CONTROL],
    ["verificationCode", "c".repeat(257), TOO_LONG(256)],
    ["checkAdministrator", "a".repeat(257), TOO_LONG(256)],
    ["authority", "2", "Please choose Ordinary user or Administrators."],
  ])("%s = %j is refused with its message, and no account is made", async (field, value, message) => {
    const name = `reg-${field}-${value.length}`;
    const res = await register(new Client(stack.baseUrl), name, { [field]: value });
    expect(await refused(res)).toContain(message);
    expect(await count("SELECT COUNT(*) AS n FROM users WHERE username = ?", [name])).toBe(0);
  });

  it("every refused field is reported at once, the confirmation included", async () => {
    const res = await register(new Client(stack.baseUrl), "", { pass: "", checkPass: "x", phoneNumber: "", verificationCode: "" });
    expect(await refused(res)).toEqual(
      expect.arrayContaining([
        "Please enter your Username.",
        "Please enter your password!",
        "The passwords are different!",
        "Please enter your phone number.",
        "Please enter the verification code!",
      ]),
    );
  });

  it("a missing authority reads as Ordinary user; Administrators needs the code", async () => {
    const c = new Client(stack.baseUrl);
    const captchaId = await c.captchaId("/signin?tab=register");
    const base = { intent: "register", pass: "secret-pass-1", checkPass: "secret-pass-1", phoneNumber: "13800138000", verificationCode: CAPTCHA, captchaId };
    expect((await c.post("/signin", { ...base, account: "no-authority" })).status).toBe(302);
    const admins = await count("SELECT COUNT(*) AS n FROM users WHERE username = 'no-authority' AND authority = 1");
    expect(admins).toBe(0);
    const res = await register(new Client(stack.baseUrl), "code-admin", { authority: "1", checkAdministrator: ADMIN_CODE });
    expect(res.status).toBe(302);
  });
});

describe("log-in", () => {
  it("an over-long name is refused by its rule, an over-long password without hashing it", async () => {
    const c = new Client(stack.baseUrl);
    const attempt = async (username: string, password: string) =>
      c.post("/signin", { intent: "login", username, password, code: CAPTCHA, captchaId: await c.captchaId(), redirectTo: "/profile" });
    expect(await refused(await attempt("u".repeat(201), "x"))).toContain("Username is too long!");
    expect(await refused(await attempt("alice", "p".repeat(257)))).toContain("Wrong username or password!");
    expect(await refused(await attempt("", "x"))).toContain("Please enter your Username.");
  });

  it("an unknown intent is a 400 page, not a 500", async () => {
    const res = await new Client(stack.baseUrl).post("/signin", { intent: "explode" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Unknown action.");
  });
});

describe("profile", () => {
  it("Edit Profile: phone, role and admin code are checked; nothing changes", async () => {
    expect(await refused(await alice.post("/profile", { intent: "edit", telephone: "1".repeat(12), identify: "" }))).toContain(
      "The phone number must be 11 digits!",
    );
    expect(await refused(await alice.post("/profile", { intent: "edit", telephone: "", identify: "7" }))).toContain(
      "Please choose Ordinary user or Administrators.",
    );
    expect(await refused(await alice.post("/profile", { intent: "edit", identify: "1", adminCode: "a".repeat(257) }))).toContain(TOO_LONG(256));
    expect(await count("SELECT COUNT(*) AS n FROM users WHERE username = 'alice' AND telephone = '13800138000' AND authority = 0")).toBe(1);
  });

  it("Change password: every field bounded; the old password still works after a refusal", async () => {
    const long = "n".repeat(257);
    const msgs = await refused(await alice.post("/profile", { intent: "password", oldPassword: long, newPassword: long, confirmPassword: long }));
    expect(msgs.filter((m) => m === TOO_LONG(256)).length).toBe(2);
    expect(await refused(await alice.post("/profile", { intent: "password", oldPassword: "", newPassword: "", confirmPassword: "" }))).toEqual(
      expect.arrayContaining(["Please enter the password", "Please enter the password again"]),
    );
    await login(new Client(stack.baseUrl), "alice");
  });
});

describe("server management", () => {
  it("the new-server form: name and password bounded, a tab in the name refused; no entry made", async () => {
    const servers = await count("SELECT COUNT(*) AS n FROM servers");
    const create = (username: string, password: string, password2 = password) =>
      admin.post("/admin/manage_server", { intent: "create", username, password, password2 });
    expect(await refused(await create("n".repeat(201), "pw"))).toContain("The server name must be at most 200 characters");
    expect(await refused(await create("gpu\t01", "pw"))).toContain(CONTROL);
    expect(await refused(await create("gpu-02", "p".repeat(257)))).toContain(TOO_LONG(256));
    expect(await count("SELECT COUNT(*) AS n FROM servers")).toBe(servers);
  });

  it("a deletion naming anything but server ids deletes nothing, confirmed or not", async () => {
    const servers = await count("SELECT COUNT(*) AS n FROM servers");
    const post = (ids: string[]) =>
      admin.request("/admin/manage_server", {
        method: "POST",
        body: new URLSearchParams([["intent", "delete"], ["confirmed", "1"], ...ids.map((id): [string, string] => ["server_ids", id])]),
      });
    for (const ids of [["abc"], ["-1"], ["1.5"], ["1", "x"], ["9999999999"]])
      expect(location(await post(ids)), ids.join()).toBe("/admin/manage_server?msg=delete-failed");
    // More ids than any form has fields: refused before any rule (app/.server/forms.server.ts).
    expect((await post(Array.from({ length: 250 }, (_, i) => String(i + 1)))).status).toBe(400);
    // The confirmation step of such a deletion asks nothing.
    const step = await admin.html("/admin/manage_server?confirm=delete&server_ids=abc");
    expect(step).not.toContain('data-testid="confirm-delete-step"');
    expect(step).toContain("Deletion failed");
    expect(await admin.html("/admin/manage_server?confirm=delete")).toContain("Please select the servers to delete first.");
    expect(await count("SELECT COUNT(*) AS n FROM servers")).toBe(servers);
  });
});

describe("evaluation runs", () => {
  it("suite, method, limit and parameters are checked before anything is queued", async () => {
    const runs = await count("SELECT COUNT(*) AS n FROM evaluation_runs");
    const start = (fields: Record<string, string>) =>
      admin.post("/admin/evaluations", { intent: "start", suite: "metarank-local", method: "Saliency", limit: "2", params: "", ...fields });
    expect(await refused(await start({ suite: "s".repeat(101) }))).toContain("Please choose a suite.");
    expect(await refused(await start({ method: "m".repeat(101) }))).toContain("Please choose an attribution method.");
    expect(await refused(await start({ method: "Sal\tiency" }))).toContain("Please choose an attribution method.");
    for (const limit of ["0", "1001", "1e3", "2.5", " "])
      expect(await refused(await start({ limit })), limit).toContain("The image limit must be a whole number from 1 to 1000.");
    expect(await refused(await start({ params: "x".repeat(10_001) }))).toContain(TOO_LONG(10000));
    expect(await refused(await start({ params: '{"a":"\\u0000"}' }))).toContain(CONTROL);
    expect((await start({ params: "[1]" })).status).toBe(400);
    expect(await count("SELECT COUNT(*) AS n FROM evaluation_runs")).toBe(runs);
  });
});

describe("contributor ranking edit mode", () => {
  it("unknown intents, foreign suites and malformed ids change nothing", async () => {
    const post = (pairs: [string, string][]) => admin.request("/admin/ranking?edit=1", { method: "POST", body: new URLSearchParams(pairs) });
    const cases: [string, string][][] = [
      [
        ["intent", "drop-table"],
        ["suite", "metarank-local"],
      ],
      [
        ["intent", "select-all"],
        ["suite", ""],
      ],
      [
        ["intent", "select"],
        ["suite", "metarank-local"],
        ["page_ids", "abc"],
      ],
      [
        ["intent", "select"],
        ["suite", "metarank-local"],
        ["page_ids", "999999"],
        ["ids", "999999"],
      ],
      [
        ["intent", "select"],
        ["suite", "metarank-local"],
        ["page_ids", "1"],
        ["ids", "2"],
      ],
    ];
    for (const pairs of cases) expect(location(await post(pairs)), pairs.map((p) => p.join("=")).join("&")).toContain("msg=invalid");
    expect(
      (await post([["intent", "select"], ["suite", "metarank-local"], ...Array.from({ length: 250 }, (_, i): [string, string] => ["page_ids", String(i + 1)])]))
        .status,
    ).toBe(400);
    expect(await count("SELECT COUNT(*) AS n FROM board_methods WHERE selected = ?", [true])).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM ranking_audits")).toBe(0);
    // A suite that does not exist has no entries to select.
    expect(
      location(
        await post([
          ["intent", "select-all"],
          ["suite", "no-such-suite"],
        ]),
      ),
    ).toContain("msg=selected&n=0");
    expect(await count("SELECT COUNT(*) AS n FROM ranking_audits")).toBe(0);
  });
});
