// A tree task's arguments (tree.proto TrainRequest): ProtoTree's advanced arguments as TaskOptions
// lists them, and the check of a request against them, shared by the Train handler (which refuses
// a bad request before a thread is started) and the training thread (trainWorker.ts).
import * as grpc from "@grpc/grpc-js";
import { listManifests } from "../zoo/checkpoint.ts";
import { TrainArgError } from "./trainErrors.ts";
import { DEFAULT_TRAIN_OPTIONS, type ProtoTreeTrainOptions } from "./trainProtoTree.ts";
import { treeDatasets } from "./treeDatasets.ts";
import type { BackboneLayer } from "./protoTree.ts";

export interface ArgSpec {
  name: string;
  description: string;
  value: string;
  kind: "int" | "float" | "bool" | "choice";
  choices: string[];
  min: number;
  max: number;
}

/** Zoo ResNet checkpoints a tree can start from (the backbone choice). */
function resnetCheckpoints(): string[] {
  return listManifests()
    .manifests.filter((m) => m.arch === "resnet" && !(m as { task?: string }).task)
    .map((m) => m.id);
}

/** ProtoTree's advanced arguments: what a task may set beyond the form's depth, iterations and prototype dimension. */
export function protoTreeArgs(): ArgSpec[] {
  return [
    {
      name: "train_size",
      description: "Training images used (a seeded random subset of the training split)",
      value: "5000",
      kind: "int",
      choices: [],
      min: 16,
      max: 60000,
    },
    {
      name: "test_size",
      description: "Test images the accuracy is measured on (the first ones of the test split)",
      value: "1000",
      kind: "int",
      choices: [],
      min: 10,
      max: 10000,
    },
    { name: "batch_size", description: "Images per optimizer step (one iteration)", value: "64", kind: "int", choices: [], min: 4, max: 256 },
    { name: "lr", description: "Adam's learning rate for the add-on layer and the prototypes", value: "0.01", kind: "float", choices: [], min: 1e-5, max: 0.1 },
    {
      name: "backbone",
      description: "Zoo checkpoint whose ResNet body extracts the features (auto: the ResNet trained on the task's dataset)",
      value: "auto",
      kind: "choice",
      choices: ["auto", ...resnetCheckpoints()],
      min: 0,
      max: 0,
    },
    {
      name: "backbone_layer",
      description: "Backbone stage feeding the prototypes (auto: the stage with a grid of about 4×4 patches)",
      value: "auto",
      kind: "choice",
      choices: ["auto", "layer1", "layer2", "layer3", "layer4"],
      min: 0,
      max: 0,
    },
    {
      name: "freeze_backbone",
      description: "Keep the backbone's weights fixed (faster; false fine-tunes it too)",
      value: "true",
      kind: "bool",
      choices: ["true", "false"],
      min: 0,
      max: 0,
    },
    {
      name: "lr_backbone",
      description: "Adam's learning rate for the backbone when it is not frozen",
      value: "0.00001",
      kind: "float",
      choices: [],
      min: 0,
      max: 0.01,
    },
    {
      name: "pruning_threshold",
      description: "Prune leaves whose every class probability is at most this (0: 2 ÷ number of classes, the reference's 0.01 at 200 classes)",
      value: "0",
      kind: "float",
      choices: [],
      min: 0,
      max: 1,
    },
    { name: "test_every", description: "Measure test accuracy every this many iterations", value: "25", kind: "int", choices: [], min: 1, max: 5000 },
  ];
}

export interface WorkerTrainRequest {
  taskId: string;
  caller: { username: string; admin: boolean };
  category: string;
  dataset: string;
  depth: number;
  iterations: number;
  protoDim: number;
  args: Record<string, string>;
  ddpNum: number;
  modelName: string;
  seed: number;
}

export { TrainArgError } from "./trainErrors.ts";

/** The ProtoTree options of a request, every value checked against TaskOptions' bounds. */
export function protoTreeOptions(req: WorkerTrainRequest): ProtoTreeTrainOptions {
  const bad = (m: string) => new TrainArgError(grpc.status.INVALID_ARGUMENT, m);
  const installed = treeDatasets();
  if (!installed.some((d) => d.id === req.dataset))
    throw new TrainArgError(
      grpc.status.FAILED_PRECONDITION,
      `dataset "${req.dataset}" is not installed on this sidecar; installed: ${installed.map((d) => d.id).join(", ")}`,
    );
  const int = (name: string, v: number, lo: number, hi: number) => {
    if (!Number.isInteger(v) || v < lo || v > hi) throw bad(`${name} must be an integer from ${lo} to ${hi}, got ${v}`);
    return v;
  };
  // The form offers 8–10; smaller trees are allowed for tests and quick looks, larger ones would not fit a CPU.
  const depth = int("depth", req.depth, 1, 10);
  const iterations = int("iterations", req.iterations, 1, 5000);
  const protoDim = int("proto_dim", req.protoDim, 1, 1024);
  const specs = protoTreeArgs();
  const values = new Map(specs.map((s) => [s.name, s.value]));
  for (const [k, v] of Object.entries(req.args ?? {})) {
    const s = specs.find((x) => x.name === k);
    if (!s) throw bad(`unknown ProtPTree argument "${k}"; known: ${specs.map((x) => x.name).join(", ")}`);
    if (s.kind === "choice" || s.kind === "bool") {
      if (!s.choices.includes(v)) throw bad(`${k} must be one of ${s.choices.join(", ")}, got "${v}"`);
    } else {
      const n = Number(v);
      if (v.trim() === "" || !Number.isFinite(n) || n < s.min || n > s.max || (s.kind === "int" && !Number.isInteger(n)))
        throw bad(`${k} must be ${s.kind === "int" ? "an integer" : "a number"} from ${s.min} to ${s.max}, got "${v}"`);
    }
    values.set(k, v);
  }
  const num = (k: string) => Number(values.get(k));
  const backbone = values.get("backbone")!;
  const layer = values.get("backbone_layer")!;
  return {
    ...DEFAULT_TRAIN_OPTIONS,
    dataset: req.dataset,
    depth,
    iterations,
    protoDim,
    batchSize: num("batch_size"),
    lr: num("lr"),
    lrBackbone: num("lr_backbone"),
    trainSize: num("train_size"),
    testSize: num("test_size"),
    backbone: backbone === "auto" ? "" : backbone,
    layer: (layer === "auto" ? "" : layer) as BackboneLayer | "",
    freezeBackbone: values.get("freeze_backbone") === "true",
    pruningThreshold: num("pruning_threshold"),
    testEvery: num("test_every"),
    seed: (req.seed || 1) >>> 0,
    // 0 (unset on the wire) is one thread; the handler has refused a count above this host's max_ddp.
    ddp: Math.max(1, req.ddpNum || 1),
    command: `task ${req.taskId}`,
  };
}
