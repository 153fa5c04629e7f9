// npm run -s regenerate -- --suite ID [--limit N] [--task T]... (--out DIR | --write-suite) [--sidecars HOST:PORT,...]
//
// Regenerates a suite's baseline board spread over sidecars through the job queue
// (docs/evaluation.md "5. Running it", app/.server/regeneration.server.ts): one job per task ×
// method of the suite's "evaluation" block, each run on the least busy sidecar, the results
// gathered here into the method folders `npm run -s evaluate -- --all-methods` would write on one
// machine. With REDIS_URL the jobs are bull jobs, so a run survives a lost worker and other app
// processes can take jobs too. Sidecars: --sidecars, else the online sidecars of the server
// registry (DATABASE_URL), else SIDECARS; their call keys come from the registry or
// SIDECAR_CALL_KEY.
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createJobQueue } from "../app/.server/queue.server.ts";
import { regenerateBoard, registerShardHandler, type BoardMethodSpec } from "../app/.server/regeneration.server.ts";
import type { SidecarTarget } from "../app/.server/sidecar.server.ts";

const USAGE = "usage: npm run -s regenerate -- --suite ID [--limit N] [--task T]... (--out DIR | --write-suite) [--sidecars HOST:PORT,...]";

interface SuiteJson {
  id: string;
  tasks: string[];
  evaluation?: { images?: number; methods?: { folder: string; algorithm: string; params?: Record<string, unknown> }[] };
}

function parse(argv: string[]) {
  const a: { suite?: string; limit?: number; tasks: string[]; out?: string; writeSuite: boolean; sidecars?: string[] } = { tasks: [], writeSuite: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === "--suite") a.suite = value();
    else if (flag === "--limit") {
      a.limit = Number(value());
      if (!Number.isInteger(a.limit) || a.limit < 1) throw new Error("--limit must be a whole number ≥ 1");
    } else if (flag === "--task") a.tasks.push(...value().split(",").filter(Boolean));
    else if (flag === "--out") a.out = value();
    else if (flag === "--write-suite") a.writeSuite = true;
    else if (flag === "--sidecars") a.sidecars = value().split(",").filter(Boolean);
    else throw new Error(`unknown option ${flag}`);
  }
  if (!a.suite) throw new Error("--suite is required");
  if (a.writeSuite === Boolean(a.out)) throw new Error("give one of --out DIR or --write-suite");
  if (a.writeSuite && (a.limit || a.tasks.length)) throw new Error("--write-suite evaluates the whole split of every task: drop --limit and --task");
  return a;
}

async function registeredSidecars(): Promise<SidecarTarget[]> {
  try {
    const { onlineSidecars } = await import("../app/.server/servers.server.ts");
    return (await onlineSidecars()).map((s) => ({ address: s.grpcAddress, callKey: s.callKey }));
  } catch {
    return [];
  }
}

async function main(): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(process.argv.slice(2));
  } catch (err) {
    console.error(`regenerate: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const suiteDir = path.resolve("seeds/suites", args.suite!);
  const suite = JSON.parse(fs.readFileSync(path.join(suiteDir, "suite.json"), "utf8")) as SuiteJson;
  const methods: BoardMethodSpec[] = (suite.evaluation?.methods ?? []).map((m) => ({ folder: m.folder, algorithm: m.algorithm, params: m.params ?? {} }));
  if (methods.length === 0) throw new Error(`suite ${suite.id} lists no baseline methods`);
  for (const t of args.tasks) if (!suite.tasks.includes(t)) throw new Error(`suite ${suite.id} has no task ${t}`);
  const tasks = args.tasks.length ? suite.tasks.filter((t) => args.tasks.includes(t)) : suite.tasks;
  const images = Math.min(args.limit ?? suite.evaluation?.images ?? 100, suite.evaluation?.images ?? 100);

  const key = process.env.SIDECAR_CALL_KEY || null;
  const fromList = (list: string[]) => list.map((address) => ({ address, callKey: key }));
  const online = async () => {
    const registered = await registeredSidecars();
    return registered.length ? registered : fromList((process.env.SIDECARS ?? "").split(",").filter(Boolean));
  };
  const fixed = args.sidecars?.length ? fromList(args.sidecars) : null;
  const targets = fixed ?? (await online());
  if (targets.length === 0) {
    console.error("regenerate: no sidecar online (start one, or name them with --sidecars HOST:PORT,...)");
    return 1;
  }
  const queue = createJobQueue({ redisUrl: process.env.REDIS_URL || null, prefix: process.env.QUEUE_PREFIX || "metarank", attempts: 3, backoffMs: 2000 });
  // Without --sidecars the registry is asked again before each shard, so a sidecar that restarts
  // or comes online meanwhile is used; a shard that finds none online, or all busy, waits for one
  // without spending an attempt (app/.server/regeneration.server.ts).
  registerShardHandler(queue, fixed ?? online, { concurrency: targets.length });
  const started = performance.now();
  console.error(
    `regenerating ${suite.id}: ${methods.length} methods × ${tasks.length} tasks × ${images} images over ${targets.length} sidecar(s) (${queue.backend} queue)`,
  );
  try {
    const tty = process.stderr.isTTY;
    const result = await regenerateBoard(
      queue,
      { suite: suite.id, tasks, images, methods, outDir: args.writeSuite ? suiteDir : path.resolve(args.out!), user: { id: 0, username: "regenerate" } },
      (p) => {
        const width = 30;
        const bar = "#".repeat(Math.round((p.done / p.total) * width)).padEnd(width, "-");
        const line = `[${bar}] ${p.done}/${p.total} shards`;
        process.stderr.write(tty ? `\r${line}\x1b[K${p.done === p.total ? "\n" : ""}` : `${line}\n`);
      },
    );
    for (const [address, n] of Object.entries(result.bySidecar)) console.error(`  ${address}: ${n} shard(s)`);
    console.error(`total: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } finally {
    await queue.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`regenerate: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
