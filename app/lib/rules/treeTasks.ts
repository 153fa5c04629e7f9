// The create-task form's rules (docs/tree-service.md "Training tasks and data parallelism"), shared
// by the page and its action: the fields are checked in a fixed order (category, name, dataset,
// tree height, iterations, prototype dimension), then the remarks (optional; Chinese is not
// supported there yet, so Chinese is refused with a message instead of being dropped), the
// distributed-training card and the advanced options of the chosen algorithm as the sidecar's
// Tree.TaskOptions describes them. Messages are message refs of the `tasks` namespace
// (app/locales/<lng>/tasks.json).
import { formSchema, parseForm, type FieldErrors, type FieldReading } from "../forms/parse.ts";
import { hasControlCharacters } from "../forms/text.ts";
import { messageRef } from "../forms/messages.ts";

/** The task kinds a task record names, as tree.proto's TreeAlgorithm.id spells them. */
export const TASK_CATEGORIES = ["ProtPTree", "SeBoW"] as const;
/** The task options the form offers. */
export const TREE_DEPTHS = [8, 9, 10] as const;
export const TREE_ITERATIONS = [100, 150, 200, 250, 300] as const;
export const TREE_PROTO_DIMS = [128, 256, 512, 1024] as const;
export const DEFAULT_DDP_NUM = 1;
/** My tasks, 10 a page. */
export const TASKS_PER_PAGE = 10;

/** tree.proto SaveTreeRequest.name: the finished tree is the owner's tree of this name. */
export const TASK_NAME = /^[A-Za-z0-9._-]{1,64}$/;
export const REMARKS_MAX = 500;
export const ARG_VALUE_MAX = 100;
export const MAX_ARGS = 40;
/** Chinese characters and the CJK punctuation that comes with them. */
const CHINESE = /[\p{Script=Han}\u3000-\u303f\uff01-\uff5e]/u;

export const TASK_MSG = {
  chooseCategory: "tasks:msg.chooseCategory",
  nameTask: "tasks:msg.nameTask",
  nameRule: "tasks:msg.nameRule",
  chooseDataset: "tasks:msg.chooseDataset",
  chooseDepth: "tasks:msg.chooseDepth",
  chooseIterations: "tasks:msg.chooseIterations",
  chooseProtoDim: "tasks:msg.chooseProtoDim",
  remarksChinese: "tasks:msg.remarksChinese",
  remarksTooLong: messageRef("tasks:msg.remarksTooLong", { max: REMARKS_MAX }),
  control: "forms:controlCharacters",
  ddpNum: (max: number) => messageRef("tasks:msg.ddpNum", { max }),
  ddpUnsupported: "tasks:msg.ddpUnsupported",
  arg: (name: string, rule: string) => messageRef("tasks:msg.arg", { name, rule }),
  unknownArg: (name: string) => messageRef("tasks:msg.unknownArg", { name }),
  created: "tasks:msg.created",
  createFailed: "tasks:msg.createFailed",
  optionsDown: "tasks:msg.optionsDown",
  nameTaken: "tasks:msg.nameTaken",
  busy: (count: number) => messageRef("tasks:msg.busy", { count }),
  daily: (count: number) => messageRef("tasks:msg.daily", { count }),
  queueDown: "tasks:msg.queueDown",
  deleted: "tasks:msg.deleted",
  deleteFailed: "tasks:msg.deleteFailed",
  cancelled: "tasks:msg.cancelled",
  notCancellable: "tasks:msg.notCancellable",
  notFound: "tasks:msg.notFound",
  downloadWarning: "tasks:msg.downloadWarning",
  unknownAction: "tasks:msg.unknownAction",
} as const;

/** What the form offers, from Tree.TaskOptions (only what the checks need; the page shows more). */
export interface TaskFormOptions {
  algorithms: {
    id: string;
    isSupportDdp: boolean;
    datasets: { id: string }[];
    args: { name: string; kind: string; value: string; choices: string[]; min: number; max: number }[];
  }[];
  depths: number[];
  iterations: number[];
  protoDims: number[];
  maxDdp: number;
}

export const TASK_FIELDS = ["category", "name", "dataset", "depth", "iterations", "protoDim", "remarks", "ddpTraining", "ddpNum"] as const;
export type TaskField = (typeof TASK_FIELDS)[number];

