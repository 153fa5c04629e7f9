// The history table (the history and approval screens): user name, institute, algorithm name,
// metascore, ranking, Submit Time, Status (coloured). Sorting is by links (works without
// JavaScript); the approval screen adds its Details and Decisions columns.
import { Link } from "@remix-run/react";
import { DataTable } from "primereact/datatable";
import { Column } from "primereact/column";
import { SOURCE_LABEL, useHrefWith } from "./RankTable.tsx";
import { useTranslation } from "react-i18next";
import { SubmissionStatus } from "../../lib/submissionStatus.ts";
import type { Provenance } from "../../lib/provenance.ts";

export interface SubmissionRow {
  id: number;
  username: string;
  institute: string;
  algorithm: string;
  /** The board it was submitted to. */
  suiteId: string;
  suiteName: string;
  metascoreText: string;
  ranking: number;
  submitTime: string;
  status: SubmissionStatus;
  morfName: string;
  lerfName: string;
  pythonName: string | null;
  email: string;
  info: string;
  current: { metascoreText: string; rank: number; boardSize: number } | null;
  /** Computed by the platform from the submitter's maps (verified), or uploaded as CSV (self-reported). */
  provenance: Provenance;
  /** The maps evaluation behind a verified submission. */
  evaluationRunId: number | null;
  /** A rejection's reason, given by the administrator for the submitter. */
  decisionNote: string | null;
}

/** The provenance badge (the boards' Source column uses the same words and colours). */
export function ProvenanceBadge({ provenance }: { provenance: Provenance }) {
  const { t } = useTranslation("board");
  return (
    <span className={`rank-source rank-source-${provenance}`} data-provenance={provenance}>
      {t(SOURCE_LABEL[provenance])}
    </span>
  );
}

export type SortKey = "time" | "metascore" | "ranking";

export const statusClass = (s: SubmissionRow["status"]) =>
  s === SubmissionStatus.approved ? "status-approved" : s === SubmissionStatus.rejected ? "status-rejected" : "status-inprocess";

const STATUS_KEY: Record<SubmissionStatus, string> = {
  [SubmissionStatus.inProcess]: "table.inProcess",
  [SubmissionStatus.rejected]: "table.rejected",
  [SubmissionStatus.approved]: "table.approved",
};

/** A rejection's reason up to this length shows in full under the status; a longer one opens on demand. */
const NOTE_SHOWN = 160;

export function StatusText({ status, note = null }: { status: SubmissionRow["status"]; note?: string | null }) {
  const { t } = useTranslation("submission");
  const text = (
    <span className={statusClass(status)} data-status={status}>
      {t(STATUS_KEY[status])}
    </span>
  );
  if (!note) return text;
  // The administrator's reason under the status, as typed (line breaks kept). A long one opens
  // on demand: in full it made a phone's table row thousands of pixels tall (a new-user walk).
  if (note.length <= NOTE_SHOWN)
    return (
      <>
        {text}
        <small className="decision-note" data-testid="decision-note">
          {t("table.reason", { note })}
        </small>
      </>
    );
  return (
    <>
      {text}
      <details className="decision-note" data-testid="decision-note">
        <summary>{t("table.reason", { note: `${note.slice(0, NOTE_SHOWN - 40).trimEnd()}…` })}</summary>
        {note}
      </details>
    </>
  );
}

/** aria-sort belongs on the column header cell (WAI-ARIA columnheader), not on the link inside it. */
const sortedBy = (field: SortKey, sort: SortKey, dir: "asc" | "desc") =>
  ({ headerCell: { "aria-sort": sort === field ? (dir === "asc" ? "ascending" : "descending") : "none" } }) as const;

