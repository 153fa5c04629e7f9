// Evaluation runs from the web app, end to end: an admin starts a run on /admin/evaluations,
// the queue job streams Evaluation.Run from the real sidecar, the row shows progress and
// completes, the CSVs download and equal what the committed baseline's per-image record
// says for those images; bad input shows the sidecar's message; everything is admin-only.
// Runs are tiny (2 images per task). A second stack runs the same on real Redis.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, alerts, location } from "../support/client.ts";
import { adminClient, userClient } from "../support/accounts.ts";

const GRID_HEADER = "task,0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1";
// The suite's own task list, so a baseline recomputed on more tasks keeps this test true.
const SUITE_JSON = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local/suite.json"), "utf8")) as {
  tasks: string[];
  evaluation: { images: number; methods: unknown[] };
};
const TASKS = SUITE_JSON.tasks;
// Result files of this file's runs go to a folder of their own, removed afterwards.
const EVALUATION_DIR = path.join(ROOT, "var/test", `evaluations_${process.pid}_${crypto.randomBytes(3).toString("hex")}`);
const STACK_ENV = { EVALUATION_WORKERS: "1", QUEUE_ATTEMPTS: "2", QUEUE_BACKOFF_MS: "200", EVALUATION_DIR };

async function until<T>(what: string, fn: () => Promise<T | false | null | undefined>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The <tr> of one run in the page's HTML, with React's text separators and entities undone. */
function runRow(html: string, id: number): string | null {
  const m = html.match(new RegExp(`<tr[^>]*data-testid="run-${id}"[^>]*>([\\s\\S]*?)</tr>`));
  return m
    ? m[0]
        .replace(/<!-- -->/g, "")
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&amp;/g, "&")
    : null;
}
const rowState = (row: string) => row.match(/data-state="(\w+)"/)?.[1];

async function startRun(admin: Client, fields: Record<string, string>): Promise<number> {
  const before = new Set([...(await admin.html("/admin/evaluations")).matchAll(/data-testid="run-(\d+)"/g)].map((m) => Number(m[1])));
  const res = await admin.post("/admin/evaluations", { intent: "start", suite: "metarank-local", method: "Saliency", limit: "2", params: "", ...fields });
  expect(res.status, await res.clone().text()).toBe(302);
  expect(location(res)).toBe("/admin/evaluations?msg=started");
  const html = await admin.html("/admin/evaluations?msg=started");
  expect(html).toContain("The evaluation run was queued.");
  const ids = [...html.matchAll(/data-testid="run-(\d+)"/g)].map((m) => Number(m[1])).filter((id) => !before.has(id));
  expect(ids.length).toBe(1);
  return ids[0];
}

async function finished(admin: Client, id: number): Promise<string> {
  return until(`run ${id} to finish`, async () => {
    const row = runRow(await admin.html("/admin/evaluations"), id);
    return row && ["completed", "failed", "cancelled"].includes(rowState(row) ?? "") && row;
  });
}

function parseCsv(text: string): { header: string; rows: Map<string, number[]> } {
  const [header, ...lines] = text.trim().split("\n");
  return {
    header,
    rows: new Map(
      lines.map((l) => {
        const [task, ...v] = l.split(",");
        return [task, v.map(Number)];
      }),
    ),
  };
}

/** What the committed baseline's per-image record says the first n images give (the engine is deterministic). */
function expectedFromBaseline(protocol: "morf" | "lerf", n: number): Map<string, number[]> {
  const rec = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local/saliency/images.json"), "utf8"));
  return new Map(
    TASKS.map((t) => {
      const imgs: string[] = rec.tasks[t][protocol].slice(0, n);
      return [t, Array.from({ length: 11 }, (_, g) => imgs.reduce((s, x) => s + Number(x[g]), 0) / n)];
    }),
  );
}

