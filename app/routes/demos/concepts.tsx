// /tcav — the concept-based page (docs/concepts.md). Step 1 picks an image from a pool of 8
// held-out images (refreshable), step 2 picks concepts among the 47 slots, 3 a page, each "with" or
// "without", step 3 the model (the GoogleNet slot, an Inception-style network) and the algorithm
// (TCAV), then Start. The results: the input, the chosen concepts, and one score image per concept
// (TCAV score per layer against the random baseline, with significance marks), with the numbers in
// a table. Besides the 47 slots, one picture dataset the viewer may see can be a concept (its first
// pictures are the examples).
//
// The whole selection lives in one form: paging and refreshing submit it with GET (so choices
// on other concept pages travel as hidden fields), Start submits it with POST. Everything works
// without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import {
  conceptCatalogue,
  conceptDatasets,
  conceptModels,
  customConceptOf,
  conceptPool,
  findTcavResult,
  runTcav,
  type Catalogue,
  type ConceptDatasetOption,
  type PoolView,
  type TcavView,
} from "~/.server/concepts.server.ts";
import { checkFormData } from "~/.server/forms.server.ts";
import { PROGRESS_KEY, clearProgress, reportProgress } from "~/.server/progress.server.ts";
import { getUser } from "~/.server/session.server.ts";
import { SidecarCallError } from "~/.server/sidecar.server.ts";
import { demoVisitor, returnDemoRun, spendDemoRun } from "~/.server/throttle.server.ts";
import { Notice } from "~/components/FieldError.tsx";
import { TcavScoreChart } from "~/components/TcavScoreChart.tsx";
import { CLASSIFICATION_MSG } from "~/lib/rules/classification.ts";
import { translateMessage } from "~/lib/forms/messages.ts";
import { CONCEPT_LIMITS, CONCEPT_MSG, checkConceptForm, type ConceptRefusal, type ConceptSelection, type ConceptStep } from "~/lib/rules/concepts.ts";
import { InlineStyle } from "~/components/InlineStyle.tsx";
import { ConceptsStep, ImageStep, RunStep, pct } from "~/components/concepts/ConceptSteps.tsx";
import { pageTitle } from "~/lib/pageTitle.ts";

export const handle = { i18n: ["concepts", "demo"] };

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "concepts:title");

type Selection = ConceptSelection;

const intIn = (v: string | null, lo: number, hi: number, fallback: number) => {
  const n = Number.parseInt(v ?? "", 10);
  return Number.isFinite(n) && n >= lo && n <= hi ? n : fallback;
};

/**
 * The selection from the form's fields: hidden `c` fields carry concepts chosen on other pages;
 * the current page's slots answer with `use.<name>` = with | without.
 */
function readSelection(params: URLSearchParams | FormData, slotNames: readonly string[]): Selection {
  const get = (k: string) => {
    const v = params.get(k);
    return typeof v === "string" ? v : null;
  };
  const chosen = new Set<string>();
  for (const v of params.getAll("c")) if (typeof v === "string" && slotNames.includes(v)) chosen.add(v);
  for (const name of slotNames) {
    const use = get(`use.${name}`);
    if (use === "with") chosen.add(name);
    else if (use === "without") chosen.delete(name);
  }
  return {
    // "reseed": the refresh button's new seed, over the hidden "seed" the form always carries.
    seed: intIn(get("reseed") ?? get("seed"), 0, CONCEPT_LIMITS.maxSeed, 1),
    // "cpage": a paging button's target; "at": the page the form was on (sent by Start).
    cpage: intIn(get("cpage") ?? get("at"), 1, 100, 1),
    image: (get("image") ?? "").slice(0, 10),
    model: (get("model") ?? "").slice(0, 100),
    algorithm: (get("algorithm") ?? "TCAV").slice(0, 64),
    concepts: [...chosen].slice(0, 47),
    dataset: (get("ds") ?? "").trim().slice(0, 13),
  };
}

