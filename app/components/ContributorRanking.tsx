// Admin contributor ranking (seed 000 §2 screen 7): Ranking, contributor, institute,
// algorithm, metascore; 8 a page; sortable by contributor and institute. Sorting and paging
// are links, so it works without JavaScript wherever it is mounted (/user, /admin).
// Feed it the object contributorRanking(url) returns (app/.server/board.server.ts).
import { Link } from "@remix-run/react";
import { DataTable } from "primereact/datatable";
import { Column } from "primereact/column";
import { Pager, useHrefWith, type PageInfo, type RankTableRow } from "./RankTable.tsx";
import { useTranslation } from "react-i18next";

export interface ContributorRankingData {
  suites: { id: string; name: string }[];
  suiteId: string | null;
  sort: "rank" | "contributor" | "institute";
  dir: "asc" | "desc";
  page: PageInfo<RankTableRow>;
}

function SortHeader({ field, label, data }: { field: "contributor" | "institute"; label: string; data: ContributorRankingData }) {
  const hrefWith = useHrefWith();
  const active = data.sort === field;
  const nextDir = active && data.dir === "asc" ? "desc" : "asc";
  const icon = active ? (data.dir === "asc" ? "pi-sort-amount-up-alt" : "pi-sort-amount-down") : "pi-sort-alt";
  const { t } = useTranslation("admin");
  return (
    <Link
      to={hrefWith({ sort: field, dir: nextDir, page: null })}
      preventScrollReset
      className="sort-link"
      aria-label={t(nextDir === "asc" ? "ranking.sortAsc" : "ranking.sortDesc", { label })}
      aria-sort={active ? (data.dir === "asc" ? "ascending" : "descending") : undefined}
      data-testid={`sort-${field}`}
    >
      {label} <i className={`pi ${icon}`} />
    </Link>
  );
}

export function ContributorRanking({ data }: { data: ContributorRankingData }) {
  const hrefWith = useHrefWith();
  const { t } = useTranslation("admin");
  const board = useTranslation("board").t;
  return (
    <section className="contributor-ranking" data-testid="contributor-ranking">
      {data.suites.length > 1 ? (
        <nav className="tabs" aria-label={board("suites")}>
          {data.suites.map((s) => (
            <Link key={s.id} to={hrefWith({ suite: s.id, page: null })} className={"tab" + (s.id === data.suiteId ? " active" : "")}>
              {s.name}
            </Link>
          ))}
        </nav>
      ) : null}
      {data.sort !== "rank" ? (
        <p className="muted">
          {t(data.dir === "asc" ? "ranking.sortedAsc" : "ranking.sortedDesc", {
            field: board(data.sort === "contributor" ? "colContributor" : "colInstitute"),
          })}{" "}
          <Link to={hrefWith({ sort: null, dir: null, page: null })}>{t("ranking.byRank")}</Link>
        </p>
      ) : null}
      <DataTable value={data.page.rows} dataKey="id" size="small" stripedRows emptyMessage={board("emptyBoard")}>
        <Column field="rank" header={board("colRanking")} style={{ width: "7rem" }} />
        <Column field="contributor" header={<SortHeader field="contributor" label={board("colContributor")} data={data} />} />
        <Column field="institute" header={<SortHeader field="institute" label={board("colInstitute")} data={data} />} />
        <Column field="algorithm" header={board("colAlgorithm")} />
        <Column field="metascoreText" header={board("colMetascore")} />
      </DataTable>
      <Pager page={data.page.page} pages={data.page.pages} total={data.page.total} param="page" label={t("tabs.ranking")} />
    </section>
  );
}