/** `full`: every case; otherwise the completed run and the refused method (the queue-specific paths). */
function describeStack(label: string, env: () => Record<string, string>, full: boolean) {
  describe(label, () => {
    let stack: Stack;
    let admin: Client;
    beforeAll(async () => {
      stack = await startStack({ env: { NODE_ENV: "test", ...STACK_ENV, ...env() } });
      admin = await adminClient(stack.baseUrl);
    });
    afterAll(async () => {
      await stack?.stop();
    });

    it("an admin's run of Saliency with 2 images completes; its CSVs download and match the baseline's first 2 images", async () => {
      const page = await admin.html("/admin/evaluations");
      expect(page).toContain('value="metarank-local"');
      expect(page).toContain('value="Saliency"');
      expect(page).toContain(`${TASKS.length}/${TASKS.length} tasks installed`);

      const id = await startRun(admin, {});
      const row = await finished(admin, id);
      expect(rowState(row), row + stack.logs()).toBe("completed");
      expect(row).toContain(`${2 * TASKS.length}/${2 * TASKS.length} images`);
      // The metascore against the suite's board, and the localisation of the scene tasks.
      expect(row).toMatch(/data-testid="run-metascore"><strong>-?\d\.\d{4}<\/strong>/);
      // Ranked among the suite's baselines and itself.
      expect(row).toMatch(new RegExp(`rank \\d+ of ${SUITE_JSON.evaluation.methods.length + 1}`));
      expect(row).toMatch(/localisation: scenes_resnet [\d.]+ %, scenes_vgg [\d.]+ %/);

      for (const protocol of ["morf", "lerf"] as const) {
        const res = await admin.get(`/admin/evaluations/${id}/${protocol}.csv`);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
        expect(res.headers.get("content-disposition")).toContain(`${protocol}.csv`);
        const csv = parseCsv(await res.text());
        expect(csv.header).toBe(GRID_HEADER);
        expect([...csv.rows.keys()]).toEqual(TASKS);
        const expected = expectedFromBaseline(protocol, 2);
        for (const t of TASKS) expect(csv.rows.get(t), `${protocol} ${t}`).toEqual(expected.get(t));
      }
      const images = await admin.get(`/admin/evaluations/${id}/images.json`);
      expect(images.status).toBe(200);
      expect(JSON.parse(await images.text())).toMatchObject({ suite: "metarank-local", algorithm: "Saliency", images: 2 });
      expect((await admin.get(`/admin/evaluations/${id}/other.txt`)).status).toBe(404);
    });

    it("an unknown method fails at once with the sidecar's message, without retries", async () => {
      const id = await startRun(admin, { method: "NoSuchMethod" });
      const row = await finished(admin, id);
      expect(rowState(row)).toBe("failed");
      expect(row).toContain('unknown attribution method "NoSuchMethod"');
      expect(row).toContain("Saliency");
      expect(row).not.toContain("attempt 2");
      expect(alerts(row).join(" ")).toContain("NoSuchMethod");
      expect((await admin.get(`/admin/evaluations/${id}/morf.csv`)).status).toBe(404);
    });

    if (!full) return;

    it("bad parameters and a limit past the suite's split are refused by the sidecar with what to change", async () => {
      const params = await finished(admin, await startRun(admin, { params: '{"nope": 1}' }));
      expect(rowState(params)).toBe("failed");
      expect(params).toContain('Saliency has no parameter "nope"');
      // metarank-local's split is the form's own maximum (1,000), so the sidecar's check is
      // shown on metarank-local-v1, whose split (100) is smaller than what the form allows.
      const v1 = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local-v1/suite.json"), "utf8")) as typeof SUITE_JSON;
      const limit = await finished(admin, await startRun(admin, { suite: "metarank-local-v1", limit: String(v1.evaluation.images + 1) }));
      expect(rowState(limit)).toBe("failed");
      expect(limit).toContain(`limit must be a whole number from 1 to ${v1.evaluation.images}`);
    });

    it("the form checks the limit and the JSON before anything is queued", async () => {
      const res = await admin.post("/admin/evaluations", { intent: "start", suite: "metarank-local", method: "Saliency", limit: "0", params: "[1]" });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(alerts(html)).toEqual(expect.arrayContaining(["The image limit must be a whole number from 1 to 1000."]));
      expect(html).toContain("Parameters must be a JSON object");
    });

    it("a running run can be cancelled and stays cancelled", async () => {
      const id = await startRun(admin, { limit: "100" });
      await until(`run ${id} to be running`, async () => {
        const row = runRow(await admin.html("/admin/evaluations"), id);
        return row && rowState(row) === "running" && row;
      });
      const res = await admin.post("/admin/evaluations", { intent: "cancel", id: String(id) });
      expect(location(res)).toBe("/admin/evaluations?msg=cancelled");
      const row = await finished(admin, id);
      expect(rowState(row)).toBe("cancelled");
      expect(row).toContain("Cancelled by root-admin.");
      // Still cancelled once the job has had time to notice (it must not complete it).
      await new Promise((r) => setTimeout(r, 2000));
      expect(rowState(runRow(await admin.html("/admin/evaluations"), id)!)).toBe("cancelled");
      expect((await admin.post("/admin/evaluations", { intent: "cancel", id: String(id) })).headers.get("location")).toContain("not-cancellable");
    });

    it("non-admins get 403 on the page, the action and the downloads; visitors are sent to log in", async () => {
      const user = await userClient(stack.baseUrl, `evaluser${crypto.randomBytes(3).toString("hex")}`);
      expect((await user.get("/admin/evaluations")).status).toBe(403);
      expect((await user.post("/admin/evaluations", { intent: "start", suite: "metarank-local", method: "Saliency", limit: "2", params: "" })).status).toBe(
        403,
      );
      expect((await user.post("/admin/evaluations", { intent: "cancel", id: "1" })).status).toBe(403);
      expect((await user.get("/admin/evaluations/1/morf.csv")).status).toBe(403);
      expect((await user.get("/admin/evaluations/1/lerf.csv")).status).toBe(403);
      const visitor = new Client(stack.baseUrl);
      const res = await visitor.get("/admin/evaluations/1/morf.csv");
      expect(res.status).toBe(302);
      expect(location(res)).toMatch(/^\/signin/);
    });
  });
}

describeStack(`evaluation runs (in-process queue, ${process.env.TEST_DB ?? "sqlite"})`, () => ({}), true);

const prefix = `metarank_evaltest_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
describeStack(`evaluation runs (bull on Redis, ${process.env.TEST_DB ?? "sqlite"})`, () => ({ REDIS_URL, QUEUE_PREFIX: prefix }), false);
afterAll(async () => {
  fs.rmSync(EVALUATION_DIR, { recursive: true, force: true });
  const { default: Redis } = await import("ioredis");
  const r = new Redis(REDIS_URL);
  const keys = await r.keys(`${prefix}:*`);
  if (keys.length) await r.del(...keys);
  await r.quit();
});
