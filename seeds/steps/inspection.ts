// The platform's own crack-detection run over its generated inspection photos, so /twodresult
// shows real detections from the first start: the row is created queued here, and the web
// app's start-up (registerInspectionJobs) hands it to the queue once a sidecar can take it.
import { Dataset, InspectionRun, Picture } from "../../models/index.ts";
import { CRACK_MM_PER_PIXEL } from "../../sidecar/data/cracks.ts";
import { DETECTOR_NAME } from "../../sidecar/inspection/detector.ts";
import type { SeedStep } from "./index.ts";

export const seedInspection: SeedStep = {
  name: "inspection run",
  async run() {
    if (process.env.SEED_INSPECTION_RUN === "0") return "skipped (SEED_INSPECTION_RUN=0)";
    const dataset = await Dataset.findOne({ where: { slug: "concrete-inspection" } });
    if (!dataset) return "no inspection photos: nothing to detect";
    if (await InspectionRun.count({ where: { datasetId: dataset.id, userId: null } })) return "platform run present";
    const photos = await Picture.count({ where: { datasetId: dataset.id } });
    await InspectionRun.create({ userId: null, datasetId: dataset.id, modelName: DETECTOR_NAME, mmPerPixel: CRACK_MM_PER_PIXEL, photosTotal: photos });
    return `platform run queued over ${photos} photos`;
  },
};
