// The bird and car tree pages' server side (docs/tree-service.md): typed calls to the sidecar's
// Tree service (proto/metarank/v1/tree.proto, rpc().tree), always with the signed-in caller taken
// from the session, never from a form; each user's pending edits per tree kept in the tree_edits
// table (models/TreeEdit.ts) and sent whole with every call that should see them, because the
// service is stateless about edits (tree.proto); and the long jobs (AdjustTree, SaveTree streams)
// run as queue jobs (queue.server.ts, kind "tree") whose progress the page polls through
// /trees/jobs/$jobId instead of holding a request open for minutes.
//
// Visibility is checked three times: the page's loader and action only accept a tree id the
// caller's ListTrees answer holds (requireTree), the job and download routes do the same, and
// the sidecar itself answers NOT_FOUND for another user's tree.
// Deadlines are generous (2 minutes): the first call on a worker loads the tree and its data.
import * as grpc from "@grpc/grpc-js";
import { TreeEdit as TreeEditRow } from "../../models/TreeEdit.ts";
import { NotFoundError } from "./domainErrors.server.ts";
import { logger } from "./logger.server.ts";
import { type JobInfo, type JobQueue, enqueueJob, getJob, untilSidecarServes } from "./queue.server.ts";
import { SidecarCallError, rpc, serverStream, unary } from "./sidecar.server.ts";
import { messageRef } from "../lib/forms/messages.ts";
import { CANDIDATE_ID, CANDIDATE_LIMIT, JOB_ID, MAX_EDITS, NODE_ID, POOL_SIZE, SAMPLE_ID, TREE_ID, TREE_MSG, validModelName } from "../lib/rules/trees.ts";
import type { TreeModelInfo__Output } from "../../proto/generated/metarank/v1/TreeModelInfo.ts";
import type { TreeGraph__Output } from "../../proto/generated/metarank/v1/TreeGraph.ts";
import type { TreeEdit } from "../../proto/generated/metarank/v1/TreeEdit.ts";
import type { TreeJobDone__Output } from "../../proto/generated/metarank/v1/TreeJobDone.ts";

const log = logger("trees");

/** Who calls: the session's user (CurrentUser in session.server.ts). */
export interface TreeUser {
  id: number;
  username: string;
  isAdmin: boolean;
}

export type TreePage = "cub" | "cars";

declare module "./queue.server.ts" {
  interface JobPayloads {
    /** An AdjustTree or SaveTree stream on one tree with the user's pending edits (app/.server/trees.server.ts). */
    tree: { op: "adjust" | "save"; treeId: string; admin: boolean; name?: string; edits: TreeEditIn[] };
  }
}

export interface TreeEditIn {
  nodeId: string;
  candidateId: string;
  favourClass: number;
}

const caller = (u: TreeUser) => ({ username: u.username, admin: u.isAdmin });
const dataUrl = (png: Buffer | Uint8Array | null | undefined) => (png && png.length ? `data:image/png;base64,${Buffer.from(png).toString("base64")}` : null);
const toProtoEdits = (edits: TreeEditIn[]): TreeEdit[] => edits.map((e) => ({ nodeId: e.nodeId, candidateId: e.candidateId, favourClass: e.favourClass }));

/** A Tree call that failed: `message` is a message ref for the page, `detail` the sidecar's own words. */
export class TreeCallFailed extends Error {
  constructor(
    message: string,
    readonly detail: string,
    readonly busy = false,
  ) {
    super(message);
  }
}

/** The sidecar's refusals in the page's terms: NOT_FOUND is the 404 of an unknown tree, INVALID_ARGUMENT shows its own words. */
async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof SidecarCallError) {
      if (e.code === grpc.status.NOT_FOUND) throw new NotFoundError(TREE_MSG.notFound);
      if (e.code === grpc.status.INVALID_ARGUMENT || e.code === grpc.status.FAILED_PRECONDITION) throw new TreeCallFailed(e.details, e.details);
      if (e.code === grpc.status.RESOURCE_EXHAUSTED) throw new TreeCallFailed("demo:msg.busy", e.details, true);
      throw new TreeCallFailed(TREE_MSG.treesDown, `${what}: ${e.details}`);
    }
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Models

