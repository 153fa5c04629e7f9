// After one network is retrained, `evaluate --all-methods --write-suite --reuse-suite` evaluates
// only the tasks whose inputs changed and takes every other method × task from the committed
// files (shards.ts, committedShard). What is taken must write back the committed bytes, and
// nothing whose inputs differ (parameters, images, backend, settings, the checkpoint's weights)
// may be taken.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { localisationJson, resultCsv } from "../../sidecar/inference/evaluation/resultFiles.ts";
import { committedShard, type ShardSpec, type Shard } from "../../sidecar/inference/evaluation/shards.ts";
import { SUITES_DIR, readSuite } from "../../sidecar/inference/evaluation/suite.ts";

const suite = readSuite("metarank-local");
const methods = suite.evaluation!.methods;
const tmp: string[] = [];
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

function spec(task: string, over: Partial<ShardSpec> = {}): ShardSpec {
  const m = methods.find((x) => x.folder === "saliency")!;
  return { suite, task, algorithm: m.algorithm, params: m.params, images: suite.evaluation!.images, backend: suite.evaluation!.backend, ...over };
}

function read(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((f) => !f.startsWith("."))
      .flatMap((f) =>
        fs.statSync(path.join(dir, f)).isDirectory()
          ? Object.entries(read(path.join(dir, f))).map(([k, v]) => [`${f}/${k}`, v])
          : [[f, fs.readFileSync(path.join(dir, f), "utf8")]],
      ),
  );
}

describe("committed shards", () => {
  it("every method × task of the default board reads back as a shard that writes the committed files", () => {
    for (const m of methods) {
      const folder = path.join(suite.dir, m.folder);
      const shards: Record<string, Shard> = {};
      for (const task of suite.tasks) {
        const s = committedShard(folder, spec(task, { algorithm: m.algorithm, params: m.params }));
        expect(s, `${m.folder} ${task}`).not.toBeNull();
        shards[task] = s!;
      }
      const summaries = Object.fromEntries(Object.entries(shards).map(([t, s]) => [t, s.summary]));
      expect(resultCsv("morf", suite.settings.grid, suite.tasks, summaries)).toBe(fs.readFileSync(path.join(folder, "morf.csv"), "utf8"));
      expect(resultCsv("lerf", suite.settings.grid, suite.tasks, summaries)).toBe(fs.readFileSync(path.join(folder, "lerf.csv"), "utf8"));
      expect(JSON.stringify(localisationJson(suite.tasks, summaries), null, 2) + "\n").toBe(fs.readFileSync(path.join(folder, "localisation.json"), "utf8"));
    }
  });

  it("a shard whose inputs differ from the committed ones is not taken", () => {
    const folder = path.join(suite.dir, "saliency");
    expect(committedShard(folder, spec("fashionmnist_vgg"))).not.toBeNull();
    // Another checkpoint pinned for the task (the first version's network).
    const repinned = {
      ...suite,
      evaluation: { ...suite.evaluation!, checkpoints: { ...suite.evaluation!.checkpoints, fashionmnist_vgg: "vgg-fashion-mnist" } },
    };
    for (const changed of [
      spec("fashionmnist_vgg", { suite: repinned }),
      spec("fashionmnist_vgg", { params: { abs: false } }),
      spec("fashionmnist_vgg", { images: 999 }),
      spec("fashionmnist_vgg", { backend: "cpu" }),
      spec("fashionmnist_vgg", { algorithm: "InputXGradient" }),
      spec("fashionmnist_vgg", { suite: { ...suite, settings: { ...suite.settings, patchSize: 4 } } }),
      spec("no_such_task"),
    ]) {
      expect(committedShard(folder, changed)).toBeNull();
    }
    expect(committedShard(path.join(os.tmpdir(), "no-such-folder"), spec("fashionmnist_vgg"))).toBeNull();
  });
});

describe("npm run evaluate -- --reuse-suite", () => {
  function copyOfV1(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reuse-suite-"));
    tmp.push(dir);
    fs.cpSync(path.join(SUITES_DIR, "metarank-local-v1"), dir, { recursive: true });
    return dir;
  }
  function evaluate(dir: string) {
    const state = path.join(dir, ".state-for-test");
    const r = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "sidecar/inference/evaluation/cli.ts",
        "--suite",
        dir,
        "--all-methods",
        "--write-suite",
        "--reuse-suite",
        "--workers",
        "1",
        "--state",
        state,
      ],
      { encoding: "utf8", timeout: 300_000 },
    );
    fs.rmSync(state, { recursive: true, force: true });
    return r;
  }

  it("with nothing changed, the whole board is taken from the committed files and written back byte for byte", () => {
    const dir = copyOfV1();
    const before = read(dir);
    const r = evaluate(dir);
    expect(r.status, r.stderr).toBe(0);
    const v1 = readSuite(dir);
    expect(r.stderr.match(/unchanged since the committed files, reused/g)?.length).toBe(v1.evaluation!.methods.length * v1.tasks.length);
    expect(r.stderr).not.toMatch(/ images, ETA /);
    expect(read(dir)).toEqual(before);
  }, 120_000);

  it("a task whose recorded weights differ is evaluated again, and only that task", () => {
    const dir = copyOfV1();
    const before = read(dir);
    // As if the network had been retrained since the files were written: its recorded hash no
    // longer names the weights installed.
    const file = path.join(dir, "saliency", "images.json");
    const rec = JSON.parse(fs.readFileSync(file, "utf8")) as { checkpoints: Record<string, { weightsSha256: string }> };
    rec.checkpoints.fashionmnist_vgg.weightsSha256 = "0".repeat(64);
    fs.writeFileSync(file, JSON.stringify(rec, null, 1) + "\n");
    const r = evaluate(dir);
    expect(r.status, r.stderr).toBe(0);
    const v1 = readSuite(dir);
    expect(r.stderr.match(/unchanged since the committed files, reused/g)?.length).toBe(v1.evaluation!.methods.length * v1.tasks.length - 1);
    expect(r.stderr).not.toMatch(/Saliency task fashionmnist_vgg: unchanged/);
    expect(r.stderr).toMatch(/Saliency task \d+\/\d+ fashionmnist_vgg \[#+\] 100\/100 images/);
    // The evaluation is deterministic, so the re-evaluated task gives the committed numbers back.
    expect(read(dir)).toEqual(before);
  }, 300_000);
});
