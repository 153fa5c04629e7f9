// The modify-local-prediction dialog (docs/product.md "Prototype-tree pages"): choose the class the reached leaf should favour,
// "show the modified prediction" (a Predict with that edit added, nothing stored) and "accept
// the modification" (stored as a pending favour_class edit, proto/metarank/v1/tree.proto).
// Plain forms, so it works without JavaScript.
import { Form, Link } from "@remix-run/react";
import { Button } from "primereact/button";
import { useTranslation } from "react-i18next";
import type { PredictionView } from "~/.server/trees.server.ts";
import { FieldError } from "~/components/FieldError.tsx";
import { percent } from "./urls.ts";
import { ButtonField } from "~/components/ButtonField.tsx";

export function ModifyPrediction({
  model,
  sample,
  prediction,
  closeHref,
  preview,
  error,
}: {
  model: string;
  sample: string;
  prediction: PredictionView;
  closeHref: string;
  preview?: { favourClass: number; favourName: string; prediction: PredictionView };
  error?: string;
}) {
  const { t } = useTranslation("trees");
  const chosen = preview?.favourClass ?? prediction.greedyPredicted;
  return (
    <div className="card tree-dialog" role="dialog" aria-modal="false" aria-labelledby="modify-title" id="modify" data-testid="modify-dialog">
      <h2 id="modify-title" style={{ marginTop: 0 }}>
        {t("modifyTitle")}
      </h2>
      <p className="muted">{t("modifyIntro", { leaf: prediction.leafId, name: prediction.greedyPredictedName })}</p>
      <Form method="post" className="ds-toolbar" style={{ alignItems: "flex-start", flexWrap: "wrap", gap: ".5rem" }}>
        <input type="hidden" name="model" value={model} />
        <input type="hidden" name="sample" value={sample} />
        <input type="hidden" name="leaf" value={prediction.leafId} />
        <div className="field">
          <label htmlFor="favour">{t("favourClass")}</label>
          <select id="favour" name="favour" className="p-inputtext" defaultValue={String(chosen)} key={`f${chosen}`} aria-describedby="favour-error">
            {prediction.classNames.map((name, i) => (
              <option key={i} value={String(i)}>
                {name}
              </option>
            ))}
          </select>
          <FieldError id="favour-error" message={error} />
        </div>
        <ButtonField>
          <Button type="submit" name="intent" value="previewFavour" label={t("showModified")} outlined />
        </ButtonField>
        <ButtonField>
          <Button type="submit" name="intent" value="favour" label={t("acceptModification")} icon="pi pi-check" />
        </ButtonField>
      </Form>
      {preview ? (
        <p data-testid="modified-prediction">
          {t("modifiedPrediction", {
            name: preview.prediction.predictedName,
            probability: percent(preview.prediction.probability),
            favour: preview.favourName,
          })}
        </p>
      ) : null}
      <Link to={closeHref}>{t("close")}</Link>
    </div>
  );
}
