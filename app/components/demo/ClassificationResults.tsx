// Steps 4 and 5 of an image classification: ground truth, predicted class and probability, which
// model and data produced them (with the out-of-distribution check of
// app/.server/demoResult.server.ts), then the attribution images. Shared by /UserImgclassification
// and the per-dataset demo pages (app/routes/demos/scenesDataset.tsx, imagenet.tsx, coco.tsx), which run the
// same classifiers on their own data.
import { useTranslation } from "react-i18next";
import type { ResultView } from "~/.server/classification.server.ts";
import type { ResultProvenance } from "~/.server/demoResult.server.ts";
import { MapFigures, ResultFigure } from "~/components/demo/ResultFigure.tsx";

// `poolFlow`: the per-dataset pages have two steps before the results (pool, run), not three
// (dataset, image, run): their results are steps 3 and 4, or the page went from step 2 to step 4.
export function ClassificationResults({
  result,
  provenance,
  poolFlow = false,
}: {
  result: ResultView;
  provenance: ResultProvenance | null;
  poolFlow?: boolean;
}) {
  const { t, i18n } = useTranslation("demo");
  const check = provenance?.check;
  const ood = check?.kind === "outOfDistribution" ? check : null;
  const model = provenance?.model;
  const percent = (x: number) => new Intl.NumberFormat(i18n.language === "zh" ? "zh-CN" : "en", { style: "percent", maximumFractionDigits: 1 }).format(x);
  return (
    <>
      <div className="card" id="results">
        <h2 style={{ marginTop: 0 }}>{t(poolFlow ? "step3Prediction" : "step4")}</h2>
        {ood && model ? (
          <div className="notice notice-warn" role="alert" data-testid="out-of-distribution">
            <strong>{t("ood.title")}</strong>
            <p style={{ margin: ".35rem 0 0" }}>
              {t("ood.body", {
                data: model.dataTitle,
                classes: model.classes,
                score: ood.score,
                threshold: ood.threshold,
                feature: t(`ood.feature.${ood.feature}`),
              })}
            </p>
          </div>
        ) : null}
        <dl className="profile-grid">
          <dt>{t("groundTruth")}</dt>
          <dd data-testid="ground-truth">{result.groundTruth ?? t("noLabel")}</dd>
          <dt>{t("predicted")}</dt>
          {ood ? (
            <dd data-testid="predicted">
              <em>{t("ood.predicted")}</em>
              <br />
              <small className="muted" data-testid="raw-output">
                {t("ood.raw", { label: result.predictedClass, probability: result.probabilityText })}
              </small>
            </dd>
          ) : (
            <dd data-testid="predicted">{result.predictedClass}</dd>
          )}
          {ood ? null : (
            <>
              <dt>{t("probability")}</dt>
              <dd data-testid="probability">{result.probabilityText}</dd>
            </>
          )}
        </dl>
        {provenance ? (
          <section aria-labelledby="result-source" data-testid="result-source" className="result-source">
            <h3 id="result-source">{t("source.title")}</h3>
            <dl className="profile-grid">
              <dt>{t("source.model")}</dt>
              <dd data-testid="result-model">
                {model
                  ? t("source.modelLine", { arch: model.arch, id: model.id, data: model.dataTitle, classes: model.classes })
                  : t("source.modelUnknown", { id: result.modelId })}
                {model?.testAccuracy != null ? (
                  <>
                    <br />
                    <small className="muted">{t("source.accuracy", { accuracy: percent(model.testAccuracy) })}</small>
                  </>
                ) : null}
              </dd>
              <dt>{t("source.data")}</dt>
              <dd data-testid="result-data">
                {t("source.picture", { name: provenance.picture.name, dataset: provenance.picture.dataset })}
                <br />
                <small className="muted" data-testid="distribution-check" data-check={check?.kind}>
                  {check?.kind === "heldOut"
                    ? t("source.heldOut")
                    : check?.kind === "inDistribution"
                      ? t("source.inDistribution", { score: check.score, threshold: check.threshold, count: check.calibration })
                      : check?.kind === "unchecked"
                        ? t(
                            check.reason === "noHeldOut"
                              ? "source.uncheckedNoHeldOut"
                              : check.reason === "unreadable"
                                ? "source.uncheckedUnreadable"
                                : "source.uncheckedNoModel",
                          )
                        : null}
                </small>
                {check?.kind === "outOfDistribution" || check?.kind === "inDistribution" ? (
                  <details>
                    <summary className="muted">{t("ood.how")}</summary>
                    <small>{t("ood.method")}</small>
                  </details>
                ) : null}
              </dd>
            </dl>
          </section>
        ) : null}
      </div>
      <div className="card">
        <h2 style={{ marginTop: 0 }}>{t(poolFlow ? "step4Map" : "step5", { algorithm: result.algorithm })}</h2>
        <div className="ds-result-images">
          <ResultFigure src={`/explanation/${result.id}?kind=input`} caption={t("inputShown")} testId="input" />
          <MapFigures heatmapUrl={result.heatmapUrl} overlayUrl={result.overlayUrl} />
        </div>
      </div>
    </>
  );
}
