// Dataset-search analytics (the admin's sortable search-queries table): per keyword, how often a
// result list was shown (impressions), how often a result was opened from it (clicks) and at which
// position (average rank). Recorded without personal data: only name searches are counted (a
// user-name search's keyword IS a person's name, so it is not kept), the keyword is normalised, and
// nothing about who searched is stored. Bots are not counted. Every counter moves in one atomic SQL
// statement (an upsert for impressions, a conditional update for clicks), so concurrent searches
// never lose a count on SQLite or MariaDB.
import { isbot } from "isbot";
import { Op, QueryTypes, literal, type Order } from "sequelize";
import { SearchQuery, isSqlite, sequelize } from "../../models/index.ts";
import { logger } from "./logger.server.ts";
import type { QueryRow, SortColumn } from "~/lib/searchAnalytics.ts";

const log = logger("search-analytics");

export const KEYWORD_MAX = 100;
export const QUERIES_PER_PAGE = 10;
/** A result's position beyond this is not a position a person opened from a list of 3 a page. */
const RANK_MAX = 10_000;

/** Trimmed, inner spaces collapsed, lower-cased, cut to 100 characters; "" when nothing is left. */
export function normaliseKeyword(raw: string): string {
  return raw.trim().replace(/\s+/g, " ").toLowerCase().slice(0, KEYWORD_MAX).trim();
}

const counted = (request: Request) => !isbot(request.headers.get("user-agent") ?? "");

/** One result list shown for a name search (page 1 or a later page alike). */
export async function recordImpression(request: Request, rawKeyword: string): Promise<void> {
  const keyword = normaliseKeyword(rawKeyword);
  if (!keyword || !counted(request)) return;
  const now = new Date();
  const sql = isSqlite()
    ? "INSERT INTO search_queries (keyword, impressions, clicks, rank_sum, created_at, updated_at) VALUES (?, 1, 0, 0, ?, ?) ON CONFLICT(keyword) DO UPDATE SET impressions = impressions + 1, updated_at = excluded.updated_at"
    : "INSERT INTO search_queries (keyword, impressions, clicks, rank_sum, created_at, updated_at) VALUES (?, 1, 0, 0, ?, ?) ON DUPLICATE KEY UPDATE impressions = impressions + 1, updated_at = VALUES(updated_at)";
  await sequelize
    .query(sql, { replacements: [keyword, now, now], type: QueryTypes.INSERT })
    .catch((err) => log.warn({ err: (err as Error).message }, "impression not recorded"));
}

/**
 * A result opened from a search: the link carries from=search, q and rank. Only a keyword that
 * was searched (has a row) counts a click, so a crafted link cannot add keywords.
 */
export async function recordClick(request: Request, params: URLSearchParams): Promise<void> {
  if (params.get("from") !== "search" || !counted(request)) return;
  const keyword = normaliseKeyword(params.get("q") ?? "");
  const rank = Number(params.get("rank"));
  if (!keyword || !Number.isSafeInteger(rank) || rank < 1 || rank > RANK_MAX) return;
  await sequelize
    .query("UPDATE search_queries SET clicks = clicks + 1, rank_sum = rank_sum + ?, updated_at = ? WHERE keyword = ?", {
      replacements: [rank, new Date(), keyword],
      type: QueryTypes.UPDATE,
    })
    .catch((err) => log.warn({ err: (err as Error).message }, "click not recorded"));
}

const ORDER: Record<SortColumn, (dir: "ASC" | "DESC") => Order> = {
  keyword: (dir) => [["keyword", dir]],
  impressions: (dir) => [
    ["impressions", dir],
    ["keyword", "ASC"],
  ],
  clicks: (dir) => [
    ["clicks", dir],
    ["keyword", "ASC"],
  ],
  // Computed in SQL so that sorting and paging happen in the database, over every keyword.
  ctr: (dir) => [
    [literal("CASE WHEN impressions > 0 THEN clicks * 1.0 / impressions ELSE 0 END"), dir],
    ["keyword", "ASC"],
  ],
  // Keywords without clicks have no average rank: they come last either way.
  rank: (dir) => [
    [literal("CASE WHEN clicks = 0 THEN 1 ELSE 0 END"), "ASC"],
    [literal("CASE WHEN clicks > 0 THEN rank_sum * 1.0 / clicks ELSE 0 END"), dir],
    ["keyword", "ASC"],
  ],
};

export async function searchQueryPage(sort: SortColumn, dir: "asc" | "desc", page: number) {
  const total = await SearchQuery.count();
  const pages = Math.max(1, Math.ceil(total / QUERIES_PER_PAGE));
  const p = Math.min(Math.max(1, page), pages);
  const rows = await SearchQuery.findAll({
    order: ORDER[sort](dir === "asc" ? "ASC" : "DESC"),
    limit: QUERIES_PER_PAGE,
    offset: (p - 1) * QUERIES_PER_PAGE,
    where: { keyword: { [Op.ne]: "" } },
  });
  const view: QueryRow[] = rows.map((r) => ({
    keyword: r.keyword,
    impressions: r.impressions,
    clicks: r.clicks,
    ctr: r.impressions ? r.clicks / r.impressions : 0,
    averageRank: r.clicks ? r.rankSum / r.clicks : null,
  }));
  return { rows: view, page: p, pages, total };
}
