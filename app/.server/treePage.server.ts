// The loader and action behind /cub and /cars (app/routes/trees/birds.tsx, cars.tsx): one module so the two
// pages share every rule. All state is in the query string (model, pool seed, sample, run, the edit
// view and its node, the dialogs, the running job) and every change is a form POST answered by a
// redirect, so the pages work without JavaScript; with it, the job's progress is polled
// (/trees/jobs/$jobId).
import { data, redirect } from "@remix-run/node";
import { reportGpu } from "./classification.server.ts";
import { DomainError, NotFoundError, refusalResponse } from "./domainErrors.server.ts";
import { checkFormData } from "./forms.server.ts";
import { i18nServer } from "./i18n.server.ts";
import { requireUser } from "./session.server.ts";
import {
  type CandidateView,
  type PoolImageView,
  type PredictionView,
  type TreeChoices,
  type TreeGraphView,
  type TreeJobView,
  type TreePage,
  type TreeUser,
  TreeCallFailed,
  candidates,
  clearEdits,
  listEdits,
  listTrees,
  predict,
  putEdit,
  removeEdit,
  requireTree,
  startTreeJob,
  treeChoices,
  treeGraph,
  treeJobFor,
  treePool,
} from "./trees.server.ts";
import type { DemoFailure } from "../components/DemoFailurePanel.tsx";
import { NODE_ID, SAMPLE_ID, TREE_ID, TREE_MSG, parseClass, predictSchema, saveTreeSchema, type TreeField } from "../lib/rules/trees.ts";
import { parseForm, type FieldErrors } from "../lib/forms/parse.ts";

export const TREE_ROUTES: Record<TreePage, string> = { cub: "/cub", cars: "/cars" };

const seedOf = (v: string | null) => (v && /^\d{1,9}$/.test(v) ? Number(v) : 1);

async function failureOf(e: unknown): Promise<DemoFailure> {
  if (e instanceof TreeCallFailed) return { ...(await reportGpu()), detail: e.detail, busy: e.busy };
  throw e;
}

export interface TreePageData {
  page: TreePage;
  title: string;
  models: Array<{ id: string; label: string; platform: boolean }>;
  ownData: boolean;
  modelsError: string | null;
  model: string;
  tree: {
    id: string;
    name: string;
    dataset: string;
    datasetName: string;
    classes: number;
    testAccuracy: number;
    cnnAccuracy: number;
    leaves: number;
    depth: number;
    owner: string;
    trainedAt: string;
  } | null;
  seed: number;
  sample: string;
  pool: PoolImageView[];
  chosen: PoolImageView | null;
  prediction: PredictionView | null;
  /** The result and edit view the address asks for, kept in links while a job holds them back. */
  asked: { run: boolean; edit: boolean };
  /**
   * The next Refresh link's count. Without JavaScript the Refresh link must differ from the
   * address shown: a link to the same address with its #job fragment is a fragment navigation,
   * which scrolls and never reloads, so the job looked stuck forever.
   */
  nextPoll: number;
  edits: Array<{ nodeId: string; candidateId: string; favourClass: number }>;
  edit: { view: "full" | "prototypes"; graph: TreeGraphView; node: string; candidates: CandidateView[] } | null;
  modify: boolean;
  save: boolean;
  job: TreeJobView | null;
  failure: DemoFailure | null;
}