function SortHeader({ field, label, sort, dir }: { field: SortKey; label: string; sort: SortKey; dir: "asc" | "desc" }) {
  const hrefWith = useHrefWith();
  const active = sort === field;
  const nextDir = active ? (dir === "asc" ? "desc" : "asc") : field === "time" ? "desc" : "asc";
  const icon = active ? (dir === "asc" ? "pi-sort-amount-up-alt" : "pi-sort-amount-down") : "pi-sort-alt";
  return (
    <Link to={hrefWith({ sort: field, dir: nextDir, confirm: null, decision: null })} preventScrollReset className="sort-link" data-testid={`sort-${field}`}>
      {label} <i className={`pi ${icon}`} />
    </Link>
  );
}

/**
 * An approved method's number today (as the leaderboard shows it) with the number at submission
 * time beside it; other submissions have only the latter, so no number looks newer than it is.
 */
function Standing({ now, then, testId }: { now: string | null; then: string; testId: string }) {
  const { t } = useTranslation("submission");
  if (now === null)
    return (
      <span data-testid={testId} title={t("table.atSubmissionHelp")}>
        {then}
      </span>
    );
  return (
    <span data-testid={testId}>
      <span data-testid={`${testId}-now`}>{now}</span>
      <br />
      <small className="muted">{t("table.atSubmission", { value: then })}</small>
    </span>
  );
}

/** Submit Time in UTC, to the minute: the same on the server render and in the browser. */
export const formatTime = (iso: string) => iso.slice(0, 16).replace("T", " ") + " UTC";

export function SubmissionTable({
  rows,
  sort,
  dir,
  extraColumns = [],
  testId,
}: {
  rows: SubmissionRow[];
  sort: SortKey;
  dir: "asc" | "desc";
  extraColumns?: React.ReactElement[];
  testId?: string;
}) {
  const { t } = useTranslation("submission");
  return (
    <div data-testid={testId}>
      <DataTable
        value={rows}
        dataKey="id"
        size="small"
        stripedRows
        emptyMessage={t("table.empty")}
        rowClassName={(r: SubmissionRow) => `submission-row submission-${r.id}`}
      >
        <Column field="username" header={t("table.username")} />
        <Column field="institute" header={t("table.institute")} />
        <Column
          header={t("table.algorithm")}
          body={(r: SubmissionRow) => (
            <>
              {r.algorithm}
              {/* Which board it was submitted to, under the name (a column of its own would push the
                  approval table's Decisions out of view at laptop widths, tests/e2e/approvalLayout). */}
              <br />
              <small className="muted">
                <Link to={`/leaderboard?suite=${encodeURIComponent(r.suiteId)}`} title={t("table.suite")} data-testid={`suite-${r.id}`} data-suite={r.suiteId}>
                  {r.suiteName}
                </Link>
              </small>
            </>
          )}
        />
        <Column
          pt={sortedBy("metascore", sort, dir)}
          header={<SortHeader field="metascore" label={t("table.metascore")} sort={sort} dir={dir} />}
          body={(r: SubmissionRow) => <Standing now={r.current ? r.current.metascoreText : null} then={r.metascoreText} testId={`metascore-${r.id}`} />}
        />
        <Column
          pt={sortedBy("ranking", sort, dir)}
          header={<SortHeader field="ranking" label={t("table.ranking")} sort={sort} dir={dir} />}
          body={(r: SubmissionRow) => (
            <Standing
              now={r.current ? t("table.rankOf", { rank: r.current.rank, size: r.current.boardSize }) : null}
              then={String(r.ranking)}
              testId={`ranking-${r.id}`}
            />
          )}
        />
        <Column
          pt={sortedBy("time", sort, dir)}
          header={<SortHeader field="time" label={t("table.submitTime")} sort={sort} dir={dir} />}
          body={(r: SubmissionRow) => <time dateTime={r.submitTime}>{formatTime(r.submitTime)}</time>}
        />
        <Column header={t("table.source")} body={(r: SubmissionRow) => <ProvenanceBadge provenance={r.provenance} />} />
        <Column header={t("table.status")} body={(r: SubmissionRow) => <StatusText status={r.status} note={r.decisionNote} />} />
        {extraColumns}
      </DataTable>
    </div>
  );
}
