// The contributor ranking's edit mode (a selected flag per entry): the actions an administrator may
// take on a board's entries and the ids a form names, with the page's messages as message refs of
// the admin namespace.

import type { z } from "zod";
import { messageRef } from "../forms/messages.ts";
import { formSchema, parseIds, type FieldErrors } from "../forms/parse.ts";

/** select: the ticked entries of the page (page_ids) become the page's selection; the others act on the stored selection. */
export const RANKING_INTENTS = ["select", "select-all", "clear", "hide", "restore"] as const;
export type RankingIntent = (typeof RANKING_INTENTS)[number];

export const isRankingIntent = (v: unknown): v is RankingIntent => typeof v === "string" && (RANKING_INTENTS as readonly string[]).includes(v);

/** The notice after an action (?msg=…&n=…), as a message ref. */
export function rankingNotice(msg: string | null, n: number): { kind: "success" | "warn"; text: string } | null {
  switch (msg) {
    case "selected":
      return { kind: "success", text: messageRef("admin:ranking.msg.selected", { count: n }) };
    case "cleared":
      return { kind: "success", text: "admin:ranking.msg.cleared" };
    case "hidden":
      return { kind: "success", text: messageRef("admin:ranking.msg.hidden", { count: n }) };
    case "restored":
      return { kind: "success", text: messageRef("admin:ranking.msg.restored", { count: n }) };
    case "select-first":
      return { kind: "warn", text: "admin:ranking.msg.selectFirst" };
    case "invalid":
      return { kind: "warn", text: "admin:ranking.msg.invalid" };
    default:
      return null;
  }
}

/** Any edit form that is not one of the page's: the notice's "invalid" (admin:ranking.msg.invalid). */
export const RANKING_INVALID = "admin:ranking.msg.invalid";

export interface RankingEditInput {
  intent: string;
  suite: string;
  page_ids: string[];
  ids: string[];
}

/**
 * An edit-mode form: one of the intents and a suite; `select` also names the page's entries
 * (page_ids) and the ticked ones among them (ids), each ids as parseIds reads them. Whether the
 * page's entries are the suite's is the server's check (it reads the board).
 */
export function validateRankingEdit(v: RankingEditInput): FieldErrors {
  if (!isRankingIntent(v.intent) || !v.suite) return { form: RANKING_INVALID };
  if (v.intent !== "select") return {};
  const pageIds = parseIds(v.page_ids);
  const ticked = parseIds(v.ids);
  if (!pageIds || !ticked || ticked.some((id) => !pageIds.includes(id))) return { form: RANKING_INVALID };
  return {};
}

/** parseForm(form, rankingEditSchema): the intent, the suite, and for `select` the page's ids and the ticked ones. */
export const rankingEditSchema = formSchema({ intent: "raw", suite: "raw", page_ids: "list", ids: "list" }, validateRankingEdit).transform((v) => ({
  intent: v.intent as RankingIntent,
  suiteId: v.suite,
  pageIds: parseIds(v.page_ids) ?? [],
  ticked: parseIds(v.ids) ?? [],
}));

/** A checked edit-mode form. */
export type RankingEdit = z.output<typeof rankingEditSchema>;