export interface CheckedTask {
  category: string;
  name: string;
  dataset: string;
  depth: number;
  iterations: number;
  protoDim: number;
  remarks: string;
  ddpTraining: boolean;
  ddpNum: number;
  args: Record<string, string>;
}

/** A choice among whole numbers, both the form's set (docs/product.md "Training tasks") and what this host offers. */
function pick(value: string, allowed: readonly number[]): number | null {
  if (!/^\d{1,5}$/.test(value)) return null;
  const n = Number(value);
  return allowed.includes(n) ? n : null;
}

/** One advanced option's value as text, checked against its kind and bounds; null = the rule it breaks. */
export function checkArg(arg: TaskFormOptions["algorithms"][number]["args"][number], value: string): string | null {
  if (value.length > ARG_VALUE_MAX || hasControlCharacters(value)) return `≤ ${ARG_VALUE_MAX}`;
  const bounded = arg.min < arg.max;
  if (arg.kind === "int" || arg.kind === "float") {
    const ok = arg.kind === "int" ? /^-?\d{1,12}$/.test(value) : /^-?(\d{1,12}(\.\d{0,12})?|\.\d{1,12})(e-?\d{1,3})?$/i.test(value);
    const n = Number(value);
    const range = bounded ? ` ${arg.min}–${arg.max}` : "";
    if (!ok || !Number.isFinite(n) || (bounded && (n < arg.min || n > arg.max))) return `${arg.kind}${range}`;
    return null;
  }
  if (arg.kind === "bool") return value === "true" || value === "false" ? null : "true / false";
  if (arg.kind === "choice") return arg.choices.includes(value) ? null : arg.choices.join(" / ");
  return null;
}

/** Field names longer than this are not the page's (the longest it writes is arg.<category>.<option>). */
const FIELD_NAME_MAX = 120;

/** The three numeric choices: the form's set (docs/product.md "Training tasks"), narrowed to what this host offers. */
function choices(v: (k: string) => string, options: TaskFormOptions) {
  return {
    depth: pick(
      v("depth"),
      TREE_DEPTHS.filter((d) => options.depths.includes(d)),
    ),
    iterations: pick(
      v("iterations"),
      TREE_ITERATIONS.filter((d) => options.iterations.includes(d)),
    ),
    protoDim: pick(
      v("protoDim"),
      TREE_PROTO_DIMS.filter((d) => options.protoDims.includes(d)),
    ),
  };
}

/** The data-parallel count when the card is ticked: at most what the host serves, for a category that supports it. */
function ddpCount(v: (k: string) => string, options: TaskFormOptions, algorithm: TaskFormOptions["algorithms"][number] | undefined) {
  const ddpTraining = v("ddpTraining") === "on" || v("ddpTraining") === "true";
  if (!ddpTraining) return { ddpTraining, ddpNum: DEFAULT_DDP_NUM };
  const max = Math.max(1, options.maxDdp);
  const n = /^\d{1,3}$/.test(v("ddpNum")) ? Number(v("ddpNum")) : NaN;
  if (algorithm && !algorithm.isSupportDdp) return { ddpTraining, ddpNum: DEFAULT_DDP_NUM, problem: TASK_MSG.ddpUnsupported };
  if (!(n >= 1 && n <= max)) return { ddpTraining, ddpNum: DEFAULT_DDP_NUM, problem: TASK_MSG.ddpNum(max) };
  return { ddpTraining, ddpNum: n };
}

/**
 * The chosen category's advanced options: each card names its fields arg.<category>.<name> (both
 * cards are in the page without JavaScript); only the chosen category's are read. An empty field
 * takes the default (the sidecar's own value); only changed values are kept.
 */
function advancedOptions(values: Partial<Record<string, string>>, algorithm: TaskFormOptions["algorithms"][number]) {
  const errors: FieldErrors = {};
  const args: Record<string, string> = {};
  const prefix = `arg.${algorithm.id}.`;
  const sent = Object.keys(values).filter((k) => k.startsWith(prefix) && k.length <= FIELD_NAME_MAX);
  if (sent.length > MAX_ARGS) errors[sent[MAX_ARGS]] = TASK_MSG.unknownArg(sent[MAX_ARGS].slice(prefix.length, prefix.length + 60));
  for (const k of sent.slice(0, MAX_ARGS)) {
    const argName = k.slice(prefix.length);
    const spec = algorithm.args.find((a) => a.name === argName);
    if (!spec) {
      errors[k] = TASK_MSG.unknownArg(argName.slice(0, 60));
      continue;
    }
    const value = (values[k] ?? "").trim();
    if (!value) continue;
    const broken = checkArg(spec, value);
    if (broken) errors[k] = TASK_MSG.arg(argName, broken);
    else if (value !== spec.value) args[argName] = value;
  }
  return { errors, args };
}

