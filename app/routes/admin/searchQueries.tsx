// /admin/search_queries — the dataset search's own analytics
// (app/.server/searchAnalytics.server.ts): per keyword, impressions, clicks, CTR and the average
// position of the opened result, 10 a page. Every column sorts on the server (header links, no
// JavaScript needed); with JavaScript the same table is a PrimeReact DataTable whose sorting and
// paging drive those links.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { Column } from "primereact/column";
import { DataTable, type DataTableSortEvent } from "primereact/datatable";
import { useTranslation } from "react-i18next";
import { requireAdmin } from "~/.server/session.server.ts";
import { searchQueryPage } from "~/.server/searchAnalytics.server.ts";
import { SORT_COLUMNS, type QueryRow, type SortColumn } from "~/lib/searchAnalytics.ts";
import { Pager } from "~/components/Pager.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { useHydrated } from "~/lib/useHydrated.ts";
import { pageTitle } from "~/lib/pageTitle.ts";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "admin:tabs.searches");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const sp = new URL(request.url).searchParams;
  const sort: SortColumn = (SORT_COLUMNS as readonly string[]).includes(sp.get("sort") ?? "") ? (sp.get("sort") as SortColumn) : "impressions";
  const dir = sp.get("dir") === "asc" ? "asc" : sp.get("dir") === "desc" ? "desc" : firstDirection(sort);
  const page = Math.max(1, Math.min(100_000, Number.parseInt(sp.get("page") ?? "1", 10) || 1));
  return { sort, dir: dir as "asc" | "desc", ...(await searchQueryPage(sort, dir, page)) };
}

const href = (sort: SortColumn, dir: "asc" | "desc", page = 1) =>
  `/admin/search_queries?${new URLSearchParams({ sort, dir, ...(page > 1 ? { page: String(page) } : {}) })}`;
/** Names and ranks read best from the top (A, 1st); counts and rates from the largest. */
const firstDirection = (c: SortColumn): "asc" | "desc" => (c === "keyword" || c === "rank" ? "asc" : "desc");
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const rankText = (r: number | null) => (r === null ? "—" : r.toFixed(2));

export default function SearchQueries() {
  const { rows, sort, dir, page, pages, total } = useLoaderData<typeof loader>();
  const { t } = useTranslation("admin");
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const label: Record<SortColumn, string> = {
    keyword: t("searches.keyword"),
    impressions: t("searches.impressions"),
    clicks: t("searches.clicks"),
    ctr: t("searches.ctr"),
    rank: t("searches.rank"),
  };
  const field: Record<SortColumn, keyof QueryRow> = { keyword: "keyword", impressions: "impressions", clicks: "clicks", ctr: "ctr", rank: "averageRank" };
  return (
    <section className="card">
      <DatasetStyles />
      <h2>{t("searches.title")}</h2>
      <p className="muted">{t("searches.lead", { total })}</p>
      {hydrated ? (
        <DataTable
          value={rows}
          lazy
          sortField={field[sort]}
          sortOrder={dir === "asc" ? 1 : -1}
          onSort={(e: DataTableSortEvent) => {
            const column = (Object.keys(field) as SortColumn[]).find((c) => field[c] === e.sortField) ?? "impressions";
            // A new column starts in its natural direction (the same as the links'); the same column flips.
            navigate(href(column, column === sort ? (dir === "asc" ? "desc" : "asc") : firstDirection(column)), { preventScrollReset: true });
          }}
          emptyMessage={t("searches.none")}
          size="small"
          data-testid="search-queries"
        >
          <Column field="keyword" header={label.keyword} sortable />
          <Column field="impressions" header={label.impressions} sortable />
          <Column field="clicks" header={label.clicks} sortable />
          <Column field="ctr" header={label.ctr} sortable body={(r: QueryRow) => pct(r.ctr)} />
          <Column field="averageRank" header={label.rank} sortable body={(r: QueryRow) => rankText(r.averageRank)} />
        </DataTable>
      ) : (
        <div className="table-scroll">
          <table className="p-datatable-table" style={{ width: "100%", borderCollapse: "collapse" }} data-testid="search-queries">
            <thead>
              <tr>
                {SORT_COLUMNS.map((c) => {
                  const active = c === sort;
                  const next = active ? (dir === "desc" ? "asc" : "desc") : firstDirection(c);
                  return (
                    <th key={c} aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : "none"} style={{ textAlign: "left" }}>
                      <Link to={href(c, next)} data-testid={`sort-${c}`}>
                        {label[c]} {active ? (dir === "asc" ? "▲" : "▼") : ""}
                      </Link>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {rows.length ? (
                rows.map((r) => (
                  <tr key={r.keyword} data-keyword={r.keyword}>
                    <td>{r.keyword}</td>
                    <td>{r.impressions}</td>
                    <td>{r.clicks}</td>
                    <td>{pct(r.ctr)}</td>
                    <td>{rankText(r.averageRank)}</td>
                  </tr>
                ))
              ) : (
                <tr>
                  <td colSpan={5}>{t("searches.none")}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pages} href={(p) => href(sort, dir, p)} label={t("searches.pages")} />
    </section>
  );
}
