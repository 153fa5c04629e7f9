// npm run -s kit -- --suite ID [--task TASK] --out FILE.zip: writes a suite's kit (buildKit.ts),
// or one of its tasks' kit, to a file.
import path from "node:path";
import { parseArgs } from "node:util";
import { KitUnavailableError, writeKitFile } from "./buildKit.ts";

const USAGE = "usage: npm run -s kit -- --suite ID [--task TASK] --out FILE.zip";

async function main(): Promise<number> {
  let values: { suite?: string; task?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { suite: { type: "string" }, task: { type: "string" }, out: { type: "string" }, help: { type: "boolean" } },
      strict: true,
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.suite || !values.out) {
    console.error(USAGE);
    return 2;
  }
  const started = performance.now();
  try {
    const { plan, bytes } = await writeKitFile(values.suite, path.resolve(values.out), undefined, values.task || null);
    const seconds = (performance.now() - started) / 1000;
    console.error(
      `${plan.suite.id}${plan.task ? ` (task ${plan.task})` : ""}: ${plan.tasks.length} task(s) × ${plan.images} images → ${values.out} (${(bytes / 1e6).toFixed(2)} MB, key ${plan.key.slice(0, 20)}) in ${seconds.toFixed(1)} s`,
    );
    return 0;
  } catch (err) {
    if (err instanceof KitUnavailableError || (err as Error).name === "SuiteConfigError") {
      console.error((err as Error).message);
      return 1;
    }
    throw err;
  }
}

process.exitCode = await main();
