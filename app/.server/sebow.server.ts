// The SeBoW demos' server side (/scenesebow and /cifarsebow, docs/sebow.md: the models
// SearchSpaceModel and NeuralDecisionTree with DI and SPI): the platform's SeBoW checkpoints come
// from the sidecar's SeBoW service (proto/metarank/v1/sebow.proto), the pool from the model's own
// test split (Pool), and a run is one Explain call. Nothing is cached (/cifarsebow must not be, and
// the scene page does the same): each run asks the sidecar again, under the demos' shared run
// budget (throttle.server.ts) and with the demos' failure answers (demoFlow.server.ts
// demoSidecarRun).
import { rpc, unary } from "./sidecar.server.ts";
import { MODEL_LIST_TTL_MS, timedCache } from "./timedCache.server.ts";
import { demoFailure, demoSidecarRun } from "./demoFlow.server.ts";
import { checkFormData } from "./forms.server.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { SEBOW_MSG, SEBOW_SAMPLE, sebowStartSchema } from "~/lib/rules/sebow.ts";
import type { SebowModelInfo__Output } from "../../proto/generated/metarank/v1/SebowModelInfo.ts";
import type { SebowExplainReply__Output } from "../../proto/generated/metarank/v1/SebowExplainReply.ts";

/** Two rows of six thumbnails, as the other demos' pools (docs/product.md "Demo pages"). */
export const SEBOW_POOL_SIZE = 12;

export type SebowModel = SebowModelInfo__Output;

const models = timedCache(MODEL_LIST_TTL_MS, async (): Promise<SebowModel[]> => (await unary(rpc().sebow.ListModels, {}, { deadlineMs: 10_000 })).models);

/** The sidecar's SeBoW models (cached for a minute: they change only when an operator adds one). */
export function listSebowModels(): Promise<SebowModel[]> {
  return models.get();
}

/**
 * The model a page serves: the first one trained on one of `datasets` (in that order), else the
 * scenes model with `fallback` set so the page says it is not the data it is named after.
 */
export async function modelFor(datasets: readonly string[]): Promise<{ model: SebowModel; fallback: boolean } | null> {
  const models = await listSebowModels();
  for (const d of datasets) {
    const m = models.find((x) => x.dataset === d);
    if (m) return { model: m, fallback: false };
  }
  const scenes = models.find((x) => x.dataset === "scenes");
  return scenes ? { model: scenes, fallback: true } : null;
}

export interface SebowPoolPicture {
  sampleId: string;
  src: string;
  label: string;
}

const dataUrl = (png: Uint8Array | Buffer) => (png && png.length ? `data:image/png;base64,${Buffer.from(png).toString("base64")}` : "");

/** The pool of the model's test split for a refresh seed (the same seed, the same pictures). */
export async function sebowPool(modelId: string, seed: number): Promise<SebowPoolPicture[]> {
  const reply = await unary(rpc().sebow.Pool, { modelId, count: SEBOW_POOL_SIZE, seed }, { deadlineMs: 15_000 });
  return reply.images.map((i) => ({ sampleId: i.sampleId, src: dataUrl(i.png), label: i.labelName }));
}

/** What a page shows of one run: numbers as the sidecar computed them, images as data URLs. */
export interface SebowResult {
  modelId: string;
  variant: string;
  algorithm: string;
  sampleId: string;
  image: string;
  groundTruth: string;
  predicted: string;
  probability: number;
  classes: { name: string; probability: number }[];
  decisions: { nodeId: string; layer: number; children: { id: string; probability: number }[]; chosen: number; reach: number; saliency: string }[];
  leafId: string;
  leafClass: string;
  leafDistribution: { name: string; probability: number }[];
  patches: { rows: number; cols: number; importance: number[]; changesPath: boolean[] } | null;
  heatmap: string;
  overlay: string;
  elapsedMs: number;
}

function toResult(r: SebowExplainReply__Output, sampleId: string): SebowResult {
  const names = r.classNames;
  return {
    modelId: r.modelId,
    variant: r.variant,
    algorithm: r.algorithm,
    sampleId,
    image: dataUrl(r.imagePng),
    groundTruth: r.groundTruth >= 0 ? r.groundTruthName : "",
    predicted: r.predictedName,
    probability: r.probability,
    classes: r.classProbabilities.map((p, i) => ({ name: names[i] ?? String(i), probability: p })),
    decisions: r.decisions.map((d) => ({
      nodeId: d.nodeId,
      layer: d.layer,
      children: d.children.map((id, k) => ({ id, probability: d.probabilities[k] ?? 0 })),
      chosen: d.chosen,
      reach: d.reach,
      saliency: dataUrl(d.saliencyPng),
    })),
    leafId: r.leafId,
    leafClass: names[r.pathPredicted] ?? "",
    leafDistribution: r.leafDistribution.map((p, i) => ({ name: names[i] ?? String(i), probability: p })),
    patches: r.algorithm === "SPI" ? { rows: r.patchRows, cols: r.patchCols, importance: r.patchImportance, changesPath: r.patchChangesPath } : null,
    heatmap: dataUrl(r.heatmapPng),
    overlay: dataUrl(r.overlayPng),
    elapsedMs: r.elapsedMs,
  };
}

