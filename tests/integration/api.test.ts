// The /api/v1 contract (docs/api.md) against the real stack (web app, sidecar, database): tokens
// made on /profile, every endpoint called over HTTP, every answer checked against the OpenAPI
// document the app serves, and the document's paths matched with the route files.
// TEST_DB=sqlite|mariadb npx vitest run tests/integration/api.test.ts
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import yazl from "yazl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeNpy } from "../../sidecar/inference/evaluation/npy.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { runCommand } from "../support/command.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import { Contract, createTokenOnProfile, routePaths, suiteCsv, type OpenApi } from "./apiSupport.ts";

let stack: Stack;
let contract: Contract;
let userToken: string;
let adminToken: string;
let userPage: Client;
let suite: { id: string; tasks: string[]; grid: number[]; mapsImages: number | null; taskInputs: Record<string, [number, number, number] | null> };

const RATE_PER_MINUTE = 40;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** One API call, its answer checked against the document (status documented, body valid). */
async function call(method: string, path: string, opts: { token?: string; json?: unknown; form?: FormData; cookie?: string } = {}): Promise<Answer> {
  const headers = new Headers();
  if (opts.token) headers.set("Authorization", `Bearer ${opts.token}`);
  if (opts.cookie) headers.set("Cookie", opts.cookie);
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(opts.json);
  } else if (opts.form) body = opts.form;
  const res = await fetch(stack.baseUrl + path, { method, headers, body, redirect: "manual" });
  const parsed = (await res.json()) as Record<string, unknown>;
  contract.check(method, new URL(path, "http://x").pathname, res.status, res.headers.get("Content-Type"), parsed);
  return { status: res.status, body: parsed, headers: res.headers };
}

const errorOf = (a: Answer) => (a.body as { error: { code: string; message: { en: string; zh: string }; details?: Record<string, unknown> } }).error;

function scoreForm(algorithm: string, quality: number | null, extra: { morf?: Blob; lerf?: Blob } = {}) {
  const f = new FormData();
  f.set("algorithm", algorithm);
  if (quality !== null) {
    f.set("morf", extra.morf ?? new Blob([suiteCsv(suite.tasks, suite.grid, 0.5 - 0.45 * quality)], { type: "text/csv" }), "morf.csv");
    f.set("lerf", extra.lerf ?? new Blob([suiteCsv(suite.tasks, suite.grid, 0.3 + 0.55 * quality)], { type: "text/csv" }), "lerf.csv");
  }
  return f;
}

beforeAll(async () => {
  stack = await startStack({ env: { SUBMISSION_DAILY_LIMIT: "20", API_RATE_PER_MINUTE: String(RATE_PER_MINUTE) } });
  const doc = (await (await fetch(`${stack.baseUrl}/api/v1/openapi.json`)).json()) as OpenApi;
  contract = new Contract(doc);
  userPage = await userClient(stack.baseUrl, "api_user");
  userToken = (await createTokenOnProfile(userPage, "laptop")).secret;
  adminToken = (await createTokenOnProfile(await adminClient(stack.baseUrl), "admin script")).secret;
});
afterAll(async () => {
  await stack?.stop();
});

describe("the OpenAPI document", () => {
  it("describes exactly the /api/v1 routes of app/routes.ts", () => {
    expect(contract.doc.openapi).toBe("3.1.0");
    expect(Object.keys(contract.doc.paths).sort()).toEqual(routePaths());
  });

  it("is served as JSON and matches its own description", async () => {
    const a = await call("GET", "/api/v1/openapi.json");
    expect(a.status).toBe(200);
    expect((a.body as { info: { description: string } }).info.description).toMatch(`${RATE_PER_MINUTE} calls per minute`);
  });
});

