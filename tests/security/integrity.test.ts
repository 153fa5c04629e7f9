// Storage integrity: every stored file is owned by a row and goes with it, and
// `npm run -s check-integrity` knows every table that owns files. Deleting a dataset while an
// upload into it runs: one wins cleanly (no 500, no file without its row, no row without its
// file). A fresh seeded platform with crack-detection runs and uploaded maps checks clean (exit
// 0); deleting a dataset with a crack run removes its masks; an upload cut off by a killed web
// process leaves no `.part` file once the app is back (docs/security.md "Files").
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import { promisify } from "node:util";
import { QueryTypes } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { generateCrackPhoto } from "../../sidecar/data/cracks.ts";
import { encodePng } from "../../sidecar/data/png.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";
import { mapsZip } from "../support/maps.ts";

let stack: Stack;
const storage = path.join(ROOT, `var/test/integrity_${process.pid}_${Date.now()}`);
const env = {
  UPLOAD_DIR: path.join(storage, "uploads"),
  EVALUATION_DIR: path.join(storage, "evaluations"),
  TREE_TASK_DIR: path.join(storage, "tasks"),
  // The platform's own crack-detection run, over a few photos: its masks must count as owned.
  SEED_INSPECTION_RUN: "1",
  SEED_INSPECTION_PICTURES: "3",
  SEED_FASHION_MNIST_PICTURES: "4",
  SEED_SCENES_PICTURES: "4",
  // A `.part` not written for a second is no upload in progress (the default is a minute).
  UPLOAD_PART_GRACE_MS: "1000",
};

beforeAll(async () => {
  stack = await startStack({ env });
  // The platform's run writes masks at start-up; the checks below want it done.
  const db = createSequelize(stack.dbUrl);
  try {
    await until("the platform's crack run", async () => {
      const runs = await db.query<{ state: string }>("SELECT state FROM inspection_runs", { type: QueryTypes.SELECT });
      return runs.length > 0 && runs.every((r) => r.state === "completed");
    });
  } finally {
    await db.close();
  }
}, 240_000);
afterAll(async () => {
  await stack?.stop();
  fs.rmSync(storage, { recursive: true, force: true });
});

const png = fs.readFileSync(path.join(ROOT, "tests/fixtures/images/red.png"));

async function until<T>(what: string, fn: () => Promise<T | false | null | undefined>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** `npm run -s check-integrity` against the stack: its exit status and what it printed. */
async function checkIntegrity(): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/checkIntegrity.ts"], {
      cwd: ROOT,
      env: { ...process.env, ...env, DATABASE_URL: stack.dbUrl },
    });
    return { code: 0, stdout };
  } catch (e) {
    const err = e as { code?: number; stdout?: string };
    return { code: err.code ?? 1, stdout: err.stdout ?? "" };
  }
}

const files = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    : [];

async function createDataset(c: Client, name: string): Promise<number> {
  const res = await c.post("/datasetInDetail", { intent: "create", name, visibility: "private" });
  return Number(new URL(location(res)!, "http://x").searchParams.get("dataset"));
}

function upload(c: Client, id: number, n: number) {
  const fd = new FormData();
  fd.append("intent", "upload");
  fd.append("datasetId", String(id));
  for (let i = 0; i < n; i++) fd.append("pictures", new Blob([png], { type: "image/png" }), `p${i}.png`);
  return c.post(`/datasetInDetail?dataset=${id}`, fd);
}

describe(`storage integrity on ${process.env.TEST_DB}`, () => {
  it("deleting a dataset during an upload into it: no 500, and the integrity check reports 0", async () => {
    const owner = await userClient(stack.baseUrl, "race-owner");
    for (let round = 0; round < 4; round++) {
      const id = await createDataset(owner, `race ${round}`);
      await upload(owner, id, 3);
      const [up, del] = await Promise.all([
        upload(owner, id, 30),
        new Promise((r) => setTimeout(r, 30 * round)).then(() =>
          owner.post("/datasetInDetail", { intent: "deleteDataset", datasetId: String(id), confirm: "yes" }),
        ),
      ]);
      expect(up.status, `upload, round ${round}`).toBeLessThan(500);
      // Confirmed (the dialog's confirm=yes), so the deletion really races the upload: it redirects.
      expect(del.status, `delete, round ${round}`).toBe(302);
    }
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/checkIntegrity.ts"], {
      cwd: ROOT,
      env: { ...process.env, ...env, DATABASE_URL: stack.dbUrl },
    });
    expect(stdout).toContain("rows without files: 0");
    expect(stdout).toContain("files without rows: 0");
    expect(stdout).toContain("approved submissions without a board row: 0");
  });
});

