import { describe, expect, it } from "vitest";
import { trapezoidAuc } from "../../sidecar/metascore/caseScore.ts";

describe('trapezoidAuc (docs/metascore.md "Case scores")', () => {
  it("integrates a straight line from 1 to 0 to one half", () => {
    expect(trapezoidAuc([0, 0.5, 1], [1, 0.5, 0])).toBeCloseTo(0.5, 15);
  });

  it("uses the file's own uneven grid", () => {
    // (0.1 · (1 + 0.8) + 0.9 · (0.8 + 0.2)) / 2 = (0.18 + 0.9) / 2
    expect(trapezoidAuc([0, 0.1, 1], [1, 0.8, 0.2])).toBeCloseTo(0.54, 15);
  });

  it("gives 1 for a curve that stays at 1 and 0 for one at 0", () => {
    const grid = Array.from({ length: 11 }, (_, i) => i / 10);
    expect(
      trapezoidAuc(
        grid,
        grid.map(() => 1),
      ),
    ).toBeCloseTo(1, 12);
    expect(
      trapezoidAuc(
        grid,
        grid.map(() => 0),
      ),
    ).toBe(0);
  });

  it("rejects a curve whose length differs from the grid", () => {
    expect(() => trapezoidAuc([0, 1], [1, 0.5, 0])).toThrow(/2 points but the curve has 3/);
  });
});