export async function treePageLoader(request: Request, page: TreePage): Promise<TreePageData> {
  const user = await requireUser(request);
  const t = await i18nServer.getFixedT(request, "trees");
  const sp = new URL(request.url).searchParams;
  const out: TreePageData = {
    page,
    title: t(page === "cub" ? "cub.metaTitle" : "cars.metaTitle"),
    models: [],
    ownData: false,
    modelsError: null,
    model: "",
    tree: null,
    seed: seedOf(sp.get("seed")),
    sample: "",
    pool: [],
    chosen: null,
    prediction: null,
    asked: { run: sp.get("run") === "1", edit: sp.get("edit") === "1" },
    nextPoll: ((/^\d{1,6}$/.test(sp.get("poll") ?? "") ? Number(sp.get("poll")) : 0) + 1) % 1_000_000,
    edits: [],
    edit: null,
    modify: false,
    save: false,
    job: null,
    failure: null,
  };
  // The job first: a save that finishes while this loader runs is then in the tree list read below.
  if (sp.get("job")) {
    out.job = await treeJobFor(user, sp.get("job"));
    if (!out.job || out.job.treeId !== sp.get("model")) throw refusalResponse(new NotFoundError(TREE_MSG.notFound));
  }
  let choices: TreeChoices;
  try {
    choices = treeChoices(await listTrees(user), page);
  } catch (e) {
    out.modelsError = TREE_MSG.treesDown;
    out.failure = await failureOf(e);
    return out;
  }
  out.models = choices.choices.map((c) => ({ id: c.id, label: c.label, platform: c.platform }));
  out.ownData = choices.ownData;
  if (!out.models.length) out.modelsError = TREE_MSG.noTree;
  const asked = sp.get("model") ?? "";
  if (asked && !choices.choices.some((c) => c.id === asked)) throw refusalResponse(new NotFoundError(TREE_MSG.notFound));
  out.model = asked;
  // The pool is the chosen tree's data, or the page's first tree's before a model is chosen.
  const poolTree = choices.choices.find((c) => c.id === asked) ?? choices.choices[0];
  if (!poolTree) return out;
  const info = poolTree.info;
  out.tree = {
    id: info.treeId,
    name: info.name,
    dataset: info.dataset,
    datasetName: info.datasetName || info.dataset,
    classes: info.classNames.length,
    testAccuracy: info.testAccuracy,
    cnnAccuracy: info.cnnAccuracy,
    leaves: info.leaves,
    depth: info.depth,
    owner: info.owner,
    trainedAt: info.trainedAt,
  };
  const sample = sp.get("sample") ?? "";
  out.sample = SAMPLE_ID.test(sample) ? sample : "";
  try {
    out.pool = await treePool(user, poolTree.id, out.seed);
    out.chosen = out.pool.find((p) => p.sampleId === out.sample) ?? null;
    if (!asked) return out;
    out.edits = await listEdits(user.id, asked);
    // While the user's adjust or save job runs, the page shows its progress only: reloading it
    // (the no-JavaScript refresh) must not queue predictions and tree drawings on the sidecar's
    // workers in front of the job it is waiting for.
    const jobRunning = out.job !== null && out.job.state !== "completed" && out.job.state !== "failed";
    if (jobRunning) return out;
    if (sp.get("run") === "1" && out.sample) out.prediction = await predict(user, asked, out.sample, out.edits, request.signal);
    if (sp.get("edit") === "1") {
      const view = sp.get("view") === "full" ? "full" : "prototypes";
      const graph = await treeGraph(user, asked, false, out.edits);
      const node = sp.get("node") ?? "";
      const shownNode = NODE_ID.test(node) && graph.nodes.some((n) => n.id === node && n.kind === "internal") ? node : "";
      out.edit = { view, graph, node: shownNode, candidates: shownNode ? await candidates(user, asked, shownNode, out.edits) : [] };
    }
    out.modify = sp.get("modify") === "1" && out.prediction !== null;
    out.save = sp.get("save") === "1";
  } catch (e) {
    if (e instanceof DomainError) throw refusalResponse(e);
    if (e instanceof Response) throw e;
    out.failure = await failureOf(e);
  }
  return out;
}

export type TreeActionResult = {
  errors?: FieldErrors;
  failure?: DemoFailure;
  preview?: { favourClass: number; favourName: string; prediction: PredictionView };
};

const INTENTS = ["predict", "replace", "removeEdit", "clearEdits", "previewFavour", "favour", "adjust", "save"] as const;
type Intent = (typeof INTENTS)[number];

const fail = (field: TreeField, message: string, status = 400) => data<TreeActionResult>({ errors: { [field]: message } }, { status });

