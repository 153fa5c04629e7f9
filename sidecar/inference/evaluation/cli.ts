// npm run -s evaluate -- --suite ID --method NAME [--params JSON] [--limit N] [--task T]... --out DIR
// npm run -s evaluate -- --suite ID --all-methods --write-suite      (regenerates the suite's baseline folders)
// npm run -s evaluate -- --suite ID --all-methods --out DIR          (the same, into DIR/<folder>/)
// npm run -s evaluate -- --suite ID --all-methods --write-suite --reuse-suite
//                                          (after retraining a network: only the tasks whose inputs changed)
//
// Evaluates attribution methods on a suite's tasks with MoRF and LeRF (docs/evaluation.md) and
// writes the result-file pair (docs/metascore.md "Result files") plus localisation.json and
// images.json. A progress bar goes to stderr; the written paths go to stdout. Ctrl-C cancels.
import fs from "node:fs";
import path from "node:path";
import { ZipFile } from "yazl";
import { ALGORITHM_NAMES, getAlgorithm } from "../attribution/index.ts";
import { loadMethodModule, methodModuleUrl } from "./methodModule.ts";
import { writeNpy } from "./npy.ts";
import { taskManifest } from "./taskCheckpoints.ts";
import { EvaluationCancelled } from "./engine.ts";
import { EvaluationPool } from "./pool.ts";
import { evaluateMethod, writeMethodFolder, type MethodRun, type TaskProgress } from "./run.ts";
import { pinnedCheckpoint, readSuite, type BaselineMethod, type SuiteConfig } from "./suite.ts";
import { ShardStore, committedShard } from "./shards.ts";

const USAGE = `usage:
  npm run -s evaluate -- --suite ID --method NAME [--params JSON] [--limit N] [--task T]... [--workers N] --out DIR
  npm run -s evaluate -- --suite ID --all-methods (--write-suite | --out DIR) [--reuse-suite] [--workers N]
  npm run -s evaluate -- --suite ID --method-module ./myMethod.ts [--params JSON] [--limit N] [--task T]... --out DIR
options:
  --suite ID       suite id (folder under seeds/suites) or path to a suite folder
  --method NAME    attribution method (${ALGORITHM_NAMES.join(", ")})
  --params JSON    method parameters; default: the suite's baseline parameters for that method, else the registry's
  --limit N        evaluate only the first N images of each task's evaluation split
  --task T         only this task (repeat or comma-separate for several)
  --workers N      worker threads (default 2)
  --backend B      tensor backend: onnxruntime (forward and gradient passes native, docs/engine.md), or a tfjs
                   backend: auto, wasm, cpu, tensorflow (default: the suite's, else TENSOR_BACKEND or auto)
  --method-module F  your own method: a module whose default export (or export "attribute") has the
                   registry's signature (net, input, target, params) => { attribution }; writes maps.zip too
  --all-methods    every baseline method listed in the suite's "evaluation" block
  --write-suite    with --all-methods: write into the suite folder itself (full split, all tasks)
  --fresh          with --all-methods: start over instead of resuming (finished method × task shards
                   are kept in <folder>/.regen-state until the whole run has been written)
  --state DIR      with --all-methods: keep the finished shards in DIR instead, and leave them there: runs
                   of parts of a board (--task T, on one machine or several) fill one DIR, and a later
                   --write-suite run with the same --state reuses every shard whose inputs are unchanged
  --reuse-suite    with --all-methods: take every method × task whose inputs (method, parameters, settings,
                   images, backend, the checkpoint's weights) are those the suite folder's committed
                   images.json records from those files instead of evaluating it again; after retraining
                   one network, only its task is evaluated`;

