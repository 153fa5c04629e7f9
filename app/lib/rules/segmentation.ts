// The segmentation demo's rules: the segment form is checked in a fixed order (model, then
// algorithm, then image), and explaining one part also needs the part (a class present in the
// prediction). Messages are message refs: the three required-field messages from the classification
// demo (the same words on both pages), the rest of the `segmentation` namespace. Shared by the page
// and its action.
import { z } from "zod";
import { textField } from "../forms/text.ts";
import { ALGORITHM_MAX, CLASSIFICATION_MSG, MODEL_ID_MAX } from "./classification.ts";

/** The demo's choices: FCN_ResNet101 with Feature_Ablation and LayerGradCAM. */
export const SEGMENTATION_ALGORITHMS = ["Feature_Ablation", "LayerGradCAM"] as const;

export const SEGMENTATION_MSG = {
  chooseModel: CLASSIFICATION_MSG.chooseModel,
  chooseAlgorithm: CLASSIFICATION_MSG.chooseAlgorithm,
  chooseImage: CLASSIFICATION_MSG.chooseImage,
  success: CLASSIFICATION_MSG.success,
  notFound: CLASSIFICATION_MSG.notFound,
  choosePart: "segmentation:msg.choosePart",
  segmentFirst: "segmentation:msg.segmentFirst",
  partNotPresent: "segmentation:msg.partNotPresent",
  noModel: "segmentation:msg.noModel",
  modelsDown: CLASSIFICATION_MSG.modelsDown,
  unknownAction: CLASSIFICATION_MSG.unknownAction,
  noResult: CLASSIFICATION_MSG.noResult,
} as const;

const pictureField = z
  .string({ required_error: SEGMENTATION_MSG.chooseImage, invalid_type_error: SEGMENTATION_MSG.chooseImage })
  .regex(/^\d{1,15}$/, SEGMENTATION_MSG.chooseImage);

const common = {
  model: textField({ max: MODEL_ID_MAX, required: SEGMENTATION_MSG.chooseModel }),
  algorithm: textField({ max: ALGORITHM_MAX, required: SEGMENTATION_MSG.chooseAlgorithm }).refine(
    (v) => (SEGMENTATION_ALGORITHMS as readonly string[]).includes(v),
    SEGMENTATION_MSG.chooseAlgorithm,
  ),
  picture: pictureField,
};

/** Step 3: segment the picture with a model (the algorithm is chosen here too, as the order of checks in docs/product.md "Segmentation" needs). */
export const segmentSchema = z.object({ intent: z.literal("segment"), ...common });

/** Step 4: explain one part; the part is a class id 1..99 (whether it is in the prediction is the server's check). */
export const explainSchema = z.object({
  intent: z.literal("explain"),
  ...common,
  part: z
    .string({ required_error: SEGMENTATION_MSG.choosePart, invalid_type_error: SEGMENTATION_MSG.choosePart })
    .regex(/^[1-9]\d?$/, SEGMENTATION_MSG.choosePart),
});

export const segIntentSchema = z.enum(["segment", "explain"], { errorMap: () => ({ message: SEGMENTATION_MSG.unknownAction }) });

/** The order of checks (docs/product.md "Segmentation"): model, algorithm, image, then the part; the page shows the first failing one. */
export const SEG_FIELD_ORDER = ["model", "algorithm", "picture", "part"] as const;
