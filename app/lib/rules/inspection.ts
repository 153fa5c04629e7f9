// The crack-detection area's rules (docs/crack-detection.md): page size, the bounds of a run, and
// every message as a ref of the `inspection` namespace. The server
// (app/.server/inspection.server.ts) is the authority; the page reads the same constants for its
// fields.
import { messageRef } from "../forms/messages.ts";

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
