// What the two dense-prediction features (segmentation/ and multilabel/, each a pool-backed gRPC
// service: docs/architecture.md "Where each behaviour lives") do alike with their models, written
// once: the catalogue read from checkpoint manifests, the per-thread cache of loaded networks with
// the "unknown model" answer, the check of a method's name, and one picture's input tensor and
// attribution maps. Each feature keeps what differs: its manifest's task and scores, how a model
// is loaded, its methods and what it answers.
import * as tf from "@tensorflow/tfjs";
import { CheckpointError, type CheckpointManifest } from "../../zoo/checkpoint.ts";
import { InferenceInputError } from "../errors.ts";
import { renderAttribution } from "../heatmap.ts";
import { toModelInput, type ImageInput } from "../imageInput.ts";

/** The catalogue fields every dense-prediction model has (the feature adds its architecture's name and scores). */
export interface DenseModelBase {
  id: string;
  dataset: string;
  classNames: string[];
  inputHeight: number;
  inputWidth: number;
  inputChannels: number;
  testSize: number;
  trainedAt: string;
}

export function denseModelBase(m: CheckpointManifest): DenseModelBase {
  const [inputHeight, inputWidth, inputChannels] = m.inputShape;
  return { id: m.id, dataset: m.dataset, classNames: m.classNames, inputHeight, inputWidth, inputChannels, testSize: m.testSize, trainedAt: m.trainedAt };
}

/**
 * A feature's catalogue from the manifests found: those whose `task` is the feature's, as `info`
 * describes them; each other one a problem ("checkpoint "x" in <dir> is not a <kind>").
 */
export function catalogueOf<M extends CheckpointManifest, I>(
  found: { manifests: CheckpointManifest[]; problems: string[] },
  task: string,
  info: (m: M) => I,
  notOfTask: { dir: string; kind: string },
): { models: I[]; problems: string[] } {
  const models: I[] = [];
  const problems = [...found.problems];
  for (const m of found.manifests) {
    // The task is the feature manifest's own field (MultiLabelManifest, SegmenterManifest), absent from a classifier's.
    if ((m as CheckpointManifest & { task?: string }).task === task) models.push(info(m as M));
    else problems.push(`checkpoint "${m.id}" in ${notOfTask.dir} is not a ${notOfTask.kind}`);
  }
  return { models, problems };
}

/**
 * The loader of a feature's networks, each loaded once per worker thread; an id with no checkpoint
 * is an InferenceInputError naming the ones there are (`what` names the kind of model, `trainCommand`
 * the npm script that makes one), as the classification models' (models.ts).
 */
export function cachedNetLoader<N>(load: (id: string) => N, known: () => string[], what: string, trainCommand: string): (id: string) => N {
  const cache = new Map<string, N>();
  return (id) => {
    const hit = cache.get(id);
    if (hit) return hit;
    try {
      const net = load(id);
      cache.set(id, net);
      return net;
    } catch (err) {
      if (err instanceof CheckpointError && /not found|not a valid checkpoint id/.test(err.message))
        throw new InferenceInputError(`unknown ${what} model "${id}"; available: ${known().join(", ") || `none (train one with npm run ${trainCommand})`}`);
      throw err;
    }
  };
}

/**
 * A method name of the feature's list, or the error `refuse` makes of the answer naming them: the
 * service refuses it before a worker is taken (BadRequest), the job again when called directly
 * (InferenceInputError), both with the same words.
 */
export function checkedAlgorithm<A extends string>(names: readonly A[], what: string, name: string, refuse: (message: string) => Error): A {
  if (!(names as readonly string[]).includes(name)) throw refuse(`unknown ${what} algorithm "${name}"; choose ${names.join(" or ")}`);
  return name as A;
}

/** A network's input shape and id: all that turning a picture into its input needs. */
interface InputOf {
  id: string;
  inputShape: [number, number, number];
}

/**
 * Runs `use` on the picture as a one-image batch of the network's input (and its pixels), then frees
 * the tensor: at once when `use` returns a value (Segment is synchronous), when its promise settles
 * when it returns one (the methods of Explain are asynchronous).
 */
export function withModelInput<T>(net: InputOf, image: ImageInput, use: (x: tf.Tensor4D, pixels: Float32Array) => T): T {
  const pixels = toModelInput(image, net.inputShape, net.id);
  const x = tf.tensor4d(pixels, [1, ...net.inputShape]);
  let result: T;
  try {
    result = use(x, pixels);
  } catch (err) {
    x.dispose();
    throw err;
  }
  if (result instanceof Promise) return result.finally(() => x.dispose()) as T;
  x.dispose();
  return result;
}

/** An attribution as the reply carries it, with its heatmap and its overlay on the input (drawn as the classification maps are, heatmap.ts). */
export function attributionMaps(attr: tf.Tensor, net: InputOf, pixels: Float32Array) {
  const attribution = { shape: attr.shape, data: Array.from(attr.dataSync()) };
  const [height, width, channels] = net.inputShape;
  return { attribution, ...renderAttribution(attribution, { height, width, channels, data: pixels }) };
}
