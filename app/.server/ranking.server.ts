// The admin contributor ranking (/user and /admin/ranking) and its edit mode: a selected flag per
// entry; selected entries can be hidden from the public board or restored, and exported as CSV.
// Every action is audited (ranking_audits and the log).
import { Op } from "sequelize";
import { BoardMethod, RankingAudit, type AuditedEntry, type RankingAction } from "./db.server.ts";
import { chooseSuite, formatMetascore, listSuites, pageParam, paginate, rankByKappa, rankingSortParams, sortRanking, type RankRow } from "./board.server.ts";
import { logger } from "./logger.server.ts";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin, type CurrentUser } from "./session.server.ts";
import { formatDateTime } from "./servers.server.ts";
import { checkFormData } from "./forms.server.ts";
import { rankingEditSchema, rankingNotice, type RankingEdit } from "~/lib/rules/ranking.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { toCsv } from "~/lib/csv.ts";

const log = logger("ranking");

/** How many audit rows the edit mode lists. */
const AUDIT_SHOWN = 20;

export interface AdminRankRow extends RankRow {
  selected: boolean;
  hidden: boolean;
}

/** Every entry of a suite's board, hidden ones included, ranked by the fused κ as the board stores it. */
async function adminBoard(suiteId: string): Promise<AdminRankRow[]> {
  const methods = await BoardMethod.findAll({ where: { suiteId }, order: [["id", "ASC"]] });
  return rankByKappa(
    methods.map((m) => ({
      id: String(m.id),
      contributor: m.contributor,
      institute: m.institute,
      algorithm: m.algorithm,
      metascore: m.metascore,
      metascoreText: formatMetascore(m.metascore),
      localisation: m.meanLocalisation,
      selected: Boolean(m.selected),
      hidden: Boolean(m.hidden),
    })),
  );
}

export interface AuditView {
  id: number;
  at: string;
  username: string;
  action: RankingAction;
  entries: AuditedEntry[];
}

/** Everything ContributorRanking renders, for /user and the /admin child. */
export async function contributorRanking(url: URL) {
  const suites = await listSuites();
  const suite = chooseSuite(suites, url.searchParams.get("suite"));
  const { sort, dir } = rankingSortParams(url);
  const board = suite ? await adminBoard(suite.id) : [];
  const edit = url.searchParams.get("edit") === "1";
  const audit =
    edit && suite
      ? (await RankingAudit.findAll({ where: { suiteId: suite.id }, order: [["id", "DESC"]], limit: AUDIT_SHOWN })).map((a): AuditView => ({
          id: a.id,
          at: formatDateTime(a.createdAt) ?? "",
          username: a.username,
          action: a.action,
          entries: a.entries,
        }))
      : [];
  return {
    suites: suites.map((s) => ({ id: s.id, name: s.name })),
    suiteId: suite?.id ?? null,
    sort,
    dir,
    page: paginate(sortRanking(board, sort, dir), pageParam(url, "page")),
    edit,
    notice: edit ? rankingNotice(url.searchParams.get("msg"), Number(url.searchParams.get("n")) || 0) : null,
    selectedCount: board.filter((r) => r.selected).length,
    hiddenCount: board.filter((r) => r.hidden).length,
    audit,
  };
}

const entryOf = (m: BoardMethod): AuditedEntry => ({ id: m.id, contributor: m.contributor, algorithm: m.algorithm });

async function audit(admin: CurrentUser, action: RankingAction, suiteId: string, entries: BoardMethod[]): Promise<void> {
  if (!entries.length) return;
  await RankingAudit.create({ userId: admin.id, username: admin.username, action, suiteId, entriesJson: JSON.stringify(entries.map(entryOf)) });
  log.info({ admin: admin.username, action, suiteId, ids: entries.map((e) => e.id) }, "contributor ranking edited");
}

export type RankingActionResult = { msg: "selected" | "cleared" | "hidden" | "restored" | "select-first" | "invalid"; n: number };

/** Sets one flag on the listed entries (those that change), audits them, and says how many changed. */
async function setFlag(admin: CurrentUser, suiteId: string, entries: BoardMethod[], flag: "selected" | "hidden", value: boolean, action: RankingAction) {
  const changing = entries.filter((m) => Boolean(m[flag]) !== value);
  if (changing.length) await BoardMethod.update({ [flag]: value }, { where: { id: changing.map((m) => m.id) } });
  await audit(admin, action, suiteId, changing);
  return changing.length;
}

