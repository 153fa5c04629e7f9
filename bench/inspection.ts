// Crack detection speed (docs/crack-detection.md): the detector in-process at three photo sizes,
// with the share of each stage, and the same 192 px photos through the real sidecar's Inspection
// service over gRPC (decode + detect + mask PNG + transport), as a ratio to in-process.
// Run: node --import tsx bench/inspection.ts [photos]
import { performance } from "node:perf_hooks";
import * as grpc from "@grpc/grpc-js";
import { metarankV1 } from "../proto/contract.ts";
import { CRACK_MM_PER_PIXEL, generateCrackPhoto } from "../sidecar/data/cracks.ts";
import { encodePng, resizeBilinear } from "../sidecar/data/png.ts";
import { darkLineFilter } from "../sidecar/inspection/filters.ts";
import { detectCracks, toGrey } from "../sidecar/inspection/detector.ts";
import { startStack } from "../tests/support/stack.ts";
import { TEST_CALL_KEY } from "../tests/support/callKey.ts";

const N = Number(process.argv[2] ?? 20);
const photos = Array.from({ length: N }, (_, i) => generateCrackPhoto(i, "train"));

function timeIt(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

console.log(`crack detector, ${N} generated photos, one core`);
let inProcess192 = 0;
for (const size of [192, 512, 1024]) {
  let total = 0,
    filter = 0;
  const count = size > 512 ? Math.min(N, 4) : N;
  for (const p of photos.slice(0, count)) {
    const img = resizeBilinear({ width: p.width, height: p.height, channels: 3, data: p.image }, size, size);
    const scale = (CRACK_MM_PER_PIXEL * p.width) / size;
    total += timeIt(() => detectCracks(img, scale));
    filter += timeIt(() => darkLineFilter(toGrey(img.data, size, size, 3), size, size));
  }
  const ms = total / count;
  if (size === 192) inProcess192 = ms;
  console.log(
    `  ${size}×${size}: ${ms.toFixed(1)} ms a photo (${(1000 / ms).toFixed(1)} photos/s); the line filter is ${((100 * filter) / total).toFixed(0)} % of it`,
  );
}

const stack = await startStack({ env: { SEED_INSPECTION_PICTURES: "1", SEED_FASHION_MNIST_PICTURES: "1", SEED_SCENES_PICTURES: "1" } });
try {
  const Ctor = grpc.makeGenericClientConstructor(metarankV1("metarank/v1/inspection.proto").Inspection.service, "Inspection");
  const client = new Ctor(stack.sidecarAddress, grpc.credentials.createInsecure(), { interceptors: [] });
  const md = new grpc.Metadata();
  md.set("authorization", `Bearer ${TEST_CALL_KEY}`);
  const call = (png: Buffer) =>
    new Promise<void>((resolve, reject) =>
      (client as unknown as { DetectCracks: (r: unknown, m: grpc.Metadata, cb: (e: Error | null) => void) => void }).DetectCracks(
        { image: png, mmPerPixel: 0 },
        md,
        (e) => (e ? reject(e) : resolve()),
      ),
    );
  const pngs = photos.map((p) => encodePng({ width: p.width, height: p.height, channels: 3, data: p.image }));
  await call(pngs[0]); // the pool's first thread starts
  const t0 = performance.now();
  for (const png of pngs) await call(png);
  const ms = (performance.now() - t0) / N;
  console.log(`  through the sidecar (gRPC, 192 px PNG, one worker): ${ms.toFixed(1)} ms a photo, ${(ms / inProcess192).toFixed(2)}× in-process`);
  client.close();
} finally {
  await stack.stop();
}
