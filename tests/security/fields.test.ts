// Every text field is bounded and clean (docs/security.md "Fields"): control characters (NUL
// included) in any field of any form → 400 with a message, never a 500 and never a row; over-long
// free text → 400 with a message naming the maximum, nothing stored.
import { QueryTypes, type Sequelize } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { adminClient, register, userClient } from "../support/accounts.ts";
import { Client } from "../support/client.ts";
import { CAPTCHA, startStack, type Stack } from "../support/stack.ts";

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
const CONTROL_MESSAGE = "This field contains control characters (such as NUL) that cannot be stored. Please remove them.";

/** The answer to a form with a smuggled control character: 400, the message in the layout's error page. */
async function expectRefused(res: Response) {
  expect(res.status).toBe(400);
  const html = await res.text();
  expect(html).toContain(CONTROL_MESSAGE);
  expect(html).toContain("<h1>400");
}

describe("control characters", () => {
  for (const bad of ["nul\u0000", "bell\u0007", "esc\u001b[31m", "c1\u0085"]) {
    it(`registration with ${JSON.stringify(bad)} in the institute is refused and creates no account`, async () => {
      const c = new Client(stack.baseUrl);
      await expectRefused(await register(c, `mallory${bad.length}`, { institute: bad }));
      expect(await count("SELECT COUNT(*) AS n FROM users WHERE username = ?", [`mallory${bad.length}`])).toBe(0);
    });
  }

  it("every form of the site refuses NUL with 400 (never 500) and writes nothing", async () => {
    const users = await count("SELECT COUNT(*) AS n FROM users");
    const servers = await count("SELECT COUNT(*) AS n FROM servers");
    const datasets = await count("SELECT COUNT(*) AS n FROM datasets");
    const runs = await count("SELECT COUNT(*) AS n FROM evaluation_runs");
    const anon = new Client(stack.baseUrl);
    const cases: Array<[Client, string, Record<string, string>]> = [
      [anon, "/signin", { intent: "login", username: "alice\u0000", password: "x", code: CAPTCHA, captchaId: await anon.captchaId() }],
      [alice, "/profile", { intent: "edit", telephone: "", identify: "", adminCode: "code\u0000" }],
      [alice, "/profile", { intent: "password", oldPassword: "secret-pass-1", newPassword: "n\u0000", confirmPassword: "n\u0000" }],
      [alice, "/submission?suite=metarank-local", { intent: "submit", algorithm: "My\u0000method", email: "a@b.cd", info: "x" }],
      [alice, "/datasetInDetail", { intent: "create", name: "cats\u0000", visibility: "public" }],
      [alice, "/UserImgclassification?dataset=1", { intent: "run", model: "m\u0000", algorithm: "Saliency", picture: "1" }],
      [alice, "/language", { lng: "zh\u0000", redirectTo: "/homepage" }],
      [admin, "/admin/manage_server", { intent: "create", username: "gpu\u0000", password: "pw", password2: "pw" }],
      [admin, "/admin/evaluations", { intent: "start", suite: "metarank-local", method: "Saliency", limit: "1", params: '{"a":"\u0000"}' }],
      [admin, "/approval", { id: "1", decision: "approve\u0000" }],
    ];
    for (const [client, path, body] of cases) {
      const res = await client.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      // The language toggle is a resource route: its 400 carries the message's key, not a page.
      expect(await res.text(), path).toContain(path === "/language" ? "forms:controlCharacters" : CONTROL_MESSAGE);
    }
    // A control character in a field NAME, and in a multipart field, likewise.
    expect((await alice.post("/profile", { intent: "edit", "tele\u0000phone": "1" })).status).toBe(400);
    const multipart = new FormData();
    multipart.append("intent", "upload");
    multipart.append("datasetId", "1\u0000");
    multipart.append("files", new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }), "a.png");
    const up = await alice.post("/datasetInDetail", multipart);
    expect(up.status).toBe(400);
    expect(await up.text()).toContain(CONTROL_MESSAGE);
    expect(await count("SELECT COUNT(*) AS n FROM users")).toBe(users);
    expect(await count("SELECT COUNT(*) AS n FROM servers")).toBe(servers);
    expect(await count("SELECT COUNT(*) AS n FROM datasets")).toBe(datasets);
    expect(await count("SELECT COUNT(*) AS n FROM evaluation_runs")).toBe(runs);
  });

  it("keeps tabs and line breaks in multi-line text (they are typed)", async () => {
    const res = await alice.post("/submission?suite=metarank-local", {
      intent: "submit",
      algorithm: "Tabbed",
      email: "a@b.cd",
      info: "line one\r\n\tline two",
    });
    // Refused for the missing result files, not for the characters.
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).not.toContain(CONTROL_MESSAGE);
    expect(html).toContain("Please upload your morf result!");
  });
});

describe("maximum lengths", () => {
  it("registration: an institute over 200 characters is refused with the maximum, not cut silently", async () => {
    const c = new Client(stack.baseUrl);
    const res = await register(c, "longinstitute", { institute: "I".repeat(201) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("At most 200 characters, please.");
    expect(await count("SELECT COUNT(*) AS n FROM users WHERE username = 'longinstitute'")).toBe(0);
    expect((await register(new Client(stack.baseUrl), "okinstitute", { institute: "I".repeat(200) })).status).toBe(302);
  });

  it("registration and log-in: a password over 256 characters is refused without hashing it", async () => {
    const c = new Client(stack.baseUrl);
    const res = await register(c, "longpass", { pass: "p".repeat(257), checkPass: "p".repeat(257) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("At most 256 characters, please.");
  });

  it("submission: detailed information over 5000 characters is refused with a message (8 MiB used to be stored)", async () => {
    const res = await alice.post("/submission?suite=metarank-local", { intent: "submit", algorithm: "Verbose", email: "a@b.cd", info: "x".repeat(5001) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The detailed information may be at most 5000 characters.");
    expect(await count("SELECT COUNT(*) AS n FROM submissions")).toBe(0);
  });

  it("Chinese pages say the same in Chinese", async () => {
    const c = new Client(stack.baseUrl);
    await c.post("/language", { lng: "zh", redirectTo: "/homepage" });
    const res = await register(c, "zhlong", { institute: "院".repeat(201) });
    expect(await res.text()).toContain("最多 200 个字符。");
    const nul = await register(new Client(stack.baseUrl), "zhnul", { institute: "a\u0000" });
    expect(nul.status).toBe(400);
  });
});
