// Build time and size of each suite's kit (docs/suite-kit.md), written to a temporary file the
// way the sidecar streams it. Suites whose data or checkpoints are not installed are reported.
//   npx tsx bench/kit.ts [--suite ID]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { KitUnavailableError, writeKitFile } from "../sidecar/kit/buildKit.ts";
import { listSuiteConfigs } from "../sidecar/inference/evaluation/runRules.ts";

const i = process.argv.indexOf("--suite");
const only = i >= 0 ? process.argv[i + 1] : undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kit-bench-"));
const suites = listSuiteConfigs().suites.filter((s) => !only || s.id === only);
console.log(`kit bench: ${suites.length} suite(s), ${os.cpus()[0]?.model ?? "cpu"}`);
for (const suite of suites) {
  const out = path.join(dir, `${suite.id}.zip`);
  const started = performance.now();
  try {
    const { plan, bytes } = await writeKitFile(suite.dir, out);
    const seconds = (performance.now() - started) / 1000;
    console.log(`${suite.id}: ${plan.tasks.length} tasks × ${plan.images} images, ${(bytes / 1e6).toFixed(2)} MB in ${seconds.toFixed(2)} s`);
  } catch (err) {
    if (!(err instanceof KitUnavailableError)) throw err;
    console.log(`${suite.id}: not buildable here (${err.message.slice(0, 120)}…)`);
  }
}
fs.rmSync(dir, { recursive: true, force: true });
