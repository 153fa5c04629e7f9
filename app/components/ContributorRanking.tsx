// Admin contributor ranking: Ranking, contributor, institute, algorithm, metascore; 8 a page;
// sortable by contributor and institute. Sorting and paging are links, so it works without
// JavaScript wherever it is mounted (/user, /admin). Its edit mode (?edit=1) has a selected flag
// per entry: select entries (a checkbox each; with JavaScript a tick is saved at once, without it
// "Save selection" saves the page), then hide them from the public board or restore them, or export
// the selection as CSV; every action is listed in the audit trail below the table. Feed it the
// object contributorRanking(url) returns (app/.server/ranking.server.ts).
import { Form, Link, useFetcher, useLoaderData } from "@remix-run/react";
import type { rankingPageLoader } from "~/.server/ranking.server.ts";
import { Notice } from "./FieldError.tsx";
import { DataTable } from "primereact/datatable";
import { Column } from "primereact/column";
import { Pager } from "./Pager.tsx";
import { useHrefWith, type PageInfo, type RankTableRow } from "./RankTable.tsx";
import { useTranslation } from "react-i18next";

export type ContributorRankingRow = RankTableRow & { selected: boolean; hidden: boolean };

export interface AuditRow {
  id: number;
  at: string;
  username: string;
  action: "select" | "unselect" | "select-all" | "clear" | "hide" | "restore" | "export";
  entries: { id: number; contributor: string; algorithm: string }[];
}

export interface ContributorRankingData {
  suites: { id: string; name: string }[];
  suiteId: string | null;
  sort: "rank" | "contributor" | "institute";
  dir: "asc" | "desc";
  page: PageInfo<ContributorRankingRow>;
  edit: boolean;
  notice: { kind: "success" | "warn"; text: string } | null;
  selectedCount: number;
  hiddenCount: number;
  audit: AuditRow[];
}

const AUDIT_ACTION_KEYS = {
  select: "ranking.actions.select",
  unselect: "ranking.actions.unselect",
  "select-all": "ranking.actions.selectAll",
  clear: "ranking.actions.clear",
  hide: "ranking.actions.hide",
  restore: "ranking.actions.restore",
  export: "ranking.actions.export",
} as const;

/** One edit-mode button: a form of its own acting on the stored selection. */
function EditButton({ intent, suiteId, label, severity, disabled }: { intent: string; suiteId: string; label: string; severity?: string; disabled?: boolean }) {
  return (
    <Form method="post" preventScrollReset style={{ display: "inline" }}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="suite" value={suiteId} />
      <button
        type="submit"
        className={`p-button p-component p-button-sm p-button-outlined ${severity ?? ""}`}
        disabled={disabled}
        data-testid={`ranking-${intent}`}
      >
        {label}
      </button>
    </Form>
  );
}

/** The selected flag of one entry: saved at once with JavaScript, with the page's "Save selection" without. */
function SelectBox({ row, suiteId }: { row: ContributorRankingRow; suiteId: string }) {
  const fetcher = useFetcher();
  const { t } = useTranslation("admin");
  return (
    <input
      // Redrawn when the stored flag changes (select all, clear): an unchecked box does not follow defaultChecked.
      key={`${row.id}-${row.selected}`}
      type="checkbox"
      name="ids"
      value={row.id}
      form="ranking-selection"
      defaultChecked={row.selected}
      aria-label={t("ranking.selectOne", { algorithm: row.algorithm, contributor: row.contributor })}
      data-testid={`select-${row.id}`}
      onChange={(e) => {
        const form = new FormData();
        form.set("intent", "select");
        form.set("suite", suiteId);
        form.set("quiet", "1");
        form.set("page_ids", row.id);
        if (e.currentTarget.checked) form.set("ids", row.id);
        fetcher.submit(form, { method: "post" });
      }}
    />
  );
}

function EditTools({ data }: { data: ContributorRankingData }) {
  const { t } = useTranslation("admin");
  const suiteId = data.suiteId ?? "";
  const none = data.selectedCount === 0;
  return (
    <div className="ranking-edit" data-testid="ranking-edit">
      <p className="muted">{t("ranking.editLead")}</p>
      {data.notice ? <Notice kind={data.notice.kind}>{data.notice.text}</Notice> : null}
      <p>
        <strong data-testid="selected-count">{t("ranking.selectedCount", { count: data.selectedCount })}</strong>
        {" · "}
        <span data-testid="hidden-count">{t("ranking.hiddenCount", { count: data.hiddenCount })}</span>
      </p>
      {/* The checkboxes of the table below belong to this form (form="ranking-selection"). */}
      <Form method="post" id="ranking-selection" preventScrollReset className="decision-buttons" style={{ flexWrap: "wrap" }}>
        <input type="hidden" name="intent" value="select" />
        <input type="hidden" name="suite" value={suiteId} />
        {data.page.rows.map((r) => (
          <input key={r.id} type="hidden" name="page_ids" value={r.id} />
        ))}
        <button type="submit" className="p-button p-component p-button-sm" data-testid="ranking-save-selection">
          {t("ranking.saveSelection")}
        </button>
      </Form>
      <div className="decision-buttons" style={{ flexWrap: "wrap", marginTop: ".5rem" }}>
        <EditButton intent="select-all" suiteId={suiteId} label={t("ranking.selectAll")} />
        <EditButton intent="clear" suiteId={suiteId} label={t("ranking.clear")} disabled={none} />
        <EditButton intent="hide" suiteId={suiteId} label={t("ranking.hide")} severity="p-button-danger" disabled={none} />
        <EditButton intent="restore" suiteId={suiteId} label={t("ranking.restore")} severity="p-button-success" disabled={none} />
        {none ? (
          <span className="p-button p-component p-button-sm p-button-outlined p-disabled">{t("ranking.export")}</span>
        ) : (
          <a
            href={`/admin/ranking/selection.csv?suite=${encodeURIComponent(suiteId)}`}
            download
            className="p-button p-component p-button-sm p-button-outlined"
            data-testid="ranking-export"
          >
            {t("ranking.export")}
          </a>
        )}
      </div>
    </div>
  );
}

