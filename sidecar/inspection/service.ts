// gRPC service metarank.v1.Inspection (proto/metarank/v1/inspection.proto): crack detection on
// inspection photos. Photos run on the sidecar's worker pool (thePool), so a large photo never
// blocks heartbeats or other calls; DetectorInfo reports the committed held-out figures. Each
// handler's failure status is the shared wrapper's (sidecar/grpc/unary.ts).
import fs from "node:fs";
import { metarankV1 } from "../../proto/contract.ts";
import type { InspectionHandlers } from "../../proto/generated/metarank/v1/Inspection.ts";
import type { DetectorInfoReply } from "../../proto/generated/metarank/v1/DetectorInfoReply.ts";
import { CRACK_MM_PER_PIXEL } from "../data/cracks.ts";
import { logger } from "../log.ts";
import type { SidecarService } from "../services.ts";
import { BadRequest, unaryHandlers } from "../grpc/unary.ts";
import { callSignal, thePool } from "../inference/thePool.ts";
import { DETECTOR_NAME } from "./detector.ts";
import { COMMITTED_EVALUATION, type DetectorEvaluation } from "./evaluate.ts";
import { MAX_PHOTO_PIXELS } from "./photo.ts";

const PROTO = "metarank/v1/inspection.proto" as const;
/** One photo's time limit in the pool (INSPECTION_PHOTO_TIME_LIMIT_MS, default 60 s). */
const photoTimeLimitMs = () => Number(process.env.INSPECTION_PHOTO_TIME_LIMIT_MS) || 60_000;

let info: DetectorInfoReply | null = null;
/** The committed evaluation (sidecar/inspection/results/), read once; without it the figures are absent, not zero. */
function detectorInfo(): DetectorInfoReply {
  if (info) return info;
  const base: DetectorInfoReply = {
    modelName: DETECTOR_NAME,
    method: "multi-scale Frangi line filter for dark lines, hysteresis thresholds, half-depth crack width; skeleton length and distance-transform width",
    defaultMmPerPixel: CRACK_MM_PER_PIXEL,
    maxPixels: MAX_PHOTO_PIXELS,
    evaluatedPhotos: 0,
    evaluationData: "",
  };
  try {
    const e = JSON.parse(fs.readFileSync(COMMITTED_EVALUATION, "utf8")) as DetectorEvaluation;
    info = {
      ...base,
      evaluatedPhotos: e.photos.length,
      evaluationData: `generated concrete photos ${e.data.from}–${e.data.from + e.data.count - 1} of the test split (seed ${e.data.seed}, ${e.data.mmPerPixel} mm per pixel; ${e.data.tuning})`,
      precision: e.precision,
      recall: e.recall,
      lengthRelative: e.lengthRelative,
      meanWidthMm: e.meanWidthMm,
      maxWidthMm: e.maxWidthMm,
    };
  } catch (err) {
    logger.warn({ err: (err as Error).message }, "no committed crack-detector evaluation: DetectorInfo reports no figures");
    info = base;
  }
  return info;
}

const unary = unaryHandlers({ service: "Inspection", what: "crack detection" });

export function inspectionHandlers(): InspectionHandlers {
  return {
    DetectorInfo: unary("DetectorInfo", () => detectorInfo()),
    DetectCracks: unary("DetectCracks", async (call) => {
      const t0 = performance.now();
      const req = call.request;
      if (req.image.length > 32 * 1024 * 1024) throw new BadRequest("the photo is larger than 32 MiB");
      const r = await thePool().detectCracks(
        { image: new Uint8Array(req.image), mmPerPixel: req.mmPerPixel },
        { signal: callSignal(call), timeLimitMs: photoTimeLimitMs() },
      );
      return { ...r, maskPng: Buffer.from(r.maskPng), elapsedMs: performance.now() - t0 };
    }),
  };
}

export const inspectionService: SidecarService = {
  name: "metarank.v1.Inspection",
  register(server) {
    server.addService(metarankV1(PROTO).Inspection.service, inspectionHandlers());
  },
};
