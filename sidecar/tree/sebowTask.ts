// A SeBoW task of the Tree service's Train (sidecar/tree/trainWorker.ts runs it in a training thread):
// its arguments checked, the model trained by sebowTrain.ts into the caller's tree folder, and every
// stage, step and the result reported as tree.proto TrainEvents.
import path from "node:path";
import { leafCount } from "./sebow.ts";
import { SebowCheckpointError, type SebowManifest } from "./sebowCheckpoint.ts";
import { TrainingCancelled, trainSebowModel } from "./sebowTrain.ts";

/** A refused SeBoW task: `code` is the gRPC status the Train handler answers with. */
export class SebowTaskError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "SebowTaskError";
  }
}

/** The advanced arguments of a SeBoW task (TaskOptions lists them), with defaults and bounds. */
export const SEBOW_ARGS = [
  { name: "groups", description: "Filter groups (learners) per layer of the search space", value: "2", kind: "int", choices: [], min: 2, max: 4 },
  {
    name: "threshold",
    description: "Wiring strength a child needs to be kept when the tree is derived",
    value: "0.35",
    kind: "float",
    choices: [],
    min: 0.05,
    max: 1,
  },
  { name: "max_leaves", description: "Most leaves of the derived tree", value: "8", kind: "int", choices: [], min: 1, max: 16 },
  { name: "train_size", description: "Training images used (0: the whole training split)", value: "0", kind: "int", choices: [], min: 0, max: 1_000_000 },
  { name: "test_size", description: "Test images used (0: the whole test split)", value: "0", kind: "int", choices: [], min: 0, max: 1_000_000 },
  { name: "batch_size", description: "Images per optimizer step", value: "64", kind: "int", choices: [], min: 1, max: 512 },
  { name: "lr", description: "Adam's initial learning rate (cosine decay)", value: "0.004", kind: "float", choices: [], min: 1e-5, max: 0.1 },
] as const;

const GRPC_INVALID_ARGUMENT = 3;
const GRPC_FAILED_PRECONDITION = 9;
const GRPC_CANCELLED = 1;

/** Where a user's trees are written (the Tree service's layout: ${TREE_DIR:-var/trees}/users/<owner>/<name>/). */
export function userTreeDir(owner: string, name: string): string {
  return path.join(process.env.TREE_DIR || "var/trees", "users", owner, name);
}

export interface SebowTrainRequest {
  taskId?: string;
  caller?: { username?: string } | null;
  dataset?: string;
  depth?: number;
  iterations?: number;
  protoDim?: number;
  args?: Record<string, string>;
  modelName?: string;
  seed?: number;
}

export interface SebowTrainEvent {
  log?: string;
  stage?: { name: string; state: string; startedAt: string; finishedAt: string };
  scalar?: { iteration: number; loss: number; trainAccuracy: number; testAccuracy: number };
  done?: { treeId: string; testAccuracy: number; cnnAccuracy: number; leaves: number; leavesAfterPruning: number; elapsedMs: number };
  progress: number;
}

/**
 * The Train handler's SeBoW task (sidecar/tree/trainHandlers.ts dispatches category "SeBoW" here).
 * depth = layers of the search space (the form's tree heights 8–10, docs/product.md "Training tasks": a derived tree of up to that
 * many decisions on a path); iterations = optimizer steps, 60 % searching the wiring and 40 %
 * fine-tuning the derived tree, and as many for the plain CNN it is compared with; proto_dim is
 * a ProtoTree option that SeBoW does not use (said in the log). Stages: data, training (the
 * search space), pruning (deriving the tree from the wiring and fine-tuning it), visualisation
 * (writing the tree); SeBoW has no prototype projection.
 */