function AuditTrail({ rows }: { rows: AuditRow[] }) {
  const { t } = useTranslation("admin");
  return (
    <section data-testid="ranking-audit" style={{ marginTop: "1.5rem" }}>
      <h3>{t("ranking.auditTitle")}</h3>
      {rows.length ? (
        <div className="p-datatable p-component p-datatable-sm" style={{ overflowX: "auto" }}>
          <table className="p-datatable-table" style={{ width: "100%", borderCollapse: "collapse", textAlign: "left" }}>
            <thead className="p-datatable-thead">
              <tr>
                <th>{t("ranking.colWhen")}</th>
                <th>{t("ranking.colWho")}</th>
                <th>{t("ranking.colAction")}</th>
                <th>{t("ranking.colEntries")}</th>
              </tr>
            </thead>
            <tbody className="p-datatable-tbody">
              {rows.map((a) => (
                <tr key={a.id} data-action={a.action}>
                  <td style={{ whiteSpace: "nowrap" }}>{a.at}</td>
                  <td>{a.username}</td>
                  <td>{t(AUDIT_ACTION_KEYS[a.action])}</td>
                  <td>{a.entries.map((e) => `${e.algorithm} (${e.contributor})`).join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">{t("ranking.auditNone")}</p>
      )}
    </section>
  );
}

/** aria-sort belongs on the column header cell (WAI-ARIA columnheader), not on the link inside it. */
const sortedBy = (field: "contributor" | "institute", data: ContributorRankingData) =>
  ({ headerCell: { "aria-sort": data.sort === field ? (data.dir === "asc" ? "ascending" : "descending") : "none" } }) as const;

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
      data-testid={`sort-${field}`}
    >
      {label} <i className={`pi ${icon}`} />
    </Link>
  );
}

/** The ranking page (its loader: rankingPageLoader) under the page's own heading: /user shows it alone, /admin/ranking inside platform management. */
export function RankingPage({ children }: { children: React.ReactNode }) {
  const data = useLoaderData<typeof rankingPageLoader>();
  return (
    <section className="card">
      {children}
      <ContributorRanking data={data} />
    </section>
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
      <p>
        {data.edit ? (
          <Link
            to={hrefWith({ edit: null, msg: null, n: null })}
            preventScrollReset
            className="p-button p-component p-button-sm p-button-text"
            data-testid="ranking-done"
          >
            {t("ranking.done")}
          </Link>
        ) : (
          <Link to={hrefWith({ edit: 1 })} preventScrollReset className="p-button p-component p-button-sm p-button-outlined" data-testid="ranking-edit-mode">
            <i className="pi pi-pencil" style={{ marginRight: ".4rem" }} />
            {t("ranking.edit")}
          </Link>
        )}
      </p>
      {data.edit && data.suiteId ? <EditTools data={data} /> : null}
      <DataTable value={data.page.rows} dataKey="id" size="small" stripedRows emptyMessage={board("emptyBoard")}>
        {data.edit && data.suiteId ? (
          <Column
            header={t("ranking.colSelected")}
            body={(r: ContributorRankingRow) => <SelectBox row={r} suiteId={data.suiteId ?? ""} />}
            style={{ width: "5rem" }}
          />
        ) : null}
        <Column field="rank" header={board("colRanking")} style={{ width: "7rem" }} />
        <Column
          field="contributor"
          pt={sortedBy("contributor", data)}
          header={<SortHeader field="contributor" label={board("colContributor")} data={data} />}
        />
        <Column field="institute" pt={sortedBy("institute", data)} header={<SortHeader field="institute" label={board("colInstitute")} data={data} />} />
        <Column
          field="algorithm"
          header={board("colAlgorithm")}
          body={(r: ContributorRankingRow) => (
            <>
              {r.algorithm}{" "}
              {r.hidden ? (
                <span className="p-tag p-tag-secondary" title={t("ranking.hiddenTitle")} data-testid={`hidden-${r.id}`}>
                  {t("ranking.hiddenTag")}
                </span>
              ) : null}
            </>
          )}
        />
        <Column field="metascoreText" header={board("colMetascore")} />
      </DataTable>
      <Pager
        look="board"
        page={data.page.page}
        pageCount={data.page.pages}
        total={data.page.total}
        href={(n) => hrefWith({ page: n })}
        label={t("tabs.ranking")}
      />
      {data.edit ? <AuditTrail rows={data.audit} /> : null}
    </section>
  );
}
