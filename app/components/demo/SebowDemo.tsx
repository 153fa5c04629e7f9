// The SeBoW demo page (app/routes/trees/sebowScenes.tsx, app/routes/trees/sebowCifar.tsx; server side
// app/.server/sebow.server.ts): the common demo flow (DemoSteps.tsx) — step 1 a picture from the
// model's test-split pool (6 a row, refresh, dataset introduction, red border on the pick), step 2
// model (SearchSpaceModel / NeuralDecisionTree) and algorithm (DI / SPI) and start, step 3 the
// results, hidden until a run has finished (a busy indicator meanwhile), or the failure panel.
// Links and a plain form, so it works without JavaScript.
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { SebowLoaderData, SebowResult } from "~/.server/sebow.server.ts";
import { DemoFailurePanel, type DemoFailure } from "~/components/DemoFailurePanel.tsx";
import { FieldError } from "~/components/FieldError.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { Busy, DemoToasts, ModelAlgorithmFields, StartButton, SuccessNotice } from "~/components/demo/DemoSteps.tsx";
import { translateMessage } from "~/lib/forms/messages.ts";

export interface SebowAnswer {
  variant?: string;
  algorithm?: string;
  sample?: string;
  errors?: { model?: string; algorithm?: string; image?: string };
  result?: SebowResult | null;
  failure?: DemoFailure;
}

const pct = (v: number) => `${(v * 100).toFixed(2)} %`;
const img = { width: 128, height: 128, imageRendering: "pixelated" as const, border: "1px solid #cbd5e1", borderRadius: 4 };

export function SebowDemo({ page, d, res }: { page: "scenes" | "cifar"; d: SebowLoaderData; res: SebowAnswer | undefined }) {
  const { t } = useTranslation("sebow");
  const sample = res?.sample || d.sample;
  const href = (q: { pool: number; sample?: string }) => `${d.route}?pool=${q.pool}${q.sample ? `&sample=${encodeURIComponent(q.sample)}` : ""}`;
  const picked = d.pool.find((p) => p.sampleId === sample);
  const result = res?.result ?? null;
  const m = d.model;
  return (
    <section>
      <DatasetStyles />
      <h1>{t(page === "scenes" ? "scenesTitle" : "cifarTitle")}</h1>
      <p>{t("intro")}</p>
      <p className="muted">
        {page === "scenes" ? (
          <>
            {t("seeClassic")} <Link to="/scenes">/scenes</Link> · {t("seeCifar")} <Link to="/cifarsebow">/cifarsebow</Link>
          </>
        ) : (
          <>
            {t("seeScenes")} <Link to="/scenesebow">/scenesebow</Link>
          </>
        )}
      </p>
      {d.fallback ? (
        <div className="notice notice-warn" role="status" data-testid="fallback">
          {t("fallback", { dataset: m?.datasetName ?? "" })}
        </div>
      ) : null}
      {m ? (
        <p data-testid="model-facts">
          {t("facts", {
            id: m.id,
            dataset: m.datasetName,
            train: m.trainSize,
            test: m.testSize,
            layers: m.layers,
            groups: m.groups,
            leaves: m.leaves,
            ss: pct(m.searchSpaceAccuracy),
            tree: pct(m.treeAccuracy),
            greedy: pct(m.treeGreedyAccuracy),
            cnn: pct(m.cnnAccuracy),
          })}
        </p>
      ) : null}
      {d.modelsError ? (
        <div className="notice notice-error" role="alert" data-testid="models-error">
          {translateMessage(t, d.modelsError)}
        </div>
      ) : null}

      <div className="card">
        {/* Its own step 1, worded like its steps 2 and 3 (sebow.json): the shared demo:step1Pool
            ("Step 1 · …") stood above "Step 2: …" on the same page. */}
        <h2 style={{ marginTop: 0 }}>{t("step1")}</h2>
        <div className="ds-toolbar">
          <Link to={href({ pool: d.seed + 1 })} className="p-button p-button-outlined p-component" data-testid="refresh-pool">
            <i className="pi pi-refresh" style={{ marginRight: ".4rem" }} /> {t("demo:refreshPool")}
          </Link>
          <Link to={`/datasetPreview?intro=${page === "scenes" || d.fallback ? "scenes" : "cifar"}`} className="p-button p-button-text p-component">
            {t("demo:datasetIntro")}
          </Link>
        </div>
        {d.pool.length ? (
          <div className="ds-grid" style={{ gridTemplateColumns: "repeat(6, minmax(0, 1fr))" }} data-testid="image-pool">
            {d.pool.map((p) => (
              <a
                key={p.sampleId}
                href={href({ pool: d.seed, sample: p.sampleId })}
                className={"ds-tile" + (sample === p.sampleId ? " picked" : "")}
                data-sample-id={p.sampleId}
              >
                <img src={p.src} alt={t("poolImage", { label: p.label })} style={{ imageRendering: "pixelated" }} />
              </a>
            ))}
          </div>
        ) : (
          <p className="muted">{t("demo:noPool")}</p>
        )}
      </div>

      <div className="card">
        <h2 style={{ marginTop: 0 }}>{t("step2")}</h2>
        <Form method="post" className="ds-toolbar" style={{ alignItems: "flex-start" }} aria-label={t("start")}>
          <input type="hidden" name="intent" value="run" />
          <input type="hidden" name="sample" value={sample} />
          <ModelAlgorithmFields
            models={[
              { value: "SearchSpaceModel", label: "SearchSpaceModel" },
              { value: "NeuralDecisionTree", label: "NeuralDecisionTree" },
            ]}
            algorithms={[
              { value: "DI", label: "DI" },
              { value: "SPI", label: "SPI" },
            ]}
            model={res?.variant ?? ""}
            algorithm={res?.algorithm ?? ""}
            errors={res?.errors}
          />
          <StartButton label={t("start")} intent="run" />
        </Form>
        <FieldError id="image-error" message={res?.errors?.image} />
        <p className="muted" data-testid="picked">
          {picked ? t("picked", { id: picked.sampleId, label: picked.label }) : sample ? t("pickedId", { id: sample }) : t("demo:noImage")}
        </p>
        <Busy intent="run" />
      </div>

      <DemoToasts resultId={result ? Math.round(result.elapsedMs * 1000) : null} success="demo:msg.success" failure={res?.failure} />
      {res?.failure ? <DemoFailurePanel failure={res.failure} /> : null}
      {result ? <SebowResults r={result} datasetName={m?.datasetName ?? ""} /> : null}
    </section>
  );
}

