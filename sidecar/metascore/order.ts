// Orders for the metascore engine (docs/metascore-performance.md): the best-first order of κ and
// its shared ranks (docs/metascore.md "κ and ranks"), on typed arrays. Every order here is the one
// `sort((a, b) => v[b] - v[a] || a - b)` gives — value descending, equal values (−0 and +0
// included) in ascending index order — without its cost: a comparator sort of 10,000 κ takes a few
// milliseconds, and inserting a candidate ranks two boards on three scopes each (docs/metascore.md
// "The submission screen's two boards").

/** Radix digit width: 64 bits in six passes (11 + 11 + 10 bits of each 32-bit half). */
const DIGIT_BITS = 11;
const BUCKETS = 1 << DIGIT_BITS;
const DIGIT_MASK = BUCKETS - 1;

/** Which 32-bit word of a Float64Array element holds the sign and exponent on this platform. */
const HIGH_WORD = (() => {
  const probe = new Float64Array([1]); // bits 0x3ff00000_00000000
  return new Uint32Array(probe.buffer)[1] === 0x3ff00000 ? 1 : 0;
})();

/**
 * Indices of `values`, value descending and equal values in ascending index order. A stable LSD radix sort on the bits of the doubles:
 * linear, no comparator calls, no branches that depend on the data. The values must not be NaN
 * (κ are finite; rankColumn checks).
 */
export function descendingOrder(values: Float64Array): Int32Array {
  const n = values.length;
  // Keys whose unsigned order is the descending order of the values: for v ≥ 0 the bits
  // complemented with the sign bit cleared, for v < 0 the bits as they are (a larger magnitude
  // is a larger bit pattern, and every negative key lies above every non-negative one).
  const copy = new Float64Array(n);
  for (let i = 0; i < n; i++) copy[i] = values[i] + 0; // + 0 turns −0 into +0
  const words = new Uint32Array(copy.buffer);
  let hi = new Uint32Array(n);
  let lo = new Uint32Array(n);
  let index = new Int32Array(n);
  // The six digit histograms in one pass over the keys.
  const histogram = new Int32Array(6 * BUCKETS);
  for (let i = 0; i < n; i++) {
    let high = words[2 * i + HIGH_WORD];
    let low = words[2 * i + 1 - HIGH_WORD];
    if (high >>> 31 === 0) {
      high = ~high & 0x7fffffff;
      low = ~low >>> 0;
    }
    hi[i] = high;
    lo[i] = low;
    index[i] = i;
    histogram[low & DIGIT_MASK]++;
    histogram[BUCKETS + ((low >>> 11) & DIGIT_MASK)]++;
    histogram[2 * BUCKETS + (low >>> 22)]++;
    histogram[3 * BUCKETS + (high & DIGIT_MASK)]++;
    histogram[4 * BUCKETS + ((high >>> 11) & DIGIT_MASK)]++;
    histogram[5 * BUCKETS + (high >>> 22)]++;
  }
  let hiOut = new Uint32Array(n);
  let loOut = new Uint32Array(n);
  let indexOut = new Int32Array(n);
  for (let pass = 0; pass < 6 && n > 0; pass++) {
    const base = pass * BUCKETS;
    const high = pass >= 3;
    const shift = (pass % 3) * DIGIT_BITS;
    // A digit every key shares (the exponent bits of κ, mostly) moves nothing: skip the pass.
    if (histogram[base + (((high ? hi[0] : lo[0]) >>> shift) & DIGIT_MASK)] === n) continue;
    let start = 0;
    for (let d = base; d < base + BUCKETS; d++) {
      const c = histogram[d];
      histogram[d] = start;
      start += c;
    }
    // Stable scatter, keys moved along so that every pass reads them in order: keys that agree
    // on every digit keep their (ascending) index order.
    for (let i = 0; i < n; i++) {
      const h = hi[i];
      const l = lo[i];
      const at = histogram[base + (((high ? h : l) >>> shift) & DIGIT_MASK)]++;
      hiOut[at] = h;
      loOut[at] = l;
      indexOut[at] = index[i];
    }
    [hi, hiOut] = [hiOut, hi];
    [lo, loOut] = [loOut, lo];
    [index, indexOut] = [indexOut, index];
  }
  return index;
}

/** A board's best-first order and ranks for one scope, aligned with the board's methods. */
export interface Ranking {
  /** Indices best first; exactly equal κ keep their input order. */
  order: Int32Array;
  /** 1-based rank of each index (aligned with the input). */
  ranks: Int32Array;
}

/**
 * Ranks (docs/metascore.md "κ and ranks") along a best-first order: κ within `tolerance` of the
 * first of their group share its rank and the next rank skips (1, 2, 2, 4).
 */
export function ranksAlong(order: Int32Array, kappas: Float64Array, tolerance: number): Int32Array {
  const n = order.length;
  const ranks = new Int32Array(n);
  let leader = 0;
  for (let position = 0; position < n; position++) {
    const index = order[position];
    if (position > 0 && kappas[order[leader]] - kappas[index] <= tolerance) {
      ranks[index] = ranks[order[leader]];
    } else {
      leader = position;
      ranks[index] = position + 1;
    }
  }
  return ranks;
}

