// The bird and car tree pages' rules: the two required-field messages in their order (model, then
// image), the tree view's constants, the limits the server enforces on every form field, and the
// tree ids of proto/metarank/v1/tree.proto. Shared by the pages (app/routes/trees/birds.tsx, cars.tsx),
// their server side (app/.server/trees.server.ts) and the tree-edit view.
import { formSchema, type FieldErrors } from "../forms/parse.ts";
import { CLASSIFICATION_MSG } from "./classification.ts";

/** Inference algorithm "none" is offered but disabled; the tree's own explanation is the method. */
export const TREE_ALGORITHMS = [
  { value: "none", disabled: true },
  { value: "interpretable", disabled: false },
] as const;
export const TREE_ALGORITHM = "interpretable";

/** The tree view's constants. */
export const TREE_VIEW = {
  /** Depth spacing multiplier per view: the full tree (leaves too) is packed tighter than the prototype nodes. */
  depthMultiplier: { full: 10, prototypes: 20 },
  /** Vertical spacing per node of the widest level. */
  verticalSpacing: 105,
  minZoom: 0.1,
  maxZoom: 3,
} as const;

/** After more than this many failed polls the page says so and stops polling. */
export const MAX_FAILED_POLLS = 10;
/** Pending edits a user may keep per tree (the server refuses more). */
export const MAX_EDITS = 256;
/** Pool size: two rows of 6 thumbnails (docs/product.md "Demo pages"). */
export const POOL_SIZE = 12;
/** Candidates shown for one node, most similar first. */
export const CANDIDATE_LIMIT = 12;

/** proto/metarank/v1/tree.proto: "platform:<id>" or "user:<owner>:<name>"; bounded before it reaches the sidecar. */
export const TREE_ID = /^(platform:[\w.-]{1,64}|user:.{1,200}:[\w.-]{1,64})$/;
/** SaveTree's name rule (tree.proto): 1–64 letters, digits, '-', '_' and '.'. */
export const MODEL_NAME = /^[A-Za-z0-9._-]{1,64}$/;
/**
 * A model name the compute server accepts (tree.proto; it names a folder there, so "." and ".."
 * are not names). The save form states this rule beside its field, in words (trees:modelNameRule).
 */
export function validModelName(name: string): boolean {
  return MODEL_NAME.test(name) && name !== "." && name !== "..";
}
/** Node ids ("node-<n>") and candidate ids ("train:<image>@<row>,<col>") as the sidecar writes them (sidecar/tree/edits.ts). */
export const NODE_ID = /^[\w.:-]{1,64}$/;
export const CANDIDATE_ID = /^[\w.:@,-]{1,128}$/;
/** Pool sample ids ("test:<index>"). */
export const SAMPLE_ID = /^[a-z]{1,16}:\d{1,9}$/;
export const JOB_ID = /^[\w-]{1,64}$/;

export const TREE_MSG = {
  // Both pages: model first, then image (the demo namespace has both languages).
  chooseModel: CLASSIFICATION_MSG.chooseModel,
  chooseImage: CLASSIFICATION_MSG.chooseImage,
  // Adjust-tree polling.
  pollsFailed: "trees:msg.pollsFailed",
  chooseNode: "trees:msg.chooseNode",
  chooseCandidate: "trees:msg.chooseCandidate",
  chooseClass: "trees:msg.chooseClass",
  nameRule: "trees:msg.nameRule",
  tooManyEdits: "trees:msg.tooManyEdits",
  noEdits: "trees:msg.noEdits",
  unknownAction: CLASSIFICATION_MSG.unknownAction,
  notFound: "trees:msg.notFound",
  treesDown: "trees:msg.treesDown",
  noTree: "trees:msg.noTree",
} as const;

export type TreeField = "model" | "image" | "node" | "candidate" | "favour" | "name" | "form";

export interface PredictInput {
  model: string;
  sample: string;
}

/**
 * The start form's order of checks (docs/product.md "Prototype-tree pages"): model, then image, one message at a time; the algorithm is
 * the tree's own ("none" is offered but disabled), anything else is not this page's form.
 */
export function validatePredict(values: PredictInput & { algorithm: string }): FieldErrors {
  if (!TREE_ID.test(values.model)) return { model: TREE_MSG.chooseModel };
  if (!SAMPLE_ID.test(values.sample)) return { image: TREE_MSG.chooseImage };
  if (values.algorithm && values.algorithm !== TREE_ALGORITHM) return { form: TREE_MSG.unknownAction };
  return {};
}

/** The start form read through its rules (parseForm(form, predictSchema)). */
export const predictSchema = formSchema({ model: "trim", sample: "trim", algorithm: "trim" }, validatePredict);

/** The save form: the new tree's name, as the compute server accepts it (validModelName). */
export const saveTreeSchema = formSchema({ name: "trim" }, (v): FieldErrors => (validModelName(v.name) ? {} : { name: TREE_MSG.nameRule }));

/** A class index the leaf should favour: 0..9999. */
export function parseClass(v: unknown): number | null {
  return typeof v === "string" && /^\d{1,4}$/.test(v) ? Number(v) : null;
}
