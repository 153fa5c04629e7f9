// The inconsistency of a suite's board, from the stored case scores: each method's rank on every
// case, Kendall's τ between the cases' rankings and each method's rank spread
// (app/lib/rankAgreement.ts; docs/inconsistency.md).
import { BoardMethod } from "./db.server.ts";
import { rankByKappa } from "./board.server.ts";
import { toCsv } from "~/lib/csv.ts";
import { caseAgreement, caseLabel, caseRanks, casesOf, rankSpread, type Agreement, type RankSpread } from "~/lib/rankAgreement.ts";

/** The heatmap shows at most this many methods (best κ first); the downloads have all of them. */
export const HEATMAP_METHODS = 40;

export interface SuiteInconsistency {
  cases: string[];
  /** best κ first */
  methods: string[];
  /** ranks[m][c], 1 = best on that case */
  ranks: number[][];
  agreement: Agreement;
  spread: RankSpread[];
}

export async function suiteInconsistency(suite: { id: string; tasks: string[] }): Promise<SuiteInconsistency | null> {
  // The public board's entries: those an administrator hid are not shown here either.
  const rows = await BoardMethod.findAll({ where: { suiteId: suite.id, hidden: false }, order: [["id", "ASC"]] });
  if (rows.length < 2) return null;
  const ranked = rankByKappa(rows.map((r) => ({ metascore: r.metascore, method: r.algorithm, contributor: r.contributor, scores: r.scores })));
  // The algorithm's name, with the contributor when two rows share a name.
  const count = new Map<string, number>();
  for (const r of ranked) count.set(r.method, (count.get(r.method) ?? 0) + 1);
  const methods = ranked.map((r) => ({ method: (count.get(r.method) ?? 0) > 1 ? `${r.method} (${r.contributor})` : r.method, scores: r.scores }));
  const cases = casesOf(suite.tasks);
  const ranks = caseRanks(methods, cases);
  return {
    cases: cases.map(caseLabel),
    methods: methods.map((m) => m.method),
    ranks,
    agreement: caseAgreement(ranks, cases),
    spread: rankSpread(methods, ranks),
  };
}

// Ratios to six decimals; the writer quotes every cell and makes method names inert (app/lib/csv.ts).
const csv = (rows: (string | number)[][]) => toCsv(rows.map((r) => r.map((v) => (typeof v === "number" ? Math.round(v * 1e6) / 1e6 : v))));

/** The downloads: per-case ranks, τ between cases, and rank spread, as CSV tables or one JSON. */
export function inconsistencyCsv(data: SuiteInconsistency, table: "ranks" | "agreement" | "spread"): string {
  if (table === "ranks") return csv([["method", ...data.cases], ...data.methods.map((m, i) => [m, ...data.ranks[i]])]);
  if (table === "agreement") return csv([["case", ...data.cases], ...data.cases.map((c, i) => [c, ...data.agreement.tau[i]])]);
  return csv([["method", "best", "median", "worst"], ...data.spread.map((s) => [s.method, s.best, s.median, s.worst])]);
}
