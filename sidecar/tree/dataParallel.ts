// Data-parallel training of a ProtoTree over worker threads of one sidecar host
// (docs/tree-service.md "Training tasks and data parallelism": the create-task form's ddp_num is
// that many workers of one sidecar host, gradients averaged every step; tree.proto
// TrainRequest.ddp_num, TaskOptions.max_ddp).
//
// A task with ddp_num = k trains on k threads: its training thread (trainWorker.ts, the
// coordinator, rank 0) and k − 1 replica threads (dataParallelReplica.ts), each with its own tfjs
// backend (the wasm backend is single-threaded, so one thread is one core: backend.ts) and its
// own copy of the tree's trainable tensors. Every step:
//   1. the coordinator splits the mini-batch into k contiguous shards (sizes differ by at most 1),
//      sends shard s with the current weights and leaf distributions to replica s, and computes
//      shard 0 itself meanwhile;
//   2. each thread returns its shard's gradients of the shard's mean loss, its mean loss, its
//      correct count and its leaf-update terms (protoTree.ts leafUpdateTerms);
//   3. the coordinator averages the gradients weighted by shard size (Σ n_s/N · g_s is exactly the
//      gradient of the whole batch's mean loss), applies them with its Adam, and adds the shards'
//      leaf terms (the leaf update is a sum over images, so the shards' sums add up to the
//      batch's) before applying the leaf update once.
// So a step with k threads is the step with one thread on the same batch, up to float32 rounding
// of the sums (tests/tree/dataParallel.test.ts checks 1e-5).
//
// Why the coordinator applies and broadcasts, rather than every replica applying the averaged
// gradient itself: there is one Adam state and one set of weights, and each replica is
// overwritten with the coordinator's exact bytes before every step, so the replicas are
// bit-identical by construction; they cannot drift even if two threads rounded an update
// differently, and a replica needs no optimizer memory. The price is copying the trainable
// weights to each replica every step (add-on kernel and bias, prototypes: about 66 000 floats,
// 260 KB, at depth 8 and D = 128; the backbone's too, about 1.4 MB, when it is fine-tuned), small
// next to a step's compute.
import { Worker } from "node:worker_threads";
import * as tf from "@tensorflow/tfjs";
import type { ArchConfig } from "../zoo/architectures.ts";
import {
  addOn,
  applyLeafUpdate,
  leafDistributions,
  leafPathProbabilities,
  leafUpdateTerms,
  patchDistances,
  similaritiesFromDistances,
  type Backbone,
  type BackboneLayer,
} from "./protoTree.ts";

/** The tensors one step of one shard needs (the coordinator's tree, or a replica's copy). */
export interface StepModel {
  depth: number;
  numClasses: number;
  addOnKernel: tf.Variable;
  addOnBias: tf.Variable;
  prototypes: tf.Variable;
  /** Set when the backbone is fine-tuned: the inputs are then images, else backbone features. */
  backbone: Backbone | null;
  /** The backbone's variables in a fixed order (empty when frozen); their gradients follow the head's. */
  backboneVars: tf.Variable[];
}

/** The head's variables then the backbone's: the order gradients and broadcast weights travel in. */
export function stepVariables(m: StepModel): tf.Variable[] {
  return [m.addOnKernel, m.addOnBias, m.prototypes, ...m.backboneVars];
}

/** One shard's share of a step (tensors on the thread that computed it). */
export interface ShardOutput {
  n: number;
  /** Mean NLL over the shard. */
  loss: number;
  correct: number;
  /** Gradient of the shard's mean loss per stepVariables() entry; null where the loss does not depend on it. */
  grads: Array<tf.Tensor | null>;
  /** leafUpdateTerms of the shard, [L × C]. */
  leafTerms: Float32Array;
}

/**
 * The forward and backward pass of one shard (what trainProtoTree.ts's loop did for a whole batch):
 * NLL of the soft tree's output (train.py: F.nll_loss(torch.log(ys_pred), ys); the epsilon keeps
 * log finite if a class's probability underflows), its gradients, and the derivative-free leaf
 * update's terms from the path probabilities and output of the same forward pass.
 */
