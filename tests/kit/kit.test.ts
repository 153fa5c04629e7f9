// The suite kit of metarank-local-v1 built for real (every task, the suite's 100 images): the zip
// lists every expected entry in a fixed order, images.npy holds exactly the engine's evaluation
// inputs, labels.csv its labels, the PNGs those images in 8 bits, model.onnx the exporter's
// model and the checkpoint files the installed ones; a second build gives the same bytes, and
// the cache key follows suite.json.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { KIT_FORMAT, KitUnavailableError, kitStream, pngName, planKit, writeKitFile, type KitPlan } from "../../sidecar/kit/buildKit.ts";
import { SUITES_DIR } from "../../sidecar/inference/evaluation/suite.ts";
import { evaluationImages } from "../../sidecar/inference/evaluation/tasks.ts";
import { checkpointDir } from "../../sidecar/zoo/checkpoint.ts";
import { exportCheckpoint } from "../../sidecar/zoo/onnx/export.ts";

async function readZip(file: string): Promise<Array<{ name: string; data: Buffer }>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.open(file, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z!))));
  const entries: Array<{ name: string; data: Buffer }> = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream!.on("data", (c: Buffer) => chunks.push(c));
        stream!.on("end", () => {
          entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
          zip.readEntry();
        });
        stream!.on("error", reject);
      });
    });
    zip.on("end", () => resolve());
    zip.on("error", reject);
    zip.readEntry();
  });
  return entries;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kit-test-"));
let plan: KitPlan;
let entries: Map<string, Buffer>;
let names: string[];

beforeAll(async () => {
  const built = await writeKitFile("metarank-local-v1", path.join(tmp, "a.zip"));
  plan = built.plan;
  const list = await readZip(path.join(tmp, "a.zip"));
  names = list.map((e) => e.name);
  entries = new Map(list.map((e) => [e.name, e.data]));
}, 120_000);

