// What a TCAV request runs on (docs/concepts.md): the concept examples (generated textures or a
// user's pictures), the random counter-example sets, the class inputs and the image pool, all
// brought to the model's input shape, and the request itself as one function for the worker pool.
import * as tf from "@tensorflow/tfjs";
import type { ImageDataset } from "../data/dataset.ts";
import { decodeImage, encodePng, resizeBilinear, sniffImageKind, type FloatImage } from "../data/png.ts";
import { readFashionMnistSplit } from "../data/fashionMnist.ts";
import { generateScenesSplit, renderScene, SCENES_DEFAULT_SEED } from "../data/scenes.ts";
import { generateTexturedShapesSplit, TEXTURED_SHAPES_TEST_SIZE } from "../data/texturedShapes.ts";
import { Rng } from "../data/prng.ts";
import { DTD_CATEGORIES, canGenerate, renderTextureImage } from "../data/textures.ts";
import { InferenceInputError } from "../inference/errors.ts";
import { getNet } from "../inference/models.ts";
import { runTcav, type CavStore, type ExampleSet, type TcavResult } from "./tcav.ts";

/** Examples per concept and per random set (Kim et al. use 50; 40 keeps a request within seconds here). */
export const EXAMPLES_PER_SET = 40;
/** R random sets to train CAVs against (and R more scored as random "concepts" for the baseline). */
export const RANDOM_SETS = 6;
/** Held-out images of the scored class the TCAV score is over. */
export const CLASS_INPUTS = 40;
export const MAX_CONCEPTS = 6;
export const MAX_CUSTOM_IMAGES = 60;
export const MIN_CUSTOM_IMAGES = 10;
export const RANDOM_SOURCE = `generated scenes (one shape on a cluttered background; sets of ${EXAMPLES_PER_SET} from a split neither training nor testing uses)`;
export const CONCEPT_SOURCE = `procedurally generated textures, ${EXAMPLES_PER_SET} a concept, random scale, orientation and colours`;
/** The split code of the random sets in the scenes generator: 0 and 1 are train and test. */
const RANDOM_SPLIT = 7;

/** The layers TCAV scores by default: every tap-able layer after the stem. */
export const tcavLayers = (layers: readonly string[]) => layers.filter((l) => l !== "stem");

const splits = new Map<string, ImageDataset>();
/** The held-out split of a model's data (cached per thread; generated sets are cheap, Fashion-MNIST is read once). */
export function heldOut(dataset: string): ImageDataset {
  let ds = splits.get(dataset);
  if (!ds) {
    if (dataset === "textured-shapes") ds = generateTexturedShapesSplit("test", TEXTURED_SHAPES_TEST_SIZE);
    else if (dataset === "scenes") ds = generateScenesSplit("test", 1000);
    else if (dataset === "fashion-mnist") ds = readFashionMnistSplit("test");
    else throw new InferenceInputError(`TCAV has no held-out images for the data "${dataset}" on this server`);
    splits.set(dataset, ds);
  }
  return ds;
}

/** An RGB 32×32-ish picture brought to the model's input (bilinear resize, grey by luma for one channel). */
function toInput(img: FloatImage, [h, w, c]: [number, number, number]): Float32Array {
  let src = img;
  if (src.channels === 3 && c === 1) {
    const grey = new Float32Array(src.width * src.height);
    for (let i = 0; i < grey.length; i++) grey[i] = 0.299 * src.data[i * 3] + 0.587 * src.data[i * 3 + 1] + 0.114 * src.data[i * 3 + 2];
    src = { data: grey, width: src.width, height: src.height, channels: 1 };
  } else if (src.channels === 1 && c === 3) {
    const rgb = new Float32Array(src.width * src.height * 3);
    for (let i = 0; i < src.data.length; i++) rgb[i * 3] = rgb[i * 3 + 1] = rgb[i * 3 + 2] = src.data[i];
    src = { data: rgb, width: src.width, height: src.height, channels: 3 };
  }
  if (src.height !== h || src.width !== w) src = resizeBilinear(src, h, w);
  return src.data;
}

function stack(images: Float32Array[], shape: [number, number, number]): tf.Tensor4D {
  const n = shape[0] * shape[1] * shape[2];
  const buf = new Float32Array(images.length * n);
  images.forEach((im, k) => buf.set(im, k * n));
  return tf.tensor4d(buf, [images.length, ...shape]);
}

const rgb32 = (data: Float32Array): FloatImage => ({ data, width: 32, height: 32, channels: 3 });

export function textureExamples(name: string, shape: [number, number, number], count = EXAMPLES_PER_SET): ExampleSet {
  if (!canGenerate(name)) throw new InferenceInputError(`the concept "${name}" has no examples on this server`);
  return {
    key: `texture:${name}:v1:${count}`,
    images: stack(
      Array.from({ length: count }, (_, i) => toInput(rgb32(renderTextureImage(name, i)), shape)),
      shape,
    ),
  };
}

export function randomSet(k: number, shape: [number, number, number], count = EXAMPLES_PER_SET): ExampleSet {
  const images = Array.from({ length: count }, (_, i) => toInput(rgb32(renderScene(SCENES_DEFAULT_SEED, RANDOM_SPLIT, k * count + i).pixels), shape));
  return { key: `random:scenes:${k}:${count}`, images: stack(images, shape) };
}