export function shardStep(m: StepModel, input: tf.Tensor4D, labels: ArrayLike<number>, dists: Float32Array): ShardOutput {
  const C = m.numClasses;
  const L = dists.length / C;
  const n = labels.length;
  const yOneHot = tf.tidy(() => tf.oneHot(tf.tensor1d(Array.from(labels), "int32"), C).toFloat() as tf.Tensor2D);
  const distsT = tf.tensor2d(dists, [L, C]);
  let pa: tf.Tensor2D | null = null;
  let yPred: tf.Tensor2D | null = null;
  const vars = stepVariables(m);
  const { value, grads } = tf.variableGrads(() => {
    const f = m.backbone ? m.backbone.forward(input, true) : input;
    const { sims } = similaritiesFromDistances(patchDistances(addOn(m, f), m.prototypes as tf.Tensor2D));
    const p = leafPathProbabilities(sims, m.depth);
    const y = tf.matMul(p, distsT) as tf.Tensor2D;
    pa = tf.keep(p);
    yPred = tf.keep(y);
    return tf.neg(tf.mean(tf.sum(tf.mul(yOneHot, tf.log(tf.add(y, 1e-12))), 1))) as tf.Scalar;
  }, vars);
  const loss = value.dataSync()[0];
  const paArr = pa!.dataSync() as Float32Array;
  const yArr = yPred!.dataSync() as Float32Array;
  tf.dispose([value, pa!, yPred!, yOneHot, distsT]);
  let correct = 0;
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let j = 1; j < C; j++) if (yArr[i * C + j] > yArr[i * C + best]) best = j;
    if (best === labels[i]) correct++;
  }
  return { n, loss, correct, grads: vars.map((v) => grads[v.name] ?? null), leafTerms: leafUpdateTerms(dists, paArr, labels, yArr, C) };
}

/** What a replica thread is told once: the shapes of its copy and, when fine-tuning, the backbone. */
export interface ReplicaInit {
  depth: number;
  numClasses: number;
  /** Shapes of stepVariables() in order. */
  shapes: number[][];
  /** Fine-tuning only: the backbone's architecture and the zoo names of backboneVars (the weights come with each step). */
  backbone: { archConfig: ArchConfig; layer: BackboneLayer; names: string[] } | null;
}

/** Coordinator → replica. */
export type ToReplica =
  | { type: "init"; init: ReplicaInit }
  | {
      type: "step";
      id: number;
      weights: Float32Array[];
      dists: Float32Array;
      input: Float32Array;
      shape: [number, number, number, number];
      labels: Int32Array;
    };

/** Replica → coordinator. */
export type FromReplica =
  | { type: "ready" }
  | { type: "result"; id: number; n: number; loss: number; correct: number; grads: Array<Float32Array | null>; leafTerms: Float32Array }
  | { type: "error"; message: string };

/** A batch's inputs as plain rows: [n, h, w, c] (features when the backbone is frozen, images when not). */
export interface BatchRows {
  data: Float32Array;
  shape: [number, number, number, number];
}

/** Contiguous shard boundaries of n rows over k threads (sizes ⌈n/k⌉ first, then ⌊n/k⌋; never empty while n ≥ k). */
export function shardBounds(n: number, k: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const base = Math.floor(n / k);
  const extra = n % k;
  let s = 0;
  for (let i = 0; i < k; i++) {
    const len = base + (i < extra ? 1 : 0);
    if (len > 0) out.push([s, s + len]);
    s += len;
  }
  return out;
}

const ENTRY = new URL("./trainWorkerEntry.mjs", import.meta.url);

/** A replica failed or stopped: the task fails with this (trainWorker.ts reports it as INTERNAL). */
export class ReplicaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplicaError";
  }
}

