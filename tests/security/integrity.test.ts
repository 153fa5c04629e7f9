// Deleting a dataset while an upload into it runs (issue 11): one wins cleanly — no 500, no file
// without its row, no row without its file — and `npm run -s check-integrity` says 0 afterwards.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";

let stack: Stack;
const storage = path.join(ROOT, `var/test/integrity_${process.pid}_${Date.now()}`);
const env = { UPLOAD_DIR: path.join(storage, "uploads"), EVALUATION_DIR: path.join(storage, "evaluations") };

beforeAll(async () => {
  stack = await startStack({ sidecar: false, env });
});
afterAll(async () => {
  await stack?.stop();
  fs.rmSync(storage, { recursive: true, force: true });
});

const png = fs.readFileSync(path.join(ROOT, "tests/fixtures/images/red.png"));

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
