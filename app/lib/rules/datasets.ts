// The datasets area's rules (docs/architecture.md "Rules per area", docs/security.md "Fields",
// docs/datasets.md "Rules and limits"): the dataset name, visibility, the search keyword, picture
// ids and the upload limits, with every message as a message ref of the `datasets` namespace (the
// original wording in its language, a faithful translation in the other). One constant per limit,
// used by the page (maxLength, the upload field's label) and by the server (the authority):
// app/.server/datasets.server.ts, pictures.server.ts and uploads.server.ts read them from here.
import { z } from "zod";
import { messageRef } from "../forms/messages.ts";
import { textField } from "../forms/text.ts";

/** Page sizes of the datasets pages. */
export const PICTURES_PER_PAGE = 16; // dataset images 16
export const PREVIEWS_PER_PAGE = 3; // dataset previews 3 …
export const PICTURES_PER_PREVIEW = 3; // … with 3 pictures each
export const EXAMPLES_PER_PAGE = 30; // the example view

/** The datasets.name column is VARCHAR(100). */
export const DATASET_NAME_MAX = 100;
/** The search keyword: a dataset name (≤ 100) or a user name (≤ 200, app/lib/accountRules.ts USERNAME_MAX). */
export const SEARCH_MAX = 200;
/** A picture's shown name: the client's file name, base name only, cut to this length (never refused for it). */
export const FILE_NAME_MAX = 120;

export const PICTURE_LIMITS = {
  /** Per file; multer refuses a bigger file while it streams (app/.server/uploads.server.ts). */
  maxBytes: 10 * 1024 * 1024,
  /** Files in one request to a dataset (the upload dialog). */
  maxFiles: 50,
  /** The classification demo's upload: one image at a time. */
  demoFiles: 1,
  /** Decoding bombs: a small file can claim a huge canvas. */
  maxPixels: 40_000_000,
  /**
   * Thumbnails are rendered at the size they are shown: the grid's tiles are at most
   * THUMB_DISPLAY_PX CSS pixels wide (app/components/datasets/styles.tsx caps them), and
   * thumbnails carry twice that for high-density screens, so no browser ever enlarges one.
   */
  thumbBox: 2 * 180,
};
/** The widest a thumbnail is shown, in CSS pixels (tiles, previews and samples are capped to it). */
export const THUMB_DISPLAY_PX = 180;
export const PICTURE_MB = PICTURE_LIMITS.maxBytes / 1024 / 1024;

/** A selection is per page (select all selects the page), so one deletion names at most one page of pictures. */
export const DELETE_MAX = PICTURES_PER_PAGE;

export const DATASET_MSG = {
  // The pages' messages.
  noMatch: "datasets:msg.noMatch",
  dataDetailsWarning: "datasets:msg.dataDetailsWarning",
  // What the server adds.
  deletedMeanwhile: "datasets:msg.deletedMeanwhile",
  nameRequired: "datasets:msg.nameRequired",
  nameTooLong: messageRef("datasets:msg.nameTooLong", { max: DATASET_NAME_MAX }),
  nameTaken: "datasets:msg.nameTaken",
  visibility: "datasets:msg.visibility",
  created: "datasets:msg.created",
  noFiles: "datasets:msg.noFiles",
  tooBig: messageRef("datasets:msg.tooBig", { mb: PICTURE_MB }),
  tooMany: messageRef("datasets:msg.tooMany", { count: PICTURE_LIMITS.maxFiles }),
  uploadUnreadable: "datasets:msg.uploadUnreadable",
  notOwner: "datasets:msg.notOwner",
  platformReadOnly: "datasets:msg.platformReadOnly",
  noneSelected: "datasets:msg.noneSelected",
  tooManySelected: messageRef("datasets:msg.tooManySelected", { count: DELETE_MAX }),
  badPicture: "datasets:msg.badPicture",
  notFound: "datasets:msg.notFound",
  searchTooLong: messageRef("datasets:msg.searchTooLong", { max: SEARCH_MAX }),
  unknownAction: "datasets:msg.unknownAction",
  // One refused file of an upload, by its shown name.
  fileTooBig: (name: string) => messageRef("datasets:msg.fileTooBig", { name, mb: PICTURE_MB }),
  notAnImage: (name: string) => messageRef("datasets:msg.notAnImage", { name }),
  unreadable: (name: string) => messageRef("datasets:msg.unreadable", { name }),
} as const;

/** A row id sent by a form (hidden field, checkbox): digits only, within the safe integers. */
const idField = (message: string) =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .regex(/^\d{1,15}$/, message)
    .transform(Number)
    .refine((n) => n > 0, message);

/** Spaces inside a name collapse to one, so "a  b" and "a b" are the same dataset. */
export const datasetNameField = textField({ max: DATASET_NAME_MAX, required: DATASET_MSG.nameRequired, tooLong: DATASET_MSG.nameTooLong }).transform((v) =>
  v.replace(/\s+/g, " "),
);

export const createDatasetSchema = z.object({
  intent: z.literal("create"),
  name: datasetNameField,
  visibility: z.enum(["public", "private"], { errorMap: () => ({ message: DATASET_MSG.visibility }) }),
});

export const uploadSchema = z.object({
  intent: z.literal("upload"),
  datasetId: idField(DATASET_MSG.notFound),
});

export const deletePicturesSchema = z.object({
  intent: z.literal("deletePictures"),
  datasetId: idField(DATASET_MSG.notFound),
  page: z.coerce.number().int().positive().catch(1).default(1),
  pictureIds: z.array(idField(DATASET_MSG.badPicture)).max(DELETE_MAX, DATASET_MSG.tooManySelected).default([]),
  /** "yes" once the visitor has confirmed (the dialog with JavaScript, the confirmation step without). */
  confirm: z.literal("yes").optional().catch(undefined),
});

export const deleteDatasetSchema = z.object({
  intent: z.literal("deleteDataset"),
  datasetId: idField(DATASET_MSG.notFound),
  confirm: z.literal("yes").optional().catch(undefined),
});

export const datasetIntentSchema = z.enum(["create", "upload", "deletePictures", "deleteDataset"], {
  errorMap: () => ({ message: DATASET_MSG.unknownAction }),
});

/** The dataset search (a GET form): type and keyword; an empty keyword lists every visible dataset. */
export const searchSchema = z.object({
  type: z.enum(["name", "user"]).catch("name").default("name"),
  q: textField({ max: SEARCH_MAX, tooLong: DATASET_MSG.searchTooLong }),
});
export type SearchInput = z.output<typeof searchSchema>;
