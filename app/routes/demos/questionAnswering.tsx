// Visual question answering (docs/vqa.md): step 1 a visible dataset (search by name or exact user
// name, 3 previews a page), step 2 an image (16 a page, back button), step 3 model, algorithm, a
// question in English or Chinese (docs/vqa.md "Chinese") and start. The answer comes with its
// probability, the image attribution, the question's words coloured by attribution and the three
// contributions (text, image, total). State lives in the query string and Start is a form POST that
// redirects to the stored result, so every step works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getUser } from "~/.server/session.server.ts";
import type { Viewer } from "~/.server/datasets.server.ts";
import { askQuestion, vqaModels, vqaResultFor, type VqaModelView, type VqaResultView } from "~/.server/vqa.server.ts";
import { datasetStep, demoFailure, demoHeaders, firstDemoError, pickedPicture } from "~/.server/demoFlow.server.ts";
import { checkFormData } from "~/.server/forms.server.ts";
import { i18nServer } from "~/.server/i18n.server.ts";
import { FieldError } from "~/components/FieldError.tsx";
import { DemoFailurePanel, type DemoFailure } from "~/components/DemoFailurePanel.tsx";
import { Busy, ModelAlgorithmFields, PickStep, SuccessNotice, useRunning } from "~/components/demo/DemoSteps.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { useTranslation } from "react-i18next";
import { parseForm } from "~/lib/forms/parse.ts";
import { VQA_ALGORITHMS, VQA_LIMITS, VQA_FIELD_ORDER, VQA_MSG, vqaRunSchema, type VqaField } from "~/lib/rules/vqa.ts";
import { ResultFigure } from "~/components/demo/ResultFigure.tsx";

const ROUTE = "/UserQuery";

