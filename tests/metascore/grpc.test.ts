// Round trip through the real sidecar process: spawn it, call the three Metascore RPCs the
// way the web app will (its own proto loader, same options), check the answers.
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOADER_OPTIONS, metarankV1 } from "../../proto/contract.ts";
import { computeKappas } from "../../sidecar/metascore/kappa.ts";
import { resultCsv, seedSuite, validCsv } from "./csv.ts";
import { startTestSidecar, type TestSidecar } from "../support/sidecar.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tasks = seedSuite.tasks;

let sidecar: TestSidecar<typeof client> | undefined;
let client: grpc.Client & Record<string, Function>;

function call<Res>(method: string, request: unknown): Promise<Res> {
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + 10_000);
    client[method](request, { deadline }, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res)));
  });
}

function loadPackage(file: string): any {
  const def = protoLoader.loadSync(file, { ...LOADER_OPTIONS, includeDirs: [path.join(root, "proto")] });
  return grpc.loadPackageDefinition(def);
}

beforeAll(async () => {
  sidecar = await startTestSidecar<typeof client>(metarankV1("metarank/v1/metascore.proto").Metascore, { readyMs: 60_000 });
  client = sidecar.client;
  const Health = loadPackage("grpc/health/v1/health.proto").grpc.health.v1.Health;
  const health = new Health(sidecar.address, grpc.credentials.createInsecure());
  const status = await new Promise<{ status: string }>((resolve, reject) =>
    health.Check({ service: "metarank.v1.Metascore" }, (err: Error | null, res: { status: string }) => (err ? reject(err) : resolve(res))),
  );
  health.close();
  expect(status.status).toBe("SERVING");
});

afterAll(() => sidecar?.stop());

interface TaskScore {
  task: string;
  morf: number;
  lerf: number;
}
interface RankedMethod {
  id: string;
  metascore: number;
  rank: number;
  morfMetascore: number;
  morfRank: number;
  lerfMetascore: number;
  lerfRank: number;
  metascoreText: string;
}

function file(name: string, content: string) {
  return { name, content: Buffer.from(content) };
}

/** Scores where every task has the same MoRF and LeRF area. */
function flatScores(morf: number, lerf: number): TaskScore[] {
  return tasks.map((task) => ({ task, morf, lerf }));
}