interface Replica {
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, { resolve: (r: Extract<FromReplica, { type: "result" }>) => void; reject: (e: Error) => void }>;
  failure: Error | null;
}

/**
 * One task's training step over `workers` threads: this thread and workers − 1 replicas. With
 * one worker it is the plain single-thread step (no thread, no copy). Replicas are started by the
 * constructor, so their backends load while the coordinator reads the data; init() gives them
 * the model once its shapes are known.
 */
export class DataParallelStep {
  private replicas: Replica[] = [];
  private nextId = 1;
  private closed = false;
  private model: StepModel | null = null;
  private headOptimizer: tf.Optimizer | null = null;
  private backboneOptimizer: tf.Optimizer | null = null;

  constructor(readonly workers: number) {
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a positive integer, got ${workers}`);
    for (let r = 1; r < workers; r++) this.replicas.push(this.spawn(r));
  }

  private spawn(rank: number): Replica {
    const worker = new Worker(ENTRY, { workerData: { role: "ddp-replica", rank } });
    const rep: Replica = { worker, ready: Promise.resolve(), pending: new Map(), failure: null };
    const fail = (err: Error) => {
      if (rep.failure) return;
      rep.failure = err;
      for (const p of rep.pending.values()) p.reject(err);
      rep.pending.clear();
    };
    rep.ready = new Promise<void>((resolve, reject) => {
      worker.on("message", (m: FromReplica) => {
        if (m.type === "ready") resolve();
        else if (m.type === "result") {
          const p = rep.pending.get(m.id);
          rep.pending.delete(m.id);
          p?.resolve(m);
        } else {
          const e = new ReplicaError(`data-parallel worker ${rank} failed: ${m.message}`);
          reject(e);
          fail(e);
        }
      });
      worker.on("error", (err) => {
        const e = new ReplicaError(`data-parallel worker ${rank} crashed: ${err.message}`);
        reject(e);
        fail(e);
      });
      worker.on("exit", (code) => {
        const e = new ReplicaError(`data-parallel worker ${rank} stopped (exit code ${code})`);
        reject(e);
        if (!this.closed) fail(e);
      });
    });
    // An unobserved rejection must not crash the thread before step() awaits it.
    rep.ready.catch(() => {});
    return rep;
  }

  /** Resolves when every replica's backend is loaded; rejects if one failed to start. */
  async ready(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.ready));
  }

  /** The model and its optimizers (Adam: the head at `lr`, the fine-tuned backbone at `lrBackbone`). */
  init(model: StepModel, lr: number, lrBackbone: number): void {
    this.model = model;
    this.headOptimizer = tf.train.adam(lr);
    this.backboneOptimizer = model.backbone ? tf.train.adam(lrBackbone) : null;
    const init: ReplicaInit = {
      depth: model.depth,
      numClasses: model.numClasses,
      shapes: stepVariables(model).map((v) => [...v.shape]),
      backbone: model.backbone
        ? {
            archConfig: model.backbone.config,
            layer: model.backbone.layer,
            names: model.backboneVars.map((v) => [...model.backbone!.weights].find(([, w]) => w === v)![0]),
          }
        : null,
    };
    for (const r of this.replicas) r.worker.postMessage({ type: "init", init } satisfies ToReplica);
  }

  /**
   * One optimizer step on a batch: the gradients averaged over the shards (weighted by their
   * size) applied once, then the leaf update with the shards' terms summed. `leafLogits` is
   * updated in place (epochStart and nBatches as protoTree.ts leafUpdate). Returns the batch's
   * mean loss and correct count.
   */
  async step(
    batch: BatchRows,
    labels: Int32Array,
    leafLogits: Float32Array,
    epochStart: Float32Array,
    nBatches: number,
  ): Promise<{ loss: number; correct: number; shards: number }> {
    const m = this.model;
    if (!m) throw new Error("DataParallelStep.step before init");
    const C = m.numClasses;
    const N = labels.length;
    const dists = leafDistributions(leafLogits, C);
    const [, h, w, c] = batch.shape;
    const row = h * w * c;
    const bounds = shardBounds(N, this.workers);
    // Shards 1.. go to the replicas with this step's weights (read once, the same bytes for every replica).
    const remote: Array<Promise<Extract<FromReplica, { type: "result" }>>> = [];
    if (bounds.length > 1) {
      const weights = stepVariables(m).map((v) => Float32Array.from(v.dataSync() as Float32Array));
      for (let s = 1; s < bounds.length; s++) {
        const rep = this.replicas[s - 1];
        await rep.ready;
        if (rep.failure) throw rep.failure;
        const [a, b] = bounds[s];
        const id = this.nextId++;
        remote.push(new Promise((resolve, reject) => rep.pending.set(id, { resolve, reject })));
        rep.worker.postMessage({
          type: "step",
          id,
          weights,
          dists,
          input: batch.data.slice(a * row, b * row),
          shape: [b - a, h, w, c],
          labels: labels.slice(a, b),
        } satisfies ToReplica);
      }
    }
    // Shard 0 here, while the replicas compute theirs.
    const [a0, b0] = bounds[0];
    const input0 = tf.tensor4d(bounds.length > 1 ? batch.data.subarray(a0 * row, b0 * row) : batch.data, [b0 - a0, h, w, c]);
    let local: ShardOutput;
    try {
      local = shardStep(m, input0, labels.subarray(a0, b0), dists);
    } finally {
      input0.dispose();
    }
    let results: Array<Extract<FromReplica, { type: "result" }>>;
    try {
      results = await Promise.all(remote);
    } catch (err) {
      tf.dispose(local.grads.filter((g): g is tf.Tensor => g !== null));
      throw err;
    }

    const vars = stepVariables(m);
    let grads: Array<tf.Tensor | null>;
    let loss: number;
    let correct = local.correct;
    let leafTerms: Float32Array;
    if (results.length === 0) {
      // One shard: its mean-loss gradient is the batch's (the single-thread step, unchanged).
      grads = local.grads;
      loss = local.loss;
      leafTerms = local.leafTerms;
    } else {
      const w0 = local.n / N;
      grads = vars.map((v, i) => {
        if (!local.grads[i] && results.every((r) => !r.grads[i])) return null;
        return tf.tidy(() => {
          const parts: tf.Tensor[] = [];
          if (local.grads[i]) parts.push(tf.mul(local.grads[i]!, w0));
          for (const r of results) if (r.grads[i]) parts.push(tf.mul(tf.tensor(r.grads[i]!, v.shape), r.n / N));
          return tf.addN(parts);
        });
      });
      tf.dispose(local.grads.filter((g): g is tf.Tensor => g !== null));
      loss = local.loss * w0;
      leafTerms = Float32Array.from(local.leafTerms);
      for (const r of results) {
        loss += r.loss * (r.n / N);
        correct += r.correct;
        for (let i = 0; i < leafTerms.length; i++) leafTerms[i] += r.leafTerms[i];
      }
    }
    const head = vars.slice(0, 3);
    const named = (vs: tf.Variable[], offset: number) =>
      Object.fromEntries(vs.flatMap((v, i) => (grads[offset + i] ? [[v.name, grads[offset + i]!]] : []))) as Record<string, tf.Tensor>;
    this.headOptimizer!.applyGradients(named(head, 0));
    if (this.backboneOptimizer) this.backboneOptimizer.applyGradients(named(m.backboneVars, 3));
    tf.dispose(grads.filter((g): g is tf.Tensor => g !== null));
    applyLeafUpdate(leafLogits, epochStart, nBatches, leafTerms);
    return { loss, correct, shards: bounds.length };
  }

  /** Stops the replicas and frees the optimizers' state. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.headOptimizer?.dispose();
    this.backboneOptimizer?.dispose();
    await Promise.all(this.replicas.map((r) => r.worker.terminate()));
  }
}