export const handle = { i18n: ["vqa", "demo"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

const notFound = () => new Response(VQA_MSG.notFound, { status: 404, statusText: "Not Found" });

const ALGORITHM_OPTIONS = VQA_ALGORITHMS.map((a) => ({ value: a, label: a }));

async function modelChoices(): Promise<{ models: VqaModelView[]; error: string | null }> {
  try {
    const models = await vqaModels();
    return { models, error: models.length ? null : VQA_MSG.noModel };
  } catch {
    return { models: [], error: VQA_MSG.modelsDown };
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer: Viewer = await getUser(request);
  const t = await i18nServer.getFixedT(request, "vqa");
  const sp = new URL(request.url).searchParams;
  const picture = await pickedPicture(sp, viewer, notFound);
  const result = sp.get("result") ? await vqaResultFor(viewer, sp.get("result")) : null;
  if (sp.get("result") && !result) throw new Response(VQA_MSG.noResult, { status: 404, statusText: "Not Found" });
  const common = {
    title: t("metaTitle"),
    model: (sp.get("model") ?? "").slice(0, 100),
    algorithm: (sp.get("algorithm") ?? "").slice(0, 64),
    question: (sp.get("question") ?? "").slice(0, VQA_LIMITS.questionMax),
    picture,
    result: result && picture && result.pictureId === picture.id ? result : null,
    ok: sp.get("ok") === "1",
  };
  const step = await datasetStep(request, viewer, picture, notFound, async () => ({ choices: await modelChoices() }));
  return data({ ...common, ...step.body }, { status: step.status });
}

/** What the form sent, echoed so a page rendered without JavaScript keeps the visitor's choices and question. */
type Sent = { model: string; algorithm: string; question: string };
type ActionResult = {
  errors?: Partial<Record<VqaField, string>>;
  unknown?: { words: string[]; vocabulary: string[] };
  failure?: DemoFailure;
  sent?: Sent;
};

export const headers = demoHeaders;

export async function action({ request, context }: ActionFunctionArgs) {
  const form = checkFormData(await request.formData());
  const viewer: Viewer = await getUser(request);
  const field = (name: string) => String(form.get(name) ?? "").slice(0, name === "question" ? VQA_LIMITS.questionMax : 100);
  const sent: Sent = { model: field("model"), algorithm: field("algorithm"), question: field("question") };
  const parsed = parseForm(form, vqaRunSchema);
  if (!parsed.ok) {
    // The order of checks (docs/product.md "Question answering"): model, algorithm, image, question; one message at a time.
    const first = firstDemoError(parsed.errors, VQA_FIELD_ORDER, "question")!;
    return data<ActionResult>({ errors: { [first.field]: first.message }, sent }, { status: 400 });
  }
  const { model, algorithm, picture, question } = parsed.value;
  try {
    const outcome = await askQuestion(viewer, picture, model, algorithm as (typeof VQA_ALGORITHMS)[number], question, context.ip, request.signal);
    if (outcome.kind === "unknownWords") {
      return data<ActionResult>(
        { errors: { question: VQA_MSG.unknownWords(outcome.words) }, unknown: { words: outcome.words, vocabulary: outcome.vocabulary }, sent },
        { status: 400 },
      );
    }
    const next = new URL(request.url).searchParams;
    next.set("picture", picture);
    next.set("model", model);
    next.set("algorithm", algorithm);
    next.set("question", question);
    next.set("result", String(outcome.resultId));
    next.set("ok", "1");
    return redirect(`${ROUTE}?${next}#results`);
  } catch (e) {
    return demoFailure(e, "question", { sent });
  }
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type Step2 = Extract<LoaderData, { step: 2 }>;

/** Shown larger than they are, the pictures keep their pixels sharp. */
const PIXELATED = { imageRendering: "pixelated" } as const;

export default function UserQuery() {
  const d = useLoaderData<typeof loader>();
  const res = useActionData<typeof action>() as ActionResult | undefined;
  const { t } = useTranslation("vqa");
  return (
    <section>
      <DatasetStyles />
      <h1>{t("title")}</h1>
      <p className="muted">{t("lead")}</p>
      <SuccessNotice show={Boolean(d.ok && d.result)} message={VQA_MSG.success} />
      <div className="ds-steps">
        <PickStep
          route={ROUTE}
          d={d}
          pickedId={d.picture?.id ?? null}
          carry={{ model: d.model, algorithm: d.algorithm, question: d.question }}
          words={{
            datasetTitle: t("step1"),
            hint: t("step1Hint"),
            select: t("select"),
            imageTitle: (name) => t("step2", { name }),
            back: t("back"),
            noPictures: t("noPictures"),
            pages: t("imagePages"),
          }}
        />
        {d.step === 2 ? <RunStep d={d as Step2} res={res} /> : null}
        {res?.failure ? <DemoFailurePanel failure={res.failure} /> : null}
        {d.result ? (
          <Results result={d.result} model={d.step === 2 ? ((d as Step2).choices.models.find((m) => m.id === d.result!.modelId) ?? null) : null} />
        ) : null}
      </div>
    </section>
  );
}

function RunStep({ d, res }: { d: Step2; res?: ActionResult }) {
  const running = useRunning();
  const { t, i18n } = useTranslation("vqa");
  const model = res?.sent?.model ?? d.model;
  const algorithm = res?.sent?.algorithm ?? d.algorithm;
  const question = res?.sent?.question ?? d.question;
  const chosen = d.choices.models.find((m) => m.id === model) ?? d.choices.models[0] ?? null;
  const percent = (x: number) => new Intl.NumberFormat(i18n.language === "zh" ? "zh-CN" : "en", { style: "percent", maximumFractionDigits: 1 }).format(x);
  return (
    <div className="card">
      <h2 style={{ marginTop: 0 }}>{t("step3")}</h2>
      <Form method="post" aria-label={t("start")} className="vqa-form">
        <input type="hidden" name="picture" value={d.picture?.id ?? ""} />
        <div className="ds-toolbar" style={{ alignItems: "flex-start" }}>
          <ModelAlgorithmFields
            models={d.choices.models.map((m) => ({ value: m.id, label: t("modelOption", { id: m.id, data: m.dataset }) }))}
            modelsError={d.choices.error}
            algorithms={ALGORITHM_OPTIONS}
            model={model}
            algorithm={algorithm}
            errors={res?.errors}
            words={{ model: t("model"), algorithm: t("algorithm"), choose: t("choose") }}
          />
        </div>
        <div className="field" style={{ marginTop: ".75rem" }}>
          <label htmlFor="question">{t("question")}</label>
          <input
            id="question"
            name="question"
            className="p-inputtext"
            defaultValue={question}
            key={`q${question}`}
            maxLength={VQA_LIMITS.questionMax}
            placeholder={t("questionPlaceholder")}
            aria-describedby="question-error"
            style={{ width: "100%", maxWidth: "32rem" }}
          />
          <FieldError id="question-error" message={res?.errors?.question} />
        </div>
        {res?.unknown ? (
          <div className="notice notice-warn" data-testid="vocabulary" style={{ marginTop: ".5rem" }}>
            <p style={{ margin: 0 }}>{t("vocabulary", { count: res.unknown.vocabulary.length })}</p>
            {splitByLanguage(res.unknown.vocabulary).map(([lang, words]) =>
              words.length ? (
                <p key={lang} style={{ margin: ".35rem 0 0" }} lang={lang}>
                  <code>{words.join(" ")}</code>
                </p>
              ) : null,
            )}
          </div>
        ) : null}
        {chosen ? <Vocabulary model={chosen} /> : null}
        <p style={{ marginTop: ".75rem" }}>
          <button type="submit" className="p-button p-component" data-testid="vqa-start" disabled={running}>
            <i className="pi pi-play" style={{ marginRight: ".4rem" }} />
            {t("start")}
          </button>
        </p>
      </Form>
      <FieldError id="image-error" message={res?.errors?.image} />
      <p className="muted">{d.picture ? t("image", { name: d.picture.name }) : t("noImage")}</p>
      {chosen ? (
        <details data-testid="model-note">
          <summary>{t("aboutModel", { id: chosen.id })}</summary>
          <p>{t("modelNote", { data: chosen.dataset, accuracy: percent(chosen.testAccuracy), questions: chosen.testQuestions })}</p>
          <p>
            {t("blindNote", { image: percent(chosen.imageBlindAccuracy), question: percent(chosen.questionBlindAccuracy) })} {t("ownData")}
          </p>
          {chosen.testAccuracyZh > 0 ? (
            <p data-testid="model-note-zh">{t("modelNoteZh", { accuracy: percent(chosen.testAccuracyZh), image: percent(chosen.imageBlindAccuracyZh) })}</p>
          ) : null}
          {chosen.examples.length ? (
            <p>
              {t("examples")} {chosen.examples.map((q) => `“${q}”`).join(" · ")}
            </p>
          ) : null}
        </details>
      ) : null}
      <Busy label={t("running")} />
    </div>
  );
}

const HAN = /\p{Script=Han}/u;

/** The words of a list by language: English (Latin script) first, then Chinese. */
function splitByLanguage(words: string[]): Array<["en" | "zh-CN", string[]]> {
  return [
    ["en", words.filter((w) => !HAN.test(w))],
    ["zh-CN", words.filter((w) => HAN.test(w))],
  ];
}

/**
 * Every word the model knows, in both languages, and the spellings, synonyms and phrases the
 * sidecar's tokenizer reads as those words (sidecar/vqa/scenesQA.ts, docs/vqa.md "Words"), so a
 * visitor can see what to ask before asking.
 */
function Vocabulary({ model }: { model: VqaModelView }) {
  const { t } = useTranslation("vqa");
  const [en, zh] = splitByLanguage(model.vocabulary);
  const byLanguage: Array<["en" | "zh", string]> = [
    ["en", t("vocab.languageEn")],
    ["zh", t("vocab.languageZh")],
  ];
  return (
    <details data-testid="vqa-vocabulary" style={{ marginTop: ".5rem" }}>
      <summary>{t("vocab.title", { count: model.vocabulary.length })}</summary>
      <p style={{ margin: ".5rem 0 0" }}>{t("vocab.english", { count: en[1].length })}</p>
      <p lang="en" style={{ margin: ".25rem 0 0" }} data-testid="vqa-vocabulary-en">
        <code>{en[1].join(" ")}</code>
      </p>
      <p style={{ margin: ".5rem 0 0" }}>{t("vocab.chinese", { count: zh[1].length })}</p>
      <p lang="zh-CN" style={{ margin: ".25rem 0 0" }} data-testid="vqa-vocabulary-zh">
        <code>{zh[1].join(" ")}</code>
      </p>
      <p className="muted" style={{ fontSize: ".85rem" }}>
        {t("vocab.howZh")}
      </p>
      {model.synonyms.length ? (
        <div style={{ overflowX: "auto" }}>
          <table className="data-table" data-testid="vqa-synonyms" style={{ maxWidth: "32rem" }}>
            <caption className="muted" style={{ textAlign: "left" }}>
              {t("vocab.synonyms")}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t("vocab.written")}</th>
                <th scope="col">{t("vocab.readsAs")}</th>
              </tr>
            </thead>
            {byLanguage.map(([lang, name]) => (
              <tbody key={lang}>
                <tr>
                  <th scope="rowgroup" colSpan={2} style={{ textAlign: "left" }}>
                    {name}
                  </th>
                </tr>
                {model.synonyms
                  .filter((x) => x.language === lang)
                  .map((x) => (
                    <tr key={`${lang}:${x.written}`}>
                      <td lang={lang === "zh" ? "zh-CN" : "en"}>{x.written}</td>
                      <td lang={lang === "zh" ? "zh-CN" : "en"}>{x.readsAs || t("vocab.dropped")}</td>
                    </tr>
                  ))}
              </tbody>
            ))}
          </table>
        </div>
      ) : null}
    </details>
  );
}

/** Captum's text visualisation convention: green for positive attribution, red for negative, by |a| / max|a|. */
function wordColour(a: number, max: number): string {
  const s = max > 0 ? Math.min(1, Math.abs(a) / max) : 0;
  return a >= 0 ? `rgba(22, 163, 74, ${(0.1 + 0.6 * s).toFixed(2)})` : `rgba(220, 38, 38, ${(0.1 + 0.6 * s).toFixed(2)})`;
}

function Results({ result, model }: { result: VqaResultView; model: VqaModelView | null }) {
  const { t, i18n } = useTranslation("vqa");
  const lang = i18n.language === "zh" ? "zh-CN" : "en";
  const percent = (x: number) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 }).format(x);
  const num = (x: number) => new Intl.NumberFormat(lang, { maximumFractionDigits: 4, minimumFractionDigits: 4 }).format(x);
  const max = Math.max(0, ...result.wordAttributions.map(Math.abs));
  return (
    <>
      <div className="card" id="results">
        <h2 style={{ marginTop: 0 }}>{t("results.title")}</h2>
        <p style={{ fontSize: "1.1rem" }}>
          <span className="muted">{t("results.question")}</span> {result.question.replace(/[?？]+$/, "")}
          {HAN.test(result.question) ? "？" : "?"}
        </p>
        <dl className="profile-grid">
          <dt>{t("results.answer")}</dt>
          <dd data-testid="answer" lang="en">
            <strong>{result.answer}</strong>
          </dd>
          <dt>{t("results.probability")}</dt>
          <dd data-testid="probability">{percent(result.probability)}</dd>
        </dl>
        <table className="data-table" data-testid="top-answers" style={{ maxWidth: "24rem" }}>
          <caption className="muted" style={{ textAlign: "left", whiteSpace: "nowrap" }}>
            {t("results.top")}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t("results.answer")}</th>
              <th scope="col">{t("results.probability")}</th>
            </tr>
          </thead>
          <tbody>
            {result.top.map((a) => (
              <tr key={a.answer}>
                <td lang="en">{a.answer}</td>
                <td>{percent(a.probability)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted" data-testid="vqa-provenance" style={{ fontSize: ".85rem" }}>
          {t("results.provenance", {
            model: result.modelId,
            data: model?.dataset ?? "?",
            algorithm: result.algorithm,
            steps: result.nSteps,
            output: result.explainedOutput,
            seconds: result.seconds,
          })}
        </p>
      </div>
      <div className="card">
        <h2 style={{ marginTop: 0 }}>{t("results.attributions", { algorithm: result.algorithm })}</h2>
        <div className="ds-result-images">
          <ResultFigure src={result.inputSrc} caption={t("results.input")} testId="input" style={PIXELATED} />
          <ResultFigure src={result.heatmapSrc} caption={t("results.heatmap")} testId="heatmap" style={PIXELATED} />
          <ResultFigure src={result.overlaySrc} caption={t("results.overlay")} testId="overlay" style={PIXELATED} />
        </div>
        <h3>{t("results.words")}</h3>
        <p data-testid="words" style={{ fontSize: "1.15rem", lineHeight: 2 }}>
          {result.tokens.map((tok, i) => (
            <span
              key={i}
              data-attribution={result.wordAttributions[i]}
              title={num(result.wordAttributions[i] ?? 0)}
              style={{ background: wordColour(result.wordAttributions[i] ?? 0, max), padding: ".1rem .35rem", borderRadius: 4, marginRight: ".25rem" }}
            >
              {tok}
            </span>
          ))}
        </p>
        <p className="muted" style={{ fontSize: ".85rem" }}>
          {t("results.wordsLegend")}
        </p>
        <h3>{t("results.contributions")}</h3>
        <dl className="profile-grid" data-testid="contributions">
          <dt>{t("results.text")}</dt>
          <dd data-testid="contribution-text">{num(result.contributions.text)}</dd>
          <dt>{t("results.image")}</dt>
          <dd data-testid="contribution-image">{num(result.contributions.image)}</dd>
          <dt>{t("results.total")}</dt>
          <dd data-testid="contribution-total">{num(result.contributions.total)}</dd>
          <dt>{t("results.delta")}</dt>
          <dd data-testid="delta">{num(result.delta)}</dd>
        </dl>
        <p className="muted" style={{ fontSize: ".85rem" }}>
          {t("results.contributionsHow")}
        </p>
      </div>
    </>
  );
}
