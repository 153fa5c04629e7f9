// The Tree service (sidecar/tree/service.ts) through a real sidecar process (one pool worker) on
// a committed platform ProtoTree: the greedy path of Predict follows the routing rule (right iff
// similarity > 0.5) down the pruned tree to leaf_id; the pruned graph is part of the full one;
// candidates are ranked and a projected node's first candidate is its own patch (similarity 1);
// a prototype replaced by a patch of an image routes that image to the right at that node, and a
// favoured leaf predicts its class; AdjustTree reports the original tree's accuracy as trained;
// SaveTree lists the saved tree for its owner only (NOT_FOUND for another user); exports are
// well-formed SVG, a PDF and a zip of one PNG per internal node, the same bytes twice.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { XMLValidator } from "fast-xml-parser";
import yauzl from "yauzl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { encodePng } from "../../sidecar/data/png.ts";
import { loadTreeDataset } from "../../sidecar/tree/treeDatasets.ts";
import { startTestSidecar, type TestSidecar } from "../support/sidecar.ts";

type Client = grpc.Client & Record<string, Function>;
let sidecar: TestSidecar<Client>;
const treeDir = fs.mkdtempSync(path.join(os.tmpdir(), "tree-service-"));
const alice = { username: "alice", admin: false };
const bob = { username: "bob", admin: false };
const admin = { username: "root-admin", admin: true };
let tree: any;
let pruned: any;
let full: any;

function call<Res = any>(method: string, request: unknown, ms = 120_000): Promise<Res> {
  return new Promise((resolve, reject) => {
    sidecar.client[method](request, { deadline: new Date(Date.now() + ms) }, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res)));
  });
}

function stream<Ev = any>(method: string, request: unknown, ms = 600_000): Promise<Ev[]> {
  return new Promise((resolve, reject) => {
    const events: Ev[] = [];
    const s = sidecar.client[method](request, { deadline: new Date(Date.now() + ms) }) as grpc.ClientReadableStream<Ev>;
    s.on("data", (e: Ev) => events.push(e));
    s.on("error", reject);
    s.on("end", () => resolve(events));
  });
}

async function failure(p: Promise<unknown>): Promise<grpc.ServiceError> {
  const err = (await p.then(
    () => null,
    (e) => e,
  )) as grpc.ServiceError | null;
  expect(err, "the call should have failed").not.toBeNull();
  return err!;
}

const isPng = (b: Buffer) => b.length > 8 && b.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
const byId = (g: any) => new Map<string, any>(g.nodes.map((n: any) => [n.id, n]));

beforeAll(async () => {
  sidecar = await startTestSidecar<Client>(metarankV1("metarank/v1/tree.proto").Tree as never, {
    env: { TREE_DIR: treeDir },
    client: { "grpc.max_receive_message_length": 64 * 1024 * 1024 },
  });
  const { trees } = await call("ListTrees", { caller: alice });
  const protoTrees = trees.filter((t: any) => t.category === "ProtPTree" && t.treeId.startsWith("platform:"));
  expect(protoTrees.length, "a platform ProtoTree is committed").toBeGreaterThan(0);
  // The smallest one keeps the test quick.
  tree = protoTrees.sort((a: any, b: any) => a.depth - b.depth)[0];
  [pruned, full] = await Promise.all([
    call("GetTree", { caller: alice, treeId: tree.treeId }),
    call("GetTree", { caller: alice, treeId: tree.treeId, full: true }),
  ]);
}, 180_000);

afterAll(async () => {
  await sidecar?.stop();
  fs.rmSync(treeDir, { recursive: true, force: true });
});