interface Args {
  suite?: string;
  method?: string;
  methodModule?: string;
  params?: string;
  limit?: number;
  tasks: string[];
  workers: number;
  backend?: string;
  out?: string;
  allMethods: boolean;
  writeSuite: boolean;
  fresh: boolean;
  state?: string;
  reuseSuite: boolean;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const a: Args = { tasks: [], workers: 2, allMethods: false, writeSuite: false, fresh: false, reuseSuite: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const int = (name: string) => {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 1) throw new UsageError(`${name} must be a whole number ≥ 1`);
      return v;
    };
    switch (flag) {
      case "--suite":
        a.suite = value();
        break;
      case "--method":
        a.method = value();
        break;
      case "--method-module":
        a.methodModule = value();
        break;
      case "--params":
        a.params = value();
        break;
      case "--limit":
        a.limit = int("--limit");
        break;
      case "--task":
        a.tasks.push(
          ...value()
            .split(",")
            .map((t) => t.trim())
            .filter(Boolean),
        );
        break;
      case "--workers":
        a.workers = int("--workers");
        break;
      case "--backend":
        a.backend = value();
        break;
      case "--out":
        a.out = value();
        break;
      case "--all-methods":
        a.allMethods = true;
        break;
      case "--write-suite":
        a.writeSuite = true;
        break;
      case "--fresh":
        a.fresh = true;
        break;
      case "--state":
        a.state = value();
        break;
      case "--reuse-suite":
        a.reuseSuite = true;
        break;
      case "-h":
      case "--help":
        throw new UsageError("");
      default:
        throw new UsageError(`unknown option ${flag}`);
    }
  }
  if (!a.suite) throw new UsageError("--suite is required");
  if ([a.allMethods, Boolean(a.method), Boolean(a.methodModule)].filter(Boolean).length !== 1) {
    throw new UsageError("give one of --method NAME, --method-module FILE or --all-methods");
  }
  if (a.methodModule && !fs.existsSync(a.methodModule)) throw new UsageError(`--method-module: no file ${a.methodModule}`);
  if (a.writeSuite && !a.allMethods) throw new UsageError("--write-suite goes with --all-methods");
  if (a.writeSuite && (a.limit !== undefined || a.tasks.length > 0 || a.out)) {
    // The committed baseline is always the full split of every task; a partial run goes to --out.
    throw new UsageError("--write-suite evaluates the whole split of every task: drop --limit, --task and --out");
  }
  if (!a.writeSuite && !a.out) throw new UsageError("--out DIR is required (or --all-methods --write-suite)");
  if (a.allMethods && a.params) throw new UsageError("--params goes with --method");
  if (a.fresh && !a.allMethods) throw new UsageError("--fresh goes with --all-methods");
  if (a.state !== undefined && !a.allMethods) throw new UsageError("--state goes with --all-methods");
  if (a.reuseSuite && !a.allMethods) throw new UsageError("--reuse-suite goes with --all-methods");
  return a;
}

function formatSeconds(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return "--:--";
  const t = Math.round(s);
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}

/** A one-line bar redrawn in place on a terminal; a line per 25% otherwise (logs, CI). */
function progressPrinter(label: string) {
  const tty = process.stderr.isTTY;
  let lastQuarter = -1;
  return (p: TaskProgress) => {
    const width = 24;
    const filled = p.total === 0 ? width : Math.round((p.done / p.total) * width);
    const line = `${label} task ${p.taskNumber}/${p.taskCount} ${p.task} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${p.done}/${p.total} images, ETA ${formatSeconds(p.etaSeconds)}`;
    if (tty) {
      process.stderr.write(`\r${line}\x1b[K`);
      if (p.done === p.total) process.stderr.write("\n");
    } else {
      const quarter = p.total === 0 ? 4 : Math.floor((p.done / p.total) * 4);
      if (quarter !== lastQuarter) {
        lastQuarter = quarter;
        process.stderr.write(line + "\n");
      }
    }
  };
}

function methodsToRun(suite: SuiteConfig, args: Args): BaselineMethod[] {
  if (args.allMethods) {
    if (!suite.evaluation || suite.evaluation.methods.length === 0) {
      throw new UsageError(`suite ${suite.id} lists no baseline methods (suite.json "evaluation".methods)`);
    }
    return suite.evaluation.methods;
  }
  if (args.methodModule) return [{ folder: "", algorithm: "", params: parseParams(args) }];
  const algorithm = getAlgorithm(args.method!).name;
  const fromSuite = suite.evaluation?.methods.find((m) => m.algorithm === algorithm);
  return [{ folder: fromSuite?.folder ?? algorithm, algorithm, params: args.params ? parseParams(args) : (fromSuite?.params ?? {}) }];
}

function parseParams(args: Args): Record<string, unknown> {
  if (!args.params) return {};
  try {
    return JSON.parse(args.params) as Record<string, unknown>;
  } catch (err) {
    throw new UsageError(`--params is not valid JSON (${(err as Error).message})`);
  }
}

/**
 * maps.zip: per task `<task>.npy`, float32 N×H×W, the pixel maps the method module computed, so
 * the researcher can upload them and have the platform recompute (verify) the same numbers.
 */
