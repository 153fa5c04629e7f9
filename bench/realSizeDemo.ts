// The /imagenet demo page on a real-size model (prints, never asserts): a torchvision classifier
// exported by PyTorch (bench/torchvision/export.py) imported as an operator would
// (`npm run -s import-model`), a few 224 px pictures in an operator's IMAGENET_DIR, then every
// method the page offers run once at its defaults through the real app, database (SQLite) and
// sidecar (one worker). Each row: the POST plus the page it redirects to, and whether the page
// shows the explanation or a failure panel (and which).
// Run: npx tsx bench/realSizeDemo.ts [--onnx var/bench/torchvision/resnet18.onnx] [--workers 1]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PNG } from "pngjs";
import { CLASSIFICATION_ALGORITHMS } from "../app/.server/classification.server.ts";
import { startStack } from "../tests/support/stack.ts";
import { userClient } from "../tests/support/accounts.ts";
import { location } from "../tests/support/client.ts";

const { values } = parseArgs({
  options: { onnx: { type: "string", default: "var/bench/torchvision/resnet18.onnx" }, workers: { type: "string", default: "1" } },
});
const onnx = path.resolve(values.onnx!);
if (!fs.existsSync(onnx)) throw new Error(`${onnx} is missing: run /usr/bin/python3 bench/torchvision/export.py --models resnet18 first`);

const work = fs.mkdtempSync(path.join(os.tmpdir(), "real-size-demo-"));
const models = path.join(work, "models");
const pictures = path.join(work, "imagenet");
// Two classes of three seeded 224 px pictures each (smooth colour fields, so the picture is not noise).
for (const [c, cls] of ["class0", "class1"].entries()) {
  fs.mkdirSync(path.join(pictures, cls), { recursive: true });
  for (let k = 0; k < 3; k++) {
    const png = new PNG({ width: 224, height: 224 });
    for (let i = 0; i < 224 * 224; i++) {
      const y = Math.floor(i / 224),
        x = i % 224;
      png.data[i * 4] = (x * (c + 1) + k * 40) % 256;
      png.data[i * 4 + 1] = (y * (2 - c) + k * 70) % 256;
      png.data[i * 4 + 2] = ((x + y) * 3) % 256;
      png.data[i * 4 + 3] = 255;
    }
    fs.writeFileSync(path.join(pictures, cls, `${k}.png`), PNG.sync.write(png));
  }
}
const labels = path.join(work, "labels.txt");
fs.writeFileSync(labels, Array.from({ length: 1000 }, (_, i) => `class${i}`).join("\n"));
const id = path
  .basename(onnx, ".onnx")
  .replace(/[^a-z0-9-]/gi, "-")
  .toLowerCase();
execFileSync(
  "npx",
  [
    "tsx",
    "sidecar/zoo/onnx/importCli.ts",
    onnx,
    "--dataset",
    "imagenet",
    "--labels",
    labels,
    "--id",
    id,
    "--mean",
    "0.485,0.456,0.406",
    "--std",
    "0.229,0.224,0.225",
  ],
  {
    env: { ...process.env, IMPORTED_MODEL_DIR: models },
    stdio: "inherit",
  },
);

const stack = await startStack({
  db: "sqlite",
  env: { IMAGENET_DIR: pictures, IMPORTED_MODEL_DIR: models, SIDECAR_WORKERS: values.workers!, SEED_FASHION_MNIST_PICTURES: "8", SEED_SCENES_PICTURES: "8" },
});
const rows: string[] = [];
try {
  const user = await userClient(stack.baseUrl, "bench");
  const page = await user.html("/imagenet");
  if (page.includes('data-testid="not-installed"')) throw new Error("/imagenet says it is not installed");
  const picture = page.match(/data-picture-id="(\d+)"/)![1];
  const model = page.match(/<select id="model"[\s\S]*?<option value="([^"]+)">/)![1];
  for (const a of CLASSIFICATION_ALGORITHMS) {
    const url = `/imagenet?pool=1&picture=${picture}`;
    const t0 = performance.now();
    const res = await user.post(url, { intent: "run", model, algorithm: a.value, picture });
    const to = location(res);
    const result = to ? await user.html(to) : await res.text();
    const ms = performance.now() - t0;
    const failure = result
      .match(/role="alert"[^>]*>([\s\S]{0,300}?)<\/div>/)?.[1]
      ?.replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    const shown = /data-testid="heatmap"|data-testid="overlay"|<img[^>]+\/explanation\//.test(result);
    rows.push(`| ${a.label} | ${(ms / 1000).toFixed(1)} s | ${shown ? "explanation shown" : `no explanation: ${failure ?? `HTTP ${res.status}`}`} |`);
  }
} finally {
  await stack.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
console.log(
  `/imagenet with ${id} (224 px, imported), one run each at the defaults, ${values.workers} sidecar worker(s), load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}:`,
);
console.log("| method | POST + result page | page shows |\n|---|---|---|\n" + rows.join("\n"));