export async function trainSebow(req: SebowTrainRequest, emit: (e: SebowTrainEvent) => void, signal: AbortSignal): Promise<void> {
  const t0 = Date.now();
  const owner = req.caller?.username ?? "";
  const name = req.modelName ?? "";
  if (!owner) throw new SebowTaskError(GRPC_INVALID_ARGUMENT, "a SeBoW task needs the signed-in caller");
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name) || name.startsWith("."))
    throw new SebowTaskError(GRPC_INVALID_ARGUMENT, "model_name must be 1–64 letters, digits, '-', '_' or '.'");
  const dataset = req.dataset ?? "";
  if (!["scenes", "cifar10", "cifar100"].includes(dataset))
    throw new SebowTaskError(GRPC_INVALID_ARGUMENT, `SeBoW trains on scenes, cifar10 or cifar100, not "${dataset}"`);
  const depth = Number(req.depth ?? 0);
  if (!Number.isInteger(depth) || depth < 1 || depth > 10) throw new SebowTaskError(GRPC_INVALID_ARGUMENT, `depth must be 1–10, got ${req.depth}`);
  const iterations = Number(req.iterations ?? 0);
  if (!Number.isInteger(iterations) || iterations < 2 || iterations > 5000)
    throw new SebowTaskError(GRPC_INVALID_ARGUMENT, `iterations must be 2–5000, got ${req.iterations}`);
  const args = new Map<string, number>(SEBOW_ARGS.map((a) => [a.name, Number(a.value)]));
  for (const [k, v] of Object.entries(req.args ?? {})) {
    const spec = SEBOW_ARGS.find((a) => a.name === k);
    if (!spec) throw new SebowTaskError(GRPC_INVALID_ARGUMENT, `unknown SeBoW argument "${k}"; known: ${SEBOW_ARGS.map((a) => a.name).join(", ")}`);
    const n = Number(v);
    if (!Number.isFinite(n) || n < spec.min || n > spec.max || (spec.kind === "int" && !Number.isInteger(n)))
      throw new SebowTaskError(
        GRPC_INVALID_ARGUMENT,
        `${k} must be ${spec.kind === "int" ? "an integer" : "a number"} from ${spec.min} to ${spec.max}, got "${v}"`,
      );
    args.set(k, n);
  }
  const stamp = () => new Date().toISOString();
  const started: Record<string, string> = {};
  let progress = 0;
  const stage = (n: string, state: string) => {
    if (state === "running") started[n] = stamp();
    emit({ stage: { name: n, state, startedAt: started[n] ?? "", finishedAt: state === "done" || state === "failed" ? stamp() : "" }, progress });
  };
  if (req.protoDim) emit({ log: `proto_dim ${req.protoDim} is a ProtoTree option; SeBoW has no prototypes and ignores it`, progress });
  const searchSteps = Math.max(1, Math.round(iterations * 0.6));
  const treeSteps = Math.max(1, iterations - searchSteps);
  const totalSteps = searchSteps + treeSteps + searchSteps + treeSteps;
  const done = { search: 0, tree: 0, cnn: 0 };
  const dir = userTreeDir(owner, name);
  const phaseStage: Record<string, string> = { data: "data", search: "training", derive: "pruning", tree: "pruning", write: "visualisation" };
  const { activeBackend } = await import("../inference/runtime/backend.ts");
  let manifest: SebowManifest;
  try {
    manifest = await trainSebowModel(
      {
        dataset,
        id: `user:${owner}:${name}`,
        name,
        owner,
        outDir: dir,
        layers: depth,
        groups: args.get("groups")!,
        stemWidth: 12,
        widths: [16, 24, 32],
        searchSteps,
        treeSteps,
        batch: args.get("batch_size")!,
        lr: args.get("lr")!,
        seed: Number(req.seed ?? 1) >>> 0,
        trainSize: args.get("train_size")! || undefined,
        testSize: args.get("test_size")! || undefined,
        derive: { threshold: args.get("threshold")!, maxChildren: 2, maxLeaves: args.get("max_leaves")! },
        signal,
        onLog: (line) => emit({ log: line, progress }),
        onPhase: (p, s) => {
          const st = phaseStage[p];
          if (!st) return;
          // "pruning" spans deriving and fine-tuning: it starts with the derivation and ends with the fine-tune.
          if (p === "derive" && s === "done") return;
          if (p === "tree" && s === "running") return;
          stage(st, s);
        },
        onProgress: (p) => {
          done[p.phase] = p.step;
          progress = Math.min(0.99, (done.search + done.tree + done.cnn) / totalSteps);
          const offset = p.phase === "search" ? 0 : p.phase === "tree" ? searchSteps : searchSteps + treeSteps;
          emit({ scalar: { iteration: offset + p.step, loss: p.loss, trainAccuracy: p.trainAccuracy, testAccuracy: NaN }, progress });
        },
      },
      activeBackend()?.name ?? "unknown",
    );
  } catch (err) {
    if (err instanceof TrainingCancelled) throw new SebowTaskError(GRPC_CANCELLED, "training cancelled");
    if (err instanceof SebowCheckpointError) throw new SebowTaskError(GRPC_FAILED_PRECONDITION, err.message);
    throw err;
  }
  const leaves = leafCount(manifest.tree);
  emit({
    done: {
      treeId: `user:${owner}:${name}`,
      testAccuracy: manifest.treeAccuracy,
      cnnAccuracy: manifest.cnnAccuracy,
      // Before the derivation: every path through the search space; after: the derived tree's leaves.
      leaves: manifest.config.groups ** manifest.config.widths.length,
      leavesAfterPruning: leaves,
      elapsedMs: Date.now() - t0,
    },
    progress: 1,
  });
}
