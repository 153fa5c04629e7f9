// The image classification demo (seed 001 "Image classification page", §5, §8): step 1 pick a
// visible dataset, step 2 an image, step 3 model and algorithm and start, step 4 ground truth,
// prediction and probability, step 5 attribution images. All state lives in the query string
// and the start button is a form POST, so every step works as a server-rendered page without
// JavaScript. A second tab serves the earlier variant: an image pool plus a one-image upload.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "primereact/button";
import { ProgressSpinner } from "primereact/progressspinner";
import { Toast } from "primereact/toast";
import { useEffect, useRef } from "react";
import { getUser, requireUser } from "~/.server/session.server.ts";
import type { UploadedFiles } from "~/.server/uploads.server.ts";
import { recordClick, recordImpression } from "~/.server/searchAnalytics.server.ts";
import { findVisibleDataset, findVisiblePicture, listPictures, pageOf, searchDatasets, uploadPictures, type Viewer } from "~/.server/datasets.server.ts";
import {
  CLASSIFICATION_ALGORITHMS,
  ClassificationFailed,
  explainPicture,
  DemoRateLimited,
  imagePool,
  listModels,
  modelOptions,
  reportGpu,
  resultFor,
  uploadsDataset,
  type ModelOption,
} from "~/.server/classification.server.ts";
import { Picture } from "~/.server/db.server.ts";
import { provenanceOf, type ResultProvenance } from "~/.server/demoResult.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { DomainError, refusalResponse } from "~/.server/domainErrors.server.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { DatasetPicker, PicturePicker } from "~/components/datasets/PicturePicker.tsx";
import { DemoFailurePanel, type DemoFailure } from "~/components/DemoFailurePanel.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { checkFields, checkFormData } from "~/.server/forms.server.ts";
import { Trans, useTranslation } from "react-i18next";
import { translateMessage } from "~/lib/forms/messages.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { CLASSIFICATION_MSG, demoIntentSchema, firstRunError, runSchema } from "~/lib/rules/classification.ts";
import { DATASET_MSG, searchSchema } from "~/lib/rules/datasets.ts";

