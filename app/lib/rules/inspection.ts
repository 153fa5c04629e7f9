// The crack-detection area's rules (docs/crack-detection.md): page size, the bounds of a run, and
// every message as a ref of the `inspection` namespace. The server
// (app/.server/inspection.server.ts) is the authority; the page reads the same constants for its
// fields.
import { messageRef } from "../forms/messages.ts";
import { formSchema, type FieldErrors } from "../forms/parse.ts";

export const INSPECTION_LIMITS = {
  /** Photos in one run (a run over a bigger dataset is refused, not cut short silently). */
  photosPerRun: 2000,
  /** Rows one getResults call returns. */
  resultsPerCall: 500,
  /** The photos' scale in mm per pixel; the generated photos are 0.5. */
  mmPerPixel: { min: 0.01, max: 100, default: 0.5 },
} as const;

export const INSPECTION_MSG = {
  noDataset: messageRef("inspection:errors.noDataset"),
  emptyDataset: messageRef("inspection:errors.emptyDataset"),
  tooManyPhotos: messageRef("inspection:errors.tooManyPhotos", { max: INSPECTION_LIMITS.photosPerRun }),
  badScale: messageRef("inspection:errors.badScale", { min: INSPECTION_LIMITS.mmPerPixel.min, max: INSPECTION_LIMITS.mmPerPixel.max }),
  oneAtATime: messageRef("inspection:errors.oneAtATime"),
  started: messageRef("inspection:started"),
  cancelled: messageRef("inspection:cancelledNote"),
  notFound: messageRef("inspection:errors.notFound"),
} as const;

/** Photos the detector reads: the formats a dataset accepts (PNG and JPEG as they are, GIF and WebP converted). */
export const DETECTABLE_FORMATS = ["png", "jpeg", "gif", "webp"] as const;

/**
 * Why a photo of a run was not detected, stored with the run (inspection_skipped_photos) and
 * shown per photo on its page; `megapixels` and `max` are millions of pixels, one decimal.
 */
export const SKIP_MSG = {
  /** The file cannot be decoded: cut short, damaged, or not what its first bytes claim. */
  unreadable: messageRef("inspection:skipped.unreadable"),
  /** Not an image format the platform knows at all. */
  notAnImage: messageRef("inspection:skipped.notAnImage"),
  /** An image format the detector does not read (e.g. TIFF, SVG, HEIF). */
  unsupportedFormat: (format: string) => messageRef("inspection:skipped.unsupportedFormat", { format: format.toUpperCase().slice(0, 16) }),
  /** More pixels than even the scaling down reads (a decoding bomb, or a panorama). */
  tooManyPixels: (width: number, height: number, maxPixels: number) =>
    messageRef("inspection:skipped.tooManyPixels", {
      width,
      height,
      megapixels: Math.round((width * height) / 1e5) / 10,
      max: Math.round(maxPixels / 1e5) / 10,
    }),
  /** The photo's file is no longer in the server's storage. */
  missing: messageRef("inspection:skipped.missing"),
  /** The detector refused the photo for a reason of its own (its words, in English). */
  refused: (detail: string) => messageRef("inspection:skipped.refused", { detail: detail.slice(0, 200) }),
} as const;

/** A model's name as POST /algorithm/getResults reads it: required, and no longer than any model's. */
export const RESULTS_MODEL_NAME_MAX = 100;

/**
 * POST /algorithm/getResults' one field (a form field or the JSON body's): the model's name,
 * trimmed. A program reads the answer, so its message is the API's own English sentence.
 */
export const getResultsSchema = formSchema({ modelName: "trim" }, (v): FieldErrors =>
  !v.modelName || v.modelName.length > RESULTS_MODEL_NAME_MAX ? { modelName: `modelName is required (at most ${RESULTS_MODEL_NAME_MAX} characters).` } : {},
);