export async function listTrees(user: TreeUser): Promise<TreeModelInfo__Output[]> {
  const reply = await call("ListTrees", () => unary(rpc().tree.ListTrees, { caller: caller(user) }, { deadlineMs: 15_000 }));
  return reply.trees;
}

/** Which datasets a page is about (bird page = CUB-200-2011, car page = Stanford Cars). */
const PAGE_DATA: Record<TreePage, RegExp> = { cub: /cub|bird/i, cars: /car/i };
/** The pages' model names (cub1, cub2; cars1), given to the page's platform trees in order. */
const SEED_NAMES: Record<TreePage, string[]> = { cub: ["cub1", "cub2"], cars: ["cars1"] };

export interface TreeChoice {
  id: string;
  /** Message ref of the option's text. */
  label: string;
  platform: boolean;
  info: TreeModelInfo__Output;
}

export interface TreeChoices {
  choices: TreeChoice[];
  /** True when the page's own data (CUB, Cars) is not installed and its trees are the platform's on its own data. */
  ownData: boolean;
}

/**
 * The page's model select: ProtoTree platform trees on the page's data (or, when that data is
 * not installed, the platform's trees on its own data, said so), named cub1, cub2 / cars1 as
 * the original site did (docs/product.md "Prototype-tree pages"), then the caller's saved trees on the same data, labelled as theirs.
 */
export function treeChoices(trees: TreeModelInfo__Output[], page: TreePage): TreeChoices {
  const proto = trees.filter((t) => t.category === "ProtPTree");
  const platform = proto.filter((t) => !t.owner);
  const onPageData = platform.filter((t) => PAGE_DATA[page].test(t.dataset) || PAGE_DATA[page].test(t.datasetName));
  const ownData = onPageData.length === 0;
  const shown = ownData ? platform : onPageData;
  const datasets = new Set(shown.map((t) => t.dataset));
  const mine = proto.filter((t) => t.owner && (datasets.has(t.dataset) || PAGE_DATA[page].test(t.dataset)));
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  return {
    ownData,
    choices: [
      ...shown.map((t, i) => ({
        id: t.treeId,
        platform: true,
        info: t,
        label: messageRef("trees:option.platform", {
          seedName: SEED_NAMES[page][i] ?? t.name,
          data: t.datasetName || t.dataset,
          accuracy: percent(t.testAccuracy),
        }),
      })),
      ...mine.map((t) => ({
        id: t.treeId,
        platform: false,
        info: t,
        label: messageRef("trees:option.mine", { name: t.name, data: t.datasetName || t.dataset, accuracy: percent(t.testAccuracy) }),
      })),
    ],
  };
}

/** The tree if the caller may use it on this page; otherwise the 404 of an unknown tree. */
export async function requireTree(user: TreeUser, treeId: unknown, page: TreePage): Promise<{ tree: TreeModelInfo__Output; choices: TreeChoices }> {
  if (typeof treeId !== "string" || !TREE_ID.test(treeId)) throw new NotFoundError(TREE_MSG.notFound);
  const choices = treeChoices(await listTrees(user), page);
  const found = choices.choices.find((c) => c.id === treeId);
  if (!found) throw new NotFoundError(TREE_MSG.notFound);
  return { tree: found.info, choices };
}

// ---------------------------------------------------------------------------------------------
// Pending edits

export async function listEdits(userId: number, treeId: string): Promise<TreeEditIn[]> {
  const rows = await TreeEditRow.findAll({ where: { userId, treeId }, order: [["id", "ASC"]], limit: MAX_EDITS });
  return rows.map((r) => ({ nodeId: r.nodeId, candidateId: r.candidateId, favourClass: r.favourClass }));
}