/** One run (never cached): the demos' run budget, then Explain; failures become the demos' panel. */
export async function explainSebow(
  visitor: string,
  req: { modelId: string; variant: string; algorithm: string; sampleId: string },
  signal?: AbortSignal,
): Promise<SebowResult> {
  return demoSidecarRun(visitor, SEBOW_MSG.refused, async () => {
    const r = await unary(rpc().sebow.Explain, { ...req, imagePng: Buffer.alloc(0) }, { deadlineMs: 120_000, signal });
    return toResult(r, req.sampleId);
  });
}

// ---------------------------------------------------------------------------------------------
// The pages' loader and action (app/routes/trees/sebowScenes.tsx, app/routes/trees/sebowCifar.tsx).

export interface SebowPage {
  route: string;
  /** Datasets the page is about, in order of preference ("scenes"; "cifar10", "cifar100"). */
  datasets: readonly string[];
}

export interface SebowModelView {
  id: string;
  dataset: string;
  datasetName: string;
  searchSpaceAccuracy: number;
  treeAccuracy: number;
  treeGreedyAccuracy: number;
  cnnAccuracy: number;
  layers: number;
  groups: number;
  leaves: number;
  trainSize: number;
  testSize: number;
  trainedAt: string;
}

export async function sebowDemoLoader(page: SebowPage, request: Request) {
  const sp = new URL(request.url).searchParams;
  const seed = Math.min(1e9, Math.abs(Math.floor(Number(sp.get("pool")) || 1)) || 1);
  const sample = SEBOW_SAMPLE.test(sp.get("sample") ?? "") ? sp.get("sample")! : "";
  let chosen: Awaited<ReturnType<typeof modelFor>> = null;
  let pool: SebowPoolPicture[] = [];
  let modelsError: string | null = null;
  try {
    chosen = await modelFor(page.datasets);
    if (chosen) pool = await sebowPool(chosen.model.id, seed);
    else modelsError = SEBOW_MSG.noModel;
  } catch {
    modelsError = "demo:msg.modelsDown";
  }
  const m = chosen?.model;
  const model: SebowModelView | null = m
    ? {
        id: m.id,
        dataset: m.dataset,
        datasetName: m.datasetName,
        searchSpaceAccuracy: m.searchSpaceAccuracy,
        treeAccuracy: m.treeAccuracy,
        treeGreedyAccuracy: m.treeGreedyAccuracy,
        cnnAccuracy: m.cnnAccuracy,
        layers: m.layers,
        groups: m.groups,
        leaves: m.leaves,
        trainSize: m.trainSize,
        testSize: m.testSize,
        trainedAt: m.trainedAt,
      }
    : null;
  return { route: page.route, datasets: page.datasets, seed, sample, pool, model, fallback: chosen?.fallback ?? false, modelsError };
}

export type SebowLoaderData = Awaited<ReturnType<typeof sebowDemoLoader>>;

/** The start form through its rules (app/lib/rules/sebow.ts: model, algorithm, image), then one Explain. */
export async function sebowDemoAction(page: SebowPage, request: Request, visitor: string) {
  const form = checkFormData(await request.formData());
  // What was sent, for the page to show back (bounded: it is only echoed).
  const sent = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v.slice(0, 100) : "";
  };
  const echo = { variant: sent("model"), algorithm: sent("algorithm"), sample: sent("sample") };
  const checked = parseForm(form, sebowStartSchema);
  if (!checked.ok) return { ...echo, errors: checked.errors, result: null, failure: undefined };
  const { model: variant, algorithm, sample } = checked.value;
  const chosen = await modelFor(page.datasets).catch(() => null);
  if (!chosen) return { ...echo, errors: { model: SEBOW_MSG.noModel }, result: null, failure: undefined };
  try {
    const result = await explainSebow(visitor, { modelId: chosen.model.id, variant, algorithm, sampleId: sample }, request.signal);
    return { ...echo, errors: {}, result, failure: undefined };
  } catch (e) {
    return demoFailure(e, "image", { ...echo, result: null });
  }
}
