import { Form, Link } from "@remix-run/react";
import type { DatasetPreview } from "~/.server/datasets.server.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { DATASET_MSG, SEARCH_MAX } from "~/lib/rules/datasets.ts";
import { Pager } from "../Pager.tsx";
import { useTranslation } from "react-i18next";
import { PREVIEWS_PER_PAGE } from "~/lib/rules/datasets.ts";
import { clickParams } from "~/lib/searchAnalytics.ts";

/**
 * The link that opens a result (`rank`: its 1-based place in the whole result list). Only name
 * searches are counted by the search analytics, so only their picks carry the click parameters.
 */
function pickHref(route: string, type: string, q: string, id: number, rank: number): string {
  return `${route}?dataset=${id}${type === "name" && q ? `&${clickParams(q, rank)}` : ""}`;
}

/**
 * A search as its page's loader answered it: the type and keyword asked, the page of results, and
 * the keyword's message when the server refused it (too long, control characters).
 */
export interface SearchState {
  type: string;
  q: string;
  result: { items: DatasetPreview[]; page: number; pageCount: number; noMatch: boolean; total: number };
  searchError?: string;
}

/**
 * The dataset search (user query, classification, detail pages): search type (fuzzy by dataset name
 * or exact by user name) and text, then 3 previews a page with 3 pictures each. A plain GET form,
 * so it works without JavaScript.
 */
export function DatasetSearch({
  action,
  search,
  hidden = {},
  pickRoute,
  pickLabel,
  pageHref,
}: {
  action: string;
  search: SearchState;
  hidden?: Record<string, string>;
  /** The page a result opens, as `<pickRoute>?dataset=<id>`. */
  pickRoute: string;
  pickLabel: string;
  pageHref: (page: number) => string;
}) {
  const { t } = useTranslation("datasets");
  const { type, q, result, searchError: error } = search;
  return (
    <div>
      <Form method="get" action={action} className="ds-toolbar" aria-label={t("search.label")}>
        {Object.entries(hidden).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <label htmlFor="ds-search-type" className="muted">
          {t("search.by")}
        </label>
        <select id="ds-search-type" name="type" defaultValue={type} className="p-inputtext">
          <option value="name">{t("search.byName")}</option>
          <option value="user">{t("search.byUser")}</option>
        </select>
        <input
          name="q"
          defaultValue={q}
          className="p-inputtext"
          maxLength={SEARCH_MAX}
          placeholder={t("search.placeholder")}
          aria-label={t("search.text")}
          aria-invalid={error ? true : undefined}
          aria-describedby="ds-search-error"
        />
        <button type="submit" className="p-button p-component">
          <i className="pi pi-search" style={{ marginRight: ".4rem" }} /> {t("search.submit")}
        </button>
      </Form>
      <FieldError id="ds-search-error" message={error} />
      {result.noMatch ? (
        <Notice kind="warn">
          <span data-testid="no-match">{t(DATASET_MSG.noMatch)}</span>
        </Notice>
      ) : null}
      {!error && !result.noMatch && result.total === 0 ? <p className="muted">{t("search.noneVisible")}</p> : null}
      <div className="ds-previews">
        {result.items.map((d, i) => (
          <div key={d.id} className="card ds-preview" data-dataset-id={d.id} style={{ marginBottom: 0 }}>
            <div>
              <h3 style={{ margin: "0 0 .35rem" }}>{d.name}</h3>
              <p className="muted" style={{ margin: "0 0 .75rem" }}>
                {d.platform ? t("installedHere") : t("byOwner", { owner: d.owner ?? "?" })} · {d.isPublic ? t("public") : t("private")} ·{" "}
                {t("pictureCount", { count: d.pictureCount })}
              </p>
              <div className="ds-preview-pics">
                {d.pictures.map((p) => (
                  <img key={p.id} src={p.thumbUrl} alt={p.label ?? p.name} loading="lazy" />
                ))}
                {Array.from({ length: Math.max(0, 3 - d.pictures.length) }, (_, i) => (
                  <span key={`e${i}`} className="ds-empty">
                    {t("noPicture")}
                  </span>
                ))}
              </div>
            </div>
            <Link to={pickHref(pickRoute, type, q, d.id, (result.page - 1) * PREVIEWS_PER_PAGE + i + 1)} className="p-button p-component">
              {pickLabel}
            </Link>
          </div>
        ))}
      </div>
      <Pager page={result.page} pageCount={result.pageCount} href={pageHref} label={t("datasetPages")} />
    </div>
  );
}