type LoaderData = {
  catalogue: Catalogue | null;
  models: { id: string; dataset: string; testAccuracy: number | null }[];
  datasets: ConceptDatasetOption[];
  signedIn: boolean;
  pool: PoolView | null;
  selection: Selection;
  result: TcavView | null;
  down: string | null;
  ok: boolean;
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const viewer = await getUser(request);
  const datasets = await conceptDatasets(viewer);
  let catalogue: Catalogue | null = null;
  let models: LoaderData["models"] = [];
  let pool: PoolView | null = null;
  let down: string | null = null;
  try {
    catalogue = await conceptCatalogue();
    models = (await conceptModels()).map((m) => ({ id: m.id, dataset: m.dataset, testAccuracy: m.testAccuracy }));
  } catch (e) {
    if (!(e instanceof SidecarCallError)) throw e;
    down = e.message;
  }
  const selection = readSelection(url.searchParams, catalogue?.slots.map((s) => s.name) ?? []);
  if (!models.some((m) => m.id === selection.model)) selection.model = models[0]?.id ?? "";
  if (selection.model) {
    try {
      pool = await conceptPool(selection.model, selection.seed);
    } catch (e) {
      if (!(e instanceof SidecarCallError)) throw e;
      down = e.message;
    }
  }
  const resultId = url.searchParams.get("result");
  let result: TcavView | null = null;
  if (resultId) {
    result = /^\d{1,12}$/.test(resultId) ? await findTcavResult(Number(resultId), viewer) : null;
    if (!result) throw new Response("Not Found", { status: 404, statusText: "Not Found" });
  }
  return {
    catalogue,
    models,
    datasets,
    signedIn: viewer != null,
    pool,
    selection,
    result,
    down,
    ok: url.searchParams.get("ok") === "1",
  } satisfies LoaderData;
}

type ActionResult = { error?: ConceptRefusal; failure?: string; selection?: Selection };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = checkFormData(await request.formData());
  const catalogue = await conceptCatalogue().catch(() => null);
  if (!catalogue) return data<ActionResult>({ failure: CONCEPT_MSG.notFound }, { status: 503 });
  const selection = readSelection(
    form,
    catalogue.slots.map((s) => s.name),
  );
  const models = (await conceptModels().catch(() => [])).map((m) => m.id);
  const available = catalogue.slots.filter((s) => s.available).map((s) => s.name);
  const error = checkConceptForm(selection, available, models);
  if (error) return data<ActionResult>({ error, selection }, { status: 400 });
  const viewer = await getUser(request);
  // The dataset concept after the form's own checks: visibility is the datasets' rule (a dataset
  // the viewer may not see is "not found", as everywhere), then its size.
  const custom = selection.dataset ? await customConceptOf(selection.dataset, viewer) : undefined;
  if (custom && "refusal" in custom) return data<ActionResult>({ error: { step: "concepts", message: custom.refusal }, selection }, { status: 400 });
  const visitor = demoVisitor(viewer, (context as { ip?: string }).ip);
  const wait = await spendDemoRun(visitor);
  if (wait > 0)
    return data<ActionResult>(
      { error: { step: "run", message: CLASSIFICATION_MSG.rateLimited(Math.max(1, Math.ceil(wait / 60))) }, selection },
      { status: 429 },
    );
  // The page's key for its progress bar (sent only with JavaScript on).
  const progressKey = String(form.get("progressKey") ?? "");
  const onProgress = PROGRESS_KEY.test(progressKey) ? (done: number, total: number) => reportProgress(progressKey, done, total) : undefined;
  try {
    const { id, cached } = await runTcav(
      { modelId: selection.model, imageIndex: Number(selection.image), concepts: selection.concepts, custom },
      request.signal,
      onProgress,
    );
    if (onProgress) clearProgress(progressKey);
    if (cached) await returnDemoRun(visitor);
    const next = new URLSearchParams();
    next.set("model", selection.model);
    next.set("seed", String(selection.seed));
    next.set("cpage", String(selection.cpage));
    next.set("image", selection.image);
    for (const c of selection.concepts) next.append("c", c);
    if (selection.dataset) next.set("ds", selection.dataset);
    next.set("result", String(id));
    next.set("ok", "1");
    return redirect(`/tcav?${next}#results`);
  } catch (e) {
    if (!(e instanceof SidecarCallError)) throw e;
    if (e.kind !== "user") await returnDemoRun(visitor);
    if (onProgress) clearProgress(progressKey);
    return data<ActionResult>(e.kind === "user" ? { error: { step: "run", message: e.message }, selection } : { failure: e.message, selection }, {
      status: e.kind === "user" ? 400 : 503,
    });
  }
}

/** A random key for this page's progress (getRandomValues works on plain http too, unlike randomUUID). */
function newProgressKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * While the form is submitting, asks /tcav/progress how many concept vectors are done. Only with
 * JavaScript: the key goes into the form when Start submits it, so a page without JavaScript
 * never sends one (and paging, a GET, never carries one into the URL).
 */
function useTcavProgress(running: boolean) {
  const key = useRef("");
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const start = submitter?.getAttribute("formmethod")?.toLowerCase() === "post";
    key.current = start ? newProgressKey() : "";
    // Named only when it carries a key, so GET submissions (paging, refresh) leave it out.
    const input = e.currentTarget.querySelector<HTMLInputElement>("input[data-progress-key]");
    if (input) {
      input.name = key.current ? "progressKey" : "";
      input.value = key.current;
    }
    setProgress(null);
  };
  useEffect(() => {
    if (!running || !key.current) return;
    const url = `/tcav/progress?key=${key.current}`;
    let stopped = false;
    const timer = setInterval(async () => {
      try {
        const res = await fetch(url, { cache: "no-store" });
        if (!stopped && res.ok) setProgress((await res.json()) as { done: number; total: number });
      } catch {
        // A missed poll is shown by the next one.
      }
    }, 700);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [running]);
  return { onSubmit, progress: running ? progress : null };
}