export async function treePageAction(request: Request, page: TreePage) {
  const user = await requireUser(request);
  const form = checkFormData(await request.formData());
  const intent = String(form.get("intent") ?? "predict") as Intent;
  if (!INTENTS.includes(intent)) return fail("form", TREE_MSG.unknownAction);
  const route = TREE_ROUTES[page];
  const next = new URL(request.url).searchParams;
  const str = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v.trim() : "";
  };
  if (intent === "predict") {
    const checked = parseForm(form, predictSchema);
    if (!checked.ok) return data<TreeActionResult>({ errors: checked.errors }, { status: 400 });
    try {
      await requireTree(user, checked.value.model, page);
    } catch (e) {
      if (e instanceof NotFoundError) return fail("model", TREE_MSG.chooseModel);
      return data<TreeActionResult>({ failure: await failureOf(e) }, { status: 503 });
    }
    const keep = new URLSearchParams({ model: checked.value.model, sample: checked.value.sample, seed: next.get("seed") ?? "1", run: "1" });
    return redirect(`${route}?${keep}#results`);
  }
  const model = str("model");
  if (!TREE_ID.test(model)) return fail("model", TREE_MSG.chooseModel);
  const base = new URLSearchParams({ model, seed: next.get("seed") ?? "1" });
  const sample = str("sample");
  if (SAMPLE_ID.test(sample)) base.set("sample", sample);
  try {
    await requireTree(user as TreeUser, model, page);
    switch (intent) {
      case "replace": {
        const node = str("node");
        const candidate = str("candidate");
        if (!NODE_ID.test(node)) return fail("node", TREE_MSG.chooseNode);
        if (!candidate) return fail("candidate", TREE_MSG.chooseCandidate);
        await putEdit(user.id, model, { nodeId: node, candidateId: candidate, favourClass: -1 });
        // The sidecar checks the edit on the next call; a candidate it does not know is refused there and undone here.
        try {
          await treeGraph(user, model, false, await listEdits(user.id, model));
        } catch (e) {
          await removeEdit(user.id, model, node);
          throw e;
        }
        return redirect(`${route}?${editParams(base, next, next.get("run") === "1")}#tree-edit`);
      }
      case "removeEdit": {
        const node = str("node");
        if (!NODE_ID.test(node)) return fail("node", TREE_MSG.chooseNode);
        await removeEdit(user.id, model, node);
        return redirect(`${route}?${editParams(base, next, next.get("run") === "1")}#tree-edit`);
      }
      case "clearEdits":
        await clearEdits(user.id, model);
        return redirect(`${route}?${editParams(base, next, next.get("run") === "1")}#tree-edit`);
      case "previewFavour":
      case "favour": {
        const leaf = str("leaf");
        const favour = parseClass(str("favour"));
        if (!NODE_ID.test(leaf)) return fail("node", TREE_MSG.chooseNode);
        if (favour === null) return fail("favour", TREE_MSG.chooseClass);
        if (!SAMPLE_ID.test(sample)) return fail("image", TREE_MSG.chooseImage);
        const edits = (await listEdits(user.id, model)).filter((e) => e.nodeId !== leaf);
        const prediction = await predict(user, model, sample, [...edits, { nodeId: leaf, candidateId: "", favourClass: favour }], request.signal);
        if (intent === "previewFavour") {
          return data<TreeActionResult>({ preview: { favourClass: favour, favourName: prediction.classNames[favour] ?? String(favour), prediction } });
        }
        await putEdit(user.id, model, { nodeId: leaf, candidateId: "", favourClass: favour });
        base.set("run", "1");
        return redirect(`${route}?${base}#results`);
      }
      case "adjust":
      case "save": {
        const named = intent === "save" ? parseForm(form, saveTreeSchema) : null;
        if (named && !named.ok) return data<TreeActionResult>({ errors: named.errors }, { status: 400 });
        const jobId = await startTreeJob(user, intent, model, named?.value.name);
        if (next.get("run") === "1") base.set("run", "1");
        base.set("job", jobId);
        if (intent === "adjust") base.set("edit", "1");
        return redirect(`${route}?${base}#job`);
      }
    }
  } catch (e) {
    if (e instanceof NotFoundError) throw refusalResponse(e);
    // A refusal a person can act on (a bad name or edit, the sidecar's own words); "down" and "busy" get the failure panel.
    if (e instanceof TreeCallFailed && !e.busy && e.message !== TREE_MSG.treesDown) return fail(e.message === TREE_MSG.nameRule ? "name" : "form", e.message);
    return data<TreeActionResult>({ failure: await failureOf(e) }, { status: 503 });
  }
  return fail("form", TREE_MSG.unknownAction);
}

/** The edit view's address after a change: the same view, the node closed. */
function editParams(base: URLSearchParams, prev: URLSearchParams, run: boolean): URLSearchParams {
  const p = new URLSearchParams(base);
  if (run) p.set("run", "1");
  p.set("edit", "1");
  if (prev.get("view") === "full") p.set("view", "full");
  return p;
}
