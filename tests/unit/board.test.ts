// Pure helpers of the board and submission server modules, and the suite-folder reader.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  chooseSuite,
  formatMetascore,
  pageHolding,
  paginate,
  rankByKappa,
  rankingSortParams,
  sortRanking,
  type RankRow,
  type SuiteSummary,
} from "~/.server/board.server.ts";
import { checkCsvFile, checkPythonFile, cleanFileName, storedPath, uploadLimitMessage } from "~/.server/submissionFiles.server.ts";
import { historySortParams } from "~/.server/submissionReview.server.ts";
import { MSG } from "~/lib/rules/submission.ts";
import { SuiteImportError, readSuiteFolder } from "../../seeds/importSuite.ts";
import { BASELINES, lerfCsv, suiteFolder } from "../integration/metarankFixtures.ts";

const file = (originalName: string, size = 10, mimeType = "text/csv") => ({ field: "morf", originalName, mimeType, size, buffer: Buffer.alloc(size) });

describe("rankByKappa", () => {
  it("ranks best first, equal κ share a rank and the next skips (1, 2, 2, 4)", () => {
    const ranked = rankByKappa([{ metascore: 0.1 }, { metascore: 0.5 }, { metascore: 0.1 + 1e-12 }, { metascore: -0.7 }]);
    expect(ranked.map((r) => [r.metascore, r.rank])).toEqual([
      [0.5, 1],
      [0.1 + 1e-12, 2],
      [0.1, 2],
      [-0.7, 4],
    ]);
  });
  it("an empty board ranks nothing", () => expect(rankByKappa([])).toEqual([]));
});

describe("formatMetascore", () => {
  it("4 decimals, never -0.0000", () => {
    expect(formatMetascore(1.234567)).toBe("1.2346");
    expect(formatMetascore(-0.00001)).toBe("0.0000");
    expect(formatMetascore(-0.5)).toBe("-0.5000");
  });
});

describe("paginate", () => {
  const rows = Array.from({ length: 19 }, (_, i) => i);
  it("8 a page, clamped", () => {
    expect(paginate(rows, 1)).toMatchObject({ rows: [0, 1, 2, 3, 4, 5, 6, 7], page: 1, pages: 3, total: 19 });
    expect(paginate(rows, 3).rows).toEqual([16, 17, 18]);
    expect(paginate(rows, 99).page).toBe(3);
    expect(paginate(rows, -1).page).toBe(1);
    expect(paginate([], 1)).toMatchObject({ rows: [], page: 1, pages: 1, total: 0 });
  });
});

describe("chooseSuite", () => {
  const s = (id: string, methods: number, isDefault = false) => ({ id, methods, isDefault }) as SuiteSummary;
  it("asked-for id, else the default flag, else the first with methods, else the first", () => {
    expect(chooseSuite([s("a", 0), s("b", 2)], "a")!.id).toBe("a");
    expect(chooseSuite([s("a", 0), s("b", 2), s("c", 1, true)], "zzz")!.id).toBe("c");
    expect(chooseSuite([s("a", 0), s("b", 2)])!.id).toBe("b");
    expect(chooseSuite([s("a", 0), s("b", 0)])!.id).toBe("a");
    expect(chooseSuite([])).toBeUndefined();
  });
});

describe("contributor ranking sort", () => {
  const row = (rank: number, contributor: string, institute: string) =>
    ({ id: String(rank), rank, contributor, institute, algorithm: "x", metascore: -rank, metascoreText: "" }) as RankRow;
  const rows = [row(1, "zoe", "MIT"), row(2, "Adam", "ETH"), row(3, "bob", "Ames")];
  it("by contributor or institute, case-insensitive, either direction", () => {
    expect(sortRanking(rows, "contributor", "asc").map((r) => r.contributor)).toEqual(["Adam", "bob", "zoe"]);
    expect(sortRanking(rows, "institute", "desc").map((r) => r.institute)).toEqual(["MIT", "ETH", "Ames"]);
    expect(sortRanking(rows, "rank", "asc").map((r) => r.rank)).toEqual([1, 2, 3]);
  });
  it("reads only known parameters", () => {
    expect(rankingSortParams(new URL("http://x/user?sort=institute&dir=desc"))).toEqual({ sort: "institute", dir: "desc" });
    expect(rankingSortParams(new URL("http://x/user?sort=password"))).toEqual({ sort: "rank", dir: "asc" });
  });
});

