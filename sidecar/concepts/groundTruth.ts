// The ground-truth check of the concept page (docs/concepts.md "The ground-truth check"): on the
// model trained on textured shapes, whose class IS the object's texture, TCAV must give each
// class's own texture a significant score near 1, and a random concept (one more random set scored
// as a concept) no significant score. `npm run -s tcav-ground-truth` writes
// sidecar/concepts/results/ground-truth.json; tests/concepts/groundTruth.test.ts re-runs one class.
import fs from "node:fs";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { TEXTURED_SHAPE_CLASSES } from "../data/texturedShapes.ts";
import { initBackend } from "../inference/runtime/backend.ts";
import { getNet } from "../inference/models.ts";
import {
  CLASS_INPUTS,
  EXAMPLES_PER_SET,
  RANDOM_SETS,
  classInputs,
  heldOut,
  randomAndBaselineSets,
  randomSet,
  tcavLayers,
  textureExamples,
} from "./experiment.ts";
import { runTcav, type TcavResult } from "./tcav.ts";

export const GROUND_TRUTH_MODEL = "inception-textured-shapes";
/** The random set scored as a "random concept": beyond the 2R sets the experiments use. */
const RANDOM_CONCEPT_SET = 50;

export interface GroundTruthRow {
  className: string;
  concept: string;
  layer: string;
  mean: number;
  std: number;
  pValue: number;
  significant: boolean;
  randomMean: number;
}

/** TCAV of one class for its own texture, the other classes' textures and a random concept. */
export async function groundTruthFor(
  className: (typeof TEXTURED_SHAPE_CLASSES)[number],
  concepts: string[] = [...TEXTURED_SHAPE_CLASSES],
): Promise<GroundTruthRow[]> {
  const net = getNet(GROUND_TRUTH_MODEL);
  const target = TEXTURED_SHAPE_CLASSES.indexOf(className);
  const { images: inputs } = classInputs(heldOut("textured-shapes"), target, net.inputShape);
  const sets = [...concepts.map((c) => textureExamples(c, net.inputShape)), { ...randomSet(RANDOM_CONCEPT_SET, net.inputShape), key: "random-concept" }];
  const { randoms, baselines } = randomAndBaselineSets(net.inputShape);
  let r: TcavResult;
  try {
    r = await runTcav({
      net,
      modelKey: `${net.id}:${net.manifest.weightsSha256}`,
      layers: tcavLayers(net.layers),
      target,
      inputs,
      concepts: sets,
      randomSets: randoms,
      baselineSets: baselines,
    });
  } finally {
    tf.dispose([inputs, ...[...sets, ...randoms, ...baselines].map((s) => s.images)]);
  }
  const names = [...concepts, "random"];
  return r.concepts.flatMap((c, i) =>
    c.layers.map((l) => ({
      className,
      concept: names[i],
      layer: l.layer,
      mean: l.mean,
      std: l.std,
      pValue: l.pValue,
      significant: l.significant,
      randomMean: r.random.find((b) => b.layer === l.layer)?.mean ?? NaN,
    })),
  );
}

export const GROUND_TRUTH_FILE = path.resolve(path.dirname(new URL(import.meta.url).pathname), "results", "ground-truth.json");

if (process.argv[1]?.endsWith("groundTruth.ts")) {
  await initBackend("wasm");
  const t0 = performance.now();
  const rows: GroundTruthRow[] = [];
  for (const c of TEXTURED_SHAPE_CLASSES) rows.push(...(await groundTruthFor(c)));
  const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
  const out = {
    model: GROUND_TRUTH_MODEL,
    data: `textured-shapes held-out split, ${CLASS_INPUTS} images a class; ${RANDOM_SETS} random sets of ${EXAMPLES_PER_SET} generated scenes; concepts of ${EXAMPLES_PER_SET} generated textures`,
    seconds: Math.round((performance.now() - t0) / 1000),
    rows: rows.map((r) => ({ ...r, mean: r4(r.mean), std: r4(r.std), pValue: r4(r.pValue), randomMean: r4(r.randomMean) })),
  };
  fs.mkdirSync(path.dirname(GROUND_TRUTH_FILE), { recursive: true });
  fs.writeFileSync(GROUND_TRUTH_FILE, JSON.stringify(out, null, 1) + "\n");
  for (const r of out.rows)
    console.log(
      `${r.className.padEnd(10)} ${r.concept.padEnd(10)} ${r.layer.padEnd(7)} ${r.mean.toFixed(2)} ±${r.std.toFixed(2)} p=${r.pValue.toFixed(4)}${r.significant ? " *" : ""}  (random ${r.randomMean.toFixed(2)})`,
    );
  console.log(`${out.seconds} s`);
}