export function customExamples(key: string, name: string, files: Uint8Array[], shape: [number, number, number]): ExampleSet {
  if (files.length < MIN_CUSTOM_IMAGES || files.length > MAX_CUSTOM_IMAGES)
    throw new InferenceInputError(`the concept "${name}" needs ${MIN_CUSTOM_IMAGES}–${MAX_CUSTOM_IMAGES} pictures (it has ${files.length})`);
  const images = files.map((bytes, i) => {
    if (!sniffImageKind(bytes)) throw new InferenceInputError(`picture ${i + 1} of the concept "${name}" is neither PNG nor JPEG`);
    return toInput(decodeImage(bytes, 3, `picture ${i + 1} of "${name}"`), shape);
  });
  return { key: `custom:${key}`, images: stack(images, shape) };
}

/**
 * The TCAV sample of a class: its first CLASS_INPUTS held-out images (never `exclude`, the
 * picked image itself), as a batch, with their indices.
 */
export function classInputs(ds: ImageDataset, target: number, shape: [number, number, number], exclude = -1): { indices: number[]; images: tf.Tensor4D } {
  const n = shape[0] * shape[1] * shape[2];
  const indices: number[] = [];
  for (let i = 0; i < ds.size && indices.length < CLASS_INPUTS; i++) if (ds.labels[i] === target && i !== exclude) indices.push(i);
  return {
    indices,
    images: stack(
      indices.map((i) => ds.images.subarray(i * n, (i + 1) * n)),
      shape,
    ),
  };
}

/** The R counter-example sets and the R baseline sets (docs/concepts.md, "Significance"). */
export function randomAndBaselineSets(shape: [number, number, number]): { randoms: ExampleSet[]; baselines: ExampleSet[] } {
  return {
    randoms: Array.from({ length: RANDOM_SETS }, (_, k) => randomSet(k, shape)),
    baselines: Array.from({ length: RANDOM_SETS }, (_, k) => randomSet(RANDOM_SETS + k, shape)),
  };
}

export function pngOf(ds: ImageDataset, index: number): Buffer {
  const n = ds.height * ds.width * ds.channels;
  return encodePng({ data: ds.images.slice(index * n, (index + 1) * n), width: ds.width, height: ds.height, channels: ds.channels });
}

/** `count` distinct held-out indices for a seed (the page's pool; the same seed, the same pool). */
export function poolIndices(ds: ImageDataset, seed: number, count: number): number[] {
  return Array.from(new Rng(seed).permutation(ds.size).subarray(0, Math.min(count, ds.size)));
}

export interface TcavJob {
  modelId: string;
  imageIndex: number;
  concepts: string[];
  layers: string[];
  custom: { key: string; name: string; images: Uint8Array[] }[];
}

export interface TcavJobResult extends TcavResult {
  modelId: string;
  dataset: string;
  layers: string[];
  classNames: string[];
  testAccuracy: number;
  imagePng: Uint8Array;
  groundTruth: string;
  predicted: string;
  probability: number;
  target: number;
  classInputs: number;
  names: string[];
}

/** One TCAV request, as the worker runs it: the scored class is the picked image's prediction. */
export async function tcavJob(job: TcavJob, store?: CavStore, onProgress?: (done: number, total: number) => void): Promise<TcavJobResult> {
  const net = getNet(job.modelId);
  const shape = net.inputShape;
  const ds = heldOut(net.manifest.dataset);
  if (!Number.isInteger(job.imageIndex) || job.imageIndex < 0 || job.imageIndex >= ds.size)
    throw new InferenceInputError(`image ${job.imageIndex} is not in the held-out images (0–${ds.size - 1})`);
  const count = job.concepts.length + job.custom.length;
  if (count < 1) throw new InferenceInputError("choose at least one concept");
  if (count > MAX_CONCEPTS) throw new InferenceInputError(`choose at most ${MAX_CONCEPTS} concepts`);
  for (const name of job.concepts) if (!(DTD_CATEGORIES as readonly string[]).includes(name)) throw new InferenceInputError(`unknown concept "${name}"`);
  const layers = job.layers.length ? job.layers : tcavLayers(net.layers);
  for (const l of layers) if (!net.layers.includes(l)) throw new InferenceInputError(`layer "${l}" is not one of ${net.layers.join(", ")}`);

  const n = shape[0] * shape[1] * shape[2];
  const probe = tf.tensor4d(ds.images.slice(job.imageIndex * n, (job.imageIndex + 1) * n), [1, ...shape]);
  const sets: ExampleSet[] = [];
  try {
    const probs = tf.tidy(() => tf.softmax(net.forward(probe)).dataSync() as Float32Array);
    let target = 0;
    for (let k = 1; k < probs.length; k++) if (probs[k] > probs[target]) target = k;
    const { indices: classIdx, images: inputs } = classInputs(ds, target, shape, job.imageIndex);
    sets.push({ key: "inputs", images: inputs });
    const concepts = [...job.concepts.map((c) => textureExamples(c, shape)), ...job.custom.map((c) => customExamples(c.key, c.name, c.images, shape))];
    const { randoms, baselines } = randomAndBaselineSets(shape);
    sets.push(...concepts, ...randoms, ...baselines);
    const result = await runTcav({
      net,
      modelKey: `${net.id}:${net.manifest.weightsSha256}`,
      layers,
      target,
      inputs,
      probe,
      concepts,
      randomSets: randoms,
      baselineSets: baselines,
      store,
      onProgress,
    });
    return {
      ...result,
      modelId: net.id,
      dataset: net.manifest.dataset,
      layers,
      classNames: net.classNames,
      testAccuracy: net.manifest.testAccuracy,
      imagePng: pngOf(ds, job.imageIndex),
      groundTruth: ds.classNames[ds.labels[job.imageIndex]] ?? "",
      predicted: net.classNames[target],
      probability: probs[target],
      target,
      classInputs: classIdx.length,
      names: [...job.concepts, ...job.custom.map((c) => c.name)],
    };
  } finally {
    probe.dispose();
    for (const s of sets) s.images.dispose();
  }
}