export const handle = { i18n: "demo" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

const ALGORITHM_OPTIONS = CLASSIFICATION_ALGORITHMS.map((a) => ({ value: a.value, label: a.label }));
const RUN_SCHEMA = runSchema(CLASSIFICATION_ALGORITHMS.map((a) => a.value));

async function modelChoices(dataKind: string | null): Promise<{ options: ModelOption[]; error: string | null }> {
  try {
    const options = modelOptions(await listModels(), dataKind);
    return { options, error: options.length ? null : dataKind ? CLASSIFICATION_MSG.noModelForData : CLASSIFICATION_MSG.noModel };
  } catch {
    return { options: [], error: CLASSIFICATION_MSG.modelsDown };
  }
}

const notFound = () => new Response(CLASSIFICATION_MSG.notFound, { status: 404, statusText: "Not Found" });

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const t = await i18nServer.getFixedT(request, "demo");
  const sp = new URL(request.url).searchParams;
  const tab = sp.get("tab") === "pool" ? "pool" : "datasets";
  const picked = sp.get("picture") ? await findVisiblePicture(sp.get("picture"), viewer) : null;
  if (sp.get("picture") && !picked) throw notFound();
  const result = sp.get("result") ? await resultFor(viewer, sp.get("result")) : null;
  if (sp.get("result") && !result) throw new Response(CLASSIFICATION_MSG.noResult, { status: 404, statusText: "Not Found" });
  const shown = result && picked && result.pictureId === picked.picture.id ? result : null;
  const common = {
    title: t("metaTitle"),
    signedIn: Boolean(viewer),
    algorithms: ALGORITHM_OPTIONS,
    model: sp.get("model") ?? "",
    algorithm: sp.get("algorithm") ?? "",
    picture: picked
      ? { id: picked.picture.id, url: `/picture/${picked.picture.id}`, label: picked.picture.label ?? null, name: picked.picture.displayName }
      : null,
    result: shown,
    provenance: shown ? await provenanceOf(shown) : (null as ResultProvenance | null),
    ok: sp.get("ok") === "1",
  };
  if (tab === "pool") {
    const seed = Math.abs(Math.floor(Number(sp.get("pool")) || 1));
    const models = await modelChoices(picked?.dataset.dataKind ?? null);
    return { ...common, tab: "pool" as const, seed, pool: await imagePool(seed), models };
  }
  const datasetId = sp.get("dataset");
  if (!datasetId) {
    const type = sp.get("type") === "user" ? "user" : "name";
    const search = parseForm(sp, searchSchema);
    if (!search.ok) {
      const empty = { items: [], total: 0, page: 1, pageCount: 1, noMatch: false };
      return data(
        { ...common, tab: "datasets" as const, step: 1 as const, type, q: "", search: empty, searchError: search.errors.q ?? DATASET_MSG.searchTooLong },
        { status: 400 },
      );
    }
    const q = search.value.q;
    return {
      ...common,
      tab: "datasets" as const,
      step: 1 as const,
      type,
      q,
      search: await searchDatasets(viewer, { type, q, page: pageOf(sp.get("page")) }).then(async (found) => {
        if (type === "name") await recordImpression(request, q);
        return found;
      }),
      searchError: undefined as string | undefined,
    };
  }
  const dataset = await findVisibleDataset(datasetId, viewer);
  if (dataset) await recordClick(request, sp);
  if (!dataset) throw notFound();
  if (picked && picked.dataset.id !== dataset.id) throw notFound();
  const pictures = await listPictures(dataset.id, pageOf(sp.get("page")));
  return {
    ...common,
    tab: "datasets" as const,
    step: 2 as const,
    dataset: { id: dataset.id, name: dataset.name },
    pictures,
    models: await modelChoices(dataset.dataKind ?? null),
  };
}

type ActionResult = { errors?: { model?: string; algorithm?: string; image?: string; upload?: string }; failure?: DemoFailure };

/** A busy answer tells the browser (and any script) when to ask again. */
export const headers: HeadersFunction = ({ parentHeaders, loaderHeaders, actionHeaders }) => {
  const merged = new Headers(parentHeaders);
  loaderHeaders.forEach((value, name) => merged.set(name, value));
  const retry = actionHeaders.get("Retry-After");
  if (retry) merged.set("Retry-After", retry);
  return merged;
};

