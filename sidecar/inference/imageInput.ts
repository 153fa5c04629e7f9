// Turns a request's image (PNG/JPEG bytes or a raw float tensor) into the model's
// input [1, H, W, C] values, or says exactly what is wrong with it. Images are
// never resized here: an attribution of a silently resized image would not be an
// attribution of what the caller sent.
import { decodeImage, sniffImageKind } from "../data/png.ts";
import { InferenceInputError } from "./errors.ts";

export interface RawTensor {
  shape: number[];
  data: ArrayLike<number>;
}

export interface ImageInput {
  /** PNG or JPEG bytes. */
  png?: Uint8Array | null;
  tensor?: RawTensor | null;
}

/** The model input as H × W × C floats in [0, 1] (a tensor's values are checked only for being finite). */
export function toModelInput(image: ImageInput, inputShape: [number, number, number], modelId: string): Float32Array {
  const [h, w, c] = inputShape;
  const hasPng = image.png != null && image.png.length > 0;
  const hasTensor = image.tensor != null && image.tensor.shape.length > 0;
  if (hasPng && hasTensor) throw new InferenceInputError("send the image either as PNG bytes or as a tensor, not both");
  if (hasPng) {
    const bytes = image.png!;
    if (!sniffImageKind(bytes)) throw new InferenceInputError("the image is neither PNG nor JPEG (send PNG bytes or a float tensor)");
    let img;
    try {
      img = decodeImage(bytes, c === 1 ? 1 : 3, "the image");
    } catch (err) {
      throw new InferenceInputError((err as Error).message);
    }
    if (img.height !== h || img.width !== w) {
      throw new InferenceInputError(`the image is ${img.width}×${img.height} pixels but model ${modelId} takes ${w}×${h}; resize it to ${w}×${h} first`);
    }
    return img.data;
  }
  if (hasTensor) {
    const { shape, data } = image.tensor!;
    const dims = shape.length === 4 && shape[0] === 1 ? shape.slice(1) : shape;
    if (dims.length !== 3 || dims[0] !== h || dims[1] !== w || dims[2] !== c) {
      throw new InferenceInputError(
        `the image tensor has shape [${shape.join(", ")}] but model ${modelId} takes [${h}, ${w}, ${c}] (or [1, ${h}, ${w}, ${c}])`,
      );
    }
    if (data.length !== h * w * c) throw new InferenceInputError(`the image tensor has ${data.length} values; shape [${shape.join(", ")}] needs ${h * w * c}`);
    const out = Float32Array.from(data);
    for (let i = 0; i < out.length; i++) if (!Number.isFinite(out[i])) throw new InferenceInputError(`the image tensor has a non-finite value at index ${i}`);
    return out;
  }
  throw new InferenceInputError("no image: send image_png (PNG or JPEG bytes) or image_tensor ({shape, data})");
}
