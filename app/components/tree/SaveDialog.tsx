// The save dialog (docs/product.md "Prototype-tree pages"): the modified tree under a model name (the input's placeholder asks
// for one; tree.proto's rule, said beside it: 1–64 Latin letters, digits, '-', '_', '.'), confirm / give up. Confirm
// starts a SaveTree job (app/.server/trees.server.ts) whose progress the page shows.
import { Form, Link } from "@remix-run/react";
import { Button } from "primereact/button";
import { useTranslation } from "react-i18next";
import { FieldError } from "~/components/FieldError.tsx";
import { ButtonField } from "~/components/ButtonField.tsx";

export function SaveDialog({ model, sample, closeHref, edits, error }: { model: string; sample: string; closeHref: string; edits: number; error?: string }) {
  const { t } = useTranslation("trees");
  return (
    <div className="card tree-dialog" role="dialog" aria-modal="false" aria-labelledby="save-title" id="save" data-testid="save-dialog">
      <h2 id="save-title" style={{ marginTop: 0 }}>
        {t("saveTitle")}
      </h2>
      <p className="muted">{t("saveIntro", { count: edits })}</p>
      <Form method="post" className="ds-toolbar" style={{ alignItems: "flex-start", gap: ".5rem", flexWrap: "wrap" }}>
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="model" value={model} />
        <input type="hidden" name="sample" value={sample} />
        <div className="field">
          <label htmlFor="name">{t("modelName")}</label>
          {/* The rule is said beside the field and checked by the server (validModelName): a browser
              pattern answered a Chinese name with "Please match the requested format." and no rule. */}
          <input id="name" name="name" className="p-inputtext" placeholder={t("modelNamePlaceholder")} required aria-describedby="name-rule name-error" />
          <small id="name-rule" className="muted field-hint" data-testid="name-rule">
            {t("modelNameRule")}
          </small>
          <FieldError id="name-error" message={error} />
        </div>
        <ButtonField>
          <Button type="submit" label={t("confirm")} icon="pi pi-save" />
        </ButtonField>
        <ButtonField>
          <Link className="p-button p-button-secondary p-button-outlined" to={closeHref}>
            {t("giveUp")}
          </Link>
        </ButtonField>
      </Form>
    </div>
  );
}