describe(`owned files on a fresh seeded platform on ${process.env.TEST_DB}`, () => {
  const uploads = env.UPLOAD_DIR;
  const masksOf = (runId: number) => files(path.join(uploads, "inspection", `run-${runId}`));

  it("with crack runs and uploaded maps, check-integrity finds nothing and exits 0; deleting a dataset removes its masks", async () => {
    const db = createSequelize(stack.dbUrl);
    try {
      const runs = async () => db.query<{ id: number; state: string }>("SELECT id, state FROM inspection_runs ORDER BY id", { type: QueryTypes.SELECT });
      // The seeding step's platform run completed on its own after start-up (beforeAll waited for it).
      const platformRun = (await runs())[0].id;
      expect(masksOf(platformRun)).toHaveLength(3);

      // A user's own dataset with a crack run over it.
      const owner = await userClient(stack.baseUrl, "inspector");
      const id = await createDataset(owner, "bridge deck");
      const fd = new FormData();
      fd.append("intent", "upload");
      fd.append("datasetId", String(id));
      for (const i of [0, 1]) {
        const p = generateCrackPhoto(i, "test");
        fd.append("pictures", new Blob([encodePng({ width: p.width, height: p.height, channels: 3, data: p.image })], { type: "image/png" }), `deck-${i}.png`);
      }
      expect((await owner.post(`/datasetInDetail?dataset=${id}`, fd)).status).toBe(302);
      expect((await owner.post("/twodresult", { intent: "start", dataset: String(id), scale: "0.25" })).status).toBe(302);
      await until("the user's crack run", async () => (await runs()).length === 2 && (await runs())[1].state === "completed");
      const userRun = (await runs())[1].id;
      expect(masksOf(userRun)).toHaveLength(2);

      // Uploaded attribution maps (a verified result's evidence), evaluated through the queue.
      const maps = new FormData();
      maps.set("suite", "metarank-local-v1");
      maps.set("method", "Integrity maps");
      maps.set("maps", new Blob([await mapsZip()], { type: "application/zip" }), "maps.zip");
      expect((await owner.post("/submission?suite=metarank-local-v1&intent=upload-maps", maps)).status).toBeLessThan(400);
      const mapsRun = async () =>
        (
          await db.query<{ state: string; maps_file: string | null }>("SELECT state, maps_file FROM evaluation_runs WHERE kind = 'maps'", {
            type: QueryTypes.SELECT,
          })
        )[0];
      await until("the maps evaluation", async () => ["completed", "failed"].includes((await mapsRun())?.state ?? ""), 180_000);
      expect((await mapsRun()).maps_file).toBeTruthy();
      expect(files(path.join(uploads, "maps"))).toHaveLength(1);

      const healthy = await checkIntegrity();
      expect(healthy.stdout).toContain("rows without files: 0");
      expect(healthy.stdout).toContain("files without rows: 0");
      expect(healthy.stdout).toContain("approved submissions without a board row: 0");
      expect(healthy.code).toBe(0);

      // Deleting the dataset takes its run's masks with it (the rows went by foreign key before).
      expect((await owner.post("/datasetInDetail", { intent: "deleteDataset", datasetId: String(id), confirm: "yes" })).status).toBe(302);
      expect(masksOf(userRun)).toEqual([]);
      expect(masksOf(platformRun)).toHaveLength(3);
      const after = await checkIntegrity();
      expect(after.stdout).toContain("files without rows: 0");
      expect(after.code).toBe(0);
    } finally {
      await db.close();
    }
  }, 300_000);

  it("an upload cut off by a killed web process leaves no .part file once the app is back", async () => {
    const owner = await userClient(stack.baseUrl, "part-owner");
    const incoming = path.join(uploads, "incoming");
    const before = new Set(files(incoming));
    // A maps upload streams to disk: send its headers and the start of the file, then stop.
    const boundary = "----integrity" + Date.now();
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="maps"; filename="maps.zip"\r\nContent-Type: application/zip\r\n\r\n`;
    const url = new URL("/submission?suite=metarank-local-v1&intent=upload-maps", stack.baseUrl);
    const req = http.request(url, {
      method: "POST",
      headers: {
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": String(head.length + 4 * 1024 * 1024),
        Cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        Origin: stack.baseUrl,
      },
    });
    req.on("error", () => undefined);
    req.write(head);
    req.write(Buffer.alloc(256 * 1024, 1));
    const part = await until("the upload's .part file", async () => files(incoming).find((f) => f.endsWith(".part") && !before.has(f)), 20_000);
    // The web process dies mid-upload (as kill -9 would leave it: no handler runs) and comes back.
    process.kill(stack.webPid()!, "SIGKILL");
    req.destroy();
    await stack.restartWeb();
    expect(fs.existsSync(part)).toBe(false);
    const { stdout } = await checkIntegrity();
    expect(stdout).toContain("files without rows: 0");
  }, 120_000);
});
