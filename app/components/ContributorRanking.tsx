// Admin contributor ranking (seed 000 §2 screen 7): Ranking, contributor, institute,
// algorithm, metascore; 8 a page; sortable by contributor and institute. Sorting and paging
// are links, so it works without JavaScript wherever it is mounted (/user, /admin).
// Feed it the object contributorRanking(url) returns (app/.server/board.server.ts).
import { Link } from "@remix-run/react";
import { DataTable } from "primereact/datatable";
import { Column } from "primereact/column";
import { Pager, useHrefWith, type PageInfo, type RankTableRow } from "./RankTable.tsx";

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
  return (
    <Link
      to={hrefWith({ sort: field, dir: nextDir, page: null })}
      preventScrollReset
      className="sort-link"
      aria-label={`Sort by ${label} ${nextDir === "asc" ? "ascending" : "descending"}`}
      aria-sort={active ? (data.dir === "asc" ? "ascending" : "descending") : undefined}
      data-testid={`sort-${field}`}
    >
      {label} <i className={`pi ${icon}`} />
    </Link>
  );
}

export function ContributorRanking({ data }: { data: ContributorRankingData }) {
  const hrefWith = useHrefWith();
  return (
    <section className="contributor-ranking" data-testid="contributor-ranking">
      {data.suites.length > 1 ? (
        <nav className="tabs" aria-label="Suites">
          {data.suites.map((s) => (
            <Link key={s.id} to={hrefWith({ suite: s.id, page: null })} className={"tab" + (s.id === data.suiteId ? " active" : "")}>
              {s.name}
            </Link>
          ))}
        </nav>
      ) : null}
      {data.sort !== "rank" ? (
        <p className="muted">
          Sorted by {data.sort} ({data.dir === "asc" ? "A–Z" : "Z–A"}). <Link to={hrefWith({ sort: null, dir: null, page: null })}>Sort by ranking</Link>
        </p>
      ) : null}
      <DataTable value={data.page.rows} dataKey="id" size="small" stripedRows emptyMessage="No methods on this board yet.">
        <Column field="rank" header="Ranking" style={{ width: "7rem" }} />
        <Column field="contributor" header={<SortHeader field="contributor" label="contributor" data={data} />} />
        <Column field="institute" header={<SortHeader field="institute" label="institute" data={data} />} />
        <Column field="algorithm" header="algorithm" />
        <Column field="metascoreText" header="metascore" />
      </DataTable>
      <Pager page={data.page.page} pages={data.page.pages} total={data.page.total} param="page" label="Contributor ranking" />
    </section>
  );
}
