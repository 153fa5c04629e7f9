// Result-file parsing (docs/metascore.md "Result files") against the metarank-seed suite, malformed files
// included.
import { describe, expect, it } from "vitest";
import { scoreMethodFiles } from "../../sidecar/metascore/methodFiles.ts";
import { MAX_PROBLEMS, MAX_RESULT_FILE_BYTES, fileCaseScores, formatProblem, parseResultFile } from "../../sidecar/metascore/resultFile.ts";
import type { ResultFileOutcome } from "../../sidecar/metascore/resultFile.ts";
import { GRID, linearCurve, resultCsv, seedSuite, validCsv } from "./csv.ts";

const tasks = seedSuite.tasks;
const suite = { tasks, grid: seedSuite.grid };

// `null`: the suite gives no grid (an explicit undefined would pick up the default).
function parse(content: Buffer | string, fileName = "morf.csv", grid: number[] | null = seedSuite.grid) {
  return parseResultFile(content, { fileName, tasks, grid: grid ?? undefined });
}

function errors(outcome: ResultFileOutcome): string[] {
  if (outcome.ok) throw new Error("expected the file to be rejected");
  return outcome.problems.map(formatProblem);
}

function rowsWith(change: (rows: [string, (number | string)[]][]) => void): string {
  const rows: [string, (number | string)[]][] = tasks.map((t) => [t, linearCurve(1, 0).map((v) => Number(v.toFixed(6)))]);
  change(rows);
  return resultCsv(rows);
}

describe("valid result files", () => {
  it("parses the seed suite's 11 tasks and scores each by the trapezoid rule", () => {
    const outcome = parse(validCsv(tasks, [0, 0.5]));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.file.grid).toEqual(GRID);
    const scores = fileCaseScores(outcome.file);
    expect(Object.keys(scores)).toHaveLength(11);
    expect(scores.nwpuresisc45_resnet18).toBeCloseTo(0.5, 12); // 1 → 0 linearly
    expect(scores.nwpuresisc45_inceptionv4).toBeCloseTo(0.75, 12); // 1 → 0.5 linearly
  });

  it("tolerates a UTF-8 BOM, CRLF line ends, blank lines and rows in any order", () => {
    const plain = parse(validCsv(tasks, [0.2]));
    const lines = validCsv(tasks, [0.2]).trimEnd().split("\n");
    const messy = ["", lines[0], "", ...lines.slice(1).reverse(), "   ", ""].join("\r\n");
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(messy, "utf8")]);
    for (const input of [withBom, `\uFEFF${messy}`]) {
      const outcome = parse(input);
      expect(outcome.ok).toBe(true);
      if (outcome.ok && plain.ok) expect(fileCaseScores(outcome.file)).toEqual(fileCaseScores(plain.file));
    }
  });

  it("accepts spaces around cells, quoted cells and exponent notation", () => {
    const text = rowsWith((rows) => {
      rows[0] = [` "${tasks[0]}" `, [" 1", "9e-1", "8E-1", "0.7", "0.6", "0.5", "0.4", "0.3", "0.2", "0.1", "1e-05"]];
    });
    expect(parse(text).ok).toBe(true);
  });

  it("accepts any valid grid when the suite gives none", () => {
    const text = resultCsv(
      tasks.map((t) => [t, [1, 0.6, 0]]),
      [0, 0.25, 1],
    );
    const outcome = parse(text, "morf.csv", null);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(fileCaseScores(outcome.file)[tasks[0]]).toBeCloseTo((0.25 * 1.6 + 0.75 * 0.6) / 2, 12);
  });
});