export default function ConceptPage() {
  const { catalogue, models, datasets, signedIn, pool, selection: loaded, result, down, ok } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionResult>();
  const navigation = useNavigation();
  const { t } = useTranslation("concepts");
  const selection = actionData?.selection ?? loaded;
  const errorAt = (step: ConceptStep) => (actionData?.error?.step === step ? actionData.error.message : undefined);
  const running = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const { onSubmit, progress } = useTcavProgress(running);
  const slots = catalogue?.slots ?? [];
  const pages = Math.max(1, Math.ceil(slots.length / CONCEPT_LIMITS.pageSize));
  const cpage = Math.min(selection.cpage, pages);
  const onPage = slots.slice((cpage - 1) * CONCEPT_LIMITS.pageSize, cpage * CONCEPT_LIMITS.pageSize);
  const hiddenChosen = selection.concepts.filter((c) => !onPage.some((s) => s.name === c));
  const customChosen = datasets.find((d) => String(d.id) === selection.dataset);
  const chosenNames = [...selection.concepts, ...(customChosen ? [customChosen.name] : [])];
  return (
    <section className="tcav-page">
      <InlineStyle css={CSS} />
      <h1>{t("title")}</h1>
      <p className="lead">{t("lead")}</p>
      <details className="card how-to-read">
        <summary>{t("howTo.title")}</summary>
        <p>{t("howTo.score")}</p>
        <p>{t("howTo.significance", { sets: catalogue?.randomSets ?? 0, examples: catalogue?.examplesPerSet ?? 0 })}</p>
        {/* The sidecar names its image sources in English (sidecar/concepts/experiment.ts RANDOM_SOURCE,
            CONCEPT_SOURCE); the page says the same in the visitor's language. */}
        {catalogue ? (
          <p>
            {t("howTo.data", {
              random: t("howTo.randomSource", { count: catalogue.examplesPerSet }),
              concepts: t("howTo.conceptSource", { count: catalogue.examplesPerSet }),
            })}
          </p>
        ) : null}
        <p>{t("howTo.groundTruth")}</p>
      </details>
      {down ? (
        <p className="notice notice-error" role="alert" data-testid="tcav-down">
          {t("down")} ({down})
        </p>
      ) : null}
      {ok ? <Notice kind="success">{translateMessage(t, CONCEPT_MSG.success)}</Notice> : null}
      <Form method="get" action="/tcav" id="tcav-form" className="tcav-form" onSubmit={onSubmit}>
        <input type="hidden" name="seed" value={selection.seed} />
        <input type="hidden" name="at" value={cpage} />
        <input type="hidden" data-progress-key="" defaultValue="" />
        {hiddenChosen.map((c) => (
          <input key={c} type="hidden" name="c" value={c} />
        ))}
        <ImageStep pool={pool} selection={selection} error={errorAt("image")} />
        <ConceptsStep
          onPage={onPage}
          cpage={cpage}
          pages={pages}
          chosenNames={chosenNames}
          selection={selection}
          datasets={datasets}
          customChosen={Boolean(customChosen)}
          signedIn={signedIn}
          error={errorAt("concepts")}
        />
        <RunStep models={models} selection={selection} running={running} progress={progress} error={errorAt("run")} failure={actionData?.failure} />
      </Form>
      {result ? <Results result={result} samples={slots} /> : null}
    </section>
  );
}

