// A paginated rank table (8 rows a page). Pages are links carrying a query parameter, so paging
// works without JavaScript and each table on a page pages on its own.
import { useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { RowSource } from "../../lib/provenance.ts";
import { Pager } from "./Pager.tsx";

export interface RankTableRow {
  id: string;
  rank: number;
  contributor: string;
  institute: string;
  algorithm: string;
  metascoreText: string;
  localisation?: number | null;
  source?: RowSource;
}

/** The words for where a row's numbers come from (board.json), shared with the history's badge. */
export const SOURCE_LABEL: Record<RowSource, string> = { platform: "sourcePlatform", verified: "sourceVerified", "self-reported": "sourceSelfReported" };

export interface PageInfo<T> {
  rows: T[];
  page: number;
  pages: number;
  total: number;
}

/** The href of the current URL with `param` set to `value` (other tables keep their page). */
export function useHrefWith() {
  const [params] = useSearchParams();
  return (changes: Record<string, string | number | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, String(v));
    }
    const qs = next.toString();
    return qs ? `?${qs}` : "?";
  };
}

export function RankTable({
  title,
  page,
  param,
  emptyMessage,
  highlightId,
  testId,
  showLocalisation = true,
}: {
  title: string;
  page: PageInfo<RankTableRow>;
  param: string;
  emptyMessage?: React.ReactNode;
  highlightId?: string;
  testId?: string;
  /** The localisation column (where the suite has object masks); off for the narrow side boards. */
  showLocalisation?: boolean;
}) {
  const withLocalisation = showLocalisation && page.rows.some((r) => r.localisation != null);
  const withSource = page.rows.some((r) => r.source != null);
  const columns = 5 + (withLocalisation ? 1 : 0) + (withSource ? 1 : 0);
  const { t } = useTranslation("board");
  const hrefWith = useHrefWith();
  // A plain table in PrimeReact's DataTable markup and theme classes: the same look, but
  // without DataTable's server-render cost (≈13 ms a table; the leaderboard shows three).
  return (
    <section className="rank-table" data-testid={testId} aria-label={title}>
      <h3>{title}</h3>
      <div className="p-datatable p-component p-datatable-sm p-datatable-striped">
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a region that may scroll sideways (narrow screens, side boards) must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable) */}
        <div className="p-datatable-wrapper" style={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label={title}>
          <table className="p-datatable-table" style={{ width: "100%", borderCollapse: "collapse" }}>
            <thead className="p-datatable-thead">
              <tr>
                <th style={{ width: "7rem" }}>{t("colRanking")}</th>
                <th>{t("colContributor")}</th>
                <th>{t("colInstitute")}</th>
                <th>{t("colAlgorithm")}</th>
                <th style={{ width: "9rem" }}>{t("colMetascore")}</th>
                {withSource ? (
                  <th style={{ width: "9rem" }} title={t("colSourceHelp")}>
                    {t("colSource")}
                  </th>
                ) : null}
                {withLocalisation ? (
                  <th style={{ width: "8rem" }} title={t("colLocalisationHelp")}>
                    {t("colLocalisation")}
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className="p-datatable-tbody">
              {page.rows.length === 0 ? (
                <tr className="p-datatable-emptymessage">
                  <td colSpan={columns}>{emptyMessage ?? t("emptyBoard")}</td>
                </tr>
              ) : (
                page.rows.map((r, i) => (
                  <tr key={r.id} className={[i % 2 ? "p-row-odd" : "", r.id === highlightId ? "rank-row-candidate" : ""].join(" ").trim() || undefined}>
                    <td>{r.rank}</td>
                    <td>{r.contributor}</td>
                    <td>{r.institute}</td>
                    <td>{r.algorithm}</td>
                    <td>{r.metascoreText}</td>
                    {withSource ? (
                      <td data-source={r.source}>
                        <span className={`rank-source rank-source-${r.source}`}>{r.source ? t(SOURCE_LABEL[r.source]) : null}</span>
                      </td>
                    ) : null}
                    {withLocalisation ? <td>{r.localisation == null ? "—" : `${(r.localisation * 100).toFixed(1)} %`}</td> : null}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      <Pager look="board" page={page.page} pageCount={page.pages} total={page.total} href={(n) => hrefWith({ [param]: n })} label={title} />
    </section>
  );
}