describe("tokens on /profile", () => {
  it("shows a new secret once, lists name and prefix, and refuses bad names in both languages", async () => {
    const c = await userClient(stack.baseUrl, "token_owner");
    const { secret, html } = await createTokenOnProfile(c, "CI runner");
    expect(html).toContain("Copy the token");
    const page = await c.html("/profile");
    expect(page).not.toContain(secret);
    expect(page).toContain("CI runner");
    expect(page).toContain(secret.slice(0, 11));
    let res = await c.post("/profile", { intent: "token-create", name: "   " });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Please give the token a name.");
    res = await c.post("/profile", { intent: "token-create", name: "x".repeat(101) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("A token name has at most 100 characters.");
    await c.post("/language", { lng: "zh", redirectTo: "/profile" });
    const zhPage = (await c.html("/profile")).replace(/<script[\s\S]*?<\/script>/g, "");
    for (const text of ["API 令牌", "创建令牌", "撤销", secret.slice(0, 11)]) expect(zhPage).toContain(text);
  });

  it("allows at most 10 live tokens", async () => {
    const c = await userClient(stack.baseUrl, "token_hoarder");
    for (let i = 0; i < 10; i++) await createTokenOnProfile(c, `t${i}`);
    const res = await c.post("/profile", { intent: "token-create", name: "one too many" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("You already have 10 tokens");
  });

  it("a revoked token gets 401 at once", async () => {
    const c = await userClient(stack.baseUrl, "revoker");
    const { secret } = await createTokenOnProfile(c, "short-lived");
    expect((await call("GET", "/api/v1/submissions", { token: secret })).status).toBe(200);
    const id = (await c.html("/profile")).match(/data-testid="api-token-(\d+)"/)![1];
    const res = await c.post("/profile", { intent: "token-revoke", id });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/profile?msg=token-revoked");
    expect(await c.html("/profile?msg=token-revoked")).toContain("The token was revoked; it no longer works.");
    const a = await call("GET", "/api/v1/submissions", { token: secret });
    expect(a.status).toBe(401);
    expect(errorOf(a).code).toBe("unauthorized");
    expect(a.headers.get("WWW-Authenticate")).toMatch(/invalid_token/);
    // Another user's token id cannot be revoked by this user.
    const other = await c.post("/profile", { intent: "token-revoke", id: "1" });
    expect(other.status).toBe(404);
  });

  it("a token lives as long as its owner chose, shown on the page; a password change revokes every token", async () => {
    const c = await userClient(stack.baseUrl, "token_expiry");
    const page = await c.html("/profile");
    expect(page).toMatch(/<option value="90" selected="">90 days<\/option>/);
    expect(page).toContain('<option value="never">never expires</option>');
    const month = await c.post("/profile", { intent: "token-create", name: "month", expiresIn: "30" });
    const secret = (await month.text()).match(/mr_[A-Za-z0-9_-]{43}/)![0];
    await c.post("/profile", { intent: "token-create", name: "forever", expiresIn: "never" });
    const odd = await c.post("/profile", { intent: "token-create", name: "odd", expiresIn: "7" });
    expect(odd.status).toBe(400);
    expect(await odd.text()).toContain("Please choose one of the offered lifetimes.");
    const listed = await c.html("/profile");
    const expires = [...listed.matchAll(/data-testid="api-token-expires-\d+"><span>([^<]*)</g)].map((m) => m[1]);
    // Each cell names its column (a phone shows one token per card, app.css .token-table); the help links the API's reference.
    expect(listed).toContain('data-label="Expires" data-testid="api-token-expires-');
    expect(listed).toMatch(/<a[^>]*href="\/api\/v1\/openapi\.json"[^>]*>the API documentation<\/a>/);
    expect(expires).toEqual([new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) + expires[0].slice(10), "never expires"]);
    expect((await call("GET", "/api/v1/submissions", { token: secret })).status).toBe(200);
    const changed = await c.post("/profile", { intent: "password", oldPassword: "secret-pass-1", newPassword: "pw-654321", confirmPassword: "pw-654321" });
    expect(location(changed)).toBe("/profile?msg=password-tokens");
    expect((await call("GET", "/api/v1/submissions", { token: secret })).status).toBe(401);
    const after = await c.html("/profile?msg=password-tokens");
    expect(after).toContain("You have no API tokens.");
    expect(after).toMatch(/Changed successfully!(<!-- -->)? Your personal API tokens were revoked with the old password/);
    await c.post("/language", { lng: "zh", redirectTo: "/profile" });
    const zh = await c.html("/profile");
    for (const text of ["有效期", "90 天", "永不过期", "修改密码会撤销您的全部令牌"]) expect(zh).toContain(text);
    expect(zh).toMatch(/<a[^>]*href="\/api\/v1\/openapi\.json"[^>]*>API 文档<\/a>/);
    expect(await c.html("/profile?msg=password-tokens")).toContain("您的个人 API 令牌已随旧密码一并撤销");
  });
});

describe("public reads", () => {
  it("lists suites with tasks, grid, patch size and kit address, anonymously or with a token", async () => {
    const anon = await call("GET", "/api/v1/suites");
    expect(anon.status).toBe(200);
    const suites = anon.body.suites as (typeof suite & { patchSize: number; kitUrl: string; taskKitUrls: Record<string, string>; isDefault: boolean })[];
    const chosen = suites.find((s) => s.isDefault)!;
    expect(chosen.tasks.length).toBeGreaterThan(0);
    expect(chosen.kitUrl).toBe(`/suites/${chosen.id}/kit.zip`);
    // Each task's own kit (that dataset and its network only).
    expect(chosen.taskKitUrls).toEqual(Object.fromEntries(chosen.tasks.map((t) => [t, `/suites/${chosen.id}/kit.zip?task=${t}`])));
    // What a maps zip must hold: N maps per task of each task's input size (Fashion-MNIST's 28×28×1 here).
    expect(chosen.mapsImages).toBe(1000);
    expect(chosen.taskInputs.fashionmnist_resnet).toEqual([28, 28, 1]);
    expect(Object.keys(chosen.taskInputs)).toEqual(chosen.tasks);
    suite = chosen;
    expect((await call("GET", "/api/v1/suites", { token: userToken })).body).toEqual(anon.body);
  });

  it("gives a suite's board as the leaderboard shows it; unknown suites are 404", async () => {
    const a = await call("GET", `/api/v1/suites/${suite.id}/board`);
    expect(a.status).toBe(200);
    const rows = a.body.rows as { rank: number; metascoreText: string; algorithm: string; source: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0].rank).toBe(1);
    const html = await new Client(stack.baseUrl).html(`/leaderboard?suite=${suite.id}`);
    expect(html).toContain(rows[0].algorithm);
    expect(html).toContain(rows[0].metascoreText);
    const missing = await call("GET", "/api/v1/suites/no-such-suite/board");
    expect(missing.status).toBe(404);
    expect(errorOf(missing).message.en).toBe("Unknown benchmark suite; reload the page.");
    expect(errorOf(missing).message.zh).toBe("未知的评测套件，请刷新页面。");
  });

  it("refuses a malformed or unknown token even where anonymous reads are allowed", async () => {
    expect((await call("GET", "/api/v1/suites", { token: "mr_" + "A".repeat(43) })).status).toBe(401);
    expect((await call("GET", "/api/v1/suites", { token: "not-a-token" })).status).toBe(401);
  });
});

describe("scoring and submitting", () => {
  it("needs a token: the session cookie is not accepted", async () => {
    const cookie = [...userPage.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const a = await call("POST", `/api/v1/suites/${suite.id}/score`, { cookie, form: scoreForm("Cookie method", 0.5) });
    expect(a.status).toBe(401);
    expect(errorOf(a).message.en).toMatch(/Authorization: Bearer/);
    expect((await call("GET", "/api/v1/submissions", { cookie })).status).toBe(401);
  });

  it("reports the submission page's messages in both languages", async () => {
    let a = await call("POST", `/api/v1/suites/${suite.id}/score`, { token: userToken, form: scoreForm("", null) });
    expect(a.status).toBe(400);
    const fields = errorOf(a).details!.fields as Record<string, { en: string; zh: string }>;
    expect(fields.algorithm).toEqual({ en: "Please input the name of your attribution algorithm!", zh: "请输入您的归因算法名称！" });
    expect(fields.morf.en).toBe("Please upload your morf result!");
    expect(fields.lerf.en).toBe("Please upload your lerf result!");

    const broken = suiteCsv(suite.tasks, suite.grid, 0.2).split("\n");
    broken[2] = broken[2].replace(/^([^,]+),([^,]+),([^,]+)/, "$1,$2,abc");
    a = await call("POST", `/api/v1/suites/${suite.id}/score`, {
      token: userToken,
      form: scoreForm("Broken", 0.5, { morf: new Blob([broken.join("\n")], { type: "text/csv" }) }),
    });
    expect(a.status).toBe(400);
    expect(errorOf(a).details!.files).toEqual(expect.arrayContaining(['morf.csv:3:3 "abc" is not a number']));

    a = await call("POST", `/api/v1/suites/${suite.id}/score`, { token: userToken, json: { algorithm: "x" } });
    expect(a.status).toBe(400);
    expect(errorOf(a).message.en).toBe("Send the files as multipart/form-data.");
  });

  it("refuses a result file over 500 KB with 413 and the page's words", async () => {
    const big = new Blob(["task\n" + "x".repeat(520_000)], { type: "text/csv" });
    const a = await call("POST", `/api/v1/suites/${suite.id}/score`, { token: userToken, form: scoreForm("Big", 0.5, { morf: big }) });
    expect(a.status).toBe(413);
    expect(errorOf(a).message.en).toBe("Please upload a CSV file with a size less than 500KB.");
  });

  let submissionId = 0;
  it("scores two files (κ, rank, board) and submits the draft", async () => {
    const scored = await call("POST", `/api/v1/suites/${suite.id}/score`, { token: userToken, form: scoreForm("API Method", 0.9) });
    expect(scored.status).toBe(200);
    const result = scored.body as {
      metascore: number;
      rank: number;
      boardSize: number;
      board: { candidate: boolean; rank: number; algorithm: string; contributor: string }[];
    };
    const own = result.board.find((r) => r.candidate)!;
    expect(own).toMatchObject({ rank: result.rank, algorithm: "API Method", contributor: "api_user" });
    expect(result.boardSize).toBe(result.board.length);
    // The draft is the page's: the submission page shows the same result.
    expect(await userPage.html(`/submission?suite=${suite.id}`)).toContain("API Method");

    let a = await call("POST", `/api/v1/suites/${suite.id}/submit`, { token: userToken, json: { info: "Smoothed gradients." } });
    expect(a.status).toBe(400);
    expect((errorOf(a).details!.fields as Record<string, { en: string }>).email.en).toBe("Please provide your email address!");

    a = await call("POST", `/api/v1/suites/${suite.id}/submit`, { token: userToken, json: { email: "me@example.org", info: "Smoothed gradients." } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ suite: suite.id, status: "In Process", withPython: false });
    submissionId = a.body.id as number;

    // Nothing scored any more: submitting again says which files are missing.
    a = await call("POST", `/api/v1/suites/${suite.id}/submit`, { token: userToken, json: { email: "me@example.org", info: "again" } });
    expect(a.status).toBe(400);
  });

  it("lists the caller's submissions and gives one; other people's are 404, all=1 is for admins", async () => {
    const mine = await call("GET", "/api/v1/submissions", { token: userToken });
    expect((mine.body.submissions as { id: number }[]).map((s) => s.id)).toEqual([submissionId]);
    const one = await call("GET", `/api/v1/submissions/${submissionId}`, { token: userToken });
    expect(one.body).toMatchObject({ id: submissionId, algorithm: "API Method", status: "In Process", username: "api_user", provenance: "self-reported" });
    const stranger = await userClient(stack.baseUrl, "stranger");
    const strangerToken = (await createTokenOnProfile(stranger, "s")).secret;
    expect((await call("GET", `/api/v1/submissions/${submissionId}`, { token: strangerToken })).status).toBe(404);
    expect((await call("GET", "/api/v1/submissions/abc", { token: userToken })).status).toBe(400);
    expect((await call("GET", "/api/v1/submissions/99999999999", { token: userToken })).status).toBe(400);
    expect((await call("GET", "/api/v1/submissions?all=1", { token: userToken })).status).toBe(403);
    const all = await call("GET", "/api/v1/submissions?all=1", { token: adminToken });
    expect((all.body.submissions as { id: number }[]).some((s) => s.id === submissionId)).toBe(true);
    expect((await call("GET", `/api/v1/submissions/${submissionId}`, { token: adminToken })).status).toBe(200);
  });

  it("decisions: a user's token gets 403; an admin's approves once, and the row joins the board", async () => {
    let a = await call("POST", `/api/v1/submissions/${submissionId}/decision`, { token: userToken, json: { decision: "approve" } });
    expect(a.status).toBe(403);
    expect(errorOf(a).message).toEqual({ en: "Administrators only.", zh: "仅限管理员。" });
    expect((await call("GET", "/api/v1/decisions", { token: userToken })).status).toBe(403);
    a = await call("POST", `/api/v1/submissions/${submissionId}/decision`, { token: adminToken, json: { decision: "maybe" } });
    expect(a.status).toBe(400);
    // A reason goes with a rejection only (the approval page's rule), in both languages.
    a = await call("POST", `/api/v1/submissions/${submissionId}/decision`, { token: adminToken, json: { decision: "approve", note: "nice" } });
    expect(a.status).toBe(400);
    expect(errorOf(a).message).toEqual({ en: "A reason can be given with a rejection only.", zh: "只有驳回时才能填写理由。" });
    a = await call("POST", `/api/v1/submissions/${submissionId}/decision`, { token: adminToken, json: { decision: "approve" } });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ id: submissionId, status: "Approved" });
    a = await call("POST", `/api/v1/submissions/${submissionId}/decision`, { token: adminToken, json: { decision: "reject" } });
    expect(a.status).toBe(409);
    const decisions = await call("GET", "/api/v1/decisions", { token: adminToken });
    expect((decisions.body.decisions as { id: number; decidedBy: string; status: string }[]).find((d) => d.id === submissionId)).toMatchObject({
      decidedBy: "root-admin",
      status: "Approved",
      note: null,
    });
    const board = await call("GET", `/api/v1/suites/${suite.id}/board`);
    expect((board.body.rows as { algorithm: string }[]).some((r) => r.algorithm === "API Method")).toBe(true);
  });
});

/**
 * A zip of `<task>.npy` maps for every task, N maps of the task's input size (the suite's
 * taskInputs), all `fill`; `skip` leaves a task out. NaN maps pass the app's checks (count,
 * dtype, shape) and are refused by the sidecar when the job starts, which checks every value:
 * the job ends at once, failed, instead of evaluating 1,000 images per task in the background.
 */
function mapsZip(n: number, fill: number, skip?: string): Promise<Blob> {
  const zip = new yazl.ZipFile();
  for (const task of suite.tasks) {
    if (task === skip) continue;
    const [h, w] = suite.taskInputs[task]!;
    zip.addBuffer(Buffer.from(writeNpy(new Float32Array(n * h * w).fill(fill), [n, h, w])), `${task}.npy`);
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (c: Buffer) => chunks.push(c));
    zip.outputStream.on("end", () => resolve(new Blob([Buffer.concat(chunks)], { type: "application/zip" })));
    zip.outputStream.on("error", reject);
  });
}