describe("Tree service on a platform ProtoTree", () => {
  it("lists the platform tree with its data, accuracy and classes", () => {
    expect(tree.owner).toBe("");
    expect(tree.dataset).not.toBe("");
    expect(tree.classNames.length).toBeGreaterThan(1);
    expect(tree.testAccuracy).toBeGreaterThanOrEqual(0);
    expect(tree.testAccuracy).toBeLessThanOrEqual(1);
  });

  it("GetTree: the pruned tree is part of the full tree, leaves carry distributions, internal nodes pictures", () => {
    const fullIds = byId(full);
    expect(full.full).toBe(true);
    expect(full.nodes.length).toBe(2 ** (tree.depth + 1) - 1);
    for (const n of pruned.nodes) {
      expect(fullIds.has(n.id), `${n.id} of the pruned tree is in the full tree`).toBe(true);
      if (n.kind === "leaf") {
        expect(n.distribution.length).toBe(tree.classNames.length);
        expect(n.distribution.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 4);
        expect(isPng(n.imagePng)).toBe(true);
      } else {
        expect(n.children.length).toBe(2);
        expect(isPng(n.imagePng), `${n.id} has its prototype's patch`).toBe(true);
      }
    }
    expect(pruned.nodes.filter((n: any) => n.kind === "leaf").length).toBe(tree.leaves);
  });

  it("Pool and Predict: the greedy path follows similarity > 0.5 down the pruned tree to leaf_id", async () => {
    const { images } = await call("Pool", { caller: alice, treeId: tree.treeId, count: 4, seed: 7 });
    expect(images.length).toBe(4);
    const again = await call("Pool", { caller: alice, treeId: tree.treeId, count: 4, seed: 7 });
    expect(again.images.map((i: any) => i.sampleId)).toEqual(images.map((i: any) => i.sampleId));
    const nodes = byId(pruned);
    for (const img of images.slice(0, 2)) {
      expect(img.sampleId).toMatch(/^test:\d+$/);
      const r = await call("Predict", { caller: alice, treeId: tree.treeId, sampleId: img.sampleId });
      expect(r.groundTruth).toBe(img.label);
      expect(r.groundTruthName).toBe(tree.classNames[img.label]);
      expect(r.probability).toBeGreaterThan(0);
      expect(r.probability).toBeLessThanOrEqual(1);
      let at = pruned.root;
      for (const step of r.path) {
        expect(step.nodeId).toBe(at);
        expect(step.direction).toBe(step.similarity > 0.5 ? "right" : "left");
        expect(isPng(step.prototypePng) && isPng(step.patchPng) && isPng(step.heatmapPng)).toBe(true);
        const [left, right] = nodes.get(at).children;
        at = step.direction === "right" ? right : left;
      }
      expect(at).toBe(r.leafId);
      expect(nodes.get(r.leafId).kind).toBe("leaf");
      const dist: number[] = r.leafDistribution;
      expect(r.greedyPredicted).toBe(dist.indexOf(Math.max(...dist)));
      expect(dist).toEqual(nodes.get(r.leafId).distribution.map((v: number) => expect.closeTo(v, 6)));
    }
  }, 120_000);

  it("Candidates: ranked by similarity, a projected node's first candidate is its own patch", async () => {
    const { candidates } = await call("Candidates", { caller: alice, treeId: tree.treeId, nodeId: pruned.root, limit: 8 });
    expect(candidates.length).toBe(8);
    for (let i = 1; i < candidates.length; i++) expect(candidates[i].similarity).toBeLessThanOrEqual(candidates[i - 1].similarity);
    expect(candidates[0].similarity).toBeGreaterThan(0.9999);
    for (const c of candidates) {
      expect(c.candidateId).toMatch(/^train:\d+@\d+,\d+$/);
      expect(isPng(c.png)).toBe(true);
      expect(c.labelName).toBe(tree.classNames[c.label]);
    }
    // The first candidate's picture is the node's picture: the projection's crop.
    expect(Buffer.compare(candidates[0].png, byId(pruned).get(pruned.root).imagePng)).toBe(0);
    const tooMany = await failure(call("Candidates", { caller: alice, treeId: tree.treeId, nodeId: pruned.root, limit: 51 }));
    expect(tooMany.code).toBe(grpc.status.INVALID_ARGUMENT);
    const leaf = pruned.nodes.find((n: any) => n.kind === "leaf");
    const onLeaf = await failure(call("Candidates", { caller: alice, treeId: tree.treeId, nodeId: leaf.id, limit: 4 }));
    expect(onLeaf.code).toBe(grpc.status.INVALID_ARGUMENT);
  }, 120_000);

  it("replacing the root's prototype by a patch of an image routes that image right at the root; GetTree marks the edit", async () => {
    const data = loadTreeDataset(tree.dataset);
    const { train } = data;
    // A training image whose root similarity is low before the edit (a left turn), if there is one among the first 40.
    const n = train.height * train.width * train.channels;
    const pngOf = (i: number) =>
      encodePng({ height: train.height, width: train.width, channels: train.channels, data: train.images.slice(i * n, (i + 1) * n) });
    let chosen = 0;
    for (let i = 0; i < 40; i++) {
      const r = await call("Predict", { caller: alice, treeId: tree.treeId, imagePng: pngOf(i) });
      if (r.path[0].similarity < 0.5) {
        chosen = i;
        break;
      }
    }
    const edit = { nodeId: pruned.root, candidateId: `train:${chosen}@0,0`, favourClass: -1 };
    const after = await call("Predict", { caller: alice, treeId: tree.treeId, imagePng: pngOf(chosen), edits: [edit] });
    expect(after.groundTruth).toBe(-1);
    // exp(−d) with d from ‖z‖² + ‖p‖² − 2z·p in float32 (protoTree.ts patchDistances): a patch
    // identical to the prototype comes out at d ≈ 0.003 rather than 0, so similarity ≈ 0.997.
    expect(after.path[0].similarity).toBeGreaterThan(0.99);
    expect(after.path[0].direction).toBe("right");
    const g = await call("GetTree", { caller: alice, treeId: tree.treeId, edits: [edit] });
    const edited = g.nodes.filter((x: any) => x.edited).map((x: any) => x.id);
    expect(edited).toEqual([pruned.root]);
    const bad = await failure(
      call("GetTree", { caller: alice, treeId: tree.treeId, edits: [{ nodeId: "node-99999", candidateId: "train:0@0,0", favourClass: -1 }] }),
    );
    expect(bad.code).toBe(grpc.status.INVALID_ARGUMENT);
    const tooMany = await failure(call("GetTree", { caller: alice, treeId: tree.treeId, edits: Array.from({ length: 257 }, () => edit) }));
    expect(tooMany.code).toBe(grpc.status.INVALID_ARGUMENT);
  }, 300_000);

  it("Predict refuses what it cannot use: both inputs, a sample outside the test split, a PNG declaring a huge size", async () => {
    const png = encodePng({ height: 2, width: 2, channels: 1, data: new Float32Array(4) });
    const both = await failure(call("Predict", { caller: alice, treeId: tree.treeId, sampleId: "test:0", imagePng: png }));
    expect(both.code).toBe(grpc.status.INVALID_ARGUMENT);
    const outside = await failure(call("Predict", { caller: alice, treeId: tree.treeId, sampleId: "test:999999999" }));
    expect(outside.code).toBe(grpc.status.INVALID_ARGUMENT);
    const huge = Buffer.from(png);
    huge.writeUInt32BE(100_000, 16);
    huge.writeUInt32BE(100_000, 20);
    const bomb = await failure(call("Predict", { caller: alice, treeId: tree.treeId, imagePng: huge }));
    expect(bomb.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(bomb.details).toMatch(/100000×100000/);
  }, 60_000);

  it("favour_class on the reached leaf changes the greedy prediction to that class", async () => {
    const before = await call("Predict", { caller: alice, treeId: tree.treeId, sampleId: "test:0" });
    const cls = (before.greedyPredicted + 1) % tree.classNames.length;
    const after = await call("Predict", { caller: alice, treeId: tree.treeId, sampleId: "test:0", edits: [{ nodeId: before.leafId, favourClass: cls }] });
    expect(after.leafId).toBe(before.leafId);
    expect(after.greedyPredicted).toBe(cls);
    expect(Math.max(...after.leafDistribution)).toBeCloseTo(Math.max(...before.leafDistribution), 5);
  }, 60_000);

  it("AdjustTree streams progress and tests the original and the adjusted tree", async () => {
    const before = await call("Predict", { caller: alice, treeId: tree.treeId, sampleId: "test:0" });
    const events = await stream("AdjustTree", { caller: alice, treeId: tree.treeId, edits: [{ nodeId: before.leafId, favourClass: 0 }] });
    const done = events.at(-1).done;
    expect(done).toBeTruthy();
    const progress = events.map((e: any) => e.progress);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
    expect(progress.at(-1)).toBe(1);
    // The original tree, tested on the test images it was tested on when trained.
    expect(done.oldAccuracy).toBeCloseTo(tree.testAccuracy, 3);
    expect(done.newAccuracy).toBeGreaterThanOrEqual(0);
    expect(done.newAccuracy).toBeLessThanOrEqual(1);
  }, 600_000);

  it("SaveTree: the owner lists the saved tree, another user does not and gets NOT_FOUND; names are unique", async () => {
    const edits = [{ nodeId: pruned.root, candidateId: "train:1@0,0", favourClass: -1 }];
    const events = await stream("SaveTree", { caller: alice, treeId: tree.treeId, edits, name: "edited-1", adjust: false });
    const done = events.at(-1).done;
    expect(done.treeId).toBe("user:alice:edited-1");
    const mine = (await call("ListTrees", { caller: alice })).trees.find((t: any) => t.treeId === done.treeId);
    expect(mine).toBeTruthy();
    expect(mine.owner).toBe("alice");
    expect(mine.testAccuracy).toBeCloseTo(done.newAccuracy, 3);
    expect((await call("ListTrees", { caller: bob })).trees.some((t: any) => t.treeId === done.treeId)).toBe(false);
    expect((await call("ListTrees", { caller: admin })).trees.some((t: any) => t.treeId === done.treeId)).toBe(true);
    const hidden = await failure(call("Predict", { caller: bob, treeId: done.treeId, sampleId: "test:0" }));
    expect(hidden.code).toBe(grpc.status.NOT_FOUND);
    const unknown = await failure(call("Predict", { caller: alice, treeId: "user:alice:no-such-tree", sampleId: "test:0" }));
    expect(unknown.code).toBe(grpc.status.NOT_FOUND);
    // The saved tree carries the edit: its root's picture is the chosen candidate's.
    const [saved, cands] = await Promise.all([
      call("GetTree", { caller: alice, treeId: done.treeId }),
      call("Candidates", { caller: alice, treeId: done.treeId, nodeId: pruned.root, limit: 1 }),
    ]);
    expect(cands.candidates[0].similarity).toBeGreaterThan(0.9999);
    expect(Buffer.compare(byId(saved).get(pruned.root).imagePng, cands.candidates[0].png)).toBe(0);
    const dup = await failure(stream("SaveTree", { caller: alice, treeId: tree.treeId, edits: [], name: "edited-1" }));
    expect(dup.code).toBe(grpc.status.ALREADY_EXISTS);
    const badName = await failure(stream("SaveTree", { caller: alice, treeId: tree.treeId, edits: [], name: "../x" }));
    expect(badName.code).toBe(grpc.status.INVALID_ARGUMENT);
  }, 600_000);

  it("Export: SVG is well-formed XML, PDF starts with %PDF, the zip has one PNG per internal node; same bytes twice", async () => {
    const exportOf = async (format: string) => {
      const chunks = await stream<any>("Export", { caller: alice, treeId: tree.treeId, format });
      for (const c of chunks) expect(c.data.length).toBeLessThanOrEqual(1024 * 1024);
      expect(chunks[0].fileName).not.toBe("");
      const data = Buffer.concat(chunks.map((c) => c.data));
      expect(data.length).toBe(Number(chunks[0].totalBytes));
      return { data, type: chunks[0].contentType };
    };
    const svg = await exportOf("svg");
    expect(svg.type).toBe("image/svg+xml");
    expect(XMLValidator.validate(svg.data.toString("utf8"))).toBe(true);
    const internal = pruned.nodes.filter((n: any) => n.kind === "internal");
    expect(svg.data.toString("utf8").match(/<image /g)?.length).toBe(internal.length);
    const pdf = await exportOf("pdf");
    expect(pdf.data.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(Buffer.compare(pdf.data, (await exportOf("pdf")).data)).toBe(0);
    const zip = await exportOf("prototypes.zip");
    const names = await new Promise<string[]>((resolve, reject) =>
      yauzl.fromBuffer(zip.data, { lazyEntries: true }, (err, z) => {
        if (err || !z) return reject(err);
        const out: string[] = [];
        z.on("entry", (e) => {
          out.push(e.fileName);
          z.readEntry();
        });
        z.on("end", () => resolve(out));
        z.readEntry();
      }),
    );
    const pngs = names.filter((n) => n.endsWith(".png")).sort();
    expect(pngs).toEqual(internal.map((n: any) => `prototypes/${n.id}.png`).sort());
    const bad = await failure(stream("Export", { caller: alice, treeId: tree.treeId, format: "docx" }));
    expect(bad.code).toBe(grpc.status.INVALID_ARGUMENT);
  }, 300_000);
});
