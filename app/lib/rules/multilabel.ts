// The VOC-style multi-label demo's rules: the start form is checked in a fixed order (model, then
// algorithm, then image); explaining one of the ranked classes also needs the class (an index,
// whether it is among the five shown is the server's check). Messages are message refs: the three
// required-field messages from the classification demo (the same words on every demo page), the
// rest of the `multilabel` namespace. Shared by the page and its action.
import { z } from "zod";
import { textField } from "../forms/text.ts";
import { ALGORITHM_MAX, CLASSIFICATION_MSG, MODEL_ID_MAX } from "./classification.ts";

/** The demo's choices: the VOC model ResNet18 with Feature_Ablation and LIME. */
export const MULTILABEL_ALGORITHMS = ["Feature_Ablation", "LIME"] as const;
/** "The VOC-style demo shows five ranked results." */
export const RANKED_RESULTS = 5;

export const MULTILABEL_MSG = {
  chooseModel: CLASSIFICATION_MSG.chooseModel,
  chooseAlgorithm: CLASSIFICATION_MSG.chooseAlgorithm,
  chooseImage: CLASSIFICATION_MSG.chooseImage,
  success: CLASSIFICATION_MSG.success,
  notFound: CLASSIFICATION_MSG.notFound,
  modelsDown: CLASSIFICATION_MSG.modelsDown,
  unknownAction: CLASSIFICATION_MSG.unknownAction,
  noResult: CLASSIFICATION_MSG.noResult,
  chooseClass: "multilabel:msg.chooseClass",
  classNotRanked: "multilabel:msg.classNotRanked",
  noModel: "multilabel:msg.noModel",
} as const;

const common = {
  model: textField({ max: MODEL_ID_MAX, required: MULTILABEL_MSG.chooseModel }),
  algorithm: textField({ max: ALGORITHM_MAX, required: MULTILABEL_MSG.chooseAlgorithm }).refine(
    (v) => (MULTILABEL_ALGORITHMS as readonly string[]).includes(v),
    MULTILABEL_MSG.chooseAlgorithm,
  ),
  picture: z
    .string({ required_error: MULTILABEL_MSG.chooseImage, invalid_type_error: MULTILABEL_MSG.chooseImage })
    .regex(/^\d{1,15}$/, MULTILABEL_MSG.chooseImage),
};

/** Step 2's start: rank the picture's classes (the algorithm is chosen here, as the order of checks in docs/product.md "Multi-label" needs). */
export const classifySchema = z.object({ intent: z.literal("classify"), ...common });

/** Step 3: explain one ranked class, by its index in the model's classes (0..999). */
export const explainClassSchema = z.object({
  intent: z.literal("explain"),
  ...common,
  cls: z.string({ required_error: MULTILABEL_MSG.chooseClass, invalid_type_error: MULTILABEL_MSG.chooseClass }).regex(/^\d{1,3}$/, MULTILABEL_MSG.chooseClass),
});

export const multiLabelIntentSchema = z.enum(["classify", "explain"], { errorMap: () => ({ message: MULTILABEL_MSG.unknownAction }) });

/** The order of checks (docs/product.md "Multi-label"): model, algorithm, image, then the class. */
export const MULTILABEL_FIELD_ORDER = ["model", "algorithm", "picture", "cls"] as const;
