// The prediction of a tree page (the bird page's results; the car page's step 3): ground truth,
// prediction and probability, and which tree (data, accuracy) produced them.
import { useTranslation } from "react-i18next";
import type { PredictionView } from "~/.server/trees.server.ts";
import { percent } from "./urls.ts";

export interface TreeSource {
  name: string;
  datasetName: string;
  testAccuracy: number;
  cnnAccuracy: number;
  owner: string;
  depth: number;
  leaves: number;
}

export function TreeResult({ title, prediction, source, edits }: { title: string; prediction: PredictionView; source: TreeSource; edits: number }) {
  const { t } = useTranslation("trees");
  return (
    <div className="card" id="results">
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      <dl className="tree-facts" data-testid="tree-result">
        <dt>{t("groundTruth")}</dt>
        <dd data-testid="ground-truth">{prediction.groundTruth >= 0 ? prediction.groundTruthName : t("noLabel")}</dd>
        <dt>{t("prediction")}</dt>
        <dd data-testid="predicted">{prediction.predictedName}</dd>
        <dt>{t("probability")}</dt>
        <dd data-testid="probability">{percent(prediction.probability)}</dd>
      </dl>
      {/* The probability is the soft tree's (every leaf weighted by how likely the image reaches
          it), while the local explanation ends at one leaf whose own distribution is shown: without
          this line "79.9 %" above and "Coat 100.0 %" below read as a contradiction. */}
      <p className="muted" data-testid="probability-note">
        {t("probabilityNote")}
      </p>
      {/* "Prediction: Sneaker" beside a path ending at a leaf predicting Sandal read as a
          bug; the two come from soft and greedy routing (docs/tree-service.md "Calls", Predict). */}
      {prediction.greedyPredicted !== prediction.predicted ? (
        <p className="notice notice-warn" data-testid="greedy-differs">
          {t("greedyDiffers", { name: prediction.greedyPredictedName, predicted: prediction.predictedName })}
        </p>
      ) : null}
      <p className="muted" data-testid="tree-source">
        {t(source.owner ? "sourceMine" : "sourcePlatform", {
          name: source.name,
          data: source.datasetName,
          depth: source.depth,
          leaves: source.leaves,
          accuracy: percent(source.testAccuracy),
          cnn: percent(source.cnnAccuracy),
        })}{" "}
        {edits ? t("withEdits", { count: edits }) : null} {t("took", { seconds: (prediction.elapsedMs / 1000).toFixed(1) })}
      </p>
    </div>
  );
}
