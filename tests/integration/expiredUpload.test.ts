// An upload sent after the session ended: the score CSVs and the attribution maps on /submission
// and pictures on /datasetInDetail. The visitor is sent to log in with 'token失效，请重新登录' and the
// sentence that what was sent was not saved, nothing of the upload is kept, and logging in returns
// them to the page they were on.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { CAPTCHA, ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { register } from "../support/accounts.ts";
import { SEED_SUITE, csvBlob, morfCsv } from "./metarankFixtures.ts";

const SUITE = SEED_SUITE.id;
let stack: Stack;
let uploadDir: string;
let db: ReturnType<typeof createSequelize>;
let n = 0;

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_expired_${process.pid}_${Date.now()}`);
  stack = await startStack({ sidecar: false, env: { UPLOAD_DIR: uploadDir } });
  db = createSequelize(stack.dbUrl);
}, 120_000);
afterAll(async () => {
  await db?.close();
  await stack?.stop();
  fs.rmSync(uploadDir, { recursive: true, force: true });
});

/** Every file under the upload folder (pictures, maps, results), whoever wrote it. */
const storedFiles = () =>
  fs.existsSync(uploadDir)
    ? fs
        .readdirSync(uploadDir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && !e.parentPath.includes("platform"))
        .map((e) => path.join(e.parentPath, e.name))
    : [];

async function signIn(c: Client, username: string, redirectTo = "/profile") {
  const captchaId = await c.captchaId("/signin");
  return c.post("/signin", { intent: "login", username, password: "secret-pass-1", code: CAPTCHA, captchaId, redirectTo });
}

/** A signed-in user (in `lng`) whose session then ends on the server, as after its lifetime. */
async function expiredUser(lng: "en" | "zh") {
  const username = `expired-${lng}-${++n}`;
  const c = new Client(stack.baseUrl);
  await c.post("/language", { lng, redirectTo: "/homepage" });
  await register(c, username);
  expect(location(await signIn(c, username))).toBe("/profile");
  const [rows] = (await db.query("SELECT id FROM users WHERE username = ?", { replacements: [username] })) as [{ id: number }[], unknown];
  return { c, username, userId: rows[0].id };
}
const expire = (userId: number) => db.query("UPDATE sessions SET expires_at = ? WHERE user_id = ?", { replacements: [new Date(Date.now() - 60_000), userId] });

const EXPIRED_UNSAVED = {
  en: "Your session has expired, please log in again. What you sent was not saved",
  zh: "token失效，请重新登录。您刚才提交的内容没有保存",
};
const BROWSER = { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

/** Sends the form as a browser does from `page`, and follows the answer to the log-in page. */
async function sendExpired(c: Client, action: string, page: string, form: FormData, lng: "en" | "zh") {
  const res = await c.request(action, { method: "POST", body: form, headers: { ...BROWSER, Referer: `${stack.baseUrl}${page}` } });
  expect(res.status, await res.clone().text()).toBe(302);
  expect(location(res)).toBe(`/signin?notice=expired-unsaved&redirectTo=${encodeURIComponent(page)}`);
  const signin = await c.html(location(res)!);
  expect(signin).toContain(EXPIRED_UNSAVED[lng]);
  // The log-in form carries the page back.
  expect(signin).toContain(`name="redirectTo" value="${page.replace(/&/g, "&amp;")}"`);
}

describe(`an upload sent with an ended session on ${process.env.TEST_DB}`, () => {
  for (const lng of ["en", "zh"] as const) {
    it(`score CSVs on /submission (${lng}): not saved, told so, back to the page after log-in`, async () => {
      const { c, username, userId } = await expiredUser(lng);
      await expire(userId);
      const page = `/submission?suite=${SUITE}`;
      const form = new FormData();
      form.set("intent", "score");
      form.set("suite", SUITE);
      form.set("algorithm", "Expired-Method");
      form.set("morf", csvBlob(morfCsv(0.5)), "morf.csv");
      await sendExpired(c, page, page, form, lng);
      const [drafts] = (await db.query("SELECT COUNT(*) AS n FROM submission_drafts WHERE user_id = ?", { replacements: [userId] })) as [
        { n: number }[],
        unknown,
      ];
      expect(Number(drafts[0].n)).toBe(0);
      const back = await signIn(c, username, page);
      expect(location(back)).toBe(page);
      expect((await c.get(page)).status).toBe(200);
    });
  }

  it("pictures on /datasetInDetail: nothing stored, and the page after log-in", async () => {
    const { c, username, userId } = await expiredUser("zh");
    const created = await c.post("/datasetInDetail", { intent: "create", name: "before-expiry", visibility: "private" });
    const datasetId = new URL(location(created)!, "http://x").searchParams.get("dataset")!;
    expect(datasetId).toMatch(/^\d+$/);
    const page = `/datasetInDetail?dataset=${datasetId}`;
    await expire(userId);
    const before = storedFiles().length;
    const form = new FormData();
    form.set("intent", "upload");
    form.set("datasetId", datasetId);
    const png = fs.readFileSync(
      path.join(
        ROOT,
        "tests/fixtures/images",
        fs.readdirSync(path.join(ROOT, "tests/fixtures/images")).find((f) => f.endsWith(".png"))!,
      ),
    );
    form.append("pictures", new Blob([png], { type: "image/png" }), "cat.png");
    await sendExpired(c, page, page, form, "zh");
    expect(storedFiles().length).toBe(before);
    const [pictures] = (await db.query("SELECT COUNT(*) AS n FROM pictures WHERE dataset_id = ?", { replacements: [datasetId] })) as [{ n: number }[], unknown];
    expect(Number(pictures[0].n)).toBe(0);
    expect(location(await signIn(c, username, page))).toBe(page);
  });

  it("attribution maps (checked before the body is read): a browser gets the same answer; a script still gets 401", async () => {
    const { c, userId } = await expiredUser("en");
    await expire(userId);
    const page = `/submission?suite=${SUITE}`;
    const action = `/submission?suite=${SUITE}&intent=upload-maps`;
    const form = () => {
      const f = new FormData();
      f.set("suite", SUITE);
      f.set("method", "Expired-Maps");
      // 3 MiB: more than a form, less than the 16 MiB the guard reads (and drops) of a refused body.
      f.set("maps", new Blob([Buffer.alloc(3 * 1024 * 1024, 1)], { type: "application/zip" }), "maps.zip");
      return f;
    };
    const before = storedFiles().length;
    await sendExpired(c, action, page, form(), "en");
    expect(storedFiles().length).toBe(before);
    // With JavaScript the page's <Form> posts to the route's .data: Remix's redirect, encoded for the router.
    const fetched = await c.request(`/submission.data?suite=${SUITE}&intent=upload-maps`, {
      method: "POST",
      body: form(),
      headers: { Referer: `${stack.baseUrl}${page}` },
    });
    expect(fetched.status).not.toBe(401);
    expect(await fetched.text()).toContain(`/signin?notice=expired-unsaved&redirectTo=${encodeURIComponent(page)}`);
    expect(storedFiles().length).toBe(before);
    // A client that is not a browser (no HTML asked for) keeps the plain 401 of the upload guard.
    const script = await c.request(action, { method: "POST", body: form() });
    expect(script.status).toBe(401);
  });
});
