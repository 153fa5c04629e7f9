// The image classification demo: step 1 pick a visible dataset, step 2 an image, step 3 model and
// algorithm and start, step 4 ground truth, prediction and probability, step 5 attribution images.
// All state lives in the query string and the start button is a form POST, so every step works as a
// server-rendered page without JavaScript. A second tab serves the earlier variant: an image pool
// plus a one-image upload.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { getUser, requireUser } from "~/.server/session.server.ts";
import type { UploadedFiles } from "~/.server/uploads.server.ts";
import type { Viewer } from "~/.server/datasets.server.ts";
import { CLASSIFICATION_ALGORITHMS, explainPicture, listModels, modelOptions, resultFor, type ModelOption } from "~/.server/classification.server.ts";
import {
  datasetStep,
  demoFailure,
  demoHeaders,
  demoPool,
  firstDemoError,
  pickedPicture,
  poolDatasets,
  poolSeed,
  uploadOnePicture,
} from "~/.server/demoFlow.server.ts";
import { provenanceOf, type ResultProvenance } from "~/.server/demoResult.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { DemoFailurePanel, type DemoFailure } from "~/components/DemoFailurePanel.tsx";
import { DemoToasts, PickStep, PoolStep, RunCard, SuccessNotice } from "~/components/demo/DemoSteps.tsx";
import { ClassificationResults } from "~/components/demo/ClassificationResults.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { checkFields, checkFormData } from "~/.server/forms.server.ts";
import { useTranslation } from "react-i18next";
import { parseForm } from "~/lib/forms/parse.ts";
import { CLASSIFICATION_MSG, RUN_FIELD_ORDER, demoIntentSchema, runSchema } from "~/lib/rules/classification.ts";

const ROUTE = "/UserImgclassification";

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
  const picture = await pickedPicture(sp, viewer, notFound);
  const result = sp.get("result") ? await resultFor(viewer, sp.get("result")) : null;
  if (sp.get("result") && !result) throw new Response(CLASSIFICATION_MSG.noResult, { status: 404, statusText: "Not Found" });
  const shown = result && picture && result.pictureId === picture.id ? result : null;
  const common = {
    title: t("metaTitle"),
    signedIn: Boolean(viewer),
    algorithms: ALGORITHM_OPTIONS,
    model: sp.get("model") ?? "",
    algorithm: sp.get("algorithm") ?? "",
    picture,
    result: shown,
    provenance: shown ? await provenanceOf(shown) : (null as ResultProvenance | null),
    ok: sp.get("ok") === "1",
  };
  if (tab === "pool") {
    const seed = poolSeed(sp);
    const models = await modelChoices(picture?.dataKind ?? null);
    return data({ ...common, tab: "pool" as const, seed, pool: await demoPool(await poolDatasets(), seed), models });
  }
  const step = await datasetStep(request, viewer, picture, notFound, async (dataKind) => ({ models: await modelChoices(dataKind) }));
  return data({ ...common, tab: "datasets" as const, ...step.body }, { status: step.status });
}

type ActionResult = { errors?: { model?: string; algorithm?: string; image?: string; upload?: string }; failure?: DemoFailure };

export const headers = demoHeaders;

export async function action({ request, context }: ActionFunctionArgs) {
  const uploads = (context as { uploads?: UploadedFiles }).uploads;
  if (!uploads && (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    return data<ActionResult>({ errors: { upload: CLASSIFICATION_MSG.uploadUnreadable } }, { status: 400 });
  }
  // Control characters (NUL included) in any field: 400 with the message (app/.server/forms.server.ts).
  const source: FormData | Record<string, string> = uploads ? checkFields(uploads.fields) : checkFormData(await request.formData());
  // The page's only multipart form is the upload: a browser's upload whose session had ended
  // reaches here with no fields (the body is dropped unread before sign-in, uploads.server.ts)
  // and is answered as an upload, with the log-in page.
  const rawIntent = (source instanceof FormData ? source.get("intent") : source.intent) ?? (uploads ? "upload" : "run");
  const intent = demoIntentSchema.safeParse(rawIntent || "run");
  if (!intent.success) return data<ActionResult>({ errors: { model: CLASSIFICATION_MSG.unknownAction } }, { status: 400 });
  const url = new URL(request.url);
  if (intent.data === "upload") {
    // The earlier variant's upload dialog: one image, stored in the user's private uploads dataset.
    const uploaded = await uploadOnePicture(await requireUser(request), uploads);
    if ("error" in uploaded) return data<ActionResult>({ errors: { upload: uploaded.error } }, { status: uploaded.status });
    return redirect(`${ROUTE}?tab=pool&picture=${uploaded.pictureId}`);
  }

  // Start: the checks in order, model, then algorithm, then image, one message at a time.
  const viewer: Viewer = await getUser(request);
  const parsed = parseForm(source, RUN_SCHEMA);
  if (!parsed.ok) {
    const first = firstDemoError(parsed.errors, RUN_FIELD_ORDER)!;
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
    return redirect(`${ROUTE}?${next}#results`);
  } catch (e) {
    return demoFailure(e, "image");
  }
}

export default function UserImgclassification() {
  const d = useLoaderData<typeof loader>();
  const res = useActionData<typeof action>() as ActionResult | undefined;
  const { t } = useTranslation("demo");
  return (
    <section>
      <DatasetStyles />
      <DemoToasts resultId={d.ok && d.result ? d.result.id : null} success={CLASSIFICATION_MSG.success} failure={res?.failure} />
      <h1>{t("title")}</h1>
      <nav className="tabs" aria-label={t("imageSource")}>
        <Link to={ROUTE} className={"tab" + (d.tab === "datasets" ? " active" : "")}>
          {t("fromDataset")}
        </Link>
        <Link to={`${ROUTE}?tab=pool`} className={"tab" + (d.tab === "pool" ? " active" : "")}>
          {t("poolAndUpload")}
        </Link>
      </nav>
      <SuccessNotice show={Boolean(d.ok && d.result)} message={CLASSIFICATION_MSG.success} />
      <div className="ds-steps">
        {d.tab === "pool" ? (
          <PoolStep
            pool={(d as PoolData).pool}
            seed={(d as PoolData).seed}
            href={({ pool, picture }) => `${ROUTE}?tab=pool&pool=${pool}${picture ? `&picture=${picture}` : ""}`}
            introSlug="fashion-mnist"
            picture={d.picture}
            upload={{ signedIn: d.signedIn, action: `${ROUTE}?tab=pool`, error: res?.errors?.upload }}
          />
        ) : (
          <PickStep route={ROUTE} d={d as DatasetsData} pickedId={d.picture?.id ?? null} carry={{ model: d.model, algorithm: d.algorithm }} />
        )}
        {d.tab === "pool" || (d as DatasetsData).step === 2 ? (
          <RunCard
            title={t(d.tab === "pool" ? "step2Run" : "step3Run")}
            intent="run"
            startLabel={t("start")}
            choice={d as PoolData | Step2}
            errors={res?.errors}
          />
        ) : null}
        {res?.failure ? <DemoFailurePanel failure={res.failure} /> : null}
        {d.result ? <ClassificationResults result={d.result} provenance={d.provenance} /> : null}
      </div>
    </section>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type PoolData = Extract<LoaderData, { tab: "pool" }>;
type DatasetsData = Extract<LoaderData, { tab: "datasets" }>;
type Step2 = Extract<DatasetsData, { step: 2 }>;
