// The researcher's loop through the web app (docs/evaluation.md "Path 2: attribution maps from any
// framework"), end to end on the real stack: download the default suite's kit, compute attribution
// maps with Debian's python3-numpy the way a researcher's script would (the tutorial's script as
// /Algorithm prints it), upload the zip on /submission, watch the queued evaluation finish on the
// real sidecar, score and submit the verified draft; an admin sees "verified" when approving and
// the leaderboard shows the row as verified next to a self-reported one. Bad uploads get their
// messages at once, in both languages, and keep nothing; a suite configured for verified results
// refuses a self-reported submission.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { QueryTypes } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import { runOk } from "../support/command.ts";

const SUITE = "metarank-local-v1";
const SUITE_JSON = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites", SUITE, "suite.json"), "utf8")) as {
  tasks: string[];
  evaluation: { images: number };
};
const TASKS = SUITE_JSON.tasks;
const N = SUITE_JSON.evaluation.images;
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "verified-"));
const UPLOAD_DIR = path.join(ROOT, "var/test", `uploads_${process.pid}_${crypto.randomBytes(3).toString("hex")}`);
const EVALUATION_DIR = path.join(ROOT, "var/test", `evaluations_${process.pid}_${crypto.randomBytes(3).toString("hex")}`);

const decode = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");