/** Maps per task the default suite's evaluation split needs, as the API says it (suite.json evaluation.images). */
const images = () => suite.mapsImages!;

describe("maps evaluations", () => {
  const mapsForm = async (method: string, zip: Blob) => {
    const f = new FormData();
    f.set("method", method);
    f.set("maps", zip, "maps.zip");
    return f;
  };

  it("refuses a zip without a task's maps, naming the task, in both languages", async () => {
    const missing = suite.tasks[suite.tasks.length - 1];
    const a = await call("POST", `/api/v1/suites/${suite.id}/maps`, {
      token: userToken,
      form: await mapsForm("Maps method", await mapsZip(images(), 0.5, missing)),
    });
    expect(a.status).toBe(400);
    const problems = errorOf(a).details!.problems as { en: string; zh: string }[];
    expect(problems.some((p) => p.en.includes(missing) && p.zh.includes(missing))).toBe(true);
  });

  it("queues a maps job that its owner can poll and nobody else can see", async () => {
    // Maps holding NaN pass the app's checks and are refused by the sidecar, which reads every
    // value: the job ends quickly, failed, with its message.
    const a = await call("POST", `/api/v1/suites/${suite.id}/maps`, { token: userToken, form: await mapsForm("Maps method", await mapsZip(images(), NaN)) });
    expect(a.status, JSON.stringify(a.body)).toBe(202);
    const url = a.body.url as string;
    expect(a.headers.get("Location")).toBe(url);
    let job = await call("GET", url, { token: userToken });
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ id: a.body.job, suite: suite.id, method: "Maps method" });
    for (let i = 0; i < 60 && ["queued", "running"].includes(job.body.state as string); i++) {
      await new Promise((r) => setTimeout(r, 1000));
      job = await call("GET", url, { token: userToken });
    }
    expect(job.body.state).toBe("failed");
    expect((job.body.error as { en: string }).en).toMatch(/maps must hold finite numbers; the first NaN is at \[0, 0, 0\]/);
    const stranger = (await createTokenOnProfile(await userClient(stack.baseUrl, "job_stranger"), "s")).secret;
    expect((await call("GET", url, { token: stranger })).status).toBe(404);
    expect((await call("GET", url, { token: adminToken })).status).toBe(200);
  });
});

