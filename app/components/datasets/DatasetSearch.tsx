import { Form, Link } from "@remix-run/react";
import type { DatasetPreview } from "~/.server/datasets.server.ts";
import { Notice } from "~/components/FieldError.tsx";
import { Pager } from "./Pager.tsx";

import { NO_MATCH_TEXT } from "./messages.ts";

/**
 * The dataset search of seed 001 (user query, classification, detail pages): search type
 * (fuzzy by dataset name or exact by user name) and text, then 3 previews a page with 3
 * pictures each. A plain GET form, so it works without JavaScript.
 */
export function DatasetSearch({
  action,
  type,
  q,
  result,
  hidden = {},
  pickHref,
  pickLabel,
  pageHref,
}: {
  action: string;
  type: string;
  q: string;
  result: { items: DatasetPreview[]; page: number; pageCount: number; noMatch: boolean; total: number };
  hidden?: Record<string, string>;
  pickHref: (id: number) => string;
  pickLabel: string;
  pageHref: (page: number) => string;
}) {
  return (
    <div>
      <Form method="get" action={action} className="ds-toolbar" aria-label="Search datasets">
        {Object.entries(hidden).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <label htmlFor="ds-search-type" className="muted">
          Search by
        </label>
        <select id="ds-search-type" name="type" defaultValue={type} className="p-inputtext">
          <option value="name">Dataset name (fuzzy)</option>
          <option value="user">User name (exact)</option>
        </select>
        <input name="q" defaultValue={q} className="p-inputtext" placeholder="Search text (empty: all visible datasets)" aria-label="Search text" />
        <button type="submit" className="p-button p-component">
          <i className="pi pi-search" style={{ marginRight: ".4rem" }} /> Search
        </button>
      </Form>
      {result.noMatch ? <Notice kind="warn">{NO_MATCH_TEXT}</Notice> : null}
      {!result.noMatch && result.total === 0 ? <p className="muted">No datasets are visible to you yet.</p> : null}
      <div className="ds-previews">
        {result.items.map((d) => (
          <div key={d.id} className="card ds-preview" data-dataset-id={d.id} style={{ marginBottom: 0 }}>
            <div>
              <h3 style={{ margin: "0 0 .35rem" }}>{d.name}</h3>
              <p className="muted" style={{ margin: "0 0 .75rem" }}>
                {d.platform ? "Installed on this platform" : `by ${d.owner ?? "?"}`} · {d.isPublic ? "public" : "private"} · {d.pictureCount} picture
                {d.pictureCount === 1 ? "" : "s"}
              </p>
              <div className="ds-preview-pics">
                {d.pictures.map((p) => (
                  <img key={p.id} src={p.thumbUrl} alt={p.label ?? p.name} loading="lazy" />
                ))}
                {Array.from({ length: Math.max(0, 3 - d.pictures.length) }, (_, i) => (
                  <span key={`e${i}`} className="ds-empty">
                    no picture
                  </span>
                ))}
              </div>
            </div>
            <Link to={pickHref(d.id)} className="p-button p-component">
              {pickLabel}
            </Link>
          </div>
        ))}
      </div>
      <Pager page={result.page} pageCount={result.pageCount} href={pageHref} label="Dataset pages" />
    </div>
  );
}
