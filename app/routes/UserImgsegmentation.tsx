// The image segmentation demo (seed 001 "Image segmentation page", §5, §8, §9): step 1 a visible
// dataset, step 2 a picture (the classification demo's pickers), step 3 model and algorithm and
// "segment", step 4 the segmentation (a colour per class, with its legend) and the part to
// explain (a class present in the prediction), step 5 the attribution map of that part.
// State lives in the query string and both buttons are form POSTs, so every step works
// without JavaScript; results come from the inference cache when asked again.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "primereact/button";
import { ProgressSpinner } from "primereact/progressspinner";
import { Toast } from "primereact/toast";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { recordClick, recordImpression } from "~/.server/searchAnalytics.server.ts";
import { findVisibleDataset, findVisiblePicture, listPictures, pageOf, searchDatasets } from "~/.server/datasets.server.ts";
import { ClassificationFailed, DemoRateLimited, reportGpu } from "~/.server/classification.server.ts";
import { explainPart, explanationFor, listSegModels, segModelOptions, segmentPicture, segmentationFor } from "~/.server/segmentation.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { DomainError, refusalResponse } from "~/.server/domainErrors.server.ts";
import { checkFormData } from "~/.server/forms.server.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { DatasetPicker, PicturePicker } from "~/components/datasets/PicturePicker.tsx";
import { DemoFailurePanel, type DemoFailure } from "~/components/DemoFailurePanel.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { translateMessage } from "~/lib/forms/messages.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { DATASET_MSG, searchSchema } from "~/lib/rules/datasets.ts";
import { SEGMENTATION_ALGORITHMS, SEGMENTATION_MSG, explainSchema, firstSegError, segIntentSchema, segmentSchema } from "~/lib/rules/segmentation.ts";

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
  const picked = sp.get("picture") ? await findVisiblePicture(sp.get("picture"), viewer) : null;
  if (sp.get("picture") && !picked) throw notFound();
  const segmentation = sp.get("segmentation") ? await segmentationFor(viewer, sp.get("segmentation")) : null;
  if (sp.get("segmentation") && !segmentation) throw new Response(SEGMENTATION_MSG.noResult, { status: 404, statusText: "Not Found" });
  const explanation = sp.get("result") ? await explanationFor(viewer, sp.get("result")) : null;
  if (sp.get("result") && !explanation) throw new Response(SEGMENTATION_MSG.noResult, { status: 404, statusText: "Not Found" });
  // Only results of the picture on the page are shown (a URL mixing two pictures shows neither).
  const segShown = segmentation && picked && segmentation.pictureId === picked.picture.id ? segmentation : null;
  const common = {
    title: t("metaTitle"),
    algorithms: SEGMENTATION_ALGORITHMS.map((a) => ({ value: a, label: a })),
    model: sp.get("model") ?? "",
    algorithm: sp.get("algorithm") ?? "",
    part: sp.get("part") ?? "",
    picture: picked
      ? {
          id: picked.picture.id,
          url: `/picture/${picked.picture.id}`,
          label: picked.picture.label ?? null,
          name: picked.picture.displayName,
          dataset: picked.dataset.name,
        }
      : null,
    segmentation: segShown,
    explanation: segShown && explanation && explanation.segmentationId === segShown.id ? explanation : null,
    ok: sp.get("ok") === "1",
  };
  const datasetId = sp.get("dataset");
  if (!datasetId) {
    const type = sp.get("type") === "user" ? "user" : "name";
    const search = parseForm(sp, searchSchema);
    if (!search.ok) {
      const empty = { items: [], total: 0, page: 1, pageCount: 1, noMatch: false };
      return data({ ...common, step: 1 as const, type, q: "", search: empty, searchError: search.errors.q ?? DATASET_MSG.searchTooLong }, { status: 400 });
    }
    const q = search.value.q;
    const found = await searchDatasets(viewer, { type, q, page: pageOf(sp.get("page")) });
    if (type === "name") await recordImpression(request, q);
    return { ...common, step: 1 as const, type, q, search: found, searchError: undefined as string | undefined };
  }
  const dataset = await findVisibleDataset(datasetId, viewer);
  if (!dataset) throw notFound();
  await recordClick(request, sp);
  if (picked && picked.dataset.id !== dataset.id) throw notFound();
  return {
    ...common,
    step: 2 as const,
    dataset: { id: dataset.id, name: dataset.name },
    pictures: await listPictures(dataset.id, pageOf(sp.get("page"))),
    models: await modelChoices(),
  };
}

type ActionResult = { errors?: { model?: string; algorithm?: string; image?: string; part?: string }; failure?: DemoFailure };

