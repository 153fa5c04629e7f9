// The first two steps of the demos that explain one picture (/UserImgclassification and
// /UserQuery): step 1 a visible dataset, step 2 one of its pictures. Both are plain links and a GET
// form whose state lives in the query string, so they work without JavaScript; the page passes its
// own route, its own translated words and the choices it must carry from step to step (model,
// algorithm, a question), so one component serves every demo.
import { Link } from "@remix-run/react";
import type { DatasetPreview, Paged, PictureView } from "~/.server/datasets.server.ts";
import { DatasetSearch } from "./DatasetSearch.tsx";
import { Pager } from "../Pager.tsx";
import { PictureTile } from "./PictureTile.tsx";

/** Step 1: search the visible datasets; picking one opens step 2 on the same route. */
export function DatasetPicker({
  route,
  title,
  hint,
  selectLabel,
  type,
  q,
  search,
  searchError,
}: {
  /** The page's own path, e.g. "/UserQuery"; every link and the search form stay on it. */
  route: string;
  title: string;
  hint?: string;
  selectLabel: string;
  type: string;
  q: string;
  search: { items: DatasetPreview[]; page: number; pageCount: number; noMatch: boolean; total: number };
  searchError?: string;
}) {
  return (
    <div className="card">
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      {hint ? <p className="muted">{hint}</p> : null}
      <DatasetSearch
        action={route}
        search={{ type, q, result: search, searchError }}
        pickRoute={route}
        pickLabel={selectLabel}
        pageHref={(page) => `${route}?${new URLSearchParams({ type, q, page: String(page) })}`}
      />
    </div>
  );
}

/** Step 2: the chosen dataset's pictures a page at a time; picking one keeps the page and the carried choices. */
export function PicturePicker({
  route,
  title,
  backLabel,
  noPicturesLabel,
  pagesLabel,
  dataset,
  pictures,
  pickedId,
  carry,
}: {
  route: string;
  title: string;
  backLabel: string;
  noPicturesLabel: string;
  pagesLabel: string;
  dataset: { id: number };
  pictures: Paged<PictureView>;
  pickedId: number | null;
  /** Query parameters to keep on every link (the run step's choices); empty values are left out. */
  carry: Record<string, string>;
}) {
  const href = (extra: Record<string, string>) => {
    const q: Record<string, string> = { dataset: String(dataset.id), page: String(pictures.page) };
    for (const [k, v] of Object.entries(carry)) if (v) q[k] = v;
    return `${route}?${new URLSearchParams({ ...q, ...extra })}`;
  };
  return (
    <div className="card">
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      <p>
        <Link to={route} className="p-button p-button-outlined p-component">
          <i className="pi pi-arrow-left" style={{ marginRight: ".4rem" }} /> {backLabel}
        </Link>
      </p>
      <div className="ds-grid" data-testid="image-grid">
        {pictures.items.map((p) => (
          <PictureTile key={p.id} picture={p} picked={pickedId === p.id} href={href({ picture: String(p.id) })} />
        ))}
      </div>
      {pictures.total === 0 ? <p className="muted">{noPicturesLabel}</p> : null}
      <Pager
        page={pictures.page}
        pageCount={pictures.pageCount}
        href={(p) => href({ page: String(p), ...(pickedId !== null ? { picture: String(pickedId) } : {}) })}
        label={pagesLabel}
      />
    </div>
  );
}
