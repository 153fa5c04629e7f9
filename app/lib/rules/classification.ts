// The classification demo's rules: the model, the algorithm and the picture of a run, checked in a
// fixed order (model, then algorithm, then image), and the one-image upload of the pool variant;
// every message a message ref of the `demo` namespace (the original wording in its language, a
// faithful translation in the other). Shared by the page and the server
// (app/routes/demos/classification.tsx's action).
import { z } from "zod";
import { messageRef } from "../forms/messages.ts";
import { textField } from "../forms/text.ts";

/** A model id as the sidecar names its checkpoints ("fashion-mnist-resnet18"): short, one line. */
export const MODEL_ID_MAX = 100;
/** Algorithm values are short names (IG … Occlusion_using_larger_sliding_window). */
export const ALGORITHM_MAX = 64;

export const CLASSIFICATION_MSG = {
  // 请选择要使用的模型 / 请选择要使用的算法 / 请选择要解释的图像, and the outcomes.
  chooseModel: "demo:msg.chooseModel",
  chooseAlgorithm: "demo:msg.chooseAlgorithm",
  chooseImage: "demo:msg.chooseImage",
  success: "demo:msg.success",
  // What the server adds.
  oneImage: "demo:msg.oneImage",
  chooseUpload: "demo:msg.chooseUpload",
  uploadUnreadable: "demo:msg.uploadUnreadable",
  notFound: "demo:msg.notFound",
  noResult: "demo:msg.noResult",
  noModel: "demo:msg.noModel",
  noModelForData: "demo:msg.noModelForData",
  modelsDown: "demo:msg.modelsDown",
  unknownAction: "demo:msg.unknownAction",
  rateLimited: (minutes: number) => messageRef("demo:msg.rateLimited", { count: minutes }),
} as const;

/** A picture id: digits only; anything else is "no image chosen". */
const pictureField = z
  .string({ required_error: CLASSIFICATION_MSG.chooseImage, invalid_type_error: CLASSIFICATION_MSG.chooseImage })
  .regex(/^\d{1,15}$/, CLASSIFICATION_MSG.chooseImage);

/**
 * The start form. `algorithms`: the values the server runs (app/.server/classification.server.ts
 * CLASSIFICATION_ALGORITHMS), so the list lives in one place.
 */
export function runSchema(algorithms: readonly string[]) {
  return z.object({
    intent: z.literal("run").optional(),
    model: textField({ max: MODEL_ID_MAX, required: CLASSIFICATION_MSG.chooseModel }),
    algorithm: textField({ max: ALGORITHM_MAX, required: CLASSIFICATION_MSG.chooseAlgorithm }).refine(
      (v) => algorithms.includes(v),
      CLASSIFICATION_MSG.chooseAlgorithm,
    ),
    picture: pictureField,
  });
}

/** One check at a time, in this order (docs/product.md "Demo pages"); the page shows the first failing field's message. */
export const RUN_FIELD_ORDER = ["model", "algorithm", "picture"] as const;

export const demoIntentSchema = z.enum(["run", "upload"], { errorMap: () => ({ message: CLASSIFICATION_MSG.unknownAction }) });
