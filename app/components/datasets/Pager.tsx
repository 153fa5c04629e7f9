import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** Link-based pager (works without JavaScript): at most 7 page numbers, hidden when there is one page (seed 001 §2, §9). */
export function Pager({ page, pageCount, href, label }: { page: number; pageCount: number; href: (page: number) => string; label?: string }) {
  const { t } = useTranslation("datasets");
  if (pageCount <= 1) return null;
  const span = 7;
  let first = Math.max(1, page - Math.floor(span / 2));
  const last = Math.min(pageCount, first + span - 1);
  first = Math.max(1, last - span + 1);
  const pages = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  return (
    <nav className="ds-pager" aria-label={label ?? t("pages")}>
      {page > 1 ? (
        <Link to={href(page - 1)} preventScrollReset aria-label={t("previousPage")} className="ds-pager-item">
          ‹
        </Link>
      ) : (
        <span className="ds-pager-item disabled">‹</span>
      )}
      {pages.map((p) =>
        p === page ? (
          <span key={p} className="ds-pager-item current" aria-current="page">
            {p}
          </span>
        ) : (
          <Link key={p} to={href(p)} preventScrollReset className="ds-pager-item">
            {p}
          </Link>
        ),
      )}
      {page < pageCount ? (
        <Link to={href(page + 1)} preventScrollReset aria-label={t("nextPage")} className="ds-pager-item">
          ›
        </Link>
      ) : (
        <span className="ds-pager-item disabled">›</span>
      )}
    </nav>
  );
}
