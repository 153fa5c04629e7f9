// Several web processes that agree (docs/architecture.md "Several web processes"): two web apps on
// one MariaDB and one Redis, as two hosts run them — an approval through one is on the board the
// other serves at once, a session started through one is signed in through the other, and wrong
// log-ins through both count against one lock — and a group of two processes on one port without
// Redis (server/cluster.ts), whose processes agree through their primary. MariaDB only
// (TEST_DB=mariadb): it is where several hosts run, and one stack here costs a sidecar and four web
// processes, too much to repeat on SQLite in CI's time.
import http from "node:http";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { adminClient, login, register, userClient } from "../support/accounts.ts";
import { BASELINES, SEED_SUITE, csvBlob, lerfCsv, morfCsv, suiteFolder } from "./metarankFixtures.ts";

const onMariaDb = process.env.TEST_DB === "mariadb";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const SUITE = SEED_SUITE.id;

let stack: Stack;
let second: Awaited<ReturnType<Stack["startWeb"]>>;

/** A GET on a connection of its own (no keep-alive), so a group's primary hands each to the next process. */
function freshGet(baseUrl: string, path: string): Promise<{ status: number; cache: string | null; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(baseUrl + path, { agent: false, headers: { Connection: "close" } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, cache: (res.headers["x-page-cache"] as string | undefined) ?? null, body }));
      })
      .on("error", reject);
  });
}

function importBaselines(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", "tsx", "seeds/importSuite.ts", dir], { cwd: ROOT, env: stack.env });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (out += d));
    p.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`import exited ${code}: ${out}`))));
  });
}

/** Scores and submits a method as `c`; resolves to the submission's id as the approval page lists it. */
async function submitMethod(c: Client, admin: Client, algorithm: string): Promise<number> {
  const score = new FormData();
  score.set("intent", "score");
  score.set("suite", SUITE);
  score.set("algorithm", algorithm);
  score.set("morf", csvBlob(morfCsv(0.9)), "morf.csv");
  score.set("lerf", csvBlob(lerfCsv(0.9)), "lerf.csv");
  expect((await c.post(`/submission?suite=${SUITE}`, score)).status).toBe(302);
  const submit = new FormData();
  submit.set("intent", "submit");
  submit.set("suite", SUITE);
  submit.set("algorithm", algorithm);
  submit.set("email", "me@example.org");
  submit.set("info", "Gradients, smoothed.");
  submit.set("python", new Blob(["def explain(x):\n    return x\n"], { type: "text/x-python" }), "method.py");
  expect((await c.post(`/submission?suite=${SUITE}`, submit)).status).toBe(302);
  const html = (await admin.html("/approval")).replace(/&#x27;/g, "'");
  const row = [...html.matchAll(/submission-(\d+)"[^]*?<\/tr>/g)].find((m) => m[0].includes(`>${algorithm}<`));
  if (!row) throw new Error(`no approval row for ${algorithm}`);
  return Number(row[1]);
}

describe.skipIf(!onMariaDb)("several web processes on MariaDB + Redis", () => {
  beforeAll(async () => {
    stack = await startStack({ env: { REDIS_URL, QUEUE_PREFIX: `webprocs-${process.pid}-${Date.now()}` } });
    second = await stack.startWeb();
    await importBaselines(suiteFolder(BASELINES));
  }, 300_000);
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });

  it("an approval through one process is on the board the other serves at once, from its page cache until then", async () => {
    const board = `/leaderboard?suite=${SUITE}`;
    const reader = new Client(second.baseUrl);
    expect(await reader.html(board)).not.toContain("Two-Hosts-CAM");
    // The second process serves the board from its cache now: only the shared version can tell it.
    expect((await reader.get(board)).headers.get("x-page-cache")).toBe("hit");

    const admin = await adminClient(stack.baseUrl);
    const id = await submitMethod(await userClient(stack.baseUrl, "two-hosts"), admin, "Two-Hosts-CAM");
    const approved = await admin.post("/approval", { id: String(id), decision: "approve" });
    expect(approved.status).toBe(302);

    const after = await reader.get(board);
    expect(after.headers.get("x-page-cache")).not.toBe("hit");
    expect(await after.text()).toContain("Two-Hosts-CAM");
  });

  it("a session started through one process is signed in through the other, and signing out ends it in both", async () => {
    const alice = await userClient(stack.baseUrl, "two-hosts-alice");
    const onSecond = new Client(second.baseUrl);
    onSecond.cookies = alice.cookies;
    const profile = await onSecond.get("/profile");
    expect(profile.status).toBe(200);
    expect(await profile.text()).toContain("two-hosts-alice");
    const stolen = new Client(stack.baseUrl);
    stolen.cookies = new Map(alice.cookies);
    await onSecond.post("/signout", {});
    expect((await stolen.get("/profile")).status).toBe(302);
  });

  it("wrong log-ins through both processes count against one lock", async () => {
    await register(new Client(stack.baseUrl), "two-hosts-bob");
    const throughFirst = new Client(stack.baseUrl, "127.0.0.41");
    const throughSecond = new Client(second.baseUrl, "127.0.0.41");
    // Five failures are allowed (app/.server/throttle.server.ts MAX_FAILURES): three here, two there.
    for (let i = 0; i < 3; i++) await expect(login(throughFirst, "two-hosts-bob", `guess-${i}`)).rejects.toThrow(/login of two-hosts-bob failed/);
    for (let i = 3; i < 5; i++) await expect(login(throughSecond, "two-hosts-bob", `guess-${i}`)).rejects.toThrow(/login of two-hosts-bob failed/);
    await expect(login(throughSecond, "two-hosts-bob")).rejects.toThrow(/Too many failed log-ins/);
    await expect(login(throughFirst, "two-hosts-bob")).rejects.toThrow(/Too many failed log-ins/);
  });

  it("a group of two processes on one port without Redis agrees through its primary", async () => {
    const group = await stack.startWeb({ WEB_PROCESSES: "2", REDIS_URL: "" });
    try {
      const page = "/datasetPreview?tab=users";
      // Each connection goes to the next process: both render the page, then answer it from their caches.
      const warm = await Promise.all([0, 1, 2, 3].map(() => freshGet(group.baseUrl, page)));
      for (const r of warm) expect(r.body).not.toContain("set shared by a group");
      const hits = [];
      for (let i = 0; i < 4; i++) hits.push((await freshGet(group.baseUrl, page)).cache);
      expect(hits.filter((h) => h === "hit").length).toBeGreaterThanOrEqual(2);

      const carol = await userClient(group.baseUrl, "group-carol");
      const created = await carol.post("/datasetInDetail", { intent: "create", name: "set shared by a group", visibility: "public" });
      expect(created.status).toBeLessThan(400);
      // Whichever process answers next shows it.
      for (let i = 0; i < 4; i++) expect((await freshGet(group.baseUrl, page)).body).toContain("set shared by a group");
    } finally {
      await group.stop();
    }
  });
});