/** The form's values read against the options: each field's message, and the task when there is none. */
function readTask(values: Partial<Record<string, string>>, options: TaskFormOptions): { errors: FieldErrors; task: CheckedTask } {
  const errors: FieldErrors = {};
  const v = (k: string) => (values[k] ?? "").trim();
  const algorithm = options.algorithms.find((a) => a.id === v("category"));
  if (!algorithm || !(TASK_CATEGORIES as readonly string[]).includes(algorithm.id)) errors.category = TASK_MSG.chooseCategory;
  const name = v("name");
  if (!name) errors.name = TASK_MSG.nameTask;
  else if (!TASK_NAME.test(name)) errors.name = TASK_MSG.nameRule;
  const dataset = v("dataset");
  // Datasets are filtered by the chosen category: one of another category is not a choice.
  if (!dataset || !algorithm?.datasets.some((d) => d.id === dataset)) errors.dataset = TASK_MSG.chooseDataset;
  const { depth, iterations, protoDim } = choices(v, options);
  if (depth === null) errors.depth = TASK_MSG.chooseDepth;
  if (iterations === null) errors.iterations = TASK_MSG.chooseIterations;
  if (protoDim === null) errors.protoDim = TASK_MSG.chooseProtoDim;
  const remarks = v("remarks");
  if (hasControlCharacters(remarks, true)) errors.remarks = TASK_MSG.control;
  else if (remarks.length > REMARKS_MAX) errors.remarks = TASK_MSG.remarksTooLong;
  else if (CHINESE.test(remarks)) errors.remarks = TASK_MSG.remarksChinese;
  const ddp = ddpCount(v, options, algorithm);
  if (ddp.problem) errors.ddpNum = ddp.problem;
  const advanced = algorithm ? advancedOptions(values, algorithm) : { errors: {}, args: {} };
  Object.assign(errors, advanced.errors);
  const task = {
    category: algorithm?.id ?? "",
    name,
    dataset,
    depth: depth ?? 0,
    iterations: iterations ?? 0,
    protoDim: protoDim ?? 0,
    remarks,
    ddpTraining: ddp.ddpTraining,
    ddpNum: ddp.ddpNum,
    args: advanced.args,
  };
  return { errors, task };
}

const TASK_READINGS = Object.fromEntries(TASK_FIELDS.map((f) => [f, "trim"])) as Record<TaskField, FieldReading>;

/**
 * The create-task form's schema against what the compute server offers now (Tree.TaskOptions):
 * parseForm(form, taskFormSchema(options)) gives the checked task or each field's message.
 */
export function taskFormSchema(options: TaskFormOptions) {
  return formSchema(TASK_READINGS, (values) => readTask(values, options).errors, ["arg"]).transform((values) => readTask(values, options).task);
}

/**
 * The form's values through taskFormSchema, with the message the page shows (docs/product.md "Training tasks"): the first error in the
 * form's order (its fields, then the advanced options).
 */
export function checkTaskForm(
  values: Record<string, string>,
  options: TaskFormOptions,
): { ok: true; value: CheckedTask } | { ok: false; errors: FieldErrors; first: string } {
  const parsed = parseForm(values, taskFormSchema(options));
  if (parsed.ok) return parsed;
  const order = [...TASK_FIELDS, ...Object.keys(parsed.errors).filter((k) => !(TASK_FIELDS as readonly string[]).includes(k))];
  return { ok: false, errors: parsed.errors, first: order.map((k) => parsed.errors[k]).find(Boolean) ?? TASK_MSG.createFailed };
}

/** A task's progress: failed; waiting while there is no completion time; completed. */
export type TaskProgressLabel = "failed" | "waiting" | "completed" | "cancelled";
export function progressLabel(state: string, completedAt: string | null): TaskProgressLabel {
  if (state === "failed") return "failed";
  if (state === "cancelled") return "cancelled";
  return completedAt ? "completed" : "waiting";
}
