// gRPC service metarank.v1.Tree (proto/metarank/v1/tree.proto). TaskOptions and Train are D1's
// (sidecar/tree/trainHandlers.ts), composed here; everything else is this file's:
//  - ListTrees reads manifests in the main thread (no weights);
//  - Pool, Predict, GetTree, Candidates, AdjustTree, SaveTree and Export run on the sidecar's
//    worker pool (sidecar/tree/predict.ts), with the caller's cancellation and a time limit, as
//    the other model services do (sidecar/inference/segmentation/service.ts).
// Visibility is decided here before any work: readTreeManifest (checkpoint.ts) answers
// TreeNotFoundError for an unknown id and for another user's tree alike, which is NOT_FOUND.
// Every input is bounded here (ids, edit count, image bytes, counts, limits, names) and the rest
// (edits naming nodes, candidates and classes of the tree) is checked by the worker against the
// loaded tree, with INVALID_ARGUMENT for both. Each handler's failure status is the shared
// mapping's (sidecar/grpc/unary.ts), streams included.
import { stopTraining, trainHandlers } from "./trainHandlers.ts";
import fs from "node:fs";
import path from "node:path";
import { once } from "node:events";
import * as grpc from "@grpc/grpc-js";
import { grpcError, metarankV1 } from "../../proto/contract.ts";
import type { TreeHandlers } from "../../proto/generated/metarank/v1/Tree.ts";
import type { TreeModelInfo } from "../../proto/generated/metarank/v1/TreeModelInfo.ts";
import type { TreeJobEvent } from "../../proto/generated/metarank/v1/TreeJobEvent.ts";
import type { TreeEdit__Output } from "../../proto/generated/metarank/v1/TreeEdit.ts";
import type { Caller__Output } from "../../proto/generated/metarank/v1/Caller.ts";
import { logger } from "../log.ts";
import type { SidecarService } from "../services.ts";
import { BadRequest, failureStatus, unaryHandlers, type ServiceNames } from "../grpc/unary.ts";
import { callSignal, thePool } from "../inference/thePool.ts";
import {
  MANIFEST_FILE,
  TreeCheckpointError,
  TreeNotFoundError,
  listTrees,
  readTreeManifest,
  userTreeId,
  userTreeRoot,
  validTreeName,
  type TreeCaller,
} from "./checkpoint.ts";
import { MAX_EDITS } from "./edits.ts";
import { PROTOTREE_CATEGORY, type TreeManifest } from "./protoTree.ts";
import { MAX_CANDIDATES, MAX_POOL, type TreeJob, type TreeJobResult } from "./predict.ts";

const PROTO = "metarank/v1/tree.proto" as const;
const log = logger.child({ service: "tree" });

/** An uploaded picture for Predict (a CUB photo is a few hundred KiB; decoding is bounded too). */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;
/** Export messages carry at most this many bytes (the contract's promise). */
export const EXPORT_CHUNK_BYTES = 1024 * 1024;
const MAX_ID = 200;
/** Time limits: a prediction, a graph or a download takes seconds; adjusting re-fits on thousands of images. */
const SHORT_LIMIT_MS = 120_000;
const LONG_LIMIT_MS = 30 * 60_000;

function callerOf(c: Caller__Output | null | undefined): TreeCaller | null {
  const username = String(c?.username ?? "").trim();
  if (username.length > 128) throw new BadRequest("caller.username is longer than 128 characters");
  return username ? { username, admin: Boolean(c?.admin) } : null;
}

/** The visible ProtoTree a request names (NOT_FOUND for an unknown or another user's tree). */
function resolve(treeIdIn: unknown, caller: TreeCaller | null): { treeId: string; dir: string; manifest: TreeManifest } {
  const treeId = String(treeIdIn ?? "");
  if (!treeId || treeId.length > MAX_ID) throw new BadRequest(`tree_id must be a tree id from ListTrees (platform:<id> or user:<owner>:<name>)`);
  const { ref, manifest } = readTreeManifest(treeId, caller);
  if (manifest.category !== PROTOTREE_CATEGORY)
    throw new TreeCheckpointError(
      `tree "${treeId}" is a ${String(manifest.category)} tree; this call serves ProtoTree trees (the SeBoW demo has its own service)`,
    );
  return { treeId, dir: ref.dir, manifest };
}