function Results({ result, samples }: { result: TcavView; samples: Catalogue["slots"] }) {
  const { t } = useTranslation("concepts");
  return (
    <section id="results" className="card results" data-testid="tcav-results">
      <h2>{t("results.title")}</h2>
      <p className="muted">
        {t("results.provenance", {
          model: result.modelId,
          data: result.dataset,
          inputs: result.classInputs,
          sets: result.randomSets,
          trained: result.cavsTrained,
          reused: result.cavsReused,
          seconds: (result.elapsedMs / 1000).toFixed(1),
        })}
      </p>
      <div className="result-head">
        <figure>
          <img src={result.image} alt={t("results.inputAlt", { index: result.imageIndex })} width={160} height={160} className="pixelated" />
          <figcaption>
            {t("results.input", { index: result.imageIndex })}
            <br />
            {t("results.truth", { label: result.groundTruth })}
            <br />
            <strong data-testid="tcav-predicted">{t("results.predicted", { label: result.predicted, probability: pct(result.probability) })}</strong>
          </figcaption>
        </figure>
        <div className="chosen">
          <h3>{t("results.concepts")}</h3>
          {result.concepts.map((c, k) => {
            // The sidecar answers the slots first, then the dataset concept.
            const custom = k >= result.concepts.length - result.custom.length ? result.custom[k - (result.concepts.length - result.custom.length)] : undefined;
            return (
              <div key={c.name} className="chosen-concept" data-custom={custom ? "1" : undefined}>
                <strong>{c.name}</strong>
                {custom ? <span className="muted"> · {t("custom.fromDataset")}</span> : null}
                <div className="samples">
                  {custom
                    ? custom.sampleIds.map((id, i) => (
                        <img key={id} src={`/picture/${id}?size=thumb`} alt={t("sampleAlt", { name: c.name, n: i + 1 })} width={48} height={48} />
                      ))
                    : samples
                        .find((s) => s.name === c.name)
                        ?.samples.map((src, i) => <img key={i} src={src} alt={t("sampleAlt", { name: c.name, n: i + 1 })} width={48} height={48} />)}
                </div>
              </div>
            );
          })}
        </div>
      </div>
      <p>{t("results.scored", { label: result.predicted, inputs: result.classInputs })}</p>
      <div className="charts">
        {result.concepts.map((c) => (
          <TcavScoreChart key={c.name} concept={c} random={result.random} />
        ))}
      </div>
      <div className="table-scroll">
        <table className="scores" data-testid="tcav-table">
          <thead>
            <tr>
              <th>{t("results.concept")}</th>
              <th>{t("results.layer")}</th>
              <th>{t("results.score")}</th>
              <th>{t("results.random")}</th>
              <th>{t("results.pValue")}</th>
              <th>{t("results.magnitude")}</th>
              <th>{t("results.cavAccuracy")}</th>
              <th>{t("results.probe")}</th>
            </tr>
          </thead>
          <tbody>
            {result.concepts.flatMap((c) =>
              c.layers.map((l) => {
                const base = result.random.find((r) => r.layer === l.layer);
                return (
                  <tr key={`${c.name}-${l.layer}`} data-concept={c.name} data-layer={l.layer} data-significant={l.significant ? "1" : "0"}>
                    <td>{c.name}</td>
                    <td>{l.layer}</td>
                    <td>
                      {l.mean.toFixed(2)} ± {l.std.toFixed(2)}
                    </td>
                    <td>{base ? `${base.mean.toFixed(2)} ± ${base.std.toFixed(2)}` : "—"}</td>
                    <td>
                      {l.pValue == null ? "—" : l.pValue < 0.001 ? "< 0.001" : l.pValue.toFixed(3)}{" "}
                      {l.significant ? t("results.significant") : t("results.notSignificant")}
                    </td>
                    <td>{l.magnitude.toFixed(2)}</td>
                    <td>{pct(l.cavAccuracy)}</td>
                    <td>{pct(l.probe)}</td>
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
      </div>
      <p className="muted">
        <Link to="/document">{t("results.docs")}</Link>
      </p>
    </section>
  );
}

const CSS = `
.tcav-page .pool { display: grid; grid-template-columns: repeat(auto-fill, minmax(110px, 1fr)); gap: .5rem; margin: .5rem 0; }
.tcav-page .pool-item { display: flex; flex-direction: column; align-items: center; border: 2px solid transparent; padding: .25rem; border-radius: 6px; cursor: pointer; font-size: .85rem; }
.tcav-page .pool-item:has(input:checked), .tcav-page .pool-item.picked { border-color: #d32f2f; }
.tcav-page .pool-item img, .tcav-page .samples img, .tcav-page .pixelated { image-rendering: pixelated; }
.tcav-page .concepts { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: .75rem; }
.tcav-page .concept { border: 1px solid #ddd; border-radius: 6px; padding: .5rem; }
/* A fieldset is min-content wide by default: a long dataset name would widen the page. */
.tcav-page .custom-concept { margin-top: .75rem; min-width: 0; }
.tcav-page .custom-concept label { display: block; }
.tcav-page .custom-concept select { display: block; width: 100%; max-width: 32rem; margin-top: .25rem; }
.tcav-page .samples { display: flex; gap: .25rem; margin: .25rem 0; }
.tcav-page .row { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
.tcav-page .result-head { display: flex; flex-wrap: wrap; gap: 2rem; }
.tcav-page .charts { display: flex; flex-wrap: wrap; gap: 1rem; }
.tcav-page .table-scroll { overflow-x: auto; }
.tcav-page table.scores { border-collapse: collapse; margin-top: 1rem; }
.tcav-page table.scores th, .tcav-page table.scores td { border-bottom: 1px solid #eee; padding: .25rem .5rem; text-align: left; white-space: nowrap; }
.tcav-page .muted { color: #666; }
`;
