// The image segmentation demo: step 1 a visible dataset, step 2 a picture (the classification
// demo's pickers), step 3 model and algorithm and "segment", step 4 the segmentation (a colour per
// class, with its legend) and the part to explain (a class present in the prediction), step 5 the
// attribution map of that part. State lives in the query string and both buttons are form POSTs, so
// every step works without JavaScript; results come from the inference cache when asked again.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { explainPart, explanationFor, listSegModels, segModelOptions, segmentPicture, segmentationFor } from "~/.server/segmentation.server.ts";
import { datasetStep, demoFailure, demoHeaders, pickedPicture, readTwoStepDemoForm, twoStepResults } from "~/.server/demoFlow.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { checkFormData } from "~/.server/forms.server.ts";
import { FieldError } from "~/components/FieldError.tsx";
import { DemoFailurePanel, type DemoFailure } from "~/components/DemoFailurePanel.tsx";
import { Busy, DemoToasts, PickStep, RunCard, StartButton, SuccessNotice } from "~/components/demo/DemoSteps.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { SEGMENTATION_ALGORITHMS, SEGMENTATION_MSG, SEG_FIELD_ORDER, explainSchema, segIntentSchema, segmentSchema } from "~/lib/rules/segmentation.ts";
import { MapFigures } from "~/components/demo/ResultFigure.tsx";

const ROUTE = "/UserImgsegmentation";

