// How consistently the cases of a suite rank the attribution methods — the quantity the Meta-Rank
// paper is about (docs/inconsistency.md). Pure functions over the stored case scores
// (docs/metascore.md "Case scores": MoRF lower is better, LeRF higher is better), shared by the
// leaderboard page and its CSV/JSON downloads.

export interface CaseScores {
  /** method label */
  method: string;
  scores: { task: string; morf: number; lerf: number }[];
}

export interface Case {
  task: string;
  protocol: "MoRF" | "LeRF";
}

/** Scores closer than this are a tie (docs/metascore.md "κ and ranks"). */
const TIE = 1e-12;

export function casesOf(tasks: readonly string[]): Case[] {
  return [...tasks.map((task) => ({ task, protocol: "MoRF" as const })), ...tasks.map((task) => ({ task, protocol: "LeRF" as const }))];
}

export const caseLabel = (c: Case) => `${c.task} · ${c.protocol}`;

/**
 * ranks[m][c]: the rank of method m on case c, 1 = best; tied methods share the best rank of
 * their group and the next rank skips (1, 2, 2, 4), as on the leaderboard.
 */
export function caseRanks(methods: readonly CaseScores[], cases: readonly Case[]): number[][] {
  const ranks = methods.map(() => new Array<number>(cases.length).fill(0));
  cases.forEach((c, ci) => {
    const value = (m: CaseScores) => {
      const s = m.scores.find((x) => x.task === c.task);
      if (!s) return Number.NaN;
      // Higher "goodness" is better in both protocols after this sign flip.
      return c.protocol === "MoRF" ? -s.morf : s.lerf;
    };
    const values = methods.map(value);
    values.forEach((v, mi) => {
      let better = 0;
      for (const w of values) if (w - v > TIE) better++;
      ranks[mi][ci] = Number.isNaN(v) ? Number.NaN : better + 1;
    });
  });
  return ranks;
}

/**
 * Kendall's τ-b between two rankings of the same items (ties in either allowed):
 * (concordant − discordant) / sqrt((n0 − n1)(n0 − n2)), with n0 = n(n−1)/2 and n1, n2 the tied
 * pairs in x and in y. O(n²), fine for boards of hundreds of methods. NaN when either ranking
 * is constant (τ is undefined there).
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) throw new Error("kendallTauB: rankings of different lengths");
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  const n = x.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      if (dx === 0 && dy === 0) {
        tiesX++;
        tiesY++;
      } else if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  return denominator === 0 ? Number.NaN : (concordant - discordant) / denominator;
}

export interface Agreement {
  cases: Case[];
  /** tau[a][b]: Kendall's τ-b between the rankings of cases a and b (1 on the diagonal). */
  tau: number[][];
  /** Mean τ over every pair of distinct cases whose τ is defined; null with fewer than two cases. */
  meanTau: number | null;
}

export function caseAgreement(ranks: readonly number[][], cases: readonly Case[]): Agreement {
  const column = (c: number) => ranks.map((row) => row[c]);
  const tau = cases.map((_, a) => cases.map((_, b) => (a === b ? 1 : kendallTauB(column(a), column(b)))));
  let sum = 0;
  let count = 0;
  for (let a = 0; a < cases.length; a++)
    for (let b = a + 1; b < cases.length; b++)
      if (!Number.isNaN(tau[a][b])) {
        sum += tau[a][b];
        count++;
      }
  return { cases: [...cases], tau, meanTau: count ? sum / count : null };
}

export interface RankSpread {
  method: string;
  best: number;
  median: number;
  worst: number;
}

/** How far each method's rank moves across the cases. */
export function rankSpread(methods: readonly CaseScores[], ranks: readonly number[][]): RankSpread[] {
  return methods.map((m, i) => {
    const r = ranks[i].filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
    const mid = r.length / 2;
    const median = r.length === 0 ? Number.NaN : r.length % 2 ? r[Math.floor(mid)] : (r[mid - 1] + r[mid]) / 2;
    return { method: m.method, best: r[0] ?? Number.NaN, median, worst: r.at(-1) ?? Number.NaN };
  });
}