describe("metarank.v1.Metascore over gRPC", () => {
  it("ValidateResultFiles returns case scores in suite order for valid files", async () => {
    const res = await call<{ valid: boolean; errors: string[]; scores: TaskScore[]; omittedErrors: number }>("ValidateResultFiles", {
      tasks,
      grid: seedSuite.grid,
      morf: file("morf.csv", validCsv(tasks)),
      lerf: file(
        "lerf.csv",
        validCsv(
          tasks,
          tasks.map(() => 0.5),
        ),
      ),
    });
    expect(res.valid).toBe(true);
    expect(res.errors).toEqual([]);
    expect(res.omittedErrors).toBe(0);
    expect(res.scores.map((s) => s.task)).toEqual(tasks);
    expect(res.scores[0].morf).toBeCloseTo(0.5, 12);
    expect(res.scores[0].lerf).toBeCloseTo(0.75, 12);
  });

  it("ValidateResultFiles returns every problem, formatted and structured", async () => {
    const res = await call<{
      valid: boolean;
      errors: string[];
      problems: { file: string; line: number; column: number; message: string; code: string; args: Record<string, string> }[];
      scores: TaskScore[];
    }>("ValidateResultFiles", {
      tasks,
      grid: seedSuite.grid,
      morf: file("my-morf.csv", validCsv(tasks).replace(`${tasks[0]},1,0.9,`, `${tasks[0]},1,abc,`)),
      lerf: file("lerf.csv", resultCsv(tasks.slice(0, 10).map((t) => [t, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]))),
    });
    expect(res.valid).toBe(false);
    expect(res.scores).toEqual([]);
    expect(res.errors).toEqual(['my-morf.csv:2:3 "abc" is not a number', "lerf.csv: task places365_resnet50 is missing"]);
    // With the code and values a client needs to say it in its own language.
    expect(res.problems[0]).toEqual({ file: "my-morf.csv", line: 2, column: 3, message: '"abc" is not a number', code: "notNumber", args: { cell: '"abc"' } });
    expect(res.problems[1]).toEqual({
      file: "lerf.csv",
      line: 0,
      column: 0,
      message: "task places365_resnet50 is missing",
      code: "taskMissing",
      args: { task: "places365_resnet50" },
    });
  });

  it("RankBoard ranks methods best first with per-protocol κ", async () => {
    const methods = [
      { id: "7", scores: flatScores(0.4, 0.6) },
      { id: "3", scores: flatScores(0.2, 0.8) },
      { id: "9", scores: flatScores(0.4, 0.6) },
    ];
    const res = await call<{ rows: RankedMethod[] }>("RankBoard", { methods });
    expect(res.rows.map((r) => [r.id, r.rank])).toEqual([
      ["3", 1],
      ["7", 2],
      ["9", 2],
    ]);
    // "3" wins all 22 cases against both: κ = (2/3)·ln(22.5/0.5).
    expect(res.rows[0].metascore).toBeCloseTo((2 / 3) * Math.log(45), 12);
    expect(res.rows[0].metascoreText).toBe(((2 / 3) * Math.log(45)).toFixed(4));
    expect(res.rows[0].morfMetascore).toBeCloseTo((2 / 3) * Math.log(23), 12);
    expect(res.rows[0].lerfMetascore).toBeCloseTo((2 / 3) * Math.log(23), 12);
    expect(res.rows.map((r) => [r.morfRank, r.lerfRank])).toEqual([
      [1, 1],
      [2, 2],
      [2, 2],
    ]);
  });

  it("InsertCandidate returns the original board as stored and the current one by fusion", async () => {
    const methods = [
      { id: "a", scores: flatScores(0.3, 0.6) },
      { id: "b", scores: flatScores(0.5, 0.7) },
    ];
    const candidate = { id: "candidate", scores: flatScores(0.2, 0.65) };
    const asScores = (s: TaskScore[]) => ({
      morf: Object.fromEntries(s.map((t) => [t.task, t.morf])),
      lerf: Object.fromEntries(s.map((t) => [t.task, t.lerf])),
    });
    const stored = computeKappas(methods.map((m) => ({ id: m.id, scores: asScores(m.scores) })));
    const full = computeKappas([...methods, candidate].map((m) => ({ id: m.id, scores: asScores(m.scores) })));
    const board = methods.map((m, i) => ({
      ...m,
      metascore: stored[i].overall,
      morfMetascore: stored[i].morf,
      lerfMetascore: stored[i].lerf,
    }));
    const res = await call<{ original: RankedMethod[]; current: RankedMethod[] }>("InsertCandidate", { board, candidate });
    expect(res.original.map((r) => [r.id, r.rank, r.metascore])).toEqual([
      ["a", 1, 0],
      ["b", 1, 0],
    ]);
    // The candidate beats "a" on every case and splits evenly with "b"; "a" and "b" split evenly.
    expect(res.current.map((r) => [r.id, r.rank])).toEqual([
      ["candidate", 1],
      ["b", 2],
      ["a", 3],
    ]);
    const ids = ["a", "b", "candidate"];
    for (const row of res.current) {
      const k = full[ids.indexOf(row.id)];
      expect(row.metascore).toBeCloseTo(k.overall, 9);
      expect(row.morfMetascore).toBeCloseTo(k.morf, 9);
      expect(row.lerfMetascore).toBeCloseTo(k.lerf, 9);
    }
  });

  it("answers INVALID_ARGUMENT with an actionable message for unusable input", async () => {
    const attempts: [string, unknown, RegExp][] = [
      ["ValidateResultFiles", { tasks: [], morf: file("m.csv", ""), lerf: file("l.csv", "") }, /"tasks" must be a non-empty list/],
      [
        "RankBoard",
        {
          methods: [
            { id: "a", scores: flatScores(0.2, 0.3) },
            { id: "b", scores: flatScores(0.2, 0.3).slice(1) },
          ],
        },
        /"b" has no morf score for task "nwpuresisc45_resnet18"/,
      ],
      ["RankBoard", { methods: [{ id: "a", scores: flatScores(1.5, 0.3) }] }, /morf score of task .* must be in \[0, 1\], got 1.5/],
      [
        "InsertCandidate",
        { board: [{ id: "a", metascore: 0, scores: flatScores(0.2, 0.3) }], candidate: { id: "a", scores: flatScores(0.1, 0.3) } },
        /"a" appears twice/,
      ],
      ["InsertCandidate", { board: [] }, /candidate is missing/],
    ];
    for (const [method, request, message] of attempts) {
      const err = await call(method, request).then(
        () => null,
        (e: grpc.ServiceError) => e,
      );
      expect(err, method).not.toBeNull();
      expect(err!.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(err!.details).toMatch(message);
      expect(err!.details.startsWith(`${method}: `)).toBe(true);
    }
  });
});