/** Adds or replaces the edit of one node; refuses the 257th. Ids are checked here and again by the sidecar. */
export async function putEdit(userId: number, treeId: string, edit: TreeEditIn): Promise<void> {
  if (!TREE_ID.test(treeId) || !NODE_ID.test(edit.nodeId)) throw new TreeCallFailed(TREE_MSG.chooseNode, "bad node id");
  if (edit.favourClass < 0 && !CANDIDATE_ID.test(edit.candidateId)) throw new TreeCallFailed(TREE_MSG.chooseCandidate, "bad candidate id");
  const existing = await TreeEditRow.findOne({ where: { userId, treeId, nodeId: edit.nodeId } });
  if (existing) {
    await existing.update({ candidateId: edit.favourClass >= 0 ? "" : edit.candidateId, favourClass: edit.favourClass });
    return;
  }
  if ((await TreeEditRow.count({ where: { userId, treeId } })) >= MAX_EDITS) throw new TreeCallFailed(TREE_MSG.tooManyEdits, `more than ${MAX_EDITS} edits`);
  await TreeEditRow.create({ userId, treeId, nodeId: edit.nodeId, candidateId: edit.favourClass >= 0 ? "" : edit.candidateId, favourClass: edit.favourClass });
}

export async function removeEdit(userId: number, treeId: string, nodeId: string): Promise<void> {
  await TreeEditRow.destroy({ where: { userId, treeId, nodeId } });
}

export async function clearEdits(userId: number, treeId: string): Promise<void> {
  await TreeEditRow.destroy({ where: { userId, treeId } });
}

// ---------------------------------------------------------------------------------------------
// Pool, prediction, tree, candidates

export interface PoolImageView {
  sampleId: string;
  src: string;
  label: number;
  labelName: string;
}

export async function treePool(user: TreeUser, treeId: string, seed: number): Promise<PoolImageView[]> {
  const reply = await call("Pool", () => unary(rpc().tree.Pool, { caller: caller(user), treeId, count: POOL_SIZE, seed: seed >>> 0 }, { deadlineMs: 120_000 }));
  return reply.images.flatMap((i) => {
    const src = dataUrl(i.png);
    return src && SAMPLE_ID.test(i.sampleId) ? [{ sampleId: i.sampleId, src, label: i.label, labelName: i.labelName }] : [];
  });
}

export interface PathStepView {
  nodeId: string;
  nodeName: string;
  similarity: number;
  direction: string;
  prototype: string | null;
  patch: string | null;
  heatmap: string | null;
}

export interface PredictionView {
  groundTruth: number;
  groundTruthName: string;
  predicted: number;
  predictedName: string;
  probability: number;
  greedyPredicted: number;
  greedyPredictedName: string;
  path: PathStepView[];
  leafId: string;
  leafDistribution: number[];
  classNames: string[];
  elapsedMs: number;
}

export async function predict(user: TreeUser, treeId: string, sampleId: string, edits: TreeEditIn[], signal?: AbortSignal): Promise<PredictionView> {
  const r = await call("Predict", () =>
    unary(rpc().tree.Predict, { caller: caller(user), treeId, sampleId, edits: toProtoEdits(edits) }, { deadlineMs: 120_000, signal }),
  );
  return {
    groundTruth: r.groundTruth,
    groundTruthName: r.groundTruthName,
    predicted: r.predicted,
    predictedName: r.predictedName,
    probability: r.probability,
    greedyPredicted: r.greedyPredicted,
    greedyPredictedName: r.classNames[r.greedyPredicted] ?? String(r.greedyPredicted),
    path: r.path.map((s) => ({
      nodeId: s.nodeId,
      nodeName: s.nodeName,
      similarity: s.similarity,
      direction: s.direction,
      prototype: dataUrl(s.prototypePng),
      patch: dataUrl(s.patchPng),
      heatmap: dataUrl(s.heatmapPng),
    })),
    leafId: r.leafId,
    leafDistribution: r.leafDistribution,
    classNames: r.classNames,
    elapsedMs: r.elapsedMs,
  };
}