describe("malformed result files", () => {
  it("reports a non-numeric value at its line and column", () => {
    // Header is line 1, so the third task's row is line 4; its second value is column 3.
    const text = rowsWith((rows) => (rows[2][1][1] = "abc"));
    expect(errors(parse(text))).toEqual(['morf.csv:4:3 "abc" is not a number']);
  });

  it("rejects NaN, Infinity, hex and empty values", () => {
    const text = rowsWith((rows) => {
      rows[0][1][1] = "NaN";
      rows[0][1][2] = "Infinity";
      rows[0][1][3] = "0x1";
      rows[0][1][4] = "";
    });
    expect(errors(parse(text))).toEqual([
      'morf.csv:2:3 "NaN" is not a number',
      'morf.csv:2:4 "Infinity" is not a number',
      'morf.csv:2:5 "0x1" is not a number',
      "morf.csv:2:6 missing accuracy",
    ]);
  });

  it("reports accuracies outside [0, 1]", () => {
    const text = rowsWith((rows) => {
      rows[1][1][0] = 1.2;
      rows[1][1][10] = -0.1;
    });
    expect(errors(parse(text))).toEqual(["morf.csv:3:2 accuracy 1.2 is outside [0, 1]", "morf.csv:3:12 accuracy -0.1 is outside [0, 1]"]);
  });

  it("reports unknown, duplicate and missing tasks", () => {
    const text = rowsWith((rows) => {
      rows[5][0] = "imagenet_vgg16"; // line 7; replaces food_vgg19, which is now missing
      rows[8][0] = tasks[0]; // line 10; replaces imagenet_vgg19
    });
    expect(errors(parse(text, "lerf.csv"))).toEqual([
      'lerf.csv:7:1 unknown task "imagenet_vgg16"',
      'lerf.csv:10:1 task "nwpuresisc45_resnet18" appears again (first on line 2)',
      "lerf.csv: task food_vgg19 is missing",
      "lerf.csv: task imagenet_vgg19 is missing",
    ]);
  });

  it("reports rows with too few or too many values", () => {
    const text = rowsWith((rows) => {
      rows[0][1] = rows[0][1].slice(0, 9);
      rows[1][1] = [...rows[1][1], 0];
    });
    expect(errors(parse(text))).toEqual([
      "morf.csv:2:11 expected 11 accuracies (one per removal fraction of the header), found 9",
      "morf.csv:3:13 expected 11 accuracies (one per removal fraction of the header), found 12",
    ]);
  });

  it("reports a bad header: first cell, non-numeric, out of range, not increasing", () => {
    const rows = tasks.map((t): [string, number[]] => [t, [1, 0.5, 0.4, 0]]);
    const firstCell = resultCsv(rows, [0, 0.5, 0.6, 1]).replace(/^task/, "name");
    expect(errors(parse(firstCell, "morf.csv", null))).toEqual(['morf.csv:1:1 the header\'s first cell must be "task", found "name"']);
    expect(errors(parse(resultCsv(rows, [0, "half", 1.5, 1]), "morf.csv", null))).toEqual([
      'morf.csv:1:3 removal fraction "half" is not a number',
      "morf.csv:1:4 removal fraction 1.5 is outside [0, 1]",
    ]);
    expect(errors(parse(resultCsv(rows, [0, 0.6, 0.6, 1]), "morf.csv", null))).toEqual([
      "morf.csv:1:4 removal fraction 0.6 is not greater than the one before it (0.6); fractions must increase",
    ]);
  });

  it("explains a file saved without its header, and still checks its first row", () => {
    const text = rowsWith((rows) => (rows[0][1][1] = "abc"))
      .split("\n")
      .slice(1)
      .join("\n");
    expect(errors(parse(text))).toEqual([
      'morf.csv:1:1 the file has no header; its first line must be the removal fractions, e.g. "task,0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1"',
      'morf.csv:1:3 "abc" is not a number',
    ]);
  });

  it("requires the grid to start at 0, end at 1 and have two points", () => {
    const rows3 = tasks.map((t): [string, number[]] => [t, [1, 0.5, 0]]);
    expect(errors(parse(resultCsv(rows3, [0.1, 0.5, 0.9]), "morf.csv", null))).toEqual([
      "morf.csv:1:2 the first removal fraction must be 0, found 0.1",
      "morf.csv:1:4 the last removal fraction must be 1, found 0.9",
    ]);
    const rows1 = tasks.map((t): [string, number[]] => [t, [1]]);
    expect(errors(parse(resultCsv(rows1, [0]), "morf.csv", null))[0]).toBe(
      'morf.csv:1:3 the header needs at least two removal fractions after "task" (the first 0, the last 1), found 1',
    );
  });

  it("reports a grid that differs from the suite's removal grid", () => {
    const grid = [0, 0.2, 0.4, 0.6, 0.8, 1];
    const text = resultCsv(
      tasks.map((t) => [t, linearCurve(1, 0, grid.length)]),
      grid,
    );
    expect(errors(parse(text))).toEqual([
      "morf.csv:1:3 removal fractions 0, 0.2, 0.4, 0.6, 0.8, 1 (6 points) do not match the suite's grid 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1 (11 points)",
    ]);
  });

  it("rejects a file over 512,000 bytes before parsing it, and accepts one of exactly 512,000", () => {
    const body = validCsv(tasks);
    const exact = body + "\n".repeat(MAX_RESULT_FILE_BYTES - Buffer.byteLength(body));
    expect(Buffer.byteLength(exact)).toBe(MAX_RESULT_FILE_BYTES);
    expect(parse(exact).ok).toBe(true);
    // One byte more, and garbage after it: only the size is reported, the content is never read.
    const over = Buffer.from(`${exact}x`);
    expect(errors(parse(over))).toEqual(["morf.csv: the file is 512,001 bytes; result files may be at most 512,000 bytes (500 KB)"]);
  });

  it("reports at most 20 problems and counts the rest", () => {
    const text = rowsWith((rows) => rows.forEach((row) => (row[1] = row[1].map(() => "x"))));
    const outcome = parse(text);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.problems).toHaveLength(MAX_PROBLEMS);
    expect(outcome.omitted).toBe(11 * 11 - MAX_PROBLEMS);
    expect(formatProblem(outcome.problems[19])).toBe('morf.csv:3:10 "x" is not a number');
  });

  it("reports an empty file and a file that is not UTF-8", () => {
    expect(errors(parse("\r\n\n"))).toEqual(['morf.csv: the file is empty; expected a header "task,0,…,1" and one row per task']);
    expect(errors(parse(Buffer.from([0x74, 0x61, 0xff, 0xfe, 0x0a])))).toEqual(["morf.csv: the file is not UTF-8 text; save it as UTF-8 CSV"]);
  });

  it("reports every problem of a file in one pass, in line order", () => {
    const text = rowsWith((rows) => {
      rows[0][1][0] = "?";
      rows[3][0] = "nope";
      rows[6][1][10] = 2;
    });
    expect(errors(parse(text))).toEqual([
      'morf.csv:2:2 "?" is not a number',
      'morf.csv:5:1 unknown task "nope"',
      "morf.csv:8:12 accuracy 2 is outside [0, 1]",
      "morf.csv: task food_resnet18 is missing",
    ]);
  });
});