/**
 * An edit-mode form, read through its rules (app/lib/rules/ranking.ts rankingEditSchema): `select`
 * makes the ticked `ids` among the page's `page_ids` the page's selection; `select-all` and
 * `clear` select or unselect the whole board; `hide` and `restore` act on the board's selected
 * entries.
 */
export async function editRanking(admin: CurrentUser, form: FormData): Promise<RankingActionResult> {
  const checked = parseForm(form, rankingEditSchema);
  if (!checked.ok) return { msg: "invalid", n: 0 };
  const board = await BoardMethod.findAll({ where: { suiteId: checked.value.suiteId }, order: [["id", "ASC"]] });
  return apply(admin, checked.value, board);
}

async function apply(admin: CurrentUser, edit: RankingEdit, board: BoardMethod[]): Promise<RankingActionResult> {
  const { intent, suiteId, pageIds, ticked } = edit;
  if (intent === "select") {
    const onPage = board.filter((m) => pageIds.includes(m.id));
    if (onPage.length !== pageIds.length) return { msg: "invalid", n: 0 };
    await setFlag(
      admin,
      suiteId,
      onPage.filter((m) => ticked.includes(m.id)),
      "selected",
      true,
      "select",
    );
    await setFlag(
      admin,
      suiteId,
      onPage.filter((m) => !ticked.includes(m.id)),
      "selected",
      false,
      "unselect",
    );
    const n = await BoardMethod.count({ where: { suiteId, selected: true } });
    return { msg: "selected", n };
  }
  if (intent === "select-all") {
    await setFlag(admin, suiteId, board, "selected", true, "select-all");
    return { msg: "selected", n: board.length };
  }
  if (intent === "clear") {
    await setFlag(admin, suiteId, board, "selected", false, "clear");
    return { msg: "cleared", n: 0 };
  }
  const selected = board.filter((m) => m.selected);
  if (!selected.length) return { msg: "select-first", n: 0 };
  const n = await setFlag(admin, suiteId, selected, "hidden", intent === "hide", intent === "hide" ? "hide" : "restore");
  return { msg: intent === "hide" ? "hidden" : "restored", n };
}

/** The selection as CSV (the board's order and columns, plus whether each entry is hidden); the export is audited. */
export async function exportSelection(admin: CurrentUser, suiteId: string): Promise<string | null> {
  const board = (await adminBoard(suiteId)).filter((r) => r.selected);
  if (!board.length) return null;
  const selected = await BoardMethod.findAll({ where: { suiteId, id: { [Op.in]: board.map((r) => Number(r.id)) } }, order: [["id", "ASC"]] });
  await audit(admin, "export", suiteId, selected);
  return toCsv([
    ["Ranking", "contributor", "institute", "algorithm", "metascore", "hidden"],
    ...board.map((r) => [r.rank, r.contributor, r.institute, r.algorithm, r.metascoreText, r.hidden ? "yes" : "no"]),
  ]);
}

/**
 * The action of /user and /admin/ranking: the edit, then back to the same page in edit mode with
 * what happened (?msg=…&n=…). A checkbox toggled with JavaScript sends quiet=1 and gets plain
 * data (its fetcher reloads the page's data without a navigation).
 */
export async function rankingAction(request: Request, admin: CurrentUser): Promise<{ back: string } | { quiet: RankingActionResult }> {
  const form = checkFormData(await request.formData());
  const result = await editRanking(admin, form);
  if (form.get("quiet") === "1") return { quiet: result };
  const url = new URL(request.url);
  url.searchParams.delete("index");
  url.searchParams.set("edit", "1");
  url.searchParams.set("msg", result.msg);
  url.searchParams.set("n", String(result.n));
  return { back: url.pathname + url.search };
}

/** The loader of both pages that show the ranking, /user and /admin/ranking (administrators only). */
export async function rankingPageLoader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return contributorRanking(new URL(request.url));
}

/** The action of both ranking pages: the edit mode's forms (select, select all, clear, hide, restore). */
export async function rankingPageAction({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const r = await rankingAction(request, admin);
  return "back" in r ? redirect(r.back) : r.quiet;
}
