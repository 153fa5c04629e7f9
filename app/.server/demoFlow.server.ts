// The common flow of every demo page, written once: step 1 an image, from a pool (6 thumbnails a
// row, refresh, dataset introduction, red border on the pick), a visible dataset, or one upload;
// step 2 model, algorithm and start, checked in a fixed order (model, algorithm, image); step 3 the
// results, or the failure panel with the sidecar's GPU index and maximum compute (reportGpu).
// Results are cached per (picture, model, checkpoint, algorithm, parameters) by the task's own
// server module (app/.server/classification.server.ts explainPicture, segmentation.server.ts,
// vqa.server.ts: the inference_cache table), so asking again never reaches a sidecar.
//
// How a page binds to it (app/routes/demos/classification.tsx is the fullest example):
//   loader:  const picked = await pickedPicture(sp, viewer, notFound);
//            const step = await datasetStep(request, viewer, picked, notFound, async (dataKind) => ({ models: ... }));
//            return data({ ...common, ...step.body }, { status: step.status });
//            or, for a pool:  pool: await demoPool(await poolDatasets(["scenes"]), poolSeed(sp))
//   action:  parse with the task's schema, report the first error in the order of checks (docs/product.md "Demo pages")
//            (firstDemoError), run the task, redirect to the stored result; in the catch:
//            return await demoFailure(e, "image")  (404 for pictures not visible, 429, 503 + panel)
//            A page that runs, then explains one of the run's outputs (/voc, /UserImgsegmentation)
//            reads its form with readTwoStepDemoForm and its results with twoStepResults.
//   headers: export const headers = demoHeaders;  (Retry-After of a busy answer reaches the browser)
//   A page of one dataset and its classifiers (/scenes, /imagenet, /coco) is a DatasetDemo binding:
//            loader = datasetDemoLoader(DEMO, request), action = datasetDemoAction(DEMO, request, ip),
//            view app/components/demo/DatasetDemoPage.tsx (app/routes/demos/imagenetDataset.tsx is the whole of one).
//   view:    app/components/demo/DemoSteps.tsx (PickStep, PoolStep, RunCard or ModelAlgorithmFields +
//            StartButton, Busy, DemoToasts, SuccessNotice) — every step a link or a form, so it works
//            without JavaScript.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import * as grpc from "@grpc/grpc-js";
import { data, redirect, type HeadersFunction } from "@remix-run/node";
import { Op, UniqueConstraintError } from "sequelize";
import { Dataset, InferenceCache, Picture } from "./db.server.ts";
import { findVisibleDataset, findVisiblePicture, listPictures, pageOf, searchDatasets, uploadPictures, type Viewer } from "./datasets.server.ts";
import { recordClick, recordImpression } from "./searchAnalytics.server.ts";
import {
  CLASSIFICATION_ALGORITHMS,
  ClassificationFailed,
  DEMO_BUSY,
  DemoRateLimited,
  explainPicture,
  listModels,
  reportGpu,
  resultFor,
  uploadsDataset,
  type TrainedModel,
} from "./classification.server.ts";
import { provenanceOf } from "./demoResult.server.ts";
import { checkFormData } from "./forms.server.ts";
import { getUser } from "./session.server.ts";
import { SidecarCallError } from "./sidecar.server.ts";
import { returnDemoRun, spendDemoRun } from "./throttle.server.ts";
import { removeStored, storedFile } from "./pictures.server.ts";
import { DomainError, refusalResponse } from "./domainErrors.server.ts";
import type { UploadedFiles } from "./uploads.server.ts";
import type { DemoFailure } from "../components/DemoFailurePanel.tsx";
import type { FieldErrors } from "../lib/forms/parse.ts";
import { parseForm } from "../lib/forms/parse.ts";
import type { z } from "zod";
import { CLASSIFICATION_MSG, RUN_FIELD_ORDER, runSchema } from "../lib/rules/classification.ts";
import { DATASET_MSG, searchSchema } from "../lib/rules/datasets.ts";

// ---------------------------------------------------------------------------------------------
// Step 1: the picked picture, a visible dataset and its pictures.