describe("docs/api.md", () => {
  it("every curl example runs as written with the real curl and gets a 2xx answer", async () => {
    const doc = fs.readFileSync(path.join(ROOT, "docs/api.md"), "utf8");
    const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).filter((b) => /\bcurl\b/.test(b));
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const c = await userClient(stack.baseUrl, "docs_reader");
    const token = (await createTokenOnProfile(c, "docs")).secret;
    // The files the examples name, as a researcher would have them.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "metarank-api-docs-"));
    fs.writeFileSync(path.join(dir, "morf.csv"), suiteCsv(suite.tasks, suite.grid, 0.2));
    fs.writeFileSync(path.join(dir, "lerf.csv"), suiteCsv(suite.tasks, suite.grid, 0.8));
    fs.writeFileSync(path.join(dir, "maps.zip"), Buffer.from(await (await mapsZip(images(), NaN)).arrayBuffer()));
    // The real curl, asked to also write each answer's status to stderr (stdout stays the example's).
    const prelude = `curl() { command curl --write-out '%{stderr}HTTP %{http_code}\\n' "$@"; }\n`;
    for (const block of blocks) {
      const out = await runCommand("bash", ["-c", prelude + block], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", METARANK: stack.baseUrl, METARANK_TOKEN: token } as unknown as NodeJS.ProcessEnv,
        // The kit example's first request builds the 200 MB kit (about 25 s alone here; more than
        // a minute on a loaded CI machine beside the other test files), so each block gets 4 min.
        timeoutMs: 240_000,
      });
      const statuses = [...out.stderr.matchAll(/^HTTP (\d{3})$/gm)].map((m) => Number(m[1]));
      expect(out.status, `${block}\n${out.stderr}`).toBe(0);
      expect(statuses.length, block).toBe(block.match(/\bcurl\b/g)!.length);
      for (const s of statuses) expect(s, `${block}\n${out.stdout.slice(0, 500)}`).toBeGreaterThanOrEqual(200);
      for (const s of statuses) expect(s, `${block}\n${out.stdout.slice(0, 500)}`).toBeLessThan(300);
    }
    expect(fs.statSync(path.join(dir, "metarank-local-kit.zip")).size).toBeGreaterThan(1000);
    expect(fs.statSync(path.join(dir, "fashionmnist_resnet-kit.zip")).size).toBeGreaterThan(1000);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 600_000);
});

describe("rate limits", () => {
  it(`answers 429 with Retry-After after ${RATE_PER_MINUTE} calls a minute per user`, async () => {
    const c = await userClient(stack.baseUrl, "hammer");
    const { secret } = await createTokenOnProfile(c, "hammer");
    const statuses: number[] = [];
    let last: Answer | null = null;
    for (let i = 0; i <= RATE_PER_MINUTE; i++) {
      last = await call("GET", "/api/v1/suites", { token: secret });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, RATE_PER_MINUTE).every((s) => s === 200)).toBe(true);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(errorOf(last!).code).toBe("rate_limited");
    // The same user's other token shares the allowance (tests/unit/apiTokens.test.ts); another user's is counted on its own.
    const { secret: second } = await createTokenOnProfile(c, "hammer-2");
    expect((await call("GET", "/api/v1/suites", { token: second })).status).toBe(429);
    expect((await call("GET", "/api/v1/suites", { token: userToken })).status).toBe(200);
  });
});

describe("coverage", () => {
  it("called every operation of the document with a successful answer", () => {
    const missing = contract.operations().filter((op) => ![...(contract.seen.get(op) ?? [])].some((s) => s.startsWith("2")));
    expect(missing).toEqual([]);
  });
});