export const handle = { i18n: ["segmentation", "demo"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

async function modelChoices() {
  try {
    const options = segModelOptions(await listSegModels());
    return { options, error: options.length ? null : SEGMENTATION_MSG.noModel };
  } catch {
    return { options: [] as Array<{ value: string; label: string }>, error: SEGMENTATION_MSG.modelsDown as string };
  }
}

const notFound = () => new Response(SEGMENTATION_MSG.notFound, { status: 404, statusText: "Not Found" });

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const t = await i18nServer.getFixedT(request, "segmentation");
  const sp = new URL(request.url).searchParams;
  const picture = await pickedPicture(sp, viewer, notFound);
  const shown = await twoStepResults(sp, picture, {
    runParam: "segmentation",
    run: (id) => segmentationFor(viewer, id),
    explanation: (id) => explanationFor(viewer, id),
    runOf: (e) => e.segmentationId,
    noResult: SEGMENTATION_MSG.noResult,
  });
  const common = {
    title: t("metaTitle"),
    algorithms: SEGMENTATION_ALGORITHMS.map((a) => ({ value: a, label: a })),
    model: sp.get("model") ?? "",
    algorithm: sp.get("algorithm") ?? "",
    part: sp.get("part") ?? "",
    picture,
    segmentation: shown.run,
    explanation: shown.explanation,
    ok: sp.get("ok") === "1",
  };
  const step = await datasetStep(request, viewer, picture, notFound, async () => ({ models: await modelChoices() }));
  return data({ ...common, ...step.body }, { status: step.status });
}

type ActionResult = { errors?: { model?: string; algorithm?: string; image?: string; part?: string }; failure?: DemoFailure };

export const headers = demoHeaders;

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const form = readTwoStepDemoForm(
    request,
    checkFormData(await request.formData()),
    segIntentSchema,
    { run: segmentSchema, explain: explainSchema },
    SEG_FIELD_ORDER,
  );
  if ("error" in form) return data<ActionResult>({ errors: { [form.error.field]: form.error.message } }, { status: 400 });
  const { model, algorithm, picture } = form.value;
  const visitor = `user:${viewer.id}`;
  const next = form.next;
  try {
    if (form.step === "run") {
      const seg = await segmentPicture(viewer, picture, model, visitor, request.signal);
      next.set("segmentation", String(seg.id));
      next.delete("result");
      next.delete("part");
      next.delete("ok");
      return redirect(`${ROUTE}?${next}#segmentation`);
    }
    const part = Number(form.value.part);
    const out = await explainPart(viewer, picture, model, algorithm, part, visitor, request.signal);
    next.set("segmentation", String(out.segmentationId));
    if ("partMissing" in out) return data<ActionResult>({ errors: { part: SEGMENTATION_MSG.partNotPresent } }, { status: 400 });
    next.set("part", String(part));
    next.set("result", String(out.id));
    next.set("ok", "1");
    return redirect(`${ROUTE}?${next}#results`);
  } catch (e) {
    return demoFailure(e, "image");
  }
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type Step2 = Extract<LoaderData, { step: 2 }>;

export default function UserImgsegmentation() {
  const d = useLoaderData<typeof loader>();
  const res = useActionData<typeof action>() as ActionResult | undefined;
  const { t } = useTranslation(["segmentation", "demo"]);
  return (
    <section>
      <DatasetStyles />
      <DemoToasts resultId={d.ok && d.explanation ? d.explanation.id : null} success={SEGMENTATION_MSG.success} failure={res?.failure} />
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <SuccessNotice show={Boolean(d.ok && d.explanation)} message={SEGMENTATION_MSG.success} />
      <div className="ds-steps">
        <PickStep route={ROUTE} d={d} pickedId={d.picture?.id ?? null} carry={{ model: d.model, algorithm: d.algorithm }} />
        {d.step === 2 ? (
          <RunCard title={t("step3")} intent="segment" startLabel={t("segment")} choice={d as Step2} errors={res?.errors}>
            {/* Without a segmentation on the page the part's own field is not shown: its message goes here. */}
            {d.segmentation ? null : <FieldError id="part-error" message={res?.errors?.part} />}
          </RunCard>
        ) : null}
        {res?.failure ? <DemoFailurePanel failure={res.failure} /> : null}
        {d.segmentation && d.step === 2 ? <SegmentationStep d={d as Step2} res={res} /> : null}
        {d.explanation && d.segmentation ? <Explanation d={d as Step2} /> : null}
      </div>
    </section>
  );
}

function SegmentationStep({ d, res }: { d: Step2; res?: ActionResult }) {
  const { t } = useTranslation(["segmentation", "demo"]);
  const seg = d.segmentation!;
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  return (
    <div className="card" id="segmentation">
      <h2 style={{ marginTop: 0 }}>{t("step4")}</h2>
      <div className="ds-result-images">
        <figure>
          {/* Square like the model's input and as wide as the segmentation beside it (.ds-result-images
              img): a fixed 224 px made it larger than the segmentation on a wide screen and smaller
              on a phone, so the two pictures of the same scene did not line up. */}
          <img src={d.picture!.url} alt={t("input")} data-testid="seg-input" style={{ aspectRatio: "1 / 1", objectFit: "fill" }} />
          <figcaption>{t("input")}</figcaption>
        </figure>
        <figure>
          <img src={seg.imageUrl} alt={t("segmentationImage")} data-testid="segmentation-image" />
          <figcaption>{t("segmentationImage")}</figcaption>
        </figure>
      </div>
      <ul
        className="seg-legend"
        aria-label={t("legend")}
        data-testid="legend"
        style={{ listStyle: "none", padding: 0, display: "flex", flexWrap: "wrap", gap: ".75rem" }}
      >
        {seg.legend.map((c) => {
          const present = seg.classes.find((k) => k.id === c.id);
          return (
            <li key={c.id} data-present={present || c.id === 0 ? "1" : undefined}>
              <span
                aria-hidden="true"
                style={{
                  display: "inline-block",
                  width: 14,
                  height: 14,
                  background: c.colour,
                  border: "1px solid #666",
                  marginRight: 6,
                  verticalAlign: "middle",
                }}
              />
              {c.name}
              {present ? <small className="muted"> ({t("pixels", { count: present.pixels })})</small> : null}
            </li>
          );
        })}
      </ul>
      <p className="muted" data-testid="seg-source">
        {/* An operator's imported segmenter (docs/onnx-import.md) has no held-out score measured here: none is shown. */}
        {seg.testSize > 0
          ? t("source", { model: seg.modelId, data: d.picture?.dataset ?? "", miou: percent(seg.meanIoU), count: seg.testSize, trained: seg.dataset })
          : t("sourceUnmeasured", { model: seg.modelId, data: d.picture?.dataset ?? "", trained: seg.dataset })}
      </p>
      {seg.classes.length === 0 ? (
        <p data-testid="no-parts">{t("noParts")}</p>
      ) : (
        <Form method="post" aria-label={t("explain")} className="ds-toolbar" style={{ alignItems: "flex-start" }}>
          <input type="hidden" name="intent" value="explain" />
          <input type="hidden" name="picture" value={d.picture?.id ?? ""} />
          <input type="hidden" name="model" value={d.model} />
          <input type="hidden" name="algorithm" value={d.algorithm} />
          <div className="field">
            <label htmlFor="part">{t("part")}</label>
            <select id="part" name="part" className="p-inputtext" defaultValue={d.part} key={`p${d.part}`} aria-describedby="part-error">
              <option value="">{t("demo:choose")}</option>
              {seg.classes.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </select>
            <FieldError id="part-error" message={res?.errors?.part} />
          </div>
          <StartButton label={t("explain")} intent="explain" />
        </Form>
      )}
      <Busy intent="explain" />
    </div>
  );
}

function Explanation({ d }: { d: Step2 }) {
  const { t } = useTranslation(["segmentation", "demo"]);
  const e = d.explanation!;
  const names = Object.fromEntries(d.segmentation!.legend.map((c) => [c.id, c.name]));
  return (
    <div className="card" id="results">
      <h2 style={{ marginTop: 0 }}>{t("step5", { part: e.partName, algorithm: e.algorithm })}</h2>
      <div className="ds-result-images">
        <MapFigures heatmapUrl={e.heatmapUrl} overlayUrl={e.overlayUrl} />
      </div>
      <p className="muted" data-testid="target-score">
        {t("target", { part: e.partName, score: e.targetScore.toFixed(2) })}
      </p>
      {e.segmentAttributions.length ? (
        <table className="p-datatable-table" data-testid="segment-attributions">
          <caption className="muted">{t("segmentTable")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("segmentColumn")}</th>
              <th scope="col">{t("drop")}</th>
            </tr>
          </thead>
          <tbody>
            {e.segmentAttributions.map((s) => (
              <tr key={s.id}>
                <td>{names[s.id] ?? s.id}</td>
                <td>{s.value.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