/** The picture of `?picture=`, as the page shows it; a picture the viewer may not see is the page's 404. */
export async function pickedPicture(sp: URLSearchParams, viewer: Viewer, notFound: () => Response) {
  if (!sp.get("picture")) return null;
  const picked = await findVisiblePicture(sp.get("picture"), viewer);
  if (!picked) throw notFound();
  return {
    id: picked.picture.id,
    url: `/picture/${picked.picture.id}`,
    label: picked.picture.label ?? null,
    name: picked.picture.displayName,
    dataset: picked.dataset.name,
    datasetId: picked.dataset.id,
    dataKind: picked.dataset.dataKind ?? null,
  };
}
export type PickedPicture = NonNullable<Awaited<ReturnType<typeof pickedPicture>>>;

/**
 * Step 1 and 2 of the dataset variant (as /UserImgclassification): without `?dataset=` the visible
 * datasets' search (3 previews a page; a search text over the limit is a 400 with its message),
 * with it that dataset's pictures (16 a page). `then` adds what the page needs once a dataset is
 * chosen (its model choices), given the dataset's data kind.
 */
export async function datasetStep<Extra extends object>(
  request: Request,
  viewer: Viewer,
  picked: PickedPicture | null,
  notFound: () => Response,
  then: (dataKind: string | null) => Promise<Extra>,
) {
  const sp = new URL(request.url).searchParams;
  const datasetId = sp.get("dataset");
  if (!datasetId) {
    const type = sp.get("type") === "user" ? "user" : "name";
    const search = parseForm(sp, searchSchema);
    if (!search.ok) {
      const empty = { items: [], total: 0, page: 1, pageCount: 1, noMatch: false };
      const searchError: string | undefined = search.errors.q ?? DATASET_MSG.searchTooLong;
      return { status: 400, body: { step: 1 as const, type, q: "", search: empty, searchError } };
    }
    const q = search.value.q;
    const found = await searchDatasets(viewer, { type, q, page: pageOf(sp.get("page")) });
    if (type === "name") await recordImpression(request, q);
    return { status: 200, body: { step: 1 as const, type, q, search: found, searchError: undefined as string | undefined } };
  }
  const dataset = await findVisibleDataset(datasetId, viewer);
  if (!dataset) throw notFound();
  await recordClick(request, sp);
  if (picked && picked.datasetId !== dataset.id) throw notFound();
  const body = {
    step: 2 as const,
    dataset: { id: dataset.id, name: dataset.name },
    pictures: await listPictures(dataset.id, pageOf(sp.get("page"))),
    ...(await then(dataset.dataKind ?? null)),
  };
  return { status: 200, body };
}

// ---------------------------------------------------------------------------------------------
// Step 1, pool variant: a refreshable pool of installed pictures.

/** Pictures in a pool: two rows of six thumbnails (docs/product.md "Demo pages"). */
export const POOL_SIZE = 12;

export interface PoolPicture {
  id: number;
  thumbUrl: string;
  label: string | null;
}

/** The pool's refresh seed from `?pool=` (a positive whole number; "refresh" links to seed + 1). */
export function poolSeed(sp: URLSearchParams): number {
  return Math.min(1e9, Math.abs(Math.floor(Number(sp.get("pool")) || 1)) || 1);
}

/** The installed (platform, public) datasets a pool draws from: all of them, or those of the given slugs. */
export async function poolDatasets(slugs?: readonly string[]): Promise<number[]> {
  const where = { ownerId: null, isPublic: true, ...(slugs ? { slug: { [Op.in]: [...slugs] } } : {}) };
  return (await Dataset.findAll({ where, attributes: ["id"] })).map((d) => d.id);
}

/**
 * POOL_SIZE pictures of the given datasets, shuffled by the pool seed: deterministic, so "refresh
 * pool" is a plain link and the page renders the same pool again without JavaScript.
 */
