// The submission page's "verified" path (docs/evaluation.md "Evaluating your own method"): download
// the suite kit, compute one attribution map per kit image in any framework, upload the maps as a
// zip; the platform runs MoRF and LeRF with them on its own models (a queued job, its progress
// shown here) and puts the result files in the draft, marked verified. A plain multipart form:
// works without JavaScript (the page then shows a refresh link while the run is under way).
import { Form, useNavigation } from "@remix-run/react";
import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { ProgressBar } from "primereact/progressbar";
import { Trans, useTranslation } from "react-i18next";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { translateMessage } from "~/lib/forms/messages.ts";
import { usePeriodicRevalidation } from "~/lib/usePeriodicRevalidation.ts";
import { formatEta } from "~/lib/eta.ts";
import { useHydrated } from "~/lib/useHydrated.ts";
import { MAPS_MAX_BYTES, mib } from "~/lib/rules/maps.ts";
import { ALGORITHM_MAX } from "~/lib/rules/submission.ts";

export interface VerifiedRun {
  id: number;
  method: string;
  mapsName: string | null;
  state: "queued" | "running" | "completed" | "failed" | "cancelled";
  progress: number;
  imagesDone: number;
  imagesTotal: number;
  etaSeconds: number | null;
  currentTask: string | null;
  error: string | null;
  seconds: number | null;
  metascore: number | null;
  rank: number | null;
  boardSize: number | null;
}

export interface VerifiedEvaluationProps {
  suite: { id: string; name: string; tasks: string[]; splitImages: number | null; acceptsSelfReported: boolean };
  run: VerifiedRun | null;
  /** The run whose files the draft holds now (verified), if any. */
  draftRunId: number | null;
  algorithm: string;
  /** The draft has been scored (its boards are shown below). */
  scored: boolean;
  result?: { ok: boolean; message?: string; errors?: Record<string, string>; fileErrors?: string[] };
}