// The facts beside the picture as a two-column grid: the browser's default <dd> indent pushed
// each value under the next term, so "Ground truth / triangle / Prediction" read as one column.
const FACTS = { display: "grid", gridTemplateColumns: "max-content auto", gap: ".25rem 1rem", margin: 0 } as const;
const TERM = { fontWeight: 600 } as const;
const VALUE = { margin: 0 } as const;

// The decisions are numbered by their node ids (n0, n1, …); the list's own numbers sat at the foot
// of each saliency picture, away from the text they belonged to, so the list shows none.
function SebowResults({ r, datasetName }: { r: SebowResult; datasetName: string }) {
  const { t } = useTranslation("sebow");
  return (
    <div className="card" data-testid="results">
      <SuccessNotice show message="demo:msg.success" />
      <h2 style={{ marginTop: 0 }}>{t("step3")}</h2>
      <p className="muted">{t("producedBy", { model: r.modelId, variant: r.variant, algorithm: r.algorithm, dataset: datasetName, sample: r.sampleId })}</p>
      <div className="ds-toolbar" style={{ alignItems: "flex-start" }}>
        <img src={r.image} alt={t("input")} style={img} />
        <dl style={FACTS}>
          <dt style={TERM}>{t("groundTruth")}</dt>
          <dd style={VALUE} data-testid="ground-truth">
            {r.groundTruth || "—"}
          </dd>
          <dt style={TERM}>{t("predicted")}</dt>
          <dd style={VALUE} data-testid="predicted">
            {r.predicted}
          </dd>
          <dt style={TERM}>{t("probability")}</dt>
          <dd style={VALUE} data-testid="probability">
            {(r.probability * 100).toFixed(2)}%
          </dd>
        </dl>
        <table className="p-datatable-table" aria-label={t("classProbabilities")}>
          <caption>{t("classProbabilities")}</caption>
          <tbody>
            {r.classes.map((c) => (
              <tr key={c.name}>
                <td>{c.name}</td>
                <td>{(c.probability * 100).toFixed(1)}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {r.algorithm === "DI" ? (
        <section data-testid="di">
          <h3>{t("diTitle")}</h3>
          <p className="muted">{t(r.variant === "NeuralDecisionTree" ? "diTreeHelp" : "diSpaceHelp")}</p>
          {r.decisions.length === 0 ? <p>{t("noDecisions")}</p> : null}
          <ol style={{ listStyle: "none", paddingLeft: 0 }}>
            {r.decisions.map((dcs) => (
              <li key={dcs.nodeId} data-testid="decision" style={{ marginBottom: ".8rem" }}>
                <div className="ds-toolbar" style={{ alignItems: "center" }}>
                  <img src={dcs.saliency} alt={t("saliencyOf", { node: dcs.nodeId })} style={img} />
                  <div>
                    <strong>{dcs.nodeId}</strong> · {t("reach", { value: (dcs.reach * 100).toFixed(1) })}
                    <ul>
                      {dcs.children.map((c, k) => (
                        <li key={c.id}>
                          {c.id}: {(c.probability * 100).toFixed(1)}% {k === dcs.chosen ? <strong>← {t("followed")}</strong> : null}
                        </li>
                      ))}
                    </ul>
                  </div>
                </div>
              </li>
            ))}
          </ol>
          <p data-testid="leaf">{t("leaf", { leaf: r.leafId, cls: r.leafClass })}</p>
        </section>
      ) : (
        <section data-testid="spi">
          <h3>{t("spiTitle")}</h3>
          <p className="muted">{t("spiHelp")}</p>
          <div className="ds-toolbar">
            <img src={r.heatmap} alt={t("heatmap")} style={img} />
            <img src={r.overlay} alt={t("overlay")} style={img} />
          </div>
          {r.patches ? (
            <table aria-label={t("patchTable")} data-testid="patch-table">
              <caption>{t("patchTable")}</caption>
              <tbody>
                {Array.from({ length: r.patches.rows }, (_, i) => (
                  <tr key={i}>
                    {Array.from({ length: r.patches!.cols }, (_, j) => {
                      const k = i * r.patches!.cols + j;
                      return (
                        <td key={j} style={{ padding: ".2rem .5rem", textAlign: "right" }}>
                          {(r.patches!.importance[k] * 100).toFixed(2)}
                          {r.patches!.changesPath[k] ? " *" : ""}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <p className="muted">{t("patchLegend")}</p>
        </section>
      )}
    </div>
  );
}