function editsOf(edits: TreeEdit__Output[] | null | undefined): Array<{ nodeId: string; candidateId: string; favourClass: number }> {
  const list = edits ?? [];
  if (list.length > MAX_EDITS) throw new BadRequest(`${list.length} edits were sent; at most ${MAX_EDITS} are accepted`);
  return list.map((e) => ({
    nodeId: String(e.nodeId ?? "").slice(0, MAX_ID),
    candidateId: String(e.candidateId ?? "").slice(0, MAX_ID),
    favourClass: Number(e.favourClass ?? -1),
  }));
}

const NAMES: ServiceNames = {
  service: "Tree",
  what: "tree",
  // SaveTree throws ALREADY_EXISTS and UNAUTHENTICATED itself.
  thrownStatuses: true,
  statuses: [
    [TreeNotFoundError, grpc.status.NOT_FOUND],
    [TreeCheckpointError, grpc.status.FAILED_PRECONDITION],
  ],
  log,
};
const unary = unaryHandlers(NAMES);

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : NaN;
}

export function modelInfo(treeId: string, m: TreeManifest & Record<string, unknown>): TreeModelInfo {
  return {
    treeId,
    name: String(m.name ?? ""),
    category: String(m.category ?? ""),
    dataset: String(m.dataset ?? ""),
    datasetName: String(m.datasetName ?? m.dataset ?? ""),
    owner: String(m.owner ?? ""),
    depth: Number(m.depth ?? 0),
    protoDim: Number(m.protoDim ?? 0),
    testAccuracy: num(m.testAccuracy),
    cnnAccuracy: num(m.cnnAccuracy),
    leaves: Number(m.leavesAfterPruning ?? m.leaves ?? 0),
    inputHeight: Number(m.inputShape?.[0] ?? 0),
    inputWidth: Number(m.inputShape?.[1] ?? 0),
    classNames: Array.isArray(m.classNames) ? m.classNames.map(String) : [],
    trainedAt: String(m.trainedAt ?? ""),
  };
}

/** Platform trees and the caller's; an admin sees every user's trees as well (to support users). */
export function visibleTrees(caller: TreeCaller | null): TreeModelInfo[] {
  const { trees, problems } = listTrees(caller);
  for (const p of problems) log.warn({ problem: p }, "unreadable tree manifest");
  const out = trees.map((t) => modelInfo(t.treeId, t.manifest));
  if (caller?.admin) {
    const root = userTreeRoot();
    const owners = fs.existsSync(root) ? fs.readdirSync(root).sort() : [];
    for (const owner of owners) {
      if (owner === caller.username || owner.startsWith(".")) continue;
      const dir = path.join(root, owner);
      if (!fs.statSync(dir).isDirectory()) continue;
      for (const name of fs.readdirSync(dir).sort()) {
        if (!validTreeName(name) || !fs.existsSync(path.join(dir, name, MANIFEST_FILE))) continue;
        const id = userTreeId(owner, name);
        try {
          out.push(modelInfo(id, readTreeManifest(id, caller).manifest));
        } catch (err) {
          log.warn({ tree: id, err: (err as Error).message }, "unreadable tree manifest");
        }
      }
    }
  }
  return out;
}

type JobOf<K extends TreeJob["op"]> = Extract<TreeJob, { op: K }>;
type ResultOf<K extends TreeJobResult["op"]> = Extract<TreeJobResult, { op: K }>;

async function runJob<K extends TreeJob["op"] & TreeJobResult["op"]>(
  job: JobOf<K>,
  call: Parameters<typeof callSignal>[0],
  opts: { long?: boolean; onProgress?: (f: number, m: string) => void } = {},
): Promise<ResultOf<K>> {
  return (await thePool().tree(job, {
    signal: callSignal(call),
    timeLimitMs: opts.long ? LONG_LIMIT_MS : SHORT_LIMIT_MS,
    onProgress: opts.onProgress,
  })) as ResultOf<K>;
}

