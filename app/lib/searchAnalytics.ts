// What the dataset-search analytics share between the server (app/.server/searchAnalytics.server.ts)
// and the pages: the query string a result link carries, so that opening it counts as a click for
// that keyword at that position, and the admin table's columns.
export function clickParams(keyword: string, rank: number): string {
  return new URLSearchParams({ from: "search", q: keyword, rank: String(rank) }).toString();
}

export const SORT_COLUMNS = ["keyword", "impressions", "clicks", "ctr", "rank"] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export interface QueryRow {
  keyword: string;
  impressions: number;
  clicks: number;
  /** clicks / impressions, 0–1 */
  ctr: number;
  /** average 1-based position of the opened results; null without clicks */
  averageRank: number | null;
}