export function VerifiedEvaluation({ suite, run, draftRunId, algorithm, scored, result }: VerifiedEvaluationProps) {
  const { t } = useTranslation("submission");
  const navigation = useNavigation();
  const active = run?.state === "queued" || run?.state === "running";
  usePeriodicRevalidation(1500, active);
  const sending = navigation.state !== "idle" && navigation.formAction?.includes("intent=upload-maps");
  const action = `/submission?${new URLSearchParams({ suite: suite.id, intent: "upload-maps" })}`;

  return (
    <section id="verified" className="verified-evaluation" aria-labelledby="verified-heading" data-testid="verified-evaluation">
      <h2 id="verified-heading">{t("maps.heading")}</h2>
      {suite.splitImages === null ? (
        <Notice kind="info">{t("maps.noSplit", { suite: suite.name })}</Notice>
      ) : (
        <>
          <p>
            <Trans
              t={t}
              i18nKey="maps.intro"
              values={{ images: suite.splitImages, tasks: suite.tasks.length, limit: mib(MAPS_MAX_BYTES) }}
              components={{
                // Trans puts the translated link text inside these anchors.
                // eslint-disable-next-line jsx-a11y/anchor-has-content
                kit: <a href={`/suites/${encodeURIComponent(suite.id)}/kit.zip`} download />,
                // eslint-disable-next-line jsx-a11y/anchor-has-content
                tutorial: <a href="/Algorithm" />,
                c: <code />,
                b: <strong />,
              }}
            />
          </p>
          <Form method="post" action={action} encType="multipart/form-data" aria-label={t("maps.form")} preventScrollReset>
            <input type="hidden" name="suite" value={suite.id} />
            {/* A message that belongs to a field is shown next to it, not twice. */}
            {result && !result.ok && result.message && !result.errors ? <Notice kind="error">{result.message}</Notice> : null}
            {result?.fileErrors && result.fileErrors.length > 1 ? (
              <div className="notice notice-error" role="alert" data-testid="maps-errors">
                <ul className="csv-errors">
                  {result.fileErrors.map((e, i) => (
                    <li key={i}>{translateMessage(t, e)}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            <div className="steps">
              <div className="step">
                <label htmlFor="maps-method">{t("maps.methodLabel")}</label>
                <InputText
                  key={algorithm}
                  id="maps-method"
                  name="method"
                  defaultValue={algorithm}
                  maxLength={ALGORITHM_MAX}
                  required
                  style={{ width: "100%" }}
                  aria-describedby="maps-method-error"
                />
                <FieldError id="maps-method-error" message={result?.errors?.method} />
              </div>
              <div className="step">
                <label htmlFor="maps-file">{t("maps.fileLabel", { limit: mib(MAPS_MAX_BYTES) })}</label>
                {/* Emptied when a run is queued (a new key): the same zip is not sent twice by one more click. */}
                <input
                  key={run?.id ?? "none"}
                  id="maps-file"
                  name="maps"
                  type="file"
                  accept=".zip,application/zip"
                  required
                  aria-describedby="maps-file-error"
                />
                <FieldError id="maps-file-error" message={result?.errors?.maps} />
              </div>
            </div>
            <div style={{ marginTop: "0.75rem" }}>
              <Button type="submit" label={t("maps.button")} icon="pi pi-verified" loading={sending} disabled={active} />
            </div>
          </Form>
        </>
      )}
      {run ? <RunStatus run={run} inDraft={draftRunId === run.id} suiteId={suite.id} scored={scored} /> : null}
    </section>
  );
}

function RunStatus({ run, inDraft, suiteId, scored }: { run: VerifiedRun; inDraft: boolean; suiteId: string; scored: boolean }) {
  const { t } = useTranslation("submission");
  const hydrated = useHydrated();
  const active = run.state === "queued" || run.state === "running";
  return (
    <div className="verified-run" data-testid="maps-run" data-state={run.state} aria-live="polite">
      <h3>{t("maps.runHeading", { id: run.id, method: run.method })}</h3>
      <p>
        <span className={`rank-source rank-source-${run.state === "completed" ? "verified" : "self-reported"}`}>{t(`maps.state.${run.state}`)}</span>{" "}
        {run.mapsName ? <span className="muted">{run.mapsName}</span> : null}
      </p>
      {active ? (
        <>
          <ProgressBar value={run.progress} style={{ height: 18 }} aria-label={t("maps.progress")} />
          <p className="muted">
            {t("maps.progressText", {
              done: run.imagesDone,
              total: run.imagesTotal || "…",
              task: run.currentTask ?? "…",
              eta: formatEta(run.etaSeconds) ?? "–",
            })}{" "}
          </p>
          {/* Without JavaScript the page does not refresh itself. A GET form to the address without
              a fragment: a link or form to the page's own address plus "#verified" is a fragment
              navigation, which only scrolls and sends no request. */}
          {hydrated ? null : (
            <form method="get" action="/submission">
              <input type="hidden" name="suite" value={suiteId} />
              <button type="submit" className="p-button p-component p-button-outlined p-button-sm">
                {t("maps.refresh")}
              </button>
            </form>
          )}
        </>
      ) : null}
      {run.state === "completed" && inDraft && !scored ? (
        // The verified files are in the draft: score them here, without the self-reported form's file fields.
        <Form method="post" action={`/submission?suite=${encodeURIComponent(suiteId)}`} encType="multipart/form-data" preventScrollReset>
          <input type="hidden" name="intent" value="score" />
          <input type="hidden" name="suite" value={suiteId} />
          <input type="hidden" name="algorithm" value={run.method} />
          <Button type="submit" label={t("maps.scoreButton")} icon="pi pi-chart-bar" data-testid="maps-score" />
        </Form>
      ) : null}
      {run.state === "completed" ? (
        <Notice kind="success">
          {t(inDraft ? "maps.completedInDraft" : "maps.completed", {
            seconds: run.seconds?.toFixed(1) ?? "?",
            score: run.metascore === null ? "–" : run.metascore.toFixed(4),
            rank: run.rank ?? "–",
            total: run.boardSize ?? "–",
          })}
        </Notice>
      ) : null}
      {run.error && !active ? <Notice kind="error">{run.error}</Notice> : null}
      {run.error && active ? <Notice kind="info">{run.error}</Notice> : null}
    </div>
  );
}