const buf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** A long job's stream: progress events, then one with `done`; errors end the stream with their status. */
async function streamJob(call: grpc.ServerWritableStream<unknown, TreeJobEvent>, rpc: string, makeJob: () => JobOf<"adjust"> | JobOf<"save">): Promise<void> {
  try {
    const job = makeJob();
    call.write({ progress: 0, message: "queued" });
    let last = -1;
    const r = await runJob(job, call, {
      long: true,
      onProgress: (f, m) => {
        // At most one event per percent, so a fast loop cannot flood the client.
        const pct = Math.floor(f * 100);
        if (pct === last || call.cancelled) return;
        last = pct;
        call.write({ progress: Math.min(1, Math.max(0, f)), message: m });
      },
    });
    if (call.cancelled) return;
    const done = (r as ResultOf<"adjust"> | ResultOf<"save">).done;
    if (done.exists) throw grpcError(grpc.status.ALREADY_EXISTS, `you already have a tree named "${(job as JobOf<"save">).name}"; choose another name`);
    log.info({ rpc, tree: job.treeId, old: done.oldAccuracy, new: done.newAccuracy, ms: Math.round(done.elapsedMs) }, "tree job done");
    call.write({ progress: 1, message: "done", done });
    call.end();
  } catch (err) {
    if (!call.cancelled) call.emit("error", failureStatus(err, rpc, NAMES));
  }
}

type TrainPart = Pick<TreeHandlers, "TaskOptions" | "Train">;

