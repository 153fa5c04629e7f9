// A tree as the sidecar draws it (Tree.Export, app/routes/trees/download.ts) with the
// tree pages' download buttons (docs/product.md "Prototype-tree pages"): the HD vector graphic (SVG, PDF) and the node prototypes (zip).
// `full`: the tree before pruning (the car page's step 4), otherwise pruned and projected.
import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { treeFile } from "./urls.ts";

/** The drawing's downloads, in the page's order (docs/product.md "Prototype-tree pages"): the HD vector graphic (the first, filled, with an icon) and the node prototypes. */
const DOWNLOADS = [
  { format: "svg", label: "trees:hdSvg", outlined: false },
  { format: "pdf", label: "trees:hdPdf", outlined: true },
  { format: "zip", label: "trees:prototypesZip", outlined: true },
] as const;

export function TreeDrawing({
  treeId,
  full,
  title,
  id,
  edits,
  children,
}: {
  treeId: string;
  full: boolean;
  title: string;
  id: string;
  edits: number;
  children?: ReactNode;
}) {
  const { t } = useTranslation("trees");
  // A changed edit list draws another picture: the count is in the address so the browser asks again.
  const src = `${treeFile(treeId, "svg", full)}${full ? "&" : "?"}v=${edits}`;
  // The wide drawing opens on its root, which is in the middle (without JavaScript it starts at
  // the left edge, still showing the tree's structure).
  const box = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const a = box.current;
    const img = a?.querySelector("img");
    if (!full || !a || !img) return;
    const centre = () => a.scrollTo({ left: (a.scrollWidth - a.clientWidth) / 2 });
    if (img.complete) centre();
    else img.addEventListener("load", centre, { once: true });
    return () => img.removeEventListener("load", centre);
  }, [full, src]);
  return (
    <div className="card" id={id}>
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      {/* The sidecar draws the tree thousands of pixels wide (a depth-8 tree is about 4000 × 1850):
          shown at that size the box held only its top-left corner, the root being off to the
          right, and looked empty. Fitted to the box the whole tree is seen; the picture opens at
          full size in its own tab (the vector graphic zooms without blur). The tree before pruning
          (256 leaves at depth 8) fitted so was a strip about 50 px high: it keeps a readable height
          and scrolls sideways instead. */}
      <figure className={"tree-drawing" + (full ? " tree-drawing-wide" : "")}>
        <a ref={box} href={src} target="_blank" rel="noreferrer" data-testid={full ? "full-open" : "pruned-open"}>
          <img src={src} alt={t(full ? "fullTreeAlt" : "prunedTreeAlt")} data-testid={full ? "tree-full-image" : "tree-image"} loading="lazy" />
        </a>
        <figcaption className="muted">{t(full ? "drawingHintWide" : "drawingHint")}</figcaption>
      </figure>
      <div className="ds-toolbar" style={{ gap: ".5rem", marginTop: ".75rem", flexWrap: "wrap" }}>
        {DOWNLOADS.map(({ format, label, outlined }) => (
          <a
            key={format}
            className={outlined ? "p-button p-button-sm p-button-outlined" : "p-button p-button-sm"}
            href={treeFile(treeId, format, full, true)}
            download
            data-testid={`${full ? "full" : "pruned"}-${format}`}
          >
            {outlined ? (
              t(label)
            ) : (
              <>
                <i className="pi pi-download" aria-hidden="true" />
                &nbsp;{t(label)}
              </>
            )}
          </a>
        ))}
        {children}
      </div>
    </div>
  );
}
