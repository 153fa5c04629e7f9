// The VOC-style multi-label demo (docs/datasets.md "Multi-label scenes and Pascal VOC"): step 1 a
// picture from a pool (6 a row, refresh, the dataset's introduction, red border on the pick), step
// 2 the model (the "ResNet18" slot) and algorithm (Feature_Ablation or LIME) and start, step 3 the
// five highest-scoring classes ranked with their probabilities, each with its own "explain" button
// that adds that class's attribution map. The common flow is app/.server/demoFlow.server.ts and
// app/components/demo/DemoSteps.tsx; the inference and its cache are
// app/.server/multilabel.server.ts. With Pascal VOC installed (VOC_DIR) and a VOC-trained model
// imported the page serves VOC; otherwise the network trained here on the generated scenes, and it
// says so. State lives in the query string and every button is a form POST, so the page works
// without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getUser } from "~/.server/session.server.ts";
import {
  classMapFor,
  explainClass,
  isVocModel,
  listMultiLabelModels,
  multiLabelModelOptions,
  poolSlugFor,
  rankPicture,
  rankingFor,
  type MultiLabelModel,
} from "~/.server/multilabel.server.ts";
import { demoFailure, demoHeaders, demoPool, pickedPicture, poolDatasets, poolSeed, readTwoStepDemoForm, twoStepResults } from "~/.server/demoFlow.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { checkFormData } from "~/.server/forms.server.ts";
import { FieldError } from "~/components/FieldError.tsx";
import { DemoFailurePanel, type DemoFailure } from "~/components/DemoFailurePanel.tsx";
import { Busy, DemoToasts, PoolStep, RunCard, SuccessNotice, useRunning } from "~/components/demo/DemoSteps.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { Button } from "primereact/button";
import {
  MULTILABEL_ALGORITHMS,
  MULTILABEL_FIELD_ORDER,
  MULTILABEL_MSG,
  classifySchema,
  explainClassSchema,
  multiLabelIntentSchema,
} from "~/lib/rules/multilabel.ts";
import { demoVisitor } from "~/.server/throttle.server.ts";
import { MapFigures, ResultFigure } from "~/components/demo/ResultFigure.tsx";

const ROUTE = "/voc";