async function until<T>(what: string, fn: () => Promise<T | false | null | undefined>, ms = 300_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Writes a zip of maps with numpy: `variant` breaks one thing the way researchers do. */
async function numpyMaps(out: string, variant: string, shapes: Record<string, number[]>) {
  const script = `
import io, json, sys, zipfile
import numpy as np
out, variant, shapes = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
rng = np.random.default_rng(0)
with zipfile.ZipFile(out, "w") as z:
    for i, (task, shape) in enumerate(shapes.items()):
        if variant == "missing" and i == 0:
            continue
        maps = rng.random(shape, dtype=np.float32)
        if variant == "count" and i == 1:
            maps = maps[:5]
        if variant == "int" and i == 0:
            maps = (maps * 100).astype(np.int64)
        if variant == "channels-first" and i == 0:
            maps = maps[:, None, :, :]
        if variant == "grid" and i == 1:
            maps = rng.random((shape[0], 32, 32), dtype=np.float32)
        buf = io.BytesIO()
        if variant == "npz" and i == 0:
            np.savez(buf, maps=maps)
        else:
            np.save(buf, maps)
        z.writestr(task + ".npy", buf.getvalue())
    if variant == "extra":
        z.writestr("notes.txt", "hello")
`;
  await runOk("python3", ["-c", script, out, variant, JSON.stringify(shapes)]);
}

function uploadForm(file: string, method: string): FormData {
  const f = new FormData();
  f.set("suite", SUITE);
  f.set("method", method);
  f.set("maps", new Blob([fs.readFileSync(file)], { type: "application/zip" }), path.basename(file));
  return f;
}

const mapsAction = `/submission?suite=${SUITE}&intent=upload-maps`;

describe("verified results from uploaded attribution maps", () => {
  let stack: Stack;
  let user: Client;
  let admin: Client;
  let kitDir: string;
  const shapes: Record<string, number[]> = {};

  beforeAll(async () => {
    stack = await startStack({ env: { EVALUATION_WORKERS: "2", UPLOAD_DIR, EVALUATION_DIR } });
    user = await userClient(stack.baseUrl, "mapmaker");
    admin = await adminClient(stack.baseUrl);
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    fs.rmSync(TMP, { recursive: true, force: true });
    fs.rmSync(UPLOAD_DIR, { recursive: true, force: true });
    fs.rmSync(EVALUATION_DIR, { recursive: true, force: true });
  });

  it("the kit downloads and holds every task's evaluation images as numpy arrays", async () => {
    const res = await user.get(`/suites/${SUITE}/kit.zip`);
    expect(res.status, stack.logs()).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const zip = path.join(TMP, "kit.zip");
    fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
    kitDir = path.join(TMP, "kit");
    await runOk("python3", ["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])", zip, kitDir]);
    for (const task of TASKS) {
      const shape = JSON.parse(
        await runOk("python3", [
          "-c",
          "import sys, json, numpy as np; print(json.dumps(list(np.load(sys.argv[1]).shape)))",
          path.join(kitDir, "tasks", task, "images.npy"),
        ]),
      ) as number[];
      expect(shape[0]).toBe(N);
      shapes[task] = shape.slice(0, 3);
    }
  }, 240_000);

  it("bad uploads are refused at once with what to change, and nothing is kept", async () => {
    const cases: [string, RegExp][] = [
      ["missing", new RegExp(`The maps of task ${TASKS[0]} are missing`)],
      ["count", new RegExp(`${TASKS[1]}.npy holds 5 maps; the task has ${N} evaluation images`)],
      ["int", new RegExp(`${TASKS[0]}.npy: expected float32 or float16, got`)],
      ["extra", /notes.txt is not a task of this suite/],
      // PyTorch's layout, named with its fix; a map of the wrong size, with the task's own.
      ["channels-first", new RegExp(`${TASKS[0]}.npy has shape \\(${N}, 1, 28, 28\\), channels first \\(N×C×H×W\\); this task's images are 28×28×1`)],
      // np.savez instead of np.save: named, in both languages without the reader's English.
      ["npz", new RegExp(`${TASKS[0]}.npy is not a NumPy .npy file: it does not start with \\\\x93NUMPY \\(an .npz, a pickle or another format\\?\\)`)],
      ["grid", new RegExp(`${TASKS[1]}.npy has shape \\(${N}, 32, 32\\); this task's images are 28×28 pixels, so its maps must be N×28×28 or N×28×28×1`)],
    ];
    // Every file first: a slow python step between two requests would let a kept-alive connection
    // time out under the next POST (a client-side race that has nothing to do with the server).
    for (const [variant] of cases) await numpyMaps(path.join(TMP, `${variant}.zip`), variant, shapes);
    for (const [variant, message] of cases) {
      const file = path.join(TMP, `${variant}.zip`);
      const res = await user.post(mapsAction, uploadForm(file, "Broken maps"));
      expect(res.status, variant).toBeGreaterThanOrEqual(400);
      expect(decode(await res.text()), variant).toMatch(message);
    }
    // Nobody signed in: refused before a byte of the body is read.
    // (A small file: a body over 16 MiB is cut off with the answer, which a client sees as a reset.)
    const small = path.join(TMP, "small.zip");
    fs.writeFileSync(small, Buffer.alloc(1024));
    const anonymous = await new Client(stack.baseUrl).post(mapsAction, uploadForm(small, "Anonymous"));
    expect(anonymous.status).toBe(401);
    // Not a zip at all, in Chinese this time.
    const zh = new Client(stack.baseUrl);
    zh.cookies = new Map(user.cookies);
    expect((await zh.post("/language", { lng: "zh", redirectTo: "/submission" })).status).toBe(302);
    const notZip = path.join(TMP, "maps.zip");
    fs.writeFileSync(notZip, "this is not a zip");
    const res = await zh.post(mapsAction, uploadForm(notZip, "Broken maps"));
    expect(res.status).toBe(400);
    expect(decode(await res.text())).toContain("无法将该文件作为 zip 压缩包读取");
    // Nothing stayed behind: no stored maps, no streamed part files.
    const left = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
    expect(left(path.join(UPLOAD_DIR, "maps"))).toEqual([]);
    expect(left(path.join(UPLOAD_DIR, "incoming"))).toEqual([]);
  }, 120_000);

  it("maps written with numpy go through the queue to a verified row on the board", async () => {
    // The tutorial's script, as the page prints it, run next to the unpacked kit (it writes maps.zip).
    const tutorial = decode(await user.html(`/Algorithm?suite=${SUITE}`));
    const script = tutorial
      .match(/data-testid="maps-script">([\s\S]*?)<\/pre>/)?.[1]
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">");
    expect(script).toBeTruthy();
    fs.writeFileSync(path.join(TMP, "tutorial_maps.py"), script!);
    await runOk("python3", ["tutorial_maps.py"], { cwd: TMP });
    const maps = path.join(TMP, "maps.zip");
    // The repository's example script writes an equally complete zip.
    const example = path.join(TMP, "example.zip");
    await runOk("python3", [path.join(ROOT, "docs/examples/save_maps.py"), kitDir, example], { cwd: TMP });
    const names = async (zip: string) =>
      JSON.parse(await runOk("python3", ["-c", "import sys, json, zipfile; print(json.dumps(sorted(zipfile.ZipFile(sys.argv[1]).namelist())))", zip]));
    expect(await names(example)).toEqual(TASKS.map((t) => `${t}.npy`).sort());
    expect(await names(maps)).toEqual(TASKS.map((t) => `${t}.npy`).sort());
    const res = await user.post(mapsAction, uploadForm(maps, "Sobel edges (numpy)"));
    expect(res.status, decode(await res.clone().text())).toBe(302);
    expect(location(res)).toMatch(new RegExp(`^/submission\\?suite=${SUITE}&maps=\\d+`));

    const started = Date.now();
    const page = await until("the maps evaluation to finish", async () => {
      const html = decode(await user.html(`/submission?suite=${SUITE}`));
      const state = html.match(/data-testid="maps-run" data-state="(\w+)"/)?.[1];
      return state && ["completed", "failed", "cancelled"].includes(state) && html;
    });
    const seconds = (Date.now() - started) / 1000;
    expect(
      page.match(/data-testid="maps-run" data-state="(\w+)"/)?.[1],
      page.slice(page.indexOf("maps-run"), page.indexOf("maps-run") + 2000) + stack.logs(),
    ).toBe("completed");
    console.log(`maps evaluation of ${TASKS.length} tasks × ${N} images through the queue: ${seconds.toFixed(1)} s`);
    expect(page).toContain("marked verified");
    expect(page).toContain('data-testid="draft-verified"');

    // Score, then submit the draft: the submission is verified.
    const scored = await user.post("/submission", { intent: "score", suite: SUITE, algorithm: "Sobel edges (numpy)" });
    expect(scored.status, decode(await scored.clone().text())).toBe(302);
    const submitted = await user.post("/submission", {
      intent: "submit",
      suite: SUITE,
      algorithm: "Sobel edges (numpy)",
      email: "maps@example.org",
      info: "Sobel edge magnitude computed with numpy on the kit's images.",
    });
    expect(submitted.status, decode(await submitted.clone().text())).toBe(302);
    const history = decode(await user.html("/history"));
    expect(history).toMatch(/Sobel edges \(numpy\)[\s\S]*?data-provenance="verified"/);
    // The history and the approval table say which board each submission is for.
    expect(history).toMatch(/Sobel edges \(numpy\)<br\/><small class="muted"><a[^>]*data-suite="metarank-local-v1"[^>]*>Meta-Rank local suite, version 1<\/a>/);

    // The admin sees where the numbers come from, downloads the maps, and approves.
    const approval = decode(await admin.html("/approval"));
    const id = Number(
      approval
        .match(/data-testid="details-(\d+)"[\s\S]*?Sobel edges|Sobel edges[\s\S]*?data-testid="details-(\d+)"/)
        ?.slice(1)
        .find(Boolean),
    );
    expect(id).toBeGreaterThan(0);
    expect(approval).toContain("the platform computed these files from the submitter");
    expect(approval).toMatch(/Sobel edges \(numpy\)<br\/><small class="muted"><a[^>]*data-suite="metarank-local-v1"/);
    const mapsFile = await admin.get(`/files/submission/${id}/maps`);
    expect(mapsFile.status).toBe(200);
    expect(Buffer.from(await mapsFile.arrayBuffer()).equals(fs.readFileSync(maps))).toBe(true);
    expect((await new Client(stack.baseUrl).get(`/files/submission/${id}/maps`)).status).not.toBe(200);

    const decided = await admin.post("/approval", { id: String(id), decision: "approve" });
    expect(decided.status).toBe(302);
    expect(decode(await admin.html(location(decided)!))).toContain("You have approved this submission!");
    const board = decode(await user.html(`/leaderboard?suite=${SUITE}`));
    expect(board).toMatch(/Sobel edges \(numpy\)<\/td><td>[^<]+<\/td><td data-source="verified">/);
    // Its localisation column shows the mean share its evaluation run measured on the tasks with
    // object masks, as the baselines' rows do (not "—").
    const db = createSequelize(stack.dbUrl);
    const [run] = await db.query<{ loc: string }>(
      "SELECT r.localisation_json AS loc FROM evaluation_runs r JOIN submissions s ON s.evaluation_run_id = r.id WHERE s.id = ?",
      { replacements: [id], type: QueryTypes.SELECT },
    );
    await db.close();
    const shares = Object.values(JSON.parse(run.loc) as Record<string, number | null>).filter((v): v is number => v !== null);
    expect(shares.length).toBeGreaterThan(0);
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    const cell = board.match(/Sobel edges \(numpy\)<\/td>(?:<td[^>]*>(?:(?!<\/td>)[\s\S])*<\/td>){2}<td>([^<]+)<\/td>/)?.[1];
    expect(cell).toBe(`${(mean * 100).toFixed(1)} %`);
    expect(board).toContain('data-source="platform"');

    // A self-reported row beside it: the verified run's own files uploaded as CSVs by another user.
    const other = await userClient(stack.baseUrl, "csv-uploader");
    const runFiles = fs.readdirSync(EVALUATION_DIR).filter((d) => !d.startsWith("."));
    const csv = (protocol: string) => fs.readFileSync(path.join(EVALUATION_DIR, runFiles[0], `${protocol}.csv`));
    const form = new FormData();
    form.set("intent", "score");
    form.set("suite", SUITE);
    form.set("algorithm", "Sobel edges (CSV)");
    form.set("morf", new Blob([csv("morf")], { type: "text/csv" }), "morf.csv");
    form.set("lerf", new Blob([csv("lerf")], { type: "text/csv" }), "lerf.csv");
    expect((await other.post("/submission", form)).status).toBe(302);
    const sent = await other.post("/submission", {
      intent: "submit",
      suite: SUITE,
      algorithm: "Sobel edges (CSV)",
      email: "csv@example.org",
      info: "uploaded",
    });
    expect(sent.status).toBe(302);
    const pending = decode(await admin.html("/approval"));
    const csvId = Number(pending.match(/Sobel edges \(CSV\)[\s\S]*?data-testid="details-(\d+)"/)?.[1]);
    expect(pending.slice(pending.indexOf(`details-${csvId}`))).toContain("the submitter uploaded these files");
    expect((await admin.post("/approval", { id: String(csvId), decision: "approve" })).status).toBe(302);
    // The overall board only (the MoRF-only and LeRF-only boards follow it), both of its pages.
    let both = "";
    for (const p of [1, 2]) {
      const leaderboard = decode(await user.html(`/leaderboard?suite=${SUITE}&page=${p}`));
      both += leaderboard.slice(leaderboard.indexOf('data-testid="board-overall"'), leaderboard.indexOf('data-testid="board-morf"'));
    }
    const rows = [
      ...both.matchAll(/<tr[^>]*><td>(\d+)<\/td><td>([^<]*)<\/td><td>[^<]*<\/td><td>(Sobel edges[^<]*)<\/td><td>([^<]+)<\/td><td data-source="([\w-]+)"/g),
    ].map((m) => ({
      rank: Number(m[1]),
      contributor: m[2],
      algorithm: m[3],
      metascore: m[4],
      source: m[5],
    }));
    console.log("side by side on the default board:", JSON.stringify(rows));
    // Same numbers, same metascore; the board says which one the platform computed.
    expect(rows.map((r) => r.source).sort()).toEqual(["self-reported", "verified"]);
    expect(rows[0].metascore).toBe(rows[1].metascore);
  }, 600_000);

  it("a suite configured for verified results only refuses a self-reported submission", async () => {
    // A copy of the metarank-seed suite with "submissions": { "selfReported": false }, imported as an operator would.
    const dir = path.join(TMP, "verified-only");
    fs.mkdirSync(dir);
    const json = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-seed/suite.json"), "utf8"));
    Object.assign(json, { id: "verified-only", name: "Verified-only suite", submissions: { selfReported: false } });
    fs.writeFileSync(path.join(dir, "suite.json"), JSON.stringify(json));
    await runOk(process.execPath, ["--import", "tsx", "seeds/importSuite.ts", dir], { cwd: ROOT, env: { ...stack.env, DATABASE_URL: stack.dbUrl } });

    const page = decode(await user.html("/submission?suite=verified-only"));
    expect(page).toContain("This suite accepts only verified results");
    const csv = (protocol: string) =>
      [
        "task," + json.grid.join(","),
        ...json.tasks.map((t: string) => [t, ...json.grid.map((_: number, i: number) => (protocol === "morf" ? 1 - i / 10 : 1).toFixed(2))].join(",")),
      ].join("\n") + "\n";
    const form = new FormData();
    form.set("intent", "score");
    form.set("suite", "verified-only");
    form.set("algorithm", "Typed numbers");
    form.set("morf", new Blob([csv("morf")], { type: "text/csv" }), "morf.csv");
    form.set("lerf", new Blob([csv("lerf")], { type: "text/csv" }), "lerf.csv");
    const scored = await user.post("/submission", form);
    expect(scored.status, decode(await scored.clone().text())).toBe(302);
    const refused = await user.post("/submission", { intent: "submit", suite: "verified-only", algorithm: "Typed numbers", email: "a@b.org", info: "typed" });
    expect(refused.status).toBe(409);
    expect(decode(await refused.text())).toContain("This suite accepts only verified results");
  }, 120_000);
});
