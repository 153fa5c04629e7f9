// Result-file problems in both languages (app/lib/fileProblems.ts): every problem the metascore
// service can find is shown in English exactly as the service and the command-line tool write it,
// and in Chinese with the same place and values (a new-user walk found the Chinese submission
// page listing these in English).
import { describe, expect, it } from "vitest";
import { bilingual } from "~/.server/api/errors.server.ts";
import { problemMessage } from "~/lib/fileProblems.ts";
import { messageRef } from "~/lib/forms/messages.ts";
import { PROBLEM_CODES, formatProblem, oversizeProblem, parseResultFile, type FileProblem } from "../../sidecar/metascore/resultFile.ts";

const tasks = ["a", "b"];
const grid = [0, 0.5, 1];
const parse = (text: string | Buffer) => {
  const out = parseResultFile(text, { fileName: "morf.csv", tasks, grid });
  return out.ok ? [] : out.problems;
};
/** Bad files that between them have every problem there is. */
const BAD = [
  Buffer.from([0x74, 0xff, 0xfe]),
  "",
  "a,0.1,0.2,0.3\nb,0.1,0.2,0.3",
  "name,0,0.5,1\na,1,0.5,0.1\nb,1,0.5,0.1",
  "task,0\na,1\nb,1",
  "task,0,,1\na,1,0.5,0.1",
  "task,0,x,1\na,1,0.5,0.1",
  "task,0,1.5,1\na,1,0.5,0.1",
  "task,0,0.5,0.5,1\na,1,0.5,0.5,0.1",
  "task,0.1,0.5,1\na,1,0.5,0.1",
  "task,0,0.5,0.9\na,1,0.5,0.1",
  "task,0,0.25,0.5,1\na,1,0.5,0.3,0.1\nb,1,0.5,0.3,0.1",
  "task,0,0.5,1\n,1,0.5,0.1\nzzz,1,0.5,0.1\na,1,0.5,0.1\na,1,0.5,0.1\nb,1,0.5\nb,1,,0.1",
  "task,0,0.5,1\na,1,abc,0.1\nb,1,1.2,0.1",
];

const toWire = (p: FileProblem) => ({ file: p.file, line: p.line ?? 0, column: p.column ?? 0, message: p.message, code: p.code ?? "", args: p.args ?? {} });

describe("result-file problems in both languages", () => {
  const problems = [...BAD.flatMap(parse), oversizeProblem("morf.csv", 600_000)];

  it("the bad files between them have every problem the service can report", () => {
    expect(new Set(problems.map((p) => p.code))).toEqual(new Set(PROBLEM_CODES));
  });

  it("in English each reads exactly as the service and the CLI write it; in Chinese, with the same place and values", () => {
    for (const p of problems) {
      const { en, zh } = bilingual(problemMessage(toWire(p)));
      expect(en).toBe(formatProblem(p));
      expect(zh, p.code).not.toBe(en);
      expect(zh).not.toMatch(/\{\{|submission:/);
      expect(zh.startsWith(p.line ? `morf.csv:${p.line}:${p.column}` : "morf.csv:")).toBe(true);
      for (const value of Object.values(p.args ?? {})) expect(zh, `${p.code} names ${value}`).toContain(value);
    }
  });

  it("a problem without a code keeps the service's English sentence, and the count of the rest is translated", () => {
    expect(bilingual(problemMessage({ file: "x.csv", line: 0, column: 0, message: "not a regular file", code: "", args: {} }))).toEqual({
      en: "x.csv: not a regular file",
      zh: "x.csv: not a regular file",
    });
    expect(bilingual(messageRef("submission:fileProblem.more", { count: 3 }))).toEqual({
      en: "… and 3 more problem(s) not listed",
      zh: "……另有 3 个问题未列出",
    });
  });
});
