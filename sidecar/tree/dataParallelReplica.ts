// A data-parallel replica thread (dataParallel.ts, started by DataParallelStep through
// trainWorkerEntry.mjs): its own tfjs backend and its own copy of the tree's trainable tensors,
// overwritten with the coordinator's weights before every step; it computes its shard's
// gradients, loss and leaf-update terms (dataParallel.ts shardStep, the code the coordinator
// runs for its own shard) and sends them back. It holds no optimizer: the coordinator applies
// the averaged update (why: dataParallel.ts header).
import { parentPort } from "node:worker_threads";
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../inference/runtime/backend.ts";
import type { WeightMap } from "../zoo/layers.ts";
import { makeBackbone } from "./protoTree.ts";
import { shardStep, stepVariables, type FromReplica, type StepModel, type ToReplica } from "./dataParallel.ts";

function modelOf(init: Extract<ToReplica, { type: "init" }>["init"]): StepModel {
  const vars = init.shapes.map((shape) => tf.variable(tf.zeros(shape), true));
  const [addOnKernel, addOnBias, prototypes, ...backboneVars] = vars;
  let backbone = null;
  if (init.backbone) {
    const weights: WeightMap = new Map(init.backbone.names.map((name, i) => [name, backboneVars[i]]));
    backbone = makeBackbone(weights, init.backbone.archConfig, init.backbone.layer);
  }
  return { depth: init.depth, numClasses: init.numClasses, addOnKernel, addOnBias, prototypes, backbone, backboneVars };
}

if (parentPort) {
  const port = parentPort;
  const post = (m: FromReplica, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  let model: StepModel | null = null;
  // Messages wait for the backend: the coordinator may send init and a step before it is ready.
  const ready = initBackend();
  port.on("message", (m: ToReplica) => {
    ready
      .then(() => {
        if (m.type === "init") {
          model = modelOf(m.init);
          return;
        }
        if (!model) throw new Error("step before init");
        const vars = stepVariables(model);
        m.weights.forEach((w, i) => {
          const t = tf.tensor(w, vars[i].shape);
          vars[i].assign(t);
          t.dispose();
        });
        const input = tf.tensor4d(m.input, m.shape);
        const out = shardStep(model, input, m.labels, m.dists);
        input.dispose();
        const grads = out.grads.map((g) => (g ? Float32Array.from(g.dataSync() as Float32Array) : null));
        tf.dispose(out.grads.filter((g): g is tf.Tensor => g !== null));
        post({ type: "result", id: m.id, n: out.n, loss: out.loss, correct: out.correct, grads, leafTerms: out.leafTerms }, [
          ...grads.filter((g): g is Float32Array => g !== null).map((g) => g.buffer as ArrayBuffer),
          out.leafTerms.buffer as ArrayBuffer,
        ]);
      })
      .catch((err: unknown) => post({ type: "error", message: (err as Error)?.message ?? String(err) }));
  });
  ready.then(
    () => post({ type: "ready" }),
    (err: unknown) => post({ type: "error", message: `tensor backend: ${(err as Error)?.message ?? String(err)}` }),
  );
}
