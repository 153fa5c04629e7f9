// Explain command, for researchers and for checking the service by hand:
//   npm run -s explain -- --list
//   npm run -s explain -- --model ID --image FILE.png --method NAME [--target K] [--steps N] [--param name=value …]
// `--method none` only predicts. Prints JSON on stdout; bad input prints a message
// on stderr and exits 2. Runs in this process (no worker pool).
import fs from "node:fs";
import { parseArgs } from "node:util";
import { initBackend } from "./runtime/backend.ts";
import { ALGORITHMS } from "./attribution/index.ts";
import { explain, listAlgorithms, predict } from "./explain.ts";
import { INPUT_ERROR_NAMES, CHECKPOINT_ERROR_NAMES } from "./errors.ts";
import { listModels } from "./models.ts";
import { chosenProvider, installedProviders, nativeEngineOn, threadsPerSession } from "../engine/runtime.ts";

/** What runs the networks here (docs/engine.md): the engine, its execution provider and threads. */
function engineInfo() {
  if (!nativeEngineOn()) return { runtime: "tfjs (ENGINE=tfjs)" };
  return { runtime: "onnxruntime-node", provider: chosenProvider(), installedProviders: installedProviders(), threadsPerSession: threadsPerSession() };
}

const USAGE = `usage: npm run -s explain -- --list
       npm run -s explain -- --model ID --image FILE.png --method NAME|none [--target K] [--steps N] [--param name=value ...]`;

class UsageError extends Error {}

/** Which parameter --steps sets: the method's step count, else its sample count. */
function stepsParam(method: string): string {
  const names = ALGORITHMS[method]?.params.map((p) => p.name) ?? [];
  const name = ["n_steps", "n_samples", "nt_samples"].find((n) => names.includes(n));
  if (!name) throw new UsageError(`--steps: ${method} has no step or sample count (its parameters: ${names.join(", ") || "none"})`);
  return name;
}

async function run(argv: string[]): Promise<unknown> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        list: { type: "boolean", default: false },
        model: { type: "string" },
        image: { type: "string" },
        method: { type: "string" },
        target: { type: "string" },
        steps: { type: "string" },
        param: { type: "string", multiple: true },
      },
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  if (values.list) {
    const { models } = listModels();
    return {
      models: models.map((m) => ({
        id: m.id,
        arch: m.arch,
        dataset: m.dataset,
        height: m.inputHeight,
        width: m.inputWidth,
        channels: m.inputChannels,
        classes: m.classNames,
        testAccuracy: m.testAccuracy,
      })),
      algorithms: listAlgorithms().map((a) => ({ name: a.name, hasBaseline: a.hasBaseline, params: a.params })),
      engine: engineInfo(),
    };
  }
  if (!values.model || !values.image || !values.method) throw new UsageError(`--model, --image and --method are required\n${USAGE}`);
  if (!fs.existsSync(values.image)) throw new UsageError(`image file ${values.image} not found`);
  const png = fs.readFileSync(values.image);
  let target: number | undefined;
  if (values.target !== undefined) {
    target = Number(values.target);
    if (!Number.isInteger(target) || target < 0) throw new UsageError(`--target must be a class index (0, 1, …), got "${values.target}"`);
  }
  await initBackend();
  if (values.method === "none") {
    const p = await predict({ modelId: values.model, image: { png } });
    return { model: values.model, prediction: p.predictedClass, predictedLabel: p.predictedLabel, probabilities: p.probabilities, output: p.logits };
  }
  const params: Record<string, unknown> = {};
  for (const kv of values.param ?? []) {
    const eq = kv.indexOf("=");
    if (eq <= 0) throw new UsageError(`--param takes name=value, got "${kv}"`);
    params[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  if (values.steps !== undefined) {
    if (!ALGORITHMS[values.method]) throw new UsageError(`unknown method "${values.method}" (known: none, ${Object.keys(ALGORITHMS).join(", ")})`);
    params[stepsParam(values.method)] = values.steps;
  }
  const r = await explain({ modelId: values.model, image: { png }, algorithm: values.method, params, target, noImages: true });
  return {
    model: values.model,
    method: values.method,
    target: r.target,
    prediction: r.predictedClass,
    predictedLabel: r.predictedLabel,
    probabilities: r.probabilities,
    output: r.output,
    ...(r.hasBaseline ? { baselineOutput: r.baselineOutput } : {}),
    ...(r.delta !== undefined ? { delta: r.delta } : {}),
    attribution: r.attribution,
    elapsedMs: Math.round(r.elapsedMs),
  };
}

run(process.argv.slice(2)).then(
  (out) => {
    process.stdout.write(JSON.stringify(out) + "\n");
  },
  (err: Error) => {
    const bad = err instanceof UsageError || INPUT_ERROR_NAMES.has(err?.name) || CHECKPOINT_ERROR_NAMES.has(err?.name);
    process.stderr.write(`explain: ${err?.message ?? String(err)}\n`);
    process.exitCode = bad ? 2 : 1;
  },
);
