// The contributor ranking's edit mode (a selected flag per entry): the actions an administrator may
// take on a board's entries and the ids a form names, with the page's messages as message refs of
// the admin namespace.

import { messageRef } from "../forms/messages.ts";

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
