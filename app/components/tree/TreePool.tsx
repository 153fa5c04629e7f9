// Step 1 of the tree pages (the common demo flow's pool; the bird page's left column, the car
// page's step 1): the chosen image, a pool of the tree's data (6 a row, the picked one with a red
// border), a refresh button (a new pool seed) and the dataset introduction.
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { PoolImageView } from "~/.server/trees.server.ts";
import { treeHref, type TreeParams } from "./urls.ts";

/** What the pool step reads from a tree page's loader data (app/.server/treePage.server.ts). */
export interface PoolData {
  pool: PoolImageView[];
  chosen: PoolImageView | null;
  seed: number;
  /** The chosen model, kept in the pool's links. */
  model: string;
  /** The tree's data (null when no tree could be read: no introduction then). */
  tree: { datasetName: string; classes: number } | null;
  /** Whether the tree is the platform's on its own data (the dataset is not installed). */
  ownData: boolean;
}

export function TreePool({ page, title, data }: { page: "cub" | "cars"; title: string; data: PoolData }) {
  const { pool, chosen, seed, tree } = data;
  const route = `/${page}`;
  const keep: TreeParams = { model: data.model };
  const { t } = useTranslation("trees");
  return (
    <div className="card" id="pool">
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      <div className="tree-chosen" data-testid="chosen-image">
        {chosen ? (
          <figure style={{ margin: 0 }}>
            <img src={chosen.src} alt={t("chosenAlt", { label: chosen.labelName })} width={160} height={160} />
            <figcaption className="muted">{t("chosenCaption", { label: chosen.labelName })}</figcaption>
          </figure>
        ) : (
          <p className="muted">{t("noChosen")}</p>
        )}
      </div>
      <div className="ds-toolbar" style={{ gap: ".5rem", margin: ".75rem 0" }}>
        <Link
          className="p-button p-button-outlined p-button-sm"
          to={treeHref(route, { ...keep, seed: String(seed + 1), sample: "" }, "pool")}
          data-testid="refresh-pool"
        >
          <i className="pi pi-refresh" aria-hidden="true" />
          &nbsp;{t("refreshPool")}
        </Link>
      </div>
      {tree ? (
        <details className="tree-intro" data-testid="dataset-intro">
          <summary>{t("datasetIntro")}</summary>
          <p>{t(page === "cub" ? "cub.dataIntro" : "cars.dataIntro")}</p>
          <p>{t("dataUsed", { data: tree.datasetName, classes: tree.classes })}</p>
          {data.ownData ? <p>{t(page === "cub" ? "cub.notInstalled" : "cars.notInstalled", { data: tree.datasetName })}</p> : null}
        </details>
      ) : null}
      {pool.length ? (
        <ul className="tree-pool" data-testid="tree-pool">
          {pool.map((p) => (
            <li key={p.sampleId} className={`ds-tile${chosen?.sampleId === p.sampleId ? " picked" : ""}`} data-sample={p.sampleId}>
              <Link to={treeHref(route, { ...keep, seed: String(seed), sample: p.sampleId }, "pool")} aria-label={t("pick", { label: p.labelName })}>
                <img src={p.src} alt={p.labelName} />
              </Link>
              <span className="ds-caption">{p.labelName}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t("poolEmpty")}</p>
      )}
    </div>
  );
}
