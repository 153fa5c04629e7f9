// The SeBoW demos' start form (/scenesebow and /cifarsebow, docs/sebow.md): the model variant, the
// algorithm and the picture, checked in this order one at a time (model, algorithm, image); every
// message a message ref of the `demo` and `sebow` namespaces. The page is
// app/components/demo/SebowDemo.tsx, the action app/.server/sebow.server.ts sebowDemoAction.
import { formSchema, type FieldErrors } from "../forms/parse.ts";

export const SEBOW_VARIANTS = ["SearchSpaceModel", "NeuralDecisionTree"] as const;
export const SEBOW_ALGORITHMS = ["DI", "SPI"] as const;

/** A picture of the model's test split as the pool names it ("test:<index>"). */
export const SEBOW_SAMPLE = /^test:\d{1,7}$/;

export const SEBOW_MSG = {
  chooseModel: "demo:msg.chooseModel",
  chooseAlgorithm: "demo:msg.chooseAlgorithm",
  chooseImage: "demo:msg.chooseImage",
  success: "demo:msg.success",
  noModel: "sebow:noModel",
  refused: "sebow:refused",
} as const;

/** Where the page shows a message: beside the model or algorithm select, or under the pool (image). */
export type SebowField = "model" | "algorithm" | "image";

/** The start form's fields as sent: `model` is the variant, `sample` the chosen picture. */
export interface SebowStartInput {
  model: string;
  algorithm: string;
  sample: string;
}

/** The first failing check in the page's order (the picture's message is shown as the image's). */
export function validateSebowStart(v: SebowStartInput): FieldErrors {
  if (!(SEBOW_VARIANTS as readonly string[]).includes(v.model)) return { model: SEBOW_MSG.chooseModel };
  if (!(SEBOW_ALGORITHMS as readonly string[]).includes(v.algorithm)) return { algorithm: SEBOW_MSG.chooseAlgorithm };
  if (!SEBOW_SAMPLE.test(v.sample)) return { image: SEBOW_MSG.chooseImage };
  return {};
}

/** The start form read through its rules (parseForm(form, sebowStartSchema)); values compared as sent. */
export const sebowStartSchema = formSchema({ model: "raw", algorithm: "raw", sample: "raw" }, validateSebowStart);