export const handle = { i18n: ["multilabel", "demo"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

const notFound = () => new Response(MULTILABEL_MSG.notFound, { status: 404, statusText: "Not Found" });

/**
 * The models this page serves and the pool they go with: the VOC-trained ones when Pascal VOC's
 * pictures are installed, else those trained on the generated scenes (with their held-out split).
 */
async function servedModels(): Promise<{ models: MultiLabelModel[]; voc: boolean; poolIds: number[]; error: string | null }> {
  let all: MultiLabelModel[];
  try {
    all = await listMultiLabelModels();
  } catch {
    return { models: [], voc: false, poolIds: await poolDatasets(["seg-scenes"]), error: MULTILABEL_MSG.modelsDown };
  }
  const vocModels = all.filter(isVocModel);
  const vocPool = vocModels.length ? await poolDatasets(["voc"]) : [];
  if (vocPool.length) return { models: vocModels, voc: true, poolIds: vocPool, error: null };
  const scenes = all.filter((m) => poolSlugFor(m) === "seg-scenes");
  return { models: scenes, voc: false, poolIds: await poolDatasets(["seg-scenes"]), error: scenes.length ? null : MULTILABEL_MSG.noModel };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const t = await i18nServer.getFixedT(request, "multilabel");
  const sp = new URL(request.url).searchParams;
  const picture = await pickedPicture(sp, viewer, notFound);
  const shown = await twoStepResults(sp, picture, {
    runParam: "ranking",
    run: (id) => rankingFor(viewer, id),
    explanation: (id) => classMapFor(viewer, id),
    runOf: (m) => m.rankingId,
    noResult: MULTILABEL_MSG.noResult,
  });
  const served = await servedModels();
  const seed = poolSeed(sp);
  return {
    title: t("metaTitle"),
    voc: served.voc,
    minPixels: served.models[0]?.minPixels ?? 0,
    models: { options: multiLabelModelOptions(served.models), error: served.error },
    algorithms: MULTILABEL_ALGORITHMS.map((a) => ({ value: a, label: a })),
    model: sp.get("model") ?? "",
    algorithm: sp.get("algorithm") ?? "",
    picture,
    pool: await demoPool(served.poolIds, seed),
    seed,
    ranking: shown.run,
    map: shown.explanation,
    ok: sp.get("ok") === "1",
  };
}

type ActionResult = { errors?: { model?: string; algorithm?: string; image?: string; cls?: string }; failure?: DemoFailure };

export const headers = demoHeaders;

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await getUser(request);
  const form = readTwoStepDemoForm(
    request,
    checkFormData(await request.formData()),
    multiLabelIntentSchema,
    { run: classifySchema, explain: explainClassSchema },
    MULTILABEL_FIELD_ORDER,
  );
  if ("error" in form) return data<ActionResult>({ errors: { [form.error.field]: form.error.message } }, { status: 400 });
  const { model, algorithm, picture } = form.value;
  const visitor = demoVisitor(viewer, (context as { ip?: string }).ip);
  const next = form.next;
  try {
    if (form.step === "run") {
      const ranked = await rankPicture(viewer, picture, model, visitor, request.signal);
      next.set("ranking", String(ranked.id));
      next.delete("result");
      next.set("ok", "1");
      return redirect(`${ROUTE}?${next}#results`);
    }
    const cls = Number(form.value.cls);
    const out = await explainClass(viewer, picture, model, algorithm, cls, visitor, request.signal);
    next.set("ranking", String(out.rankingId));
    if ("notRanked" in out) return data<ActionResult>({ errors: { cls: MULTILABEL_MSG.classNotRanked } }, { status: 400 });
    next.set("result", String(out.id));
    next.set("ok", "1");
    return redirect(`${ROUTE}?${next}#map`);
  } catch (e) {
    return demoFailure(e, "image");
  }
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function Voc() {
  const d = useLoaderData<typeof loader>();
  const res = useActionData<typeof action>() as ActionResult | undefined;
  const { t } = useTranslation(["multilabel", "demo"]);
  const keep = (q: { pool: number; picture?: number }) => {
    const p = new URLSearchParams();
    p.set("pool", String(q.pool));
    if (q.picture) p.set("picture", String(q.picture));
    if (d.model) p.set("model", d.model);
    if (d.algorithm) p.set("algorithm", d.algorithm);
    return `${ROUTE}?${p}`;
  };
  const resultId = d.ok ? (d.map?.id ?? d.ranking?.id ?? null) : null;
  return (
    <section>
      <DatasetStyles />
      <DemoToasts resultId={resultId} success={MULTILABEL_MSG.success} failure={res?.failure} />
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <p className="muted" data-testid="served-data">
        {d.voc ? t("vocNote") : t("scenesNote", { pixels: d.minPixels || 12 })}
      </p>
      <SuccessNotice show={resultId !== null} message={MULTILABEL_MSG.success} />
      <div className="ds-steps">
        <PoolStep title={t("poolTitle")} pool={d.pool} seed={d.seed} href={keep} introSlug={d.voc ? "voc" : "scenes"} picture={d.picture} />
        <RunCard title={t("step2")} intent="classify" startLabel={t("start")} choice={d} errors={res?.errors}>
          {d.ranking ? null : <FieldError id="cls-error" message={res?.errors?.cls} />}
        </RunCard>
        {res?.failure ? <DemoFailurePanel failure={res.failure} /> : null}
        {d.ranking ? <Ranking d={d} res={res} /> : null}
        {d.map ? <ClassMap d={d} /> : null}
      </div>
    </section>
  );
}

function Ranking({ d, res }: { d: LoaderData; res?: ActionResult }) {
  const { t } = useTranslation(["multilabel", "demo"]);
  const r = d.ranking!;
  const running = useRunning("explain");
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  return (
    <div className="card" id="results">
      <h2 style={{ marginTop: 0 }}>{t("step3")}</h2>
      <div className="ds-result-images">
        <ResultFigure src={d.picture!.url} caption={d.picture!.name} testId="ml-input" style={{ imageRendering: "pixelated", width: 224, height: 224 }} />
      </div>
      <table className="p-datatable-table" data-testid="ranked-classes">
        <thead>
          <tr>
            <th scope="col">{t("rank")}</th>
            <th scope="col">{t("class")}</th>
            <th scope="col">{t("probability")}</th>
            <th scope="col">{t("explainColumn")}</th>
          </tr>
        </thead>
        <tbody>
          {r.ranked.map((c, i) => (
            <tr key={c.index} data-class-index={c.index}>
              <td>{i + 1}</td>
              <td>{c.name}</td>
              <td>{pct(c.probability)}</td>
              <td>
                {d.map?.cls === c.index ? (
                  <span className="muted">{t("shown")}</span>
                ) : (
                  <Form method="post" aria-label={t("explainClass", { cls: c.name, algorithm: d.algorithm })}>
                    <input type="hidden" name="intent" value="explain" />
                    <input type="hidden" name="picture" value={d.picture?.id ?? ""} />
                    <input type="hidden" name="model" value={d.model} />
                    <input type="hidden" name="algorithm" value={d.algorithm} />
                    <input type="hidden" name="cls" value={c.index} />
                    <Button
                      type="submit"
                      size="small"
                      outlined
                      label={t("explain")}
                      aria-label={t("explainClass", { cls: c.name, algorithm: d.algorithm })}
                      disabled={running}
                      data-testid={`explain-${c.index}`}
                    />
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FieldError id="cls-error" message={res?.errors?.cls} />
      <Busy intent="explain" />
      <p className="muted" data-testid="ml-source">
        {t("source", {
          model: r.modelId,
          data: r.dataset,
          map: pct(r.meanAP),
          count: r.testSize,
          picture: d.picture?.name ?? "",
          dataset: d.picture?.dataset ?? "",
        })}
      </p>
      {d.picture?.label ? <p className="muted">{t("truth", { label: d.picture.label })}</p> : null}
    </div>
  );
}

function ClassMap({ d }: { d: LoaderData }) {
  const { t } = useTranslation(["multilabel", "demo"]);
  const m = d.map!;
  return (
    <div className="card" id="map">
      <h2 style={{ marginTop: 0 }}>{t("mapTitle", { cls: m.className, algorithm: m.algorithm })}</h2>
      <div className="ds-result-images">
        <MapFigures heatmapUrl={m.heatmapUrl} overlayUrl={m.overlayUrl} />
      </div>
      <p className="muted" data-testid="map-source">
        {t("mapSource", {
          method: m.method,
          params: m.params,
          cls: m.className,
          logit: m.targetLogit.toFixed(3),
          probability: `${(m.targetProbability * 100).toFixed(2)} %`,
        })}
      </p>
    </div>
  );
}