/** Order and ranks of a column of κ (docs/metascore.md "κ and ranks"). */
export function rankColumn(kappas: Float64Array, tolerance: number): Ranking {
  const n = kappas.length;
  let finite = true;
  for (let i = 0; i < n; i++) if (kappas[i] !== kappas[i]) finite = false;
  // NaN is not reachable from a board (κ are finite), but the exported rankKappas takes any
  // numbers; keep the comparator's exact behaviour there instead of choosing where NaN sorts.
  const order = finite ? descendingOrder(kappas) : Int32Array.from(Array.from({ length: n }, (_, i) => i).sort((a, b) => kappas[b] - kappas[a] || a - b));
  return { order, ranks: ranksAlong(order, kappas, tolerance) };
}

/** Element moves per element that orderAfterInsertion spends on insertion sort before merging instead. */
const SHIFT_BUDGET = 8;

/**
 * The best-first order of `kappas` (length n + 1) after inserting a candidate (docs/metascore.md
 * "History fusion"), from `previous`, the best-first order of the stored board's κ: index n is the
 * candidate, and each stored κ'[p] = (N·κ[p] + L[p][n]) / (N + 1) was made from κ[p] by a
 * transformation that is non-decreasing within each of `groups` groups (`group[p]`, the half-wins
 * that pick L[p][n]).
 *
 * L is bounded (|L| ≤ ln(2|C| + 1)), so each κ moves by at most about 2·ln(2|C| + 1) / N relative
 * to the others and the old order is nearly right: insertion sort finishes it in a few moves per
 * element on a real board. A board of many nearly equal κ could make that quadratic, so after
 * SHIFT_BUDGET moves per element it gives up for mergeGroups, O(N log groups) whatever the κ.
 */
export function orderAfterInsertion(previous: Int32Array, kappas: Float64Array, group: Int32Array, groups: number): Int32Array {
  const n = previous.length;
  const order = new Int32Array(n + 1);
  order.set(previous);
  order[n] = n;
  let budget = SHIFT_BUDGET * (n + 1);
  for (let i = 1; i <= n; i++) {
    const x = order[i];
    const kx = kappas[x];
    let j = i - 1;
    for (; j >= 0; j--) {
      const y = order[j];
      const ky = kappas[y];
      if (ky > kx || (ky === kx && y < x)) break;
      order[j + 1] = y;
    }
    order[j + 1] = x;
    budget -= i - 1 - j;
    if (budget < 0) return mergeGroups(previous, kappas, group, groups);
  }
  return order;
}

/**
 * The order orderAfterInsertion returns, by merging: the old order is split by group (stably, so
 * each piece stays in order, the transformation being monotonic within a group), and the pieces
 * and the candidate are merged. O(N log groups).
 */
export function mergeGroups(previous: Int32Array, kappas: Float64Array, group: Int32Array, groups: number): Int32Array {
  const n = previous.length;
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < n; i++) start[group[i] + 1]++;
  for (let g = 0; g < groups; g++) start[g + 1] += start[g];
  let runs = new Int32Array(n + 1);
  const fill = start.slice(0, groups);
  for (let position = 0; position < n; position++) {
    const i = previous[position];
    runs[fill[group[i]]++] = i;
  }
  runs[n] = n;
  // Run boundaries: each non-empty group, then the lone index n.
  const bounds: number[] = [0];
  for (let g = 1; g <= groups; g++) if (start[g] > start[g - 1]) bounds.push(start[g]);
  bounds.push(n + 1);
  for (let r = 0; r + 1 < bounds.length; r++) indexOrderTies(runs, bounds[r], bounds[r + 1], kappas);

  let out = new Int32Array(n + 1);
  let edges = bounds;
  while (edges.length > 2) {
    const next: number[] = [0];
    for (let r = 0; r + 1 < edges.length; r += 2) {
      const lo = edges[r];
      const mid = edges[r + 1];
      const hi = r + 2 < edges.length ? edges[r + 2] : mid;
      mergeRuns(runs, lo, mid, hi, kappas, out);
      next.push(hi);
    }
    [runs, out] = [out, runs];
    edges = next;
  }
  return runs;
}

/**
 * Within a run that is in non-increasing κ order, put exactly equal κ in ascending index order.
 * The group's old order had equal old κ in index order already; only two different old κ that
 * rounding has made equal can be out of order, so this is almost always a single scan.
 */
function indexOrderTies(runs: Int32Array, lo: number, hi: number, kappas: Float64Array): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = runs[i];
    let j = i - 1;
    while (j >= lo && kappas[runs[j]] === kappas[x] && runs[j] > x) {
      runs[j + 1] = runs[j];
      j--;
    }
    runs[j + 1] = x;
  }
}

/** Merge runs[lo, mid) and runs[mid, hi) (each best first) into out[lo, hi). */
function mergeRuns(runs: Int32Array, lo: number, mid: number, hi: number, kappas: Float64Array, out: Int32Array): void {
  let i = lo;
  let j = mid;
  let k = lo;
  while (i < mid && j < hi) {
    const a = runs[i];
    const b = runs[j];
    const ka = kappas[a];
    const kb = kappas[b];
    if (ka > kb || (ka === kb && a < b)) {
      out[k++] = a;
      i++;
    } else {
      out[k++] = b;
      j++;
    }
  }
  while (i < mid) out[k++] = runs[i++];
  while (j < hi) out[k++] = runs[j++];
}