describe("suite kit of metarank-local-v1", () => {
  it("lists suite.json, README.md and every task's files in a fixed order", () => {
    const expected = ["suite.json", "README.md"];
    for (const t of plan.tasks) {
      const base = `tasks/${t.id}`;
      expected.push(`${base}/labels.csv`, `${base}/images.npy`);
      for (let i = 0; i < plan.images; i++) expected.push(`${base}/images/${pngName(i)}`);
      expected.push(`${base}/model.onnx`, `${base}/checkpoint/${t.checkpoint.id}.json`, `${base}/checkpoint/${t.checkpoint.id}.weights.bin`);
    }
    expect(plan.tasks.map((t) => t.id)).toEqual(plan.suite.tasks);
    expect(plan.images).toBe(100);
    expect(names).toEqual(expected);
    expect(entries.get("suite.json")!.equals(fs.readFileSync(path.join(SUITES_DIR, "metarank-local-v1/suite.json")))).toBe(true);
    const readme = entries.get("README.md")!.toString("utf8");
    for (const t of plan.tasks) expect(readme).toContain(`\`${t.id}\``);
    expect(readme).toContain("images.npy");
    expect(readme).toContain("onnxruntime");
  });

  it("holds exactly the engine's evaluation images and labels for every task", () => {
    for (const t of plan.tasks) {
      const ds = evaluationImages(t.dataset, plan.images);
      const npy = entries.get(`tasks/${t.id}/images.npy`)!;
      const headerLength = npy.readUInt16LE(8);
      expect(npy.subarray(10, 10 + headerLength).toString("latin1")).toContain(`'shape': (${ds.size}, ${ds.height}, ${ds.width}, ${ds.channels})`);
      const values = new Float32Array(npy.buffer.slice(npy.byteOffset + 10 + headerLength, npy.byteOffset + npy.length));
      // Byte-exact: the same float32 bits, not merely close values.
      expect(Buffer.from(values.buffer).equals(Buffer.from(ds.images.buffer, ds.images.byteOffset, ds.images.byteLength))).toBe(true);
      const lines = entries.get(`tasks/${t.id}/labels.csv`)!.toString("utf8").trim().split("\n");
      expect(lines[0]).toBe("index,label,class");
      expect(lines.slice(1)).toEqual(Array.from(ds.labels, (l, i) => `${i},${l},${ds.classNames[l]}`));
      // PNG i is image i rounded to 8 bits.
      for (const i of [0, ds.size - 1]) {
        const png = PNG.sync.read(entries.get(`tasks/${t.id}/images/${pngName(i)}`)!);
        expect([png.width, png.height]).toEqual([ds.width, ds.height]);
        const n = ds.height * ds.width * ds.channels;
        for (let p = 0; p < ds.height * ds.width; p++)
          for (let c = 0; c < ds.channels; c++) expect(png.data[p * 4 + c]).toBe(Math.round(ds.images[i * n + p * ds.channels + c] * 255));
      }
    }
  });

  it("carries each task's ONNX model and its verified checkpoint files", () => {
    for (const t of plan.tasks) {
      expect(entries.get(`tasks/${t.id}/model.onnx`)!.equals(Buffer.from(exportCheckpoint(t.checkpoint.id)))).toBe(true);
      const weights = entries.get(`tasks/${t.id}/checkpoint/${t.checkpoint.id}.weights.bin`)!;
      expect(crypto.createHash("sha256").update(weights).digest("hex")).toBe(t.checkpoint.weightsSha256);
      expect(
        entries.get(`tasks/${t.id}/checkpoint/${t.checkpoint.id}.json`)!.equals(fs.readFileSync(path.join(checkpointDir(), `${t.checkpoint.id}.json`))),
      ).toBe(true);
    }
  });

  it("gives the same bytes on a second build, streamed", async () => {
    const chunks: Buffer[] = [];
    for await (const c of kitStream(planKit("metarank-local-v1"))) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(fs.readFileSync(path.join(tmp, "a.zip")))).toBe(true);
  });

  it("keys the kit on suite.json and the kit format", () => {
    expect(planKit("metarank-local-v1").key).toBe(plan.key);
    const copy = path.join(tmp, "suite-copy");
    fs.mkdirSync(copy);
    const json = fs.readFileSync(path.join(SUITES_DIR, "metarank-local-v1/suite.json"), "utf8");
    fs.writeFileSync(path.join(copy, "suite.json"), json.replace('"patchSize": 2', '"patchSize": 4'));
    expect(planKit(copy).key).not.toBe(plan.key);
    expect(KIT_FORMAT).toMatch(/^metarank-kit\/\d+$/);
  });

  it("builds one task's kit: that task's files only, each as in the whole kit, under a key of its own", async () => {
    const task = "scenes_vgg";
    const built = await writeKitFile("metarank-local-v1", path.join(tmp, "task.zip"), undefined, task);
    expect(built.plan.task).toBe(task);
    expect(built.plan.tasks.map((t) => t.id)).toEqual([task]);
    const list = await readZip(path.join(tmp, "task.zip"));
    // Exactly the whole kit's entries of that task, in the same order, after suite.json and README.md.
    expect(list.map((e) => e.name)).toEqual(names.filter((n) => n === "suite.json" || n === "README.md" || n.startsWith(`tasks/${task}/`)));
    for (const e of list) if (e.name !== "README.md") expect(e.data.equals(entries.get(e.name)!), e.name).toBe(true);
    const readme = list.find((e) => e.name === "README.md")!.data.toString("utf8");
    expect(readme).toContain(`**This kit holds one task of the suite, \`${task}\`** (the suite has ${plan.suite.tasks.length}:`);
    expect(readme).toContain("`/suites/metarank-local-v1/kit.zip`");
    expect(entries.get("README.md")!.toString("utf8")).not.toContain("This kit holds one task");
    // A key of its own (the task is part of it), and the whole kit's key is what it was.
    expect(new Set([built.plan.key, planKit("metarank-local-v1", undefined, "scenes_resnet").key, plan.key]).size).toBe(3);
    expect(planKit("metarank-local-v1", undefined, task).key).toBe(built.plan.key);
    expect(planKit("metarank-local-v1").key).toBe(plan.key);
    expect(() => planKit("metarank-local-v1", undefined, "no_such_task")).toThrow(/has no task "no_such_task"/);
  });

  it("refuses a suite whose tasks have no data here, naming them", () => {
    expect(() => planKit("metarank-seed")).toThrow(KitUnavailableError);
    expect(() => planKit("metarank-seed")).toThrow(/11 of 11 task\(s\).*nwpuresisc45_resnet18/);
  });
});
