// The local explanation (the bird page's, the car page's step 6): the greedy routing path from the
// root to the leaf, one row per internal node: its prototype, the patch of this image nearest to it
// (outlined), that patch's similarity map, the similarity exp(−distance) and the way it routed;
// then the leaf's class distribution.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { PredictionView } from "~/.server/trees.server.ts";
import { useNodeName } from "./nodeName.ts";

export function LocalExplanation({ title, prediction, children }: { title: string; prediction: PredictionView; children?: ReactNode }) {
  const { t } = useTranslation("trees");
  const nodeName = useNodeName();
  const top = prediction.leafDistribution
    .map((p, i) => ({ p, name: prediction.classNames[i] ?? String(i) }))
    .sort((a, b) => b.p - a.p)
    .slice(0, 5);
  return (
    <div className="card" id="explanation">
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      <p className="muted">{t("pathIntro")}</p>
      <ol className="tree-path" data-testid="tree-path">
        {prediction.path.map((s) => (
          <li key={s.nodeId} data-node={s.nodeId}>
            {/* The list numbers the steps; a "Node 1 · Node 0" prefix repeated the number as a node's. */}
            <strong>{nodeName(s.nodeName)}</strong>
            <div className="ds-result-images">
              <NodeFigure src={s.prototype} alt={t("prototypeAlt", { node: nodeName(s.nodeName) })} caption={t("prototype")} />
              <NodeFigure src={s.patch} alt={t("patchAlt", { node: nodeName(s.nodeName) })} caption={t("patch")} />
              <NodeFigure src={s.heatmap} alt={t("heatmapAlt", { node: nodeName(s.nodeName) })} caption={t("heatmap")} />
            </div>
            <p>
              {t("similarity", { value: s.similarity.toFixed(3) })} · {t(s.direction === "right" ? "wentRight" : "wentLeft")}
            </p>
          </li>
        ))}
      </ol>
      <p data-testid="leaf">
        {t("leafReached", { leaf: prediction.leafId })} {top.map((c) => `${c.name} ${(c.p * 100).toFixed(1)}%`).join(" · ")}
      </p>
      {prediction.greedyPredicted !== prediction.predicted ? (
        <p className="muted" data-testid="leaf-differs">
          {t("leafDiffers", { name: prediction.greedyPredictedName, predicted: prediction.predictedName })}
        </p>
      ) : null}
      {children}
    </div>
  );
}

/** One of a path step's pictures (prototype, patch, heatmap), where the step has it. */
function NodeFigure({ src, alt, caption }: { src: string | null | undefined; alt: string; caption: string }) {
  return src ? (
    <figure>
      <img src={src} alt={alt} />
      <figcaption>{caption}</figcaption>
    </figure>
  ) : null;
}