describe("scoreMethodFiles", () => {
  it("scores both files of a valid method", () => {
    const outcome = scoreMethodFiles(
      suite,
      { name: "morf.csv", content: validCsv(tasks) },
      {
        name: "lerf.csv",
        content: validCsv(
          tasks,
          tasks.map(() => 0.5),
        ),
      },
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.scores.morf[tasks[3]]).toBeCloseTo(0.5, 12);
    expect(outcome.scores.lerf[tasks[3]]).toBeCloseTo(0.75, 12);
  });

  it("reports the problems of both files, MoRF first, and stores nothing", () => {
    const bad = rowsWith((rows) => (rows[0][1][0] = "abc"));
    const outcome = scoreMethodFiles(
      suite,
      { name: "morf.csv", content: validCsv(tasks).replace("food_vgg19", "food_vgg16") },
      {
        name: "lerf.csv",
        content: bad,
      },
    );
    expect(outcome).toEqual({
      ok: false,
      omitted: 0,
      problems: [
        // Each with its code and values, for the web app to say it in the visitor's language.
        { file: "morf.csv", line: 7, column: 1, message: 'unknown task "food_vgg16"', code: "unknownTask", args: { task: '"food_vgg16"' } },
        { file: "morf.csv", message: "task food_vgg19 is missing", code: "taskMissing", args: { task: "food_vgg19" } },
        { file: "lerf.csv", line: 2, column: 2, message: '"abc" is not a number', code: "notNumber", args: { cell: '"abc"' } },
      ],
    });
  });
});