export const headers: HeadersFunction = ({ parentHeaders, loaderHeaders, actionHeaders }) => {
  const merged = new Headers(parentHeaders);
  loaderHeaders.forEach((value, name) => merged.set(name, value));
  const retry = actionHeaders.get("Retry-After");
  if (retry) merged.set("Retry-After", retry);
  return merged;
};

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const source = checkFormData(await request.formData());
  const intent = segIntentSchema.safeParse(source.get("intent") || "segment");
  if (!intent.success) return data<ActionResult>({ errors: { model: SEGMENTATION_MSG.unknownAction } }, { status: 400 });
  const parsed = parseForm(source, intent.data === "explain" ? explainSchema : segmentSchema);
  if (!parsed.ok) {
    const first = firstSegError(parsed.errors)!;
    return data<ActionResult>({ errors: { [first.field]: first.message } }, { status: 400 });
  }
  const { model, algorithm, picture } = parsed.value;
  const visitor = `user:${viewer.id}`;
  const next = new URLSearchParams(new URL(request.url).searchParams);
  next.set("picture", picture);
  next.set("model", model);
  next.set("algorithm", algorithm);
  try {
    if (intent.data === "segment") {
      const seg = await segmentPicture(viewer, picture, model, visitor, request.signal);
      next.set("segmentation", String(seg.id));
      next.delete("result");
      next.delete("part");
      next.delete("ok");
      return redirect(`${ROUTE}?${next}#segmentation`);
    }
    const part = Number((parsed.value as { part: string }).part);
    const out = await explainPart(viewer, picture, model, algorithm, part, visitor, request.signal);
    next.set("segmentation", String(out.segmentationId));
    if ("partMissing" in out) return data<ActionResult>({ errors: { part: SEGMENTATION_MSG.partNotPresent } }, { status: 400 });
    next.set("part", String(part));
    next.set("result", String(out.id));
    next.set("ok", "1");
    return redirect(`${ROUTE}?${next}#results`);
  } catch (e) {
    if (e instanceof DomainError) throw refusalResponse(e);
    if (e instanceof DemoRateLimited) return data<ActionResult>({ errors: { image: e.message } }, { status: 429 });
    if (!(e instanceof ClassificationFailed)) throw e;
    const gpu = await reportGpu();
    if (e.busy) return data<ActionResult>({ failure: { ...gpu, detail: e.message, busy: true } }, { status: 503, headers: { "Retry-After": "10" } });
    return data<ActionResult>({ failure: { ...gpu, detail: e.message } }, { status: 503 });
  }
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type Step1 = Extract<LoaderData, { step: 1 }>;
type Step2 = Extract<LoaderData, { step: 2 }>;

export default function UserImgsegmentation() {
  const d = useLoaderData<typeof loader>();
  const res = useActionData<typeof action>() as ActionResult | undefined;
  const toast = useRef<Toast>(null);
  const { t } = useTranslation(["segmentation", "demo"]);
  const resultId = d.ok && d.explanation ? d.explanation.id : null;
  useEffect(() => {
    if (resultId !== null) toast.current?.show({ severity: "success", summary: translateMessage(t, SEGMENTATION_MSG.success), life: 3000 });
  }, [resultId, t]);
  useEffect(() => {
    if (res?.failure)
      toast.current?.show({
        severity: "error",
        summary: t(res.failure.busy ? "demo:failed.busyTitle" : "demo:failed.title"),
        detail: t(res.failure.busy ? "demo:msg.busy" : "demo:failed.toast"),
        life: 10_000,
      });
  }, [res, t]);
  return (
    <section>
      <DatasetStyles />
      <Toast ref={toast} position="bottom-right" />
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      {d.ok && d.explanation ? (
        <Notice kind="success">
          <span data-testid="success">{translateMessage(t, SEGMENTATION_MSG.success)}</span>
        </Notice>
      ) : null}
      <div className="ds-steps">
        {d.step === 1 ? (
          <DatasetPicker
            route={ROUTE}
            title={t("demo:step1Dataset")}
            selectLabel={t("demo:select")}
            type={(d as Step1).type}
            q={(d as Step1).q}
            search={(d as Step1).search}
            searchError={(d as Step1).searchError}
          />
        ) : (
          <>
            <PicturePicker
              route={ROUTE}
              title={t("demo:step2Image", { name: (d as Step2).dataset.name })}
              backLabel={t("demo:backToDatasets")}
              noPicturesLabel={t("demo:noPictures")}
              pagesLabel={t("demo:imagePages")}
              dataset={(d as Step2).dataset}
              pictures={(d as Step2).pictures}
              pickedId={d.picture?.id ?? null}
              carry={{ model: d.model, algorithm: d.algorithm }}
            />
            <RunStep d={d as Step2} res={res} />
          </>
        )}
        {res?.failure ? <DemoFailurePanel failure={res.failure} /> : null}
        {d.segmentation && d.step === 2 ? <SegmentationStep d={d as Step2} res={res} /> : null}
        {d.explanation && d.segmentation ? <Explanation d={d as Step2} /> : null}
      </div>
    </section>
  );
}

