// The concept page's three steps (app/routes/demos/concepts.tsx, docs/concepts.md): the image, the concepts
// and the run. All three are parts of the page's one form, so every control works without
// JavaScript; the page owns the form, its hidden fields and the results.
import { Link } from "@remix-run/react";
import { ProgressBar } from "primereact/progressbar";
import { ProgressSpinner } from "primereact/progressspinner";
import { useTranslation } from "react-i18next";
import type { Catalogue, ConceptDatasetOption, PoolView } from "~/.server/concepts.server.ts";
import { FieldError } from "~/components/FieldError.tsx";
import { CONCEPT_ALGORITHMS, CONCEPT_LIMITS, type ConceptSelection } from "~/lib/rules/concepts.ts";

/** A model the page offers (GoogleNet trained on one dataset). */
export interface ConceptModelOption {
  id: string;
  dataset: string;
  testAccuracy: number | null;
}

export const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

/** Step 1: the pool of held-out images (one to explain) and the refresh button. */
export function ImageStep({ pool, selection, error }: { pool: PoolView | null; selection: ConceptSelection; error?: string }) {
  const { t } = useTranslation("concepts");
  return (
    <section className="card" aria-labelledby="step1">
      <h2 id="step1">{t("step1")}</h2>
      {pool ? <p className="muted">{t("poolFrom", { dataset: pool.dataset, count: pool.images.length })}</p> : null}
      <div className="pool" role="radiogroup" aria-label={t("step1")}>
        {pool?.images.map((im) => (
          <label key={im.index} className={`pool-item${String(im.index) === selection.image ? " picked" : ""}`} data-testid="pool-image">
            <input type="radio" name="image" value={im.index} defaultChecked={String(im.index) === selection.image} />
            <img src={im.src} alt={t("poolAlt", { index: im.index, label: im.label })} width={96} height={96} />
            <span>
              #{im.index} · {im.label}
            </span>
          </label>
        ))}
      </div>
      <button type="submit" name="reseed" value={(selection.seed % CONCEPT_LIMITS.maxSeed) + 1} className="p-button p-button-outlined p-button-sm">
        {t("refresh")}
      </button>
      <FieldError id="image-error" message={error} />
    </section>
  );
}

/** Step 2: this page's concept slots, each with or without, the pager, and a picture dataset as one more concept. */
export function ConceptsStep({
  onPage,
  cpage,
  pages,
  chosenNames,
  selection,
  datasets,
  customChosen,
  signedIn,
  error,
}: {
  onPage: Catalogue["slots"];
  cpage: number;
  pages: number;
  chosenNames: string[];
  selection: ConceptSelection;
  datasets: ConceptDatasetOption[];
  customChosen: boolean;
  signedIn: boolean;
  error?: string;
}) {
  const { t } = useTranslation("concepts");
  return (
    <section className="card" aria-labelledby="step2">
      <h2 id="step2">{t("step2")}</h2>
      <p className="muted">{t("chosen", { list: chosenNames.join(", ") || "—", count: chosenNames.length })}</p>
      <div className="concepts">
        {onPage.map((s) => {
          const isChosen = selection.concepts.includes(s.name);
          return (
            <fieldset key={s.name} className="concept" data-testid="concept-slot" data-concept={s.name}>
              <legend>{s.name}</legend>
              {s.available ? (
                <>
                  <div className="samples">
                    {s.samples.map((src, i) => (
                      <img key={i} src={src} alt={t("sampleAlt", { name: s.name, n: i + 1 })} width={64} height={64} />
                    ))}
                  </div>
                  <label>
                    <input type="radio" name={`use.${s.name}`} value="with" defaultChecked={isChosen} /> {t("with")}
                  </label>
                  <label>
                    <input type="radio" name={`use.${s.name}`} value="without" defaultChecked={!isChosen} /> {t("without")}
                  </label>
                </>
              ) : (
                <p className="muted">{t("noExamples")}</p>
              )}
            </fieldset>
          );
        })}
      </div>
      <nav className="pager" aria-label={t("pages")}>
        <button type="submit" name="cpage" value={cpage - 1} disabled={cpage <= 1} className="p-button p-button-text p-button-sm">
          {t("prev")}
        </button>
        <span>{t("pageOf", { page: cpage, pages })}</span>
        <button type="submit" name="cpage" value={cpage + 1} disabled={cpage >= pages} className="p-button p-button-text p-button-sm">
          {t("next")}
        </button>
      </nav>
      <fieldset className="concept custom-concept" data-testid="dataset-concept">
        <legend>{t("custom.title")}</legend>
        <label>
          {t("custom.label")}{" "}
          <select name="ds" defaultValue={customChosen ? selection.dataset : ""}>
            <option value="">{t("custom.none")}</option>
            {datasets.map((d) => (
              <option key={d.id} value={d.id}>
                {d.isOwn
                  ? t("custom.own", { name: d.name, count: d.pictures })
                  : t("custom.other", { name: d.name, owner: d.owner ?? t("custom.platform"), count: d.pictures })}
              </option>
            ))}
          </select>
        </label>
        <p className="muted">
          {t("custom.note", { min: CONCEPT_LIMITS.customMin, max: CONCEPT_LIMITS.customMax })}{" "}
          {signedIn ? <Link to="/datasetInDetail">{t("custom.mine")}</Link> : <Link to="/signin?redirectTo=%2Ftcav">{t("custom.signIn")}</Link>}
        </p>
      </fieldset>
      <FieldError id="concept-error" message={error} />
    </section>
  );
}

/** Step 3: the model and the algorithm, Start, and the run's progress and outcome. */
export function RunStep({
  models,
  selection,
  running,
  progress,
  error,
  failure,
}: {
  models: ConceptModelOption[];
  selection: ConceptSelection;
  running: boolean;
  progress: { done: number; total: number } | null;
  error?: string;
  failure?: string;
}) {
  const { t } = useTranslation("concepts");
  const model = models.find((m) => m.id === selection.model);
  return (
    <section className="card" aria-labelledby="step3">
      <h2 id="step3">{t("step3")}</h2>
      <div className="row">
        <label>
          {t("model")}{" "}
          <select name="model" defaultValue={selection.model}>
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                GoogleNet · {t("trainedOn", { data: m.dataset })}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("algorithm")}{" "}
          <select name="algorithm" defaultValue={selection.algorithm}>
            {CONCEPT_ALGORITHMS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" formMethod="post" className="p-button" disabled={running} data-testid="tcav-start">
          {t("start")}
        </button>
      </div>
      {model ? (
        <p className="muted">{t("modelNote", { id: model.id, data: model.dataset, accuracy: model.testAccuracy != null ? pct(model.testAccuracy) : "—" })}</p>
      ) : null}
      {running ? (
        <div role="status" className="running" data-testid="tcav-progress">
          {progress && progress.total > 0 ? (
            <>
              <ProgressBar value={Math.round((100 * progress.done) / progress.total)} style={{ height: 18 }} />
              <p>{t("progress", { done: progress.done, total: progress.total })}</p>
            </>
          ) : (
            <p>
              <ProgressSpinner style={{ width: 28, height: 28 }} strokeWidth="6" /> {t("running")}
            </p>
          )}
        </div>
      ) : null}
      <FieldError id="run-error" message={error} />
      {failure ? (
        <p className="notice notice-error" role="alert" data-testid="tcav-failure">
          {t("failed")} {failure}
        </p>
      ) : null}
    </section>
  );
}