export async function demoPool(datasetIds: number[], seed: number): Promise<PoolPicture[]> {
  if (!datasetIds.length) return [];
  const total = await Picture.count({ where: { datasetId: datasetIds } });
  if (!total) return [];
  const picked = new Set<number>();
  // 32-bit integer arithmetic (Math.imul): a float product loses its low bits and the sequence
  // then cycles among a few values, so with 16 or 20 installed pictures this loop never ended.
  // High bits pick the offset (an LCG's low bits have short periods); bounded all the same.
  let x = Math.imul(seed, 2654435761 | 0) >>> 0 || 1;
  const want = Math.min(POOL_SIZE, total);
  for (let tries = 0; picked.size < want && tries < 64 * want; tries++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    picked.add((x >>> 8) % total);
  }
  for (let i = 0; picked.size < want; i++) picked.add(i);
  const rows: PoolPicture[] = [];
  for (const offset of picked) {
    const r = await Picture.findOne({ where: { datasetId: datasetIds }, order: [["id", "ASC"]], offset });
    if (r) rows.push({ id: r.id, thumbUrl: `/picture/${r.id}?size=thumb`, label: r.label ?? null });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Step 1, upload variant: one image into the user's private uploads dataset.

/**
 * The single-image upload (one file, manual, multipart): the picture is stored in the user's
 * private "My uploaded images" dataset; the answer is its id or the message to show at the file
 * field with the HTTP status.
 */
export async function uploadOnePicture(
  user: NonNullable<Viewer>,
  uploads: UploadedFiles | undefined,
): Promise<{ pictureId: number } | { error: string; status: number }> {
  const files = (uploads?.files ?? []).filter((f) => f.field === "picture");
  const target = await uploadsDataset(user.id);
  const before = await Picture.max<number, Picture>("id", { where: { datasetId: target.id } });
  if (uploads?.error?.code === "LIMIT_FILE_COUNT" || files.length > 1) return { error: CLASSIFICATION_MSG.oneImage, status: 400 };
  const outcome = await uploadPictures(user, target.id, files, uploads?.error);
  if (outcome.error || outcome.rejected.length) {
    const message = outcome.error === DATASET_MSG.noFiles ? CLASSIFICATION_MSG.chooseUpload : (outcome.error ?? outcome.rejected[0]);
    return { error: message, status: uploads?.error?.code === "LIMIT_FILE_SIZE" ? 413 : 400 };
  }
  const added = await Picture.findOne({ where: { datasetId: target.id }, order: [["id", "DESC"]] });
  if (!added || added.id === before) return { error: CLASSIFICATION_MSG.chooseUpload, status: 400 };
  return { pictureId: added.id };
}

// ---------------------------------------------------------------------------------------------
// Step 2: the order of checks and the failure panel (docs/product.md "Demo pages").

/**
 * The first failing field in a fixed order (model, then algorithm, then image, then what the page
 * adds, e.g. the part or the question); one message at a time. The form's `picture` field is
 * reported at "image".
 */
export function firstDemoError<F extends string>(
  errors: FieldErrors,
  order: readonly F[],
  /** Where an error of a field outside `order` is shown. */
  fallback: F = order[0],
): { field: F | "image"; message: string } | null {
  for (const name of order) {
    const message = errors[name];
    if (message) return { field: name === "picture" ? "image" : name, message };
  }
  const other = Object.values(errors).find(Boolean);
  return other ? { field: fallback, message: other } : null;
}

/** The fields every demo run names: the picture, the model and the algorithm. */
type RunFields = { picture: string; model: string; algorithm: string };

/**
 * The form of a two-step demo (segmentation, multi-label): a run (the enum's first intent, also
 * when the form names none), then "explain" one of the run's outputs, each with its own schema.
 * Answers the step, its fields and the page's query with the picture, model and algorithm set; or
 * the first problem in `order` (an unknown intent is reported at the model, with the enum's message).
 */
export function readTwoStepDemoForm<
  I extends string,
  R extends z.ZodType<RunFields, z.ZodTypeDef, unknown>,
  X extends z.ZodType<RunFields, z.ZodTypeDef, unknown>,
  F extends string,
>(
  request: Request,
  source: FormData,
  intents: z.ZodEnum<[I, "explain"]>,
  schemas: { run: R; explain: X },
  order: readonly F[],
):
  | { error: { field: F | "image" | "model"; message: string } }
  | { step: "run"; value: z.output<R>; next: URLSearchParams }
  | { step: "explain"; value: z.output<X>; next: URLSearchParams } {
  const intent = intents.safeParse(source.get("intent") || intents.options[0]);
  if (!intent.success) return { error: { field: "model", message: intent.error.issues[0].message } };
  const explain = intent.data === "explain";
  const parsed = parseForm(source, explain ? schemas.explain : schemas.run);
  if (!parsed.ok) return { error: firstDemoError(parsed.errors, order)! };
  const next = new URLSearchParams(new URL(request.url).searchParams);
  next.set("picture", parsed.value.picture);
  next.set("model", parsed.value.model);
  next.set("algorithm", parsed.value.algorithm);
  return explain ? { step: "explain", value: parsed.value as z.output<X>, next } : { step: "run", value: parsed.value as z.output<R>, next };
}

/**
 * A two-step demo's results named in the page's address: the run's (at `runParam`) and an
 * explanation of one of its outputs (at "result"). One that is named and not found, or not the
 * viewer's to see, is the 404 page (thrown, with `noResult`). The run is shown only when it is of
 * the picture on the page, the explanation only when it is of that run (an address mixing two
 * shows neither).
 */
export async function twoStepResults<R extends { id: number; pictureId: number }, E>(
  sp: URLSearchParams,
  picture: { id: number } | null,
  find: { runParam: string; run: (id: string) => Promise<R | null>; explanation: (id: string) => Promise<E | null>; runOf: (e: E) => number; noResult: string },
): Promise<{ run: R | null; explanation: E | null }> {
  const named = async <T>(param: string, read: (id: string) => Promise<T | null>): Promise<T | null> => {
    const id = sp.get(param);
    if (!id) return null;
    const found = await read(id);
    if (!found) throw new Response(find.noResult, { status: 404, statusText: "Not Found" });
    return found;
  };
  const run = await named(find.runParam, find.run);
  const explanation = await named("result", find.explanation);
  const runShown = run && picture && run.pictureId === picture.id ? run : null;
  return { run: runShown, explanation: runShown && explanation && find.runOf(explanation) === runShown.id ? explanation : null };
}

/**
 * What a failed run answers: a picture the visitor may not see is the 404 page (thrown), too many
 * runs a 429 with the message at `rateField`, and a sidecar failure a 503 with the panel's GPU
 * index and maximum compute (busy: Retry-After 10 s, nothing ran). Anything else is rethrown.
 * `extra` is echoed in every answer (e.g. what the form sent, for a page without JavaScript).
 */
export async function demoFailure<F extends string, X extends object = object>(e: unknown, rateField: F, extra?: X) {
  if (e instanceof DomainError) throw refusalResponse(e);
  type Answer = { errors?: Partial<Record<F, string>>; failure?: DemoFailure } & Partial<X>;
  if (e instanceof DemoRateLimited)
    return data<Answer>({ ...extra, errors: { [rateField]: e.message } as Partial<Record<F, string>> } as Answer, { status: 429 });
  if (!(e instanceof ClassificationFailed)) throw e;
  const gpu = await reportGpu();
  if (e.busy)
    return data<Answer>({ ...extra, failure: { ...gpu, detail: e.message, busy: true } } as Answer, { status: 503, headers: { "Retry-After": "10" } });
  return data<Answer>({ ...extra, failure: { ...gpu, detail: e.message } } as Answer, { status: 503 });
}

/** A busy answer tells the browser (and any script) when to ask again: the action's Retry-After is kept. */
export const demoHeaders: HeadersFunction = ({ parentHeaders, loaderHeaders, actionHeaders }) => {
  const merged = new Headers(parentHeaders);
  loaderHeaders.forEach((value, name) => merged.set(name, value));
  const retry = actionHeaders.get("Retry-After");
  if (retry) merged.set("Retry-After", retry);
  return merged;
};

// ---------------------------------------------------------------------------------------------
// Step 3: one run on the sidecar and the row that keeps its result, for the demos whose task
// module has no run of its own (multilabel.server.ts, segmentation.server.ts, sebow.server.ts
// each had their own copy before).

/**
 * One demo run on the sidecar: it spends one of the visitor's runs first (none left:
 * DemoRateLimited, the 429), gives the run back when the sidecar refused before running anything
 * (RESOURCE_EXHAUSTED: the busy answer, docs/security.md "Compute bounds"), reports the sidecar
 * refusing the input (INVALID_ARGUMENT) with the page's own message `refusedKey`, and any other
 * failure as "did not run": each a ClassificationFailed, so demoFailure shows the panel.
 */
export async function demoSidecarRun<T>(visitor: string, refusedKey: string, run: () => Promise<T>): Promise<T> {
  const wait = await spendDemoRun(visitor);
  if (wait > 0) throw new DemoRateLimited(wait);
  try {
    return await run();
  } catch (e) {
    if (e instanceof SidecarCallError && e.code === grpc.status.RESOURCE_EXHAUSTED) {
      await returnDemoRun(visitor);
      throw new ClassificationFailed(DEMO_BUSY, e.details, true);
    }
    if (e instanceof SidecarCallError && e.code === grpc.status.INVALID_ARGUMENT) throw new ClassificationFailed(refusedKey, e.details);
    throw new ClassificationFailed("demo:failure.didNotRun", (e as Error).message);
  }
}

/** The inference_cache row's paramsKey: a hash of what, besides picture, model and algorithm, the result depends on. */
export const paramsKeyOf = (parts: unknown[]) => crypto.createHash("sha256").update(JSON.stringify(parts)).digest("hex");

/** The maps of a 32-px model input are stored enlarged with hard pixel edges, so the page shows them readably. */
async function enlargeMap(png: Buffer | Uint8Array): Promise<Buffer> {
  const meta = await sharp(png).metadata();
  const side = Math.max(meta.width ?? 0, meta.height ?? 0);
  if (!side || side >= 224) return Buffer.from(png);
  const f = Math.ceil(224 / side);
  return sharp(png)
    .resize((meta.width ?? side) * f, (meta.height ?? side) * f, { kernel: "nearest" })
    .png()
    .toBuffer();
}

/**
 * Keeps a demo result: its PNGs (enlarged) under explanations/, then its inference_cache row
 * (`key` the cache key, `row` the rest). A row's heatmap and overlay paths name the "heatmap" and
 * "overlay" pictures; a result of one picture (a segmentation) serves it as both, one of none (a
 * ranking) has empty paths that nothing serves. Two identical requests that raced keep the first
 * row (insertCached).
 */
export async function storeDemoResult(
  key: Record<string, unknown>,
  row: Record<string, unknown>,
  images: Record<string, Buffer | Uint8Array>,
): Promise<{ id: number; cached: boolean }> {
  const id = crypto.randomUUID();
  const dir = path.posix.join("explanations", id.slice(0, 2));
  const paths: Record<string, string> = {};
  if (Object.keys(images).length) await fs.mkdir(storedFile(dir), { recursive: true });
  for (const [kind, png] of Object.entries(images)) {
    paths[kind] = `${dir}/${id}.${kind}.png`;
    await fs.writeFile(storedFile(paths[kind]), await enlargeMap(png));
  }
  const only = Object.values(paths)[0] ?? "";
  return insertCached(key, { ...row, heatmapPath: paths.heatmap ?? only, overlayPath: paths.overlay ?? only }, Object.values(paths));
}

/**
 * Inserts an inference_cache row. When an identical request finished first (the unique cache key
 * refuses this row), that row stands: this copy's files are removed and the first row's id is the
 * answer, marked cached.
 */
async function insertCached(key: Record<string, unknown>, row: Record<string, unknown>, files: string[]): Promise<{ id: number; cached: boolean }> {
  try {
    const created = await InferenceCache.create({ ...key, ...row } as never);
    return { id: created.id, cached: false };
  } catch (e) {
    await removeStored(files);
    if (e instanceof UniqueConstraintError) {
      const again = await InferenceCache.findOne({ where: key });
      if (again) return { id: again.id, cached: true };
    }
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Per-dataset demo pages (/imagenet, /coco, the scene demo): the pool variant of the flow bound to
// one installed dataset and the classifiers trained on it.

/** What binds a per-dataset page to the flow. */
export interface DatasetDemo {
  /** The page's address, e.g. "/imagenet". */
  route: string;
  /** The platform dataset's slug (seeds/steps/datasets.ts) and dataset introduction (seeds/datasetIntros/<slug>.json). */
  slug: string;
  /** The data id the page's models were trained on (ModelInfo.dataset: zoo checkpoints, or --dataset of an imported model). */
  modelDataset: string;
  /** How the pictures reach this server: generated by the seeding step (seeds/steps/datasets.ts), or an operator's folder named by this variable. */
  folderEnv?: string;
  /** How a model reaches it: trained here (npm run -s train) or imported from ONNX (npm run -s import-model). */
  modelsFrom: "train" | "import";
}

const DEMO_RUN_SCHEMA = runSchema(CLASSIFICATION_ALGORITHMS.map((a) => a.value));
const DEMO_ALGORITHMS = CLASSIFICATION_ALGORITHMS.map((a) => ({ value: a.value, label: a.label }));

/** The page's models: the sidecar's classifiers trained on its data (null: the sidecar did not answer). */
async function demoModels(demo: DatasetDemo): Promise<TrainedModel[] | null> {
  try {
    // The ResNet-18-style ones first: the classification demo's model slot is "ResNet18", so it is
    // the first choice offered; among equals the more accurate (a retrained checkpoint beside the
    // first).
    const resnetFirst = (m: TrainedModel) => (m.arch === "resnet" ? 0 : /resnet/i.test(m.arch) ? 1 : 2);
    return (await listModels())
      .filter((m) => m.dataset === demo.modelDataset)
      .sort((x, y) => resnetFirst(x) - resnetFirst(y) || (y.testAccuracy ?? 0) - (x.testAccuracy ?? 0));
  } catch {
    return null;
  }
}

/**
 * The page's loader: when this server lacks the pictures or a model trained on them, only what
 * is missing and what an operator does (no picture, no prediction); otherwise the pool (refresh
 * seed), the picked picture (one of this dataset's, else 404), model and algorithm choices and
 * the stored result of ?result= (the inference cache's row, visible to the viewer).
 */
export async function datasetDemoLoader(demo: DatasetDemo, request: Request) {
  const viewer = await getUser(request);
  const sp = new URL(request.url).searchParams;
  const datasetIds = await poolDatasets([demo.slug]);
  const pictures = datasetIds.length ? await Picture.count({ where: { datasetId: datasetIds } }) : 0;
  const models = await demoModels(demo);
  const base = { slug: demo.slug, modelDataset: demo.modelDataset, folderEnv: demo.folderEnv ?? null, modelsFrom: demo.modelsFrom };
  if (!pictures || (models && !models.length)) {
    return { ...base, installed: false as const, missing: { data: !pictures, model: Boolean(models && !models.length) } };
  }
  const notFound = () => new Response(CLASSIFICATION_MSG.notFound, { status: 404, statusText: "Not Found" });
  const picture = await pickedPicture(sp, viewer, notFound);
  if (picture && !datasetIds.includes(picture.datasetId)) throw notFound();
  const result = sp.get("result") ? await resultFor(viewer, sp.get("result")) : null;
  if (sp.get("result") && !result) throw new Response(CLASSIFICATION_MSG.noResult, { status: 404, statusText: "Not Found" });
  const shown = result && picture && result.pictureId === picture.id ? result : null;
  const seed = poolSeed(sp);
  return {
    ...base,
    installed: true as const,
    seed,
    pool: await demoPool(datasetIds, seed),
    picture,
    // Each checkpoint by its architecture and id: the page names the model that produced a result.
    models: {
      options: (models ?? []).map((m) => ({ value: m.id, label: `${m.arch} (${m.id})` })),
      error: models ? null : (CLASSIFICATION_MSG.modelsDown as string),
    },
    algorithms: DEMO_ALGORITHMS,
    model: (sp.get("model") ?? "").slice(0, 100),
    algorithm: (sp.get("algorithm") ?? "").slice(0, 64),
    result: shown,
    provenance: shown ? await provenanceOf(shown) : null,
    ok: sp.get("ok") === "1",
  };
}

/**
 * The page's action: the checks in order (model, algorithm, image: docs/product.md "Demo pages"), then a model of this
 * page and a picture of this page's dataset (others are refused here, not merely hidden in the
 * form), one explanation (or its cached copy), and a redirect to the result.
 */
export async function datasetDemoAction(demo: DatasetDemo, request: Request, ip: string | undefined) {
  const viewer = await getUser(request);
  const form = checkFormData(await request.formData());
  const parsed = parseForm(form, DEMO_RUN_SCHEMA);
  type Answer = { errors?: { model?: string; algorithm?: string; image?: string }; failure?: DemoFailure };
  if (!parsed.ok) {
    const first = firstDemoError(parsed.errors, RUN_FIELD_ORDER)!;
    return data<Answer>({ errors: { [first.field]: first.message } }, { status: 400 });
  }
  const { model, algorithm, picture } = parsed.value;
  const models = await demoModels(demo);
  if (models && !models.some((m) => m.id === model)) return data<Answer>({ errors: { model: CLASSIFICATION_MSG.chooseModel } }, { status: 400 });
  const found = await findVisiblePicture(picture, viewer);
  if (!found || !(await poolDatasets([demo.slug])).includes(found.dataset.id)) {
    throw new Response(CLASSIFICATION_MSG.notFound, { status: 404, statusText: "Not Found" });
  }
  try {
    const outcome = await explainPicture(viewer, picture, model, algorithm, ip, request.signal);
    const next = new URLSearchParams(new URL(request.url).searchParams);
    for (const [k, v] of Object.entries({ picture, model, algorithm, result: String(outcome.cacheId), ok: "1" })) next.set(k, v);
    return redirect(`${demo.route}?${next}#results`);
  } catch (e) {
    return demoFailure(e, "image");
  }
}