describe("history sort", () => {
  it("defaults to Submit Time, newest first", () => {
    expect(historySortParams(new URL("http://x/history"))).toEqual({ sort: "time", dir: "desc" });
    expect(historySortParams(new URL("http://x/history?sort=metascore"))).toEqual({ sort: "metascore", dir: "asc" });
    expect(historySortParams(new URL("http://x/history?sort=ranking&dir=desc"))).toEqual({ sort: "ranking", dir: "desc" });
    expect(historySortParams(new URL("http://x/history?sort=email; drop"))).toEqual({ sort: "time", dir: "desc" });
  });
});

describe("submission upload rules", () => {
  it("CSV boxes", () => {
    expect(checkCsvFile([file("morf.csv")])).toBeUndefined();
    expect(checkCsvFile([file("MORF.CSV", 10, "application/vnd.ms-excel")])).toBeUndefined();
    expect(checkCsvFile([file("morf.xlsx", 10, "application/octet-stream")])).toBe(MSG.csvType);
    expect(checkCsvFile([file("morf.csv", 512_001)])).toBe(MSG.csvSize);
    expect(checkCsvFile([file("a.csv"), file("b.csv")])).toBe(MSG.oneFile);
    expect(checkCsvFile([])).toBeUndefined();
  });
  it("python box", () => {
    expect(checkPythonFile([file("algo.py", 10, "text/x-python")])).toBeUndefined();
    expect(checkPythonFile([file("algo.txt")])).toBe(MSG.pyType);
    expect(checkPythonFile([file("algo.py", 600_000)])).toBe(MSG.pySize);
  });
  it("multer refusals in the original site's words", () => {
    expect(uploadLimitMessage({ code: "LIMIT_FILE_SIZE", field: "lerf", message: "" })).toBe(MSG.csvSize);
    expect(uploadLimitMessage({ code: "LIMIT_FILE_SIZE", field: "python", message: "" })).toBe(MSG.pySize);
    expect(uploadLimitMessage({ code: "LIMIT_FILE_COUNT", message: "" })).toBe(MSG.oneFile);
  });
  it("client names never become paths", () => {
    expect(cleanFileName("C:\\Users\\me\\morf.csv", "x")).toBe("morf.csv");
    expect(cleanFileName("../../etc/passwd", "x")).toBe("passwd");
    expect(cleanFileName("", "morf.csv")).toBe("morf.csv");
    // Letters of any script stay; a right-to-left override and quotes do not.
    expect(cleanFileName("结果 (第1版).csv", "x")).toBe("结果 (第1版).csv");
    expect(cleanFileName("a\u202Evsc.exe\"'.csv", "x")).toBe("a_vsc.exe__.csv");
    expect(Array.from(cleanFileName("图".repeat(200) + ".csv", "x"))).toHaveLength(120);
    expect(() => storedPath("../../etc/passwd")).toThrow();
    expect(storedPath("0b0c7a8e-1d2e-4f3a-9b8c-7d6e5f4a3b2c.csv")).toMatch(/submissions\/0b0c7a8e-.*\.csv$/);
  });
});