function Busy({ intent }: { intent: string }) {
  const nav = useNavigation();
  const { t } = useTranslation("demo");
  if (!(nav.state === "submitting" && nav.formData?.get("intent") === intent)) return null;
  return (
    <div className="ds-busy" role="status" aria-live="polite" data-testid="busy">
      <ProgressSpinner style={{ width: 28, height: 28 }} strokeWidth="6" /> {t("running")}
    </div>
  );
}

function RunStep({ d, res }: { d: Step2; res?: ActionResult }) {
  const nav = useNavigation();
  const running = nav.state === "submitting" && nav.formData?.get("intent") === "segment";
  const { t } = useTranslation(["segmentation", "demo"]);
  return (
    <div className="card">
      <h2 style={{ marginTop: 0 }}>{t("step3")}</h2>
      <Form method="post" aria-label={t("segment")} className="ds-toolbar" style={{ alignItems: "flex-start" }}>
        <input type="hidden" name="intent" value="segment" />
        <input type="hidden" name="picture" value={d.picture?.id ?? ""} />
        <div className="field">
          <label htmlFor="model">{t("demo:model")}</label>
          <select id="model" name="model" className="p-inputtext" defaultValue={d.model} key={`m${d.model}`} aria-describedby="model-error">
            <option value="">{t("demo:choose")}</option>
            {d.models.options.map((m) => (
              <option key={m.value} value={m.value}>
                {translateMessage(t, m.label)}
              </option>
            ))}
          </select>
          <FieldError id="model-error" message={res?.errors?.model} />
          {d.models.error ? <small className="muted">{translateMessage(t, d.models.error)}</small> : null}
        </div>
        <div className="field">
          <label htmlFor="algorithm">{t("demo:algorithm")}</label>
          <select id="algorithm" name="algorithm" className="p-inputtext" defaultValue={d.algorithm} key={`a${d.algorithm}`} aria-describedby="algorithm-error">
            <option value="">{t("demo:choose")}</option>
            {d.algorithms.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
          <FieldError id="algorithm-error" message={res?.errors?.algorithm} />
        </div>
        <div className="field">
          <span className="field-spacer" aria-hidden="true">
            &nbsp;
          </span>
          <Button type="submit" label={t("segment")} icon="pi pi-play" loading={running} />
        </div>
      </Form>
      <FieldError id="image-error" message={res?.errors?.image} />
      {/* Without a segmentation on the page the part's own field is not shown: its message goes here. */}
      {d.segmentation ? null : <FieldError id="part-error" message={res?.errors?.part} />}
      {d.picture ? (
        <p className="muted">
          {d.picture.label ? t("demo:imageWithTruth", { name: d.picture.name, label: d.picture.label }) : t("demo:image", { name: d.picture.name })}
        </p>
      ) : (
        <p className="muted">{t("demo:noImage")}</p>
      )}
      <Busy intent="segment" />
    </div>
  );
}

function SegmentationStep({ d, res }: { d: Step2; res?: ActionResult }) {
  const { t } = useTranslation(["segmentation", "demo"]);
  const seg = d.segmentation!;
  const nav = useNavigation();
  const running = nav.state === "submitting" && nav.formData?.get("intent") === "explain";
  const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
  return (
    <div className="card" id="segmentation">
      <h2 style={{ marginTop: 0 }}>{t("step4")}</h2>
      <div className="ds-result-images">
        <figure>
          <img src={d.picture!.url} alt={t("input")} data-testid="seg-input" style={{ imageRendering: "pixelated", width: 224, height: 224 }} />
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
        {t("source", { model: seg.modelId, data: d.picture?.dataset ?? "", miou: percent(seg.meanIoU), count: seg.testSize, trained: seg.dataset })}
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
          <div className="field">
            <span className="field-spacer" aria-hidden="true">
              &nbsp;
            </span>
            <Button type="submit" label={t("explain")} icon="pi pi-play" loading={running} />
          </div>
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
        <figure>
          <img src={e.heatmapUrl} alt={t("demo:heatmap")} data-testid="heatmap" />
          <figcaption>{t("demo:heatmap")}</figcaption>
        </figure>
        <figure>
          <img src={e.overlayUrl} alt={t("demo:overlay")} data-testid="overlay" />
          <figcaption>{t("demo:overlay")}</figcaption>
        </figure>
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