export function treeHandlers(train: TrainPart): TreeHandlers {
  return {
    TaskOptions: train.TaskOptions,
    Train: train.Train,

    ListTrees: unary("ListTrees", (call) => ({ trees: visibleTrees(callerOf(call.request?.caller)) })),

    Pool: unary("Pool", async (call) => {
      const req = call.request;
      const { treeId, dir } = resolve(req.treeId, callerOf(req.caller));
      const count = Number(req.count ?? 0);
      if (!Number.isInteger(count) || count < 0 || count > MAX_POOL) throw new BadRequest(`count must be from 1 to ${MAX_POOL} (0 for 12)`);
      const r = await runJob({ op: "pool", dir, treeId, count, seed: Number(req.seed ?? 0) >>> 0 }, call);
      return { images: r.images.map((i) => ({ ...i, png: buf(i.png) })) };
    }),

    Predict: unary(
      "Predict",
      async (call) => {
        const req = call.request;
        const { treeId, dir } = resolve(req.treeId, callerOf(req.caller));
        const sampleId = String(req.sampleId ?? "");
        const png = req.imagePng && req.imagePng.length > 0 ? new Uint8Array(req.imagePng) : null;
        if (sampleId && png) throw new BadRequest("send either sample_id or image_png, not both");
        if (sampleId.length > MAX_ID) throw new BadRequest("sample_id is too long (test:<index>, from Pool)");
        if (png && png.length > MAX_IMAGE_BYTES) throw new BadRequest(`the image is ${png.length} bytes; at most ${MAX_IMAGE_BYTES} are accepted`);
        const r = await runJob({ op: "predict", dir, treeId, edits: editsOf(req.edits), sampleId, imagePng: png }, call);
        const p = r.result;
        return {
          ...p,
          path: p.path.map((s) => ({ ...s, prototypePng: buf(s.prototypePng), patchPng: buf(s.patchPng), heatmapPng: buf(s.heatmapPng) })),
        };
      },
      (req) => ({ tree: req.treeId, edits: req.edits?.length ?? 0 }),
    ),

    GetTree: unary("GetTree", async (call) => {
      const req = call.request;
      const { treeId, dir } = resolve(req.treeId, callerOf(req.caller));
      const r = await runJob({ op: "graph", dir, treeId, edits: editsOf(req.edits), full: Boolean(req.full), withoutImages: Boolean(req.withoutImages) }, call);
      const g = r.graph;
      return { ...g, nodes: g.nodes.map((n) => ({ ...n, imagePng: buf(n.imagePng ?? new Uint8Array()) })) };
    }),

    Candidates: unary("Candidates", async (call) => {
      const req = call.request;
      const { treeId, dir } = resolve(req.treeId, callerOf(req.caller));
      const limit = Number(req.limit ?? 0);
      if (!Number.isInteger(limit) || limit < 0 || limit > MAX_CANDIDATES) throw new BadRequest(`limit must be from 1 to ${MAX_CANDIDATES} (0 for 12)`);
      const nodeId = String(req.nodeId ?? "");
      if (!nodeId || nodeId.length > MAX_ID) throw new BadRequest("node_id must be an internal node's id from GetTree (node-<n>)");
      const r = await runJob({ op: "candidates", dir, treeId, edits: editsOf(req.edits), nodeId, limit }, call);
      return { candidates: r.candidates.map((c) => ({ ...c, png: buf(c.png) })) };
    }),

    async AdjustTree(call) {
      const req = call.request;
      await streamJob(call as grpc.ServerWritableStream<unknown, TreeJobEvent>, "AdjustTree", () => {
        const { treeId, dir } = resolve(req.treeId, callerOf(req.caller));
        return { op: "adjust", dir, treeId, edits: editsOf(req.edits) };
      });
    },

    async SaveTree(call) {
      const req = call.request;
      await streamJob(call as grpc.ServerWritableStream<unknown, TreeJobEvent>, "SaveTree", () => {
        const caller = callerOf(req.caller);
        const { treeId, dir } = resolve(req.treeId, caller);
        if (!caller) throw grpcError(grpc.status.UNAUTHENTICATED, "saving a tree needs a signed-in caller (caller.username)");
        // The owner names a folder (checkpoint.ts userTreeRoot()/<owner>/<name>): no separators, no leading dot.
        if (!/^[^/\\:\0.][^/\\:\0]{0,127}$/.test(caller.username))
          throw new BadRequest("this username cannot own saved trees (it would not make a folder name)");
        const name = String(req.name ?? "");
        if (!validTreeName(name)) throw new BadRequest(`the model name must be 1–64 letters, digits, '-', '_' or '.' (got "${name.slice(0, 70)}")`);
        if (fs.existsSync(path.join(userTreeRoot(), caller.username, name)))
          throw grpcError(grpc.status.ALREADY_EXISTS, `you already have a tree named "${name}"; choose another name`);
        return { op: "save", dir, treeId, edits: editsOf(req.edits), adjust: Boolean(req.adjust), owner: caller.username, name };
      });
    },

    async Export(call) {
      const req = call.request;
      try {
        const { treeId, dir, manifest } = resolve(req.treeId, callerOf(req.caller));
        const format = String(req.format ?? "");
        if (!["svg", "pdf", "prototypes.zip"].includes(format))
          throw new BadRequest(`format must be svg, pdf or prototypes.zip (got "${format.slice(0, 20)}")`);
        const full = Boolean(req.full);
        const edits = editsOf(req.edits);
        const acc = Number.isFinite(manifest.testAccuracy) ? `, test accuracy ${(manifest.testAccuracy * 100).toFixed(2)} % before edits` : "";
        const title =
          `${manifest.name || treeId} — ProtoTree on ${manifest.datasetName || manifest.dataset}, ${full ? "before pruning" : "pruned and projected"}` +
          `${acc}${edits.length ? `, with ${edits.length} pending edit(s)` : ""}`;
        const fileStem = `${(manifest.name || "tree").replace(/[^A-Za-z0-9_.-]/g, "_")}-${full ? "full" : "pruned"}`;
        const r = await runJob({ op: "export", dir, treeId, edits, format, full, title, fileStem }, call);
        const data = buf(r.data);
        for (let at = 0; at === 0 || at < data.length; at += EXPORT_CHUNK_BYTES) {
          if (call.cancelled) return;
          const chunk = data.subarray(at, at + EXPORT_CHUNK_BYTES);
          const msg = at === 0 ? { data: chunk, contentType: r.contentType, fileName: r.fileName, totalBytes: data.length } : { data: chunk };
          if (!call.write(msg)) await once(call, "drain");
        }
        log.info({ rpc: "Tree.Export", tree: treeId, format, bytes: data.length }, "export");
        call.end();
      } catch (err) {
        if (!call.cancelled) call.emit("error", failureStatus(err, "Export", NAMES));
      }
    },
  };
}

export const treeService: SidecarService = {
  name: "metarank.v1.Tree",
  async register(server) {
    server.addService(metarankV1(PROTO).Tree.service, treeHandlers(trainHandlers()));
  },
  stop: stopTraining,
};