describe("readSuiteFolder (make import-baselines)", () => {
  it("reads a valid folder: suite fields and per-method case scores", () => {
    const dir = suiteFolder(BASELINES);
    const suite = readSuiteFolder(dir);
    expect(suite.id).toBe("metarank-seed");
    expect(suite.tasks).toHaveLength(11);
    expect(suite.methods.map((m) => m.algorithm)).toEqual(["Grad-CAM", "Integrated Gradients", "Saliency"]);
    expect(Object.keys(suite.methods[0].scores.morf)).toHaveLength(11);
  });
  it("reports every problem with its file, line and column, and imports nothing", () => {
    const dir = suiteFolder(BASELINES);
    fs.writeFileSync(path.join(dir, "ig", "lerf.csv"), lerfCsv(0.5).replace(/\n(food_resnet18,)0\.9000/, "\n$1nope"));
    fs.rmSync(path.join(dir, "saliency", "method.json"));
    let error: unknown;
    try {
      readSuiteFolder(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SuiteImportError);
    const problems = (error as SuiteImportError).problems.join("\n");
    expect(problems).toMatch(/ig\/lerf\.csv:5:2 "nope" is not a number/);
    expect(problems).toMatch(/saliency\/method\.json: file not found/);
  });
  it("reads optional localisation figures and checks them", () => {
    const dir = suiteFolder(BASELINES);
    fs.writeFileSync(path.join(dir, "ig", "localisation.json"), JSON.stringify({ food_resnet18: 0.62, imagenet_vgg19: 0.4 }));
    const suite = readSuiteFolder(dir);
    expect(suite.methods.find((m) => m.key === "ig")?.localisation).toEqual({ food_resnet18: 0.62, imagenet_vgg19: 0.4 });
    expect(suite.methods.find((m) => m.key === "saliency")?.localisation).toBeNull();
    fs.writeFileSync(path.join(dir, "ig", "localisation.json"), JSON.stringify({ food_resnet18: 1.5, mnist: 0.2 }));
    expect(() => readSuiteFolder(dir)).toThrowError(
      /food_resnet18 must be a number in \[0, 1\][\s\S]*unknown task "mnist"|unknown task "mnist"[\s\S]*food_resnet18 must be a number/,
    );
  });
  it("reads suite.json translations and bounds them", () => {
    const dir = suiteFolder(BASELINES);
    const file = path.join(dir, "suite.json");
    const json = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...json, translations: { zh: { name: " 种子 ", description: "二十二个案例" } } }));
    expect(readSuiteFolder(dir).translations).toEqual({ zh: { name: "种子", description: "二十二个案例" } });
    for (const [translations, problem] of [
      [["zh"], /"translations" must be an object/],
      [{ "not a language": { name: "x" } }, /is not a language code/],
      [{ zh: { name: "" } }, /"translations\.zh\.name" must be non-empty text/],
      [{ zh: { tasks: "x" } }, /"translations\.zh\.tasks" is not a translated field/],
      [{ zh: { description: "长".repeat(8001) } }, /"translations\.zh\.description" is longer than 8000 characters/],
      [Object.fromEntries(["aa", "bb", "cc", "dd", "ee", "ff", "gg", "hh", "ii"].map((l) => [l, { name: "x" }])), /at most 8 languages/],
    ] as const) {
      fs.writeFileSync(file, JSON.stringify({ ...json, translations }));
      expect(() => readSuiteFolder(dir)).toThrowError(problem);
    }
  });
  it("every shipped suite translates its name and description into Chinese", () => {
    for (const id of ["metarank-seed", "metarank-local-v1", "metarank-local"]) {
      const suite = readSuiteFolder(path.resolve("seeds/suites", id));
      expect(suite.translations.zh?.name, id).toMatch(/[\u4e00-\u9fff]/);
      expect(suite.translations.zh?.description, id).toMatch(/[\u4e00-\u9fff]/);
    }
  });
  it("the shipped seed suite has no baselines and is valid", () => {
    const suite = readSuiteFolder(path.resolve("seeds/suites/metarank-seed"));
    expect(suite.methods).toEqual([]);
    expect(suite.grid).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
  });
});

describe("pageHolding", () => {
  const rows = Array.from({ length: 20 }, (_, i) => ({ id: i === 10 ? "candidate" : `m${i}` }));
  const url = (q = "") => new URL(`http://x/submission${q}`);
  it("opens on the page that holds the row (8 a page: the 11th row is on page 2)", () => {
    expect(pageHolding(url(), "curPage", rows, "candidate")).toBe(2);
    expect(paginate(rows, pageHolding(url(), "curPage", rows, "candidate")).rows.map((r) => r.id)).toContain("candidate");
  });
  it("a page asked for wins, and without the row it is page 1", () => {
    expect(pageHolding(url("?curPage=3"), "curPage", rows, "candidate")).toBe(3);
    expect(pageHolding(url("?curPage=x"), "curPage", rows, "candidate")).toBe(1);
    expect(pageHolding(url(), "curPage", rows, "nobody")).toBe(1);
  });
});