export interface TreeNodeView {
  id: string;
  name: string;
  kind: string;
  children: string[];
  image: string | null;
  depth: number;
  edited: boolean;
  /** Leaves: the most probable class. */
  top: string | null;
}

export interface TreeGraphView {
  root: string;
  full: boolean;
  nodes: TreeNodeView[];
  classNames: string[];
}

const toGraph = (g: TreeGraph__Output): TreeGraphView => ({
  root: g.root,
  full: g.full,
  classNames: g.classNames,
  nodes: g.nodes.map((n) => {
    let top: string | null = null;
    if (n.distribution.length) {
      const best = n.distribution.indexOf(Math.max(...n.distribution));
      top = g.classNames[best] ?? String(best);
    }
    return { id: n.id, name: n.name, kind: n.kind, children: n.children, image: dataUrl(n.imagePng), depth: n.depth, edited: n.edited, top };
  }),
});

export async function treeGraph(user: TreeUser, treeId: string, full: boolean, edits: TreeEditIn[]): Promise<TreeGraphView> {
  const g = await call("GetTree", () =>
    unary(rpc().tree.GetTree, { caller: caller(user), treeId, full, edits: toProtoEdits(edits), withoutImages: false }, { deadlineMs: 120_000 }),
  );
  return toGraph(g);
}

export interface CandidateView {
  candidateId: string;
  similarity: number;
  src: string | null;
  labelName: string;
}

export async function candidates(user: TreeUser, treeId: string, nodeId: string, edits: TreeEditIn[]): Promise<CandidateView[]> {
  if (!NODE_ID.test(nodeId)) throw new TreeCallFailed(TREE_MSG.chooseNode, "bad node id");
  const r = await call("Candidates", () =>
    unary(rpc().tree.Candidates, { caller: caller(user), treeId, nodeId, limit: CANDIDATE_LIMIT, edits: toProtoEdits(edits) }, { deadlineMs: 120_000 }),
  );
  return r.candidates
    .filter((c) => CANDIDATE_ID.test(c.candidateId))
    .map((c) => ({ candidateId: c.candidateId, similarity: c.similarity, src: dataUrl(c.png), labelName: c.labelName }));
}

// ---------------------------------------------------------------------------------------------
// Downloads

export const EXPORT_FORMATS = { svg: "svg", pdf: "pdf", zip: "prototypes.zip" } as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;
/** Bigger than any tree drawing or prototype zip of the committed trees by far; a runaway stream stops here. */
const EXPORT_MAX_BYTES = 64 * 1024 * 1024;

export async function exportTree(
  user: TreeUser,
  treeId: string,
  format: ExportFormat,
  full: boolean,
  edits: TreeEditIn[],
  signal?: AbortSignal,
): Promise<{ body: Buffer; contentType: string; fileName: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let contentType = "";
  let fileName = "";
  await call("Export", () =>
    serverStream(
      rpc().tree.Export,
      { caller: caller(user), treeId, format: EXPORT_FORMATS[format], full, edits: toProtoEdits(edits) },
      (chunk) => {
        if (chunk.contentType) contentType = chunk.contentType;
        if (chunk.fileName) fileName = chunk.fileName;
        size += chunk.data.length;
        if (size > EXPORT_MAX_BYTES) throw new TreeCallFailed(TREE_MSG.treesDown, "export larger than 64 MiB");
        chunks.push(Buffer.from(chunk.data));
      },
      { deadlineMs: 120_000, signal },
    ),
  );
  const fallback = { svg: "image/svg+xml", pdf: "application/pdf", zip: "application/zip" }[format];
  return { body: Buffer.concat(chunks), contentType: contentType || fallback, fileName: fileName || `tree.${EXPORT_FORMATS[format]}` };
}

