// The site's one pager: links that carry the page number, so paging works without JavaScript and
// each paged list on a page pages on its own, with the current page marked for assistive
// technology. Two looks: "compact" (the dataset pages: arrows and at most seven page numbers,
// nothing for a single page; styles in app/components/datasets/styles.tsx) and "board" (the rank
// tables: worded buttons, every page and the entry count; styles in app/styles/metarank.css).
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** Page numbers the compact look shows at most, around the current page. */
const COMPACT_SPAN = 7;

const LOOKS = {
  compact: { nav: "ds-pager", page: "ds-pager-item", step: "ds-pager-item", stepDisabled: "ds-pager-item disabled" },
  board: {
    nav: "pager",
    page: "pager-page",
    step: "p-button p-button-text p-button-sm",
    stepDisabled: "p-button p-button-text p-button-sm p-disabled",
  },
} as const;

export interface PagerProps {
  page: number;
  pageCount: number;
  href: (page: number) => string;
  /** What is paged: the navigation's name (compact: the whole name, "Pages" when absent; board: "<label> pages"). */
  label?: string;
  look?: keyof typeof LOOKS;
  /** Rows in all pages (the board look says it). */
  total?: number;
}

/** The page numbers shown: all of them, or a window of `span` around `page`. */
function pageNumbers(page: number, pageCount: number, span: number | null): number[] {
  let first = 1;
  let last = pageCount;
  if (span !== null) {
    first = Math.max(1, page - Math.floor(span / 2));
    last = Math.min(pageCount, first + span - 1);
    first = Math.max(1, last - span + 1);
  }
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

export function Pager({ page, pageCount, href, label, look = "compact", total = 0 }: PagerProps) {
  const css = LOOKS[look];
  // Every namespace is loaded on every page (app/i18n/config.ts): the compact look's words are the
  // dataset pages' (unprefixed), the board look's the boards' ("board:").
  const { t } = useTranslation(["datasets", "board"]);
  const board = look === "board";
  const entries = board ? t("board:entries", { count: total }) : null;
  if (pageCount <= 1) return entries === null ? null : <p className={`${css.nav} muted`}>{entries}</p>;
  const previous = board ? <>‹ {t("board:previous")}</> : "‹";
  const next = board ? <>{t("board:next")} ›</> : "›";
  return (
    <nav className={css.nav} aria-label={board ? t("board:pagesOf", { label }) : (label ?? t("pages"))}>
      {page > 1 ? (
        <Link to={href(page - 1)} preventScrollReset rel={board ? "prev" : undefined} aria-label={board ? undefined : t("previousPage")} className={css.step}>
          {previous}
        </Link>
      ) : (
        <span className={css.stepDisabled}>{previous}</span>
      )}
      {pageNumbers(page, pageCount, board ? null : COMPACT_SPAN).map((p) =>
        p === page ? (
          <span key={p} className={`${css.page} current`} aria-current="page">
            {p}
          </span>
        ) : (
          <Link key={p} to={href(p)} preventScrollReset className={css.page}>
            {p}
          </Link>
        ),
      )}
      {page < pageCount ? (
        <Link to={href(page + 1)} preventScrollReset rel={board ? "next" : undefined} aria-label={board ? undefined : t("nextPage")} className={css.step}>
          {next}
        </Link>
      ) : (
        <span className={css.stepDisabled}>{next}</span>
      )}
      {entries === null ? null : <span className="muted"> {entries}</span>}
    </nav>
  );
}
