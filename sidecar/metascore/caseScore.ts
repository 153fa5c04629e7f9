// Case score (docs/metascore.md "Case scores"): area under the accuracy-vs-removed-fraction curve.

/**
 * Trapezoid-rule area under `accuracies` sampled at `grid` (the file's own removal
 * fractions, 0 … 1), so a curve of accuracies in [0, 1] gives an area in [0, 1].
 */
export function trapezoidAuc(grid: readonly number[], accuracies: readonly number[]): number {
  if (grid.length !== accuracies.length) {
    throw new RangeError(`grid has ${grid.length} points but the curve has ${accuracies.length}`);
  }
  if (grid.length < 2) throw new RangeError("a curve needs at least two points");
  let area = 0;
  for (let i = 1; i < grid.length; i++) {
    area += ((grid[i] - grid[i - 1]) * (accuracies[i] + accuracies[i - 1])) / 2;
  }
  return area;
}