// ---------------------------------------------------------------------------------------------
// Long jobs: adjust the whole tree, save it under a name

export async function startTreeJob(user: TreeUser, op: "adjust" | "save", treeId: string, name?: string): Promise<string> {
  if (op === "save" && !(name && validModelName(name))) throw new TreeCallFailed(TREE_MSG.nameRule, "bad model name");
  const edits = await listEdits(user.id, treeId);
  if (op === "adjust" && !edits.length) throw new TreeCallFailed(TREE_MSG.noEdits, "no pending edits");
  // One attempt: a SaveTree retried after its tree was written would answer "name taken".
  const job = await enqueueJob("tree", { op, treeId, admin: user.isAdmin, name, edits }, { id: user.id, username: user.username }, { attempts: 1 });
  return job.id;
}

export interface TreeJobView {
  id: string;
  op: "adjust" | "save";
  treeId: string;
  name: string | null;
  state: JobInfo["state"];
  progress: number;
  done: { oldAccuracy: number; newAccuracy: number; treeId: string; elapsedMs: number } | null;
  error: string | null;
}

/** The caller's own tree job; another user's (or an unknown) id is null, as a 404. */
export async function treeJobFor(user: TreeUser, jobId: unknown): Promise<TreeJobView | null> {
  if (typeof jobId !== "string" || !JOB_ID.test(jobId)) return null;
  const job = await getJob("tree", jobId);
  if (!job || job.user.id !== user.id) return null;
  const result = job.result as TreeJobDone__Output | null;
  return {
    id: job.id,
    op: job.payload.op,
    treeId: job.payload.treeId,
    name: job.payload.name ?? null,
    state: job.state,
    progress: job.progress,
    done:
      job.state === "completed" && result
        ? { oldAccuracy: result.oldAccuracy, newAccuracy: result.newAccuracy, treeId: result.treeId, elapsedMs: result.elapsedMs }
        : null,
    // The sidecar's refusal (a taken name, an edit it cannot apply) is for the person; anything else is generic.
    error: job.state === "failed" ? (job.failedReason ?? "") : null,
  };
}

export function registerTreeJobs(queue: JobQueue): void {
  queue.registerJobHandler(
    "tree",
    async (job) => {
      const { op, treeId, admin, name, edits } = job.payload;
      const who = { username: job.user.username, admin };
      const out: { done: TreeJobDone__Output | null } = { done: null };
      const onEvent = (ev: { progress: number; done: TreeJobDone__Output | null }) => {
        if (ev.done) out.done = ev.done;
        job.progress(Math.max(0, Math.min(100, Math.round(ev.progress * 100)))).catch(() => undefined);
      };
      const started = Date.now();
      // No compute server online or answering, or all busy: the job waits for one (its one
      // attempt is not spent; app/.server/queue.server.ts untilSidecarServes).
      await untilSidecarServes(() =>
        op === "adjust"
          ? serverStream(rpc().tree.AdjustTree, { caller: who, treeId, edits: toProtoEdits(edits) }, onEvent)
          : serverStream(rpc().tree.SaveTree, { caller: who, treeId, edits: toProtoEdits(edits), name: name ?? "", adjust: edits.length > 0 }, onEvent),
      );
      if (!out.done) throw new Error(`${op === "adjust" ? "AdjustTree" : "SaveTree"} ended without its result`);
      // Saved: the edits now live in the saved tree, so the original's pending list starts empty again.
      if (op === "save") {
        for (const e of edits) await TreeEditRow.destroy({ where: { userId: job.user.id, treeId, nodeId: e.nodeId } });
      }
      log.info({ op, treeId, user: job.user.username, ms: Date.now() - started }, "tree job done");
      return out.done;
    },
    { concurrency: 2 },
  );
}
