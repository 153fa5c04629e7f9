// The files an evaluation writes are the ones the platform's parser accepts (docs/metascore.md
// "Result files"), with accuracies exactly the means of the per-image outcomes.
import { describe, it, expect } from "vitest";
import { summarise, type ImageResult } from "../../sidecar/inference/evaluation/engine.ts";
import { accuracyCell, fractionCell, imagesRecord, localisationJson, resultCsv } from "../../sidecar/inference/evaluation/resultFiles.ts";
import { parseResultFile } from "../../sidecar/metascore/resultFile.ts";

const GRID = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
const img = (index: number, morf: string, lerf: string, localisation?: number | null): ImageResult => ({
  index,
  label: 0,
  morf: [...morf].map(Number),
  lerf: [...lerf].map(Number),
  ...(localisation !== undefined ? { localisation } : {}),
});

describe("result files", () => {
  const a = [img(2, "11000000000", "11111111100"), img(0, "10000000000", "11111111110"), img(1, "00000000000", "11111111111")];
  const b = [img(0, "11100000000", "11111111111", 0.5), img(1, "11000000000", "11111111100", null), img(2, "10000000000", "11111110000", 0.2)];
  const summaries = { fashionmnist_vgg: summarise(a, 11), scenes_vgg: summarise(b, 11) };
  const tasks = ["fashionmnist_vgg", "scenes_vgg"];

  it("writes the result file header and k/N accuracies (docs/metascore.md, Result files)", () => {
    const csv = resultCsv("morf", GRID, tasks, summaries);
    expect(csv.split("\n")[0]).toBe("task,0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1");
    expect(csv.split("\n")[1]).toBe("fashionmnist_vgg,0.666667,0.333333,0,0,0,0,0,0,0,0,0");
    expect(resultCsv("lerf", GRID, tasks, summaries).split("\n")[2]).toBe("scenes_vgg,1,1,1,1,1,1,1,0.666667,0.666667,0.333333,0.333333");
  });

  it("is accepted by the platform's parser with the suite's tasks and grid", () => {
    for (const protocol of ["morf", "lerf"] as const) {
      const parsed = parseResultFile(resultCsv(protocol, GRID, tasks, summaries), { fileName: `${protocol}.csv`, tasks, grid: GRID });
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(parsed.file.curves.scenes_vgg).toEqual(summaries.scenes_vgg[protocol].map((v) => Number(accuracyCell(v))));
    }
  });

  it("refuses to write a file that would miss a task", () => {
    expect(() => resultCsv("morf", GRID, [...tasks, "scenes_resnet"], summaries)).toThrow(/scenes_resnet/);
  });

  it("reports localisation only for tasks with masks, averaging images that have one", () => {
    expect(localisationJson(tasks, summaries)).toEqual({ scenes_vgg: 0.35 });
  });

  it("records per-image strings in image order", () => {
    expect(imagesRecord(a)).toEqual({ morf: ["10000000000", "00000000000", "11000000000"], lerf: ["11111111110", "11111111111", "11111111100"] });
    expect(imagesRecord(b).localisation).toEqual([0.5, null, 0.2]);
  });

  it("writes fractions and accuracies as short decimals", () => {
    expect(GRID.map(fractionCell).join(",")).toBe("0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1");
    expect(fractionCell(0.1 + 0.2)).toBe("0.3");
    expect(accuracyCell(37 / 100)).toBe("0.37");
    expect(accuracyCell(1 / 64)).toBe("0.015625");
  });
});