async function writeMapsZip(suite: SuiteConfig, file: string, tasks: readonly string[], maps: Record<string, Float32Array>, images: number): Promise<void> {
  const zip = new ZipFile();
  for (const task of tasks) {
    const [h, w] = taskManifest(task, undefined, pinnedCheckpoint(suite, task)).inputShape;
    zip.addBuffer(Buffer.from(writeNpy(maps[task], [images, h, w])), `${task}.npy`);
  }
  zip.end();
  await new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(file);
    out.on("close", () => resolve());
    out.on("error", reject);
    zip.outputStream.on("error", reject).pipe(out);
  });
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.message) console.error(`evaluate: ${err.message}`);
      console.error(USAGE);
      return 2;
    }
    throw err;
  }
  const suite = readSuite(args.suite!);
  const methods = methodsToRun(suite, args);
  for (const t of args.tasks) if (!suite.tasks.includes(t)) throw new UsageError(`suite ${suite.id} has no task ${t} (tasks: ${suite.tasks.join(", ")})`);
  const tasks = args.tasks.length > 0 ? suite.tasks.filter((t) => args.tasks.includes(t)) : suite.tasks;
  const fullSplit = suite.evaluation?.images ?? 100;
  const images = Math.min(args.limit ?? fullSplit, fullSplit);
  const backend = args.backend ?? suite.evaluation?.backend ?? process.env.TENSOR_BACKEND ?? "auto";
  if (args.writeSuite && suite.evaluation && backend !== suite.evaluation.backend) {
    throw new UsageError(`suite ${suite.id} records its baseline on the ${suite.evaluation.backend} backend`);
  }

  const ctrl = new AbortController();
  process.once("SIGINT", () => ctrl.abort());
  process.once("SIGTERM", () => ctrl.abort());
  const pool = new EvaluationPool({ workers: args.workers, backend });
  const started = Date.now();
  // A whole-board regeneration resumes: each finished method × task is kept until every folder is written.
  const store = args.allMethods
    ? new ShardStore(args.state ? path.resolve(args.state) : path.join(args.writeSuite ? suite.dir : args.out!, ".regen-state"))
    : null;
  if (store && args.fresh) store.clear();
  if (store && store.count() > 0) console.error(`resuming: ${store.count()} finished method × task shard(s) in ${path.relative(process.cwd(), store.dir)}`);
  try {
    const moduleUrl = args.methodModule ? methodModuleUrl(args.methodModule) : undefined;
    for (const m of methods) {
      // Fail before any work: an unknown name, or a module without a usable export.
      const algorithm = moduleUrl ? (await loadMethodModule(moduleUrl)).name : getAlgorithm(m.algorithm).name;
      const run: MethodRun = { algorithm, params: m.params, tasks, images };
      if (moduleUrl) Object.assign(run, { methodModule: moduleUrl, keepMaps: true });
      // Unchanged tasks of the committed folder become shards first (shards.ts, committedShard),
      // read before anything is written over them.
      const fromSuite = new Set<string>();
      if (store && args.reuseSuite) {
        for (const task of tasks) {
          const spec = { suite, task, algorithm, params: m.params, images, backend };
          if (store.get(spec)) continue;
          const shard = committedShard(path.join(suite.dir, m.folder), spec);
          if (shard) {
            store.put(spec, shard);
            fromSuite.add(task);
          }
        }
      }
      const shards = store
        ? {
            store,
            backend,
            onReused: (task: string) =>
              console.error(
                `${algorithm} task ${task}: ${fromSuite.has(task) ? "unchanged since the committed files, reused" : "done in an earlier run, reused"}`,
              ),
          }
        : undefined;
      const outcome = await evaluateMethod(suite, run, pool, { signal: ctrl.signal, onProgress: progressPrinter(algorithm), shards });
      const dir = args.writeSuite ? path.join(suite.dir, m.folder) : args.allMethods ? path.join(args.out!, m.folder) : args.out!;
      const meta = args.allMethods ? { contributor: "Meta-Rank baseline", institute: "Meta-Rank platform", algorithm: m.algorithm } : undefined;
      for (const f of writeMethodFolder(dir, suite, run, outcome, { backend, meta })) console.log(path.relative(process.cwd(), f));
      if (outcome.maps) {
        const zipFile = path.join(dir, "maps.zip");
        await writeMapsZip(suite, zipFile, tasks, outcome.maps, images);
        console.log(path.relative(process.cwd(), zipFile));
        if (images < fullSplit || tasks.length < suite.tasks.length) {
          console.error(
            `note: maps.zip covers ${tasks.length} task(s) × ${images} images; an upload needs every task's full split (${suite.tasks.length} × ${fullSplit})`,
          );
        }
      }
      console.error(`${algorithm}: ${tasks.length} task(s) × ${images} images in ${outcome.seconds.toFixed(1)} s`);
    }
    // A named --state folder is the caller's, shared with other runs: it stays.
    if (!args.state) store?.clear();
    console.error(`total: ${methods.length} method(s) × ${tasks.length} task(s) × ${images} images in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    if (err instanceof EvaluationCancelled) {
      console.error(store ? "\nevaluate: cancelled; run the same command again to continue where it stopped" : "\nevaluate: cancelled");
      return 130;
    }
    throw err;
  } finally {
    await pool.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`evaluate: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
