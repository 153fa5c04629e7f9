// The metascore CLI, spawned as a researcher would run it, on temporary board folders.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rankBoard } from "../../sidecar/metascore/kappa.ts";
import { fileCaseScores, parseResultFile } from "../../sidecar/metascore/resultFile.ts";
import { resultCsv, seedSuite, validCsv } from "./csv.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const cli = path.join(root, "sidecar/metascore/cli.ts");
const tasks = seedSuite.tasks;
let work: string;

function runCli(args: string[], cwd = work) {
  const result = spawnSync(tsx, [cli, ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A board folder under the temp dir: suite.json plus method folders of {file: content}. */
function board(name: string, methods: Record<string, Record<string, string>>, suite: object = seedSuite): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "suite.json"), JSON.stringify(suite));
  for (const [method, files] of Object.entries(methods)) {
    fs.mkdirSync(path.join(dir, method));
    for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, method, file), content);
  }
  return name;
}

// Three methods whose curves end at different accuracies: "good" falls least under LeRF and
// most under MoRF, so it beats the others on every case.
const methods = {
  good: {
    "morf.csv": validCsv(
      tasks,
      tasks.map(() => 0),
    ),
    "lerf.csv": validCsv(
      tasks,
      tasks.map(() => 0.9),
    ),
  },
  fair: {
    "morf.csv": validCsv(
      tasks,
      tasks.map(() => 0.3),
    ),
    "lerf.csv": validCsv(
      tasks,
      tasks.map(() => 0.6),
    ),
  },
  poor: {
    "morf.csv": validCsv(
      tasks,
      tasks.map(() => 0.6),
    ),
    "lerf.csv": validCsv(
      tasks,
      tasks.map(() => 0.2),
    ),
  },
};

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "metascore-cli-"));
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe("metascore rank DIR", () => {
  it("prints the ranked board as JSON, best first, and exits 0", () => {
    const dir = board("valid", methods);
    const { code, stdout, stderr } = runCli(["rank", dir]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as { method: string; metascore: number; rank: number; morf: number; lerf: number }[];
    expect(rows.map((r) => [r.method, r.rank])).toEqual([
      ["good", 1],
      ["fair", 2],
      ["poor", 3],
    ]);
    expect(Object.keys(rows[0]).sort()).toEqual(["lerf", "metascore", "method", "morf", "rank"]);
    // Same numbers as the library on the same files; κ with all 22 cases won: (2/3)·ln(22.5/0.5).
    const expected = rankBoard(
      Object.entries(methods).map(([id, files]) => {
        const score = (content: string) => {
          const outcome = parseResultFile(content, { fileName: "x", tasks });
          if (!outcome.ok) throw new Error("fixture is invalid");
          return fileCaseScores(outcome.file);
        };
        return { id, scores: { morf: score(files["morf.csv"]), lerf: score(files["lerf.csv"]) } };
      }),
    );
    rows.forEach((row, i) => {
      expect(row.method).toBe(expected[i].id);
      expect(row.metascore).toBeCloseTo(expected[i].metascore, 12);
      expect(row.morf).toBeCloseTo(expected[i].morf, 12);
      expect(row.lerf).toBeCloseTo(expected[i].lerf, 12);
    });
    expect(rows[0].metascore).toBeCloseTo((2 / 3) * Math.log(45), 12);
    expect(rows[0].morf).toBeCloseTo((2 / 3) * Math.log(11.5 / 0.5), 12);
    expect(rows[0].lerf).toBeCloseTo((2 / 3) * Math.log(11.5 / 0.5), 12);
  });

  it("prints every problem of every file as PATH:LINE:COLUMN on stderr and exits 2", () => {
    const dir = board("invalid", {
      ...methods,
      fair: {
        "morf.csv": validCsv(tasks).replace("imagenet_vgg19", "imagenet_vgg16"),
        "lerf.csv": resultCsv([[tasks[0], [1, 0.9, "abc", 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0]]]),
      },
      poor: { "morf.csv": methods.poor["morf.csv"] },
    });
    const { code, stdout, stderr } = runCli(["rank", dir]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    const lines = stderr.trimEnd().split("\n");
    expect(lines[0]).toBe('invalid/fair/morf.csv:10:1 unknown task "imagenet_vgg16"');
    expect(lines[1]).toBe("invalid/fair/morf.csv: task imagenet_vgg19 is missing");
    expect(lines[2]).toBe('invalid/fair/lerf.csv:2:4 "abc" is not a number');
    expect(lines).toContain("invalid/fair/lerf.csv: task food_resnet18 is missing");
    expect(lines[lines.length - 1]).toBe("invalid/poor/lerf.csv: file not found; each method folder needs morf.csv and lerf.csv");
    expect(lines).toHaveLength(2 + 1 + 10 + 1);
  });

  it("checks files against the suite's grid and rejects files over 500 KB", () => {
    const grid = [0, 0.5, 1];
    const dir = board("grid", {
      coarse: {
        "morf.csv": resultCsv(
          tasks.map((t) => [t, [1, 0.5, 0]]),
          grid,
        ),
        "lerf.csv": validCsv(tasks) + "\n".repeat(600_000),
      },
    });
    const { code, stderr } = runCli(["rank", dir]);
    expect(code).toBe(2);
    expect(stderr).toContain("grid/coarse/morf.csv:1:3 removal fractions 0, 0.5, 1 (3 points) do not match the suite's grid");
    expect(stderr).toMatch(/grid\/coarse\/lerf\.csv: the file is [\d,]+ bytes; result files may be at most 512,000 bytes/);
  });

  it("reports a bad suite.json", () => {
    const dir = board("badsuite", methods, { tasks: ["a", "a"] });
    const { code, stderr } = runCli(["rank", dir]);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('badsuite/suite.json: task "a" is listed twice');
  });

  it("prints an empty board for a suite without methods (the shipped seed suite)", () => {
    const { code, stdout, stderr } = runCli(["rank", "seeds/suites/metarank-seed"], root);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([]);
    expect(stderr).toMatch(/no method folders yet/);
  });

  it("exits 2 with usage on bad arguments or a missing directory", () => {
    for (const args of [[], ["rank"], ["score", "x"], ["rank", "no-such-dir"]]) {
      const { code, stderr } = runCli(args);
      expect(code).toBe(2);
      expect(stderr).toContain("usage: npm run -s metascore -- rank DIR");
    }
  });

  it("is wired as `npm run -s metascore -- rank DIR`", () => {
    const dir = path.join(work, board("npm", { only: methods.good }));
    const result = spawnSync("npm", ["run", "-s", "metascore", "--", "rank", dir], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ method: "only", metascore: 0, rank: 1, morf: 0, lerf: 0 }]);
  });
});