export async function action({ request, context }: ActionFunctionArgs) {
  const uploads = (context as { uploads?: UploadedFiles }).uploads;
  if (!uploads && (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    return data<ActionResult>({ errors: { upload: CLASSIFICATION_MSG.uploadUnreadable } }, { status: 400 });
  }
  // Control characters (NUL included) in any field: 400 with the message (app/.server/forms.server.ts).
  const source: FormData | Record<string, string> = uploads ? checkFields(uploads.fields) : checkFormData(await request.formData());
  const rawIntent = (source instanceof FormData ? source.get("intent") : source.intent) ?? "run";
  const intent = demoIntentSchema.safeParse(rawIntent || "run");
  if (!intent.success) return data<ActionResult>({ errors: { model: CLASSIFICATION_MSG.unknownAction } }, { status: 400 });
  const url = new URL(request.url);
  if (intent.data === "upload") {
    // The earlier variant's upload dialog: one image, stored in the user's private uploads dataset.
    const user = await requireUser(request);
    const files = (uploads?.files ?? []).filter((f) => f.field === "picture");
    const target = await uploadsDataset(user.id);
    const before = await Picture.max<number, Picture>("id", { where: { datasetId: target.id } });
    const tooMany = uploads?.error?.code === "LIMIT_FILE_COUNT" || files.length > 1;
    if (tooMany) return data<ActionResult>({ errors: { upload: CLASSIFICATION_MSG.oneImage } }, { status: 400 });
    const outcome = await uploadPictures(user, target.id, files, uploads?.error);
    if (outcome.error || outcome.rejected.length) {
      const message = outcome.error === DATASET_MSG.noFiles ? CLASSIFICATION_MSG.chooseUpload : (outcome.error ?? outcome.rejected[0]);
      return data<ActionResult>({ errors: { upload: message } }, { status: uploads?.error?.code === "LIMIT_FILE_SIZE" ? 413 : 400 });
    }
    const added = await Picture.findOne({ where: { datasetId: target.id }, order: [["id", "DESC"]] });
    if (!added || added.id === before) return data<ActionResult>({ errors: { upload: CLASSIFICATION_MSG.chooseUpload } }, { status: 400 });
    return redirect(`/UserImgclassification?tab=pool&picture=${added.id}`);
  }

  // Start: the seed's order of checks, model, then algorithm, then image (§5), one message at a time.
  const viewer: Viewer = await getUser(request);
  const parsed = parseForm(source, RUN_SCHEMA);
  if (!parsed.ok) {
    const first = firstRunError(parsed.errors)!;
    return data<ActionResult>({ errors: { [first.field]: first.message } }, { status: 400 });
  }
  const { model, algorithm, picture: pictureId } = parsed.value;
  try {
    const outcome = await explainPicture(viewer, pictureId, model, algorithm, context.ip, request.signal);
    const next = new URLSearchParams(url.searchParams);
    next.set("picture", pictureId);
    next.set("model", model);
    next.set("algorithm", algorithm);
    next.set("result", String(outcome.cacheId));
    next.set("ok", "1");
    next.delete("index");
    return redirect(`/UserImgclassification?${next}#results`);
  } catch (e) {
    // A picture the visitor may not see is the 404 page, as when it is opened by its address.
    if (e instanceof DomainError) throw refusalResponse(e);
    if (e instanceof DemoRateLimited) return data<ActionResult>({ errors: { image: e.message } }, { status: 429 });
    if (!(e instanceof ClassificationFailed)) throw e;
    const gpu = await reportGpu();
    // Busy: the compute server's queue is full; nothing ran, and a moment later it will have room.
    if (e.busy) return data<ActionResult>({ failure: { ...gpu, detail: e.message, busy: true } }, { status: 503, headers: { "Retry-After": "10" } });
    return data<ActionResult>({ failure: { ...gpu, detail: e.message } }, { status: 503 });
  }
}

export default function UserImgclassification() {
  const d = useLoaderData<typeof loader>();
  const res = useActionData<typeof action>() as ActionResult | undefined;
  const toast = useRef<Toast>(null);
  const { t } = useTranslation("demo");
  // Once per result shown (its id), not on every render of the same one.
  const resultId = d.ok && d.result ? d.result.id : null;
  useEffect(() => {
    if (resultId !== null) toast.current?.show({ severity: "success", summary: translateMessage(t, CLASSIFICATION_MSG.success), life: 3000 });
  }, [resultId, t]);
  useEffect(() => {
    if (res?.failure)
      toast.current?.show({
        severity: "error",
        summary: t(res.failure.busy ? "failed.busyTitle" : "failed.title"),
        detail: t(res.failure.busy ? "msg.busy" : "failed.toast"),
        life: 10_000,
      });
  }, [res, t]);
  return (
    <section>
      <DatasetStyles />
      <Toast ref={toast} position="bottom-right" />
      <h1>{t("title")}</h1>
      <nav className="tabs" aria-label={t("imageSource")}>
        <Link to="/UserImgclassification" className={"tab" + (d.tab === "datasets" ? " active" : "")}>
          {t("fromDataset")}
        </Link>
        <Link to="/UserImgclassification?tab=pool" className={"tab" + (d.tab === "pool" ? " active" : "")}>
          {t("poolAndUpload")}
        </Link>
      </nav>
      {d.ok && d.result ? (
        <Notice kind="success">
          <span data-testid="success">{translateMessage(t, CLASSIFICATION_MSG.success)}</span>
        </Notice>
      ) : null}
      <div className="ds-steps">
        {d.tab === "pool" ? (
          <PoolStep {...(d as PoolData)} uploadError={res?.errors?.upload} />
        ) : (d as DatasetsData).step === 1 ? (
          <DatasetStep {...(d as Step1)} />
        ) : (
          <ImageStep {...(d as Step2)} />
        )}
        {d.tab === "pool" || (d as DatasetsData).step === 2 ? <RunStep data={d as PoolData | Step2} res={res} /> : null}
        {res?.failure ? <DemoFailurePanel failure={res.failure} /> : null}
        {d.result ? <Results result={d.result} provenance={d.provenance} /> : null}
      </div>
    </section>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type PoolData = Extract<LoaderData, { tab: "pool" }>;
type DatasetsData = Extract<LoaderData, { tab: "datasets" }>;
type Step1 = Extract<DatasetsData, { step: 1 }>;
type Step2 = Extract<DatasetsData, { step: 2 }>;

function DatasetStep({ type, q, search, searchError }: Step1) {
  const { t } = useTranslation("demo");
  return (
    <DatasetPicker
      route="/UserImgclassification"
      title={t("step1Dataset")}
      selectLabel={t("select")}
      type={type}
      q={q}
      search={search}
      searchError={searchError}
    />
  );
}

function ImageStep({ dataset, pictures, picture, model, algorithm }: Step2) {
  const { t } = useTranslation("demo");
  return (
    <PicturePicker
      route="/UserImgclassification"
      title={t("step2Image", { name: dataset.name })}
      backLabel={t("backToDatasets")}
      noPicturesLabel={t("noPictures")}
      pagesLabel={t("imagePages")}
      dataset={dataset}
      pictures={pictures}
      pickedId={picture?.id ?? null}
      carry={{ model, algorithm }}
    />
  );
}

function PoolStep({ pool, seed, picture, signedIn, uploadError }: PoolData & { uploadError?: string }) {
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("demo");
  return (
    <div className="card">
      <h2 style={{ marginTop: 0 }}>{t("step1Pool")}</h2>
      <div className="ds-toolbar">
        <Link to={`/UserImgclassification?tab=pool&pool=${seed + 1}`} className="p-button p-button-outlined p-component">
          <i className="pi pi-refresh" style={{ marginRight: ".4rem" }} /> {t("refreshPool")}
        </Link>
        <Link to="/datasetPreview?intro=fashion-mnist" className="p-button p-button-text p-component">
          {t("datasetIntro")}
        </Link>
      </div>
      {pool.length ? (
        <div className="ds-grid" style={{ gridTemplateColumns: "repeat(6, minmax(0, 1fr))" }} data-testid="image-pool">
          {pool.map((p) => (
            <a
              key={p.id}
              href={`/UserImgclassification?tab=pool&pool=${seed}&picture=${p.id}`}
              className={"ds-tile" + (picture?.id === p.id ? " picked" : "")}
              data-picture-id={p.id}
            >
              <img src={p.thumbUrl} alt={p.label ?? t("poolImage")} />
            </a>
          ))}
        </div>
      ) : (
        <p className="muted">{t("noPool")}</p>
      )}
      {picture && !pool.some((p) => p.id === picture.id) ? (
        <p>
          {t("chosenImage")}{" "}
          <img
            src={`${picture.url}`}
            alt={picture.name}
            style={{
              width: 96,
              height: 96,
              objectFit: "contain",
              imageRendering: "pixelated",
              border: "2px solid #dc2626",
              borderRadius: 6,
              verticalAlign: "middle",
            }}
          />{" "}
          {picture.name}
        </p>
      ) : null}
      <h3>{t("uploadTitle")}</h3>
      {signedIn ? (
        <Form method="post" encType="multipart/form-data" action="/UserImgclassification?tab=pool" className="ds-toolbar" aria-label={t("uploadTitle")}>
          <input type="hidden" name="intent" value="upload" />
          <input type="file" name="picture" accept="image/png,image/jpeg,image/gif,image/webp" required aria-describedby="upload-error" />
          <Button type="submit" label={t("upload")} icon="pi pi-upload" outlined loading={busy} />
        </Form>
      ) : (
        <p className="muted">
          <Trans t={t} i18nKey="loginToUpload" components={{ login: <Link to="/signin?redirectTo=%2FUserImgclassification%3Ftab%3Dpool" /> }} />
        </p>
      )}
      <FieldError id="upload-error" message={uploadError} />
    </div>
  );
}

function RunStep({ data: d, res }: { data: PoolData | Step2; res?: ActionResult }) {
  const nav = useNavigation();
  const running = nav.state === "submitting" && nav.formData?.get("intent") === "run";
  const { t } = useTranslation("demo");
  return (
    <div className="card">
      <h2 style={{ marginTop: 0 }}>{t(d.tab === "pool" ? "step2Run" : "step3Run")}</h2>
      <Form method="post" aria-label={t("start")} className="ds-toolbar" style={{ alignItems: "flex-start" }}>
        <input type="hidden" name="intent" value="run" />
        <input type="hidden" name="picture" value={d.picture?.id ?? ""} />
        <div className="field">
          <label htmlFor="model">{t("model")}</label>
          <select id="model" name="model" className="p-inputtext" defaultValue={d.model} key={`m${d.model}`} aria-describedby="model-error">
            <option value="">{t("choose")}</option>
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
          <label htmlFor="algorithm">{t("algorithm")}</label>
          <select id="algorithm" name="algorithm" className="p-inputtext" defaultValue={d.algorithm} key={`a${d.algorithm}`} aria-describedby="algorithm-error">
            <option value="">{t("choose")}</option>
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
          <Button type="submit" label={t("start")} icon="pi pi-play" loading={running} />
        </div>
      </Form>
      <FieldError id="image-error" message={res?.errors?.image} />
      {d.picture ? (
        <p className="muted">
          {d.picture.label ? t("imageWithTruth", { name: d.picture.name, label: d.picture.label }) : t("image", { name: d.picture.name })}
        </p>
      ) : (
        <p className="muted">{t("noImage")}</p>
      )}
      {running ? (
        <div className="ds-busy" role="status" aria-live="polite" data-testid="busy">
          <ProgressSpinner style={{ width: 28, height: 28 }} strokeWidth="6" /> {t("running")}
        </div>
      ) : null}
    </div>
  );
}

function Results({ result, provenance }: { result: NonNullable<LoaderData["result"]>; provenance: LoaderData["provenance"] }) {
  const { t, i18n } = useTranslation("demo");
  const check = provenance?.check;
  const ood = check?.kind === "outOfDistribution" ? check : null;
  const model = provenance?.model;
  const percent = (x: number) => new Intl.NumberFormat(i18n.language === "zh" ? "zh-CN" : "en", { style: "percent", maximumFractionDigits: 1 }).format(x);
  return (
    <>
      <div className="card" id="results">
        <h2 style={{ marginTop: 0 }}>{t("step4")}</h2>
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
        <h2 style={{ marginTop: 0 }}>{t("step5", { algorithm: result.algorithm })}</h2>
        <div className="ds-result-images">
          <figure>
            <img src={`/explanation/${result.id}?kind=input`} alt={t("inputShown")} data-testid="input" />
            <figcaption>{t("inputShown")}</figcaption>
          </figure>
          <figure>
            <img src={result.heatmapUrl} alt={t("heatmap")} data-testid="heatmap" />
            <figcaption>{t("heatmap")}</figcaption>
          </figure>
          <figure>
            <img src={result.overlayUrl} alt={t("overlay")} data-testid="overlay" />
            <figcaption>{t("overlay")}</figcaption>
          </figure>
        </div>
      </div>
    </>
  );
}
