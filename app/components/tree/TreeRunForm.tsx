// Step 2 of the tree pages: model select (the platform's trees under their model names, and the
// user's saved ones), the inference algorithm ("none" offered but disabled: the tree's own
// explanation is the method) and start; the two required-field messages under their fields.
import { Form, useNavigation } from "@remix-run/react";
import { Button } from "primereact/button";
import { ProgressSpinner } from "primereact/progressspinner";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FieldError } from "~/components/FieldError.tsx";
import { translateMessage } from "~/lib/forms/messages.ts";
import { TREE_ALGORITHMS, TREE_ALGORITHM } from "~/lib/rules/trees.ts";
import { ButtonField } from "~/components/ButtonField.tsx";

export function TreeRunForm({
  title,
  models,
  model,
  sample,
  modelsError,
  errors,
}: {
  title: string;
  models: Array<{ id: string; label: string; platform: boolean }>;
  model: string;
  sample: string;
  modelsError: string | null;
  errors?: { model?: string; image?: string };
}) {
  const { t } = useTranslation(["trees", "demo"]);
  const nav = useNavigation();
  const running = nav.state !== "idle" && nav.formData?.get("intent") === "predict";
  const platform = models.filter((m) => m.platform);
  const mine = models.filter((m) => !m.platform);
  return (
    <div className="card" id="run">
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      <Form method="post" className="ds-toolbar" style={{ alignItems: "flex-start" }} aria-label={t("start")}>
        <input type="hidden" name="intent" value="predict" />
        <input type="hidden" name="sample" value={sample} />
        <div className="field">
          <label htmlFor="model">{t("demo:model")}</label>
          <select id="model" name="model" className="p-inputtext" defaultValue={model} key={`m${model}`} aria-describedby="model-error">
            <option value="">{t("demo:choose")}</option>
            <TreeGroup label={t("platformTrees")} trees={platform} />
            <TreeGroup label={t("myTrees")} trees={mine} />
          </select>
          <FieldError id="model-error" message={errors?.model} />
          {modelsError ? <small className="muted">{translateMessage(t, modelsError)}</small> : null}
        </div>
        <div className="field">
          <label htmlFor="algorithm">{t("algorithm")}</label>
          <select id="algorithm" name="algorithm" className="p-inputtext" defaultValue={TREE_ALGORITHM}>
            {TREE_ALGORITHMS.map((a) => (
              <option key={a.value} value={a.value} disabled={a.disabled}>
                {t(`algorithms.${a.value}`)}
              </option>
            ))}
          </select>
        </div>
        <ButtonField>
          <Button type="submit" label={t("start")} icon="pi pi-play" loading={running} />
        </ButtonField>
      </Form>
      <FieldError id="image-error" message={errors?.image} />
      {running ? <Elapsed label={t("predicting")} /> : null}
    </div>
  );
}

/** While a request runs: the seconds so far (the "about 15 s" notice of docs/product.md "Prototype-tree pages" as a real count). */
/** One group of the model select (the platform's trees, or the user's own); nothing when it has none. */
function TreeGroup({ label, trees }: { label: string; trees: { id: string; label: string }[] }) {
  const { t } = useTranslation(["trees", "demo"]);
  return trees.length ? (
    <optgroup label={label}>
      {trees.map((m) => (
        <option key={m.id} value={m.id}>
          {translateMessage(t, m.label)}
        </option>
      ))}
    </optgroup>
  ) : null;
}

export function Elapsed({ label }: { label: string }) {
  const [s, setS] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const id = setInterval(() => setS(Math.round((Date.now() - started) / 1000)), 500);
    return () => clearInterval(id);
  }, []);
  const { t } = useTranslation("trees");
  return (
    <div className="ds-busy" role="status" aria-live="polite" data-testid="busy">
      <ProgressSpinner style={{ width: 28, height: 28 }} strokeWidth="6" /> {label} {t("seconds", { count: s })}
    </div>
  );
}
