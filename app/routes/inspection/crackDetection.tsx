// /twodresult — crack detection results (docs/crack-detection.md). A grid of 6 photos a page, 3 a
// row, each with its detected crack drawn over it and a "details" button that opens the draggable
// "detection details" dialog; closing it asks for confirmation. Everything is in the URL (?run,
// ?page, ?details, ?closing), so the page, the dialog and the confirm step all work without
// JavaScript. Signed-in users start runs over datasets they may see; the detector's accuracy,
// measured on generated photos with ground truth, is quoted from the sidecar
// (docs/crack-detection.md).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { Dialog } from "primereact/dialog";
import { ProgressBar } from "primereact/progressbar";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { checkFormData } from "~/.server/forms.server.ts";
import { ownDatasets, platformDatasets } from "~/.server/datasets.server.ts";
import {
  InspectionRefused,
  PLATFORM_INSPECTION_SLUG,
  cancelRun,
  detectorInfo,
  findDetection,
  findVisibleRun,
  listRuns,
  resultsPage,
  runViewOf,
  skippedPhotos,
  startRun,
  type DetectionRow,
  type RunView,
  type SkippedPhotoRow,
} from "~/.server/inspection.server.ts";
import { jobQueue } from "~/.server/queue.server.ts";
import { getUser, requireUser } from "~/.server/session.server.ts";
import { Pager } from "~/components/Pager.tsx";
import { RunSelect } from "~/components/inspection/RunSelect.tsx";
import { DATASET_CSS } from "~/components/datasets/styles.tsx";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { INSPECTION_LIMITS, INSPECTION_MSG } from "~/lib/rules/inspection.ts";
import { translateMessage } from "~/lib/forms/messages.ts";
import { useHydrated } from "~/lib/useHydrated.ts";
import { usePeriodicRevalidation } from "~/lib/usePeriodicRevalidation.ts";
import { InlineStyle } from "~/components/InlineStyle.tsx";
import { pageTitle } from "~/lib/pageTitle.ts";

export const handle = { i18n: "inspection" };

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "inspection:title");

const REFRESH_MS = 2000;

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const url = new URL(request.url);
  const runs = await listRuns(viewer);
  const wanted = url.searchParams.get("run");
  // An explicit run the viewer may not see is a 404, as for one that does not exist; without
  // one, the newest run that has results (or the newest at all).
  let run: RunView | null = null;
  if (wanted) {
    const found = await findVisibleRun(wanted, viewer);
    if (!found) throw new Response("Not Found", { status: 404, statusText: "Not Found" });
    run = runViewOf(found, viewer);
  } else run = runs.find((r) => r.photosDone > 0) ?? runs[0] ?? null;
  const page = Math.max(1, Math.min(10_000, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  const results = run ? await resultsPage(run.id, page) : null;
  // The photos the run could not detect, each with its reason (none are skipped silently).
  const skipped = run?.photosSkipped ? await skippedPhotos(run.id) : [];
  const details = run && url.searchParams.get("details") ? await findDetection(run.id, url.searchParams.get("details")) : null;
  const datasets = viewer
    ? [...(await platformDatasets()).filter((d) => d.slug === PLATFORM_INSPECTION_SLUG), ...(await ownDatasets(viewer))].map((d) => ({
        id: d.id,
        name: d.name,
      }))
    : [];
  const msg = url.searchParams.get("msg");
  return {
    signedIn: viewer != null,
    info: await detectorInfo(),
    runs,
    run,
    results,
    skipped,
    details,
    closing: details != null && url.searchParams.get("closing") === "1",
    datasets,
    notice: msg === "started" ? INSPECTION_MSG.started : msg === "cancelled" ? INSPECTION_MSG.cancelled : null,
  };
}

type ActionResult = { error: string; values: Record<string, string> };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = checkFormData(await request.formData());
  const intent = String(form.get("intent") ?? "");
  if (intent === "cancel") {
    const id = String(form.get("run") ?? "");
    await cancelRun(user, id);
    return redirect(`/twodresult?run=${encodeURIComponent(id)}&msg=cancelled`);
  }
  const values = { dataset: String(form.get("dataset") ?? "").slice(0, 20), scale: String(form.get("scale") ?? "").slice(0, 20) };
  const scale = Number(values.scale);
  try {
    const run = await startRun(jobQueue(), user, values.dataset, scale);
    return redirect(`/twodresult?run=${run.id}&msg=started`);
  } catch (err) {
    if (err instanceof InspectionRefused) return data<ActionResult>({ error: err.message, values }, { status: 400 });
    throw err;
  }
}

const fmt = (x: number, digits = 1) => x.toFixed(digits);

function href(run: RunView | null, page: number, extra: Record<string, string> = {}) {
  const q = new URLSearchParams();
  if (run) q.set("run", String(run.id));
  if (page > 1) q.set("page", String(page));
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const s = q.toString();
  return `/twodresult${s ? `?${s}` : ""}`;
}

export default function TwoDResult() {
  const { signedIn, info, runs, run, results, skipped, details, closing, datasets, notice } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const { t } = useTranslation("inspection");
  const active = run?.state === "queued" || run?.state === "running";
  usePeriodicRevalidation(REFRESH_MS, active);
  const page = results?.page ?? 1;
  return (
    <section className="inspection">
      <InlineStyle css={DATASET_CSS + INSPECTION_CSS} />
      <h1>{t("title")}</h1>
      <p className="muted">{t("lead")}</p>
      {notice && !result ? <Notice kind="success">{notice}</Notice> : null}
      <DetectorCard info={info} />
      <section className="card">
        <h2>{t("runs.title")}</h2>
        {runs.length ? (
          <Form method="get" action="/twodresult" className="ds-toolbar">
            <label htmlFor="run-select">{t("runs.select")}</label>
            <RunSelect id="run-select" runs={runs} value={run?.id} />
            <button type="submit" className="p-button p-component p-button-outlined">
              {t("runs.view")}
            </button>
          </Form>
        ) : (
          <p>{t("runs.none")}</p>
        )}
        {run ? <RunStatus run={run} /> : null}
      </section>
      {run && results ? (
        <section className="card" aria-label={t("grid.label")}>
          <h2>{t("grid.title", { total: results.total })}</h2>
          <p className="muted">{t("grid.provenance", { model: run.modelName, dataset: run.datasetName, scale: run.mmPerPixel })}</p>
          {results.rows.length ? (
            <div className="insp-grid">
              {results.rows.map((row) => (
                <ResultTile key={row.id} row={row} detailsHref={href(run, page, { details: String(row.id) })} />
              ))}
            </div>
          ) : (
            <p>{active ? t("grid.waiting") : run.photosSkipped ? t("grid.emptySkipped") : t("grid.empty")}</p>
          )}
          <Pager page={page} pageCount={results.pages} href={(p) => href(run, p)} />
        </section>
      ) : null}
      {run && skipped.length ? <SkippedList total={run.photosSkipped} rows={skipped} /> : null}
      {details && run ? <DetailsDialog row={details} closing={closing} baseHref={href(run, page)} /> : null}
      {signedIn ? (
        <StartForm datasets={datasets} result={result} />
      ) : (
        <p className="muted">
          <Link to="/signin?redirectTo=/twodresult">{t("start.signIn")}</Link>
        </p>
      )}
    </section>
  );
}

/**
 * The sidecar describes the committed evaluation in English (sidecar/inspection/service.ts); the
 * page says it in the visitor's language when it has the known shape, and quotes it otherwise.
 */
function evaluationData(t: TFunction, text: string): string {
  const m = text.match(
    /^generated concrete photos (\d+)–(\d+) of the test split \(seed (\d+), ([\d.]+) mm per pixel; thresholds chosen on test photos (\d+)–(\d+)\)$/,
  );
  if (!m) return text;
  const [, from, to, seed, mm, tuneFrom, tuneTo] = m;
  return t("detector.evaluationData", { from, to, seed, mm, tuneFrom, tuneTo });
}

function DetectorCard({ info }: { info: ReturnType<typeof useLoaderData<typeof loader>>["info"] }) {
  const { t } = useTranslation("inspection");
  if (!info) return <Notice kind="warn">{t("detector.unavailable")}</Notice>;
  const pct = (x: number | undefined) => (x === undefined ? "—" : `${(x * 100).toFixed(1)} %`);
  return (
    <section className="card" data-testid="detector-card">
      <h2>{t("detector.title", { model: info.modelName })}</h2>
      <p>{t(`detector.methods.${info.modelName}`, { defaultValue: info.method })}</p>
      {info.evaluatedPhotos > 0 ? (
        <>
          <p className="muted">{t("detector.measuredOn", { count: info.evaluatedPhotos, data: evaluationData(t, info.evaluationData) })}</p>
          <dl className="insp-figures">
            <div>
              <dt>{t("detector.precision")}</dt>
              <dd data-testid="precision">{pct(info.precision)}</dd>
            </div>
            <div>
              <dt>{t("detector.recall")}</dt>
              <dd data-testid="recall">{pct(info.recall)}</dd>
            </div>
            <div>
              <dt>{t("detector.lengthError")}</dt>
              <dd>{pct(info.lengthRelative?.mae)}</dd>
            </div>
            <div>
              <dt>{t("detector.widthError")}</dt>
              <dd>{info.meanWidthMm ? `${info.meanWidthMm.mae.toFixed(2)} mm` : "—"}</dd>
            </div>
            <div>
              <dt>{t("detector.maxWidthError")}</dt>
              <dd>{info.maxWidthMm ? `${info.maxWidthMm.mae.toFixed(2)} mm` : "—"}</dd>
            </div>
          </dl>
        </>
      ) : (
        <p className="muted">{t("detector.noFigures")}</p>
      )}
    </section>
  );
}

function RunStatus({ run }: { run: RunView }) {
  const { t } = useTranslation("inspection");
  const active = run.state === "queued" || run.state === "running";
  const pct = run.photosTotal ? Math.round((100 * run.photosDone) / run.photosTotal) : 0;
  return (
    <div className="insp-status" data-testid="run-status" data-state={run.state}>
      <p>
        {t("runs.summary", {
          id: run.id,
          state: t(`state.${run.state}`),
          done: run.photosDone,
          total: run.photosTotal,
          cracks: run.cracksFound,
        })}{" "}
        {run.platform ? t("runs.byPlatform") : null}{" "}
        {run.photosSkipped ? (
          <a href="#not-detected" data-testid="skipped-summary">
            {t("runs.skipped", { count: run.photosSkipped })}
          </a>
        ) : null}
      </p>
      {active ? (
        <>
          <ProgressBar value={pct} style={{ height: "0.9rem" }} aria-label={t("runs.progress")} />
          <p>
            <Link to={`/twodresult?run=${run.id}`}>{t("runs.refresh")}</Link>
          </p>
          {run.mine ? (
            <Form method="post" action="/twodresult">
              <input type="hidden" name="intent" value="cancel" />
              <input type="hidden" name="run" value={run.id} />
              <button type="submit" className="p-button p-component p-button-text p-button-danger">
                {t("runs.cancel")}
              </button>
            </Form>
          ) : null}
        </>
      ) : null}
      {run.error ? <Notice kind="error">{t("runs.failed", { error: translateMessage(t, run.error) })}</Notice> : null}
    </div>
  );
}

/** The photos a run could not detect, each with its reason in the visitor's language. */
function SkippedList({ total, rows }: { total: number; rows: SkippedPhotoRow[] }) {
  const { t } = useTranslation("inspection");
  const more = total - rows.length;
  return (
    <section className="card" id="not-detected" aria-labelledby="not-detected-title" data-testid="skipped-photos">
      <h2 id="not-detected-title">{t("skipped.title", { count: total })}</h2>
      <p className="muted">{t("skipped.lead")}</p>
      <ul className="insp-skipped">
        {rows.map((row) => (
          <li key={row.pictureId} data-testid="skipped-photo">
            <img src={row.thumbUrl} alt="" loading="lazy" width={48} height={48} />
            <span>
              <a href={row.address}>{row.number}</a> <span className="muted">({t("skipped.position", { index: row.index })})</span>
              <br />
              <span data-testid="skipped-reason">{translateMessage(t, row.reason)}</span>
            </span>
          </li>
        ))}
      </ul>
      {more > 0 ? <p className="muted">{t("skipped.more", { count: more })}</p> : null}
    </section>
  );
}

function ResultTile({ row, detailsHref }: { row: DetectionRow; detailsHref: string }) {
  const { t } = useTranslation("inspection");
  return (
    <figure className="insp-tile" data-testid="result-tile">
      <div className="insp-photo">
        <img src={row.thumbUrl} alt={row.number} loading="lazy" />
        <img src={`${row.maskUrl}?style=overlay`} alt="" aria-hidden="true" className="insp-mask" loading="lazy" />
      </div>
      <figcaption>
        <strong>{row.number}</strong>{" "}
        <span className={`insp-badge ${row.isCrack ? "yes" : "no"}`}>{row.isCrack ? t("details.crackYes") : t("details.crackNo")}</span>
        {row.isCrack ? <span className="muted"> {t("tile.measures", { length: fmt(row.length), width: fmt(row.width, 2) })}</span> : null}
        <br />
        <Link to={detailsHref} preventScrollReset className="p-button p-component p-button-sm p-button-outlined" data-testid="details-button">
          {t("tile.details")}
        </Link>
      </figcaption>
    </figure>
  );
}

function DetailsBody({ row }: { row: DetectionRow }) {
  const { t } = useTranslation("inspection");
  return (
    <div className="insp-details">
      <div className="insp-photo large">
        <img src={row.address} alt={row.number} />
        <img src={`${row.maskUrl}?style=overlay`} alt="" aria-hidden="true" className="insp-mask" />
      </div>
      <dl>
        <dt>{t("details.format")}</dt>
        <dd>{row.type}</dd>
        <dt>{t("details.size")}</dt>
        <dd>{row.size}</dd>
        <dt>{t("details.address")}</dt>
        <dd>
          <a href={row.address}>{row.address}</a>
        </dd>
        <dt>{t("details.crack")}</dt>
        <dd data-testid="details-crack">{row.isCrack ? t("details.crackYes") : t("details.crackNo")}</dd>
        <dt>{t("details.length")}</dt>
        <dd data-testid="details-length">{row.isCrack ? `${fmt(row.length)} mm` : "—"}</dd>
        <dt>{t("details.width")}</dt>
        <dd data-testid="details-width">{row.isCrack ? t("details.widthValue", { max: fmt(row.width, 2), mean: fmt(row.meanWidth, 2) }) : "—"}</dd>
        {row.label ? (
          <>
            <dt>{t("details.label")}</dt>
            <dd data-testid="details-label">{row.label}</dd>
          </>
        ) : null}
        <dt>{t("details.number")}</dt>
        <dd>{row.number}</dd>
        <dt>{t("details.time")}</dt>
        <dd>
          <time dateTime={row.time}>{row.time.replace("T", " ").slice(0, 19)} UTC</time>
        </dd>
      </dl>
    </div>
  );
}

/** The confirm step of closing (closing asks for confirmation), links without JavaScript. */
function CloseConfirm({ baseHref, onStay }: { baseHref: string; onStay?: () => void }) {
  const { t } = useTranslation("inspection");
  return (
    <div className="insp-confirm" role="alertdialog" aria-label={t("details.confirmClose")} data-testid="close-confirm">
      <p>{t("details.confirmClose")}</p>
      <Link to={baseHref} preventScrollReset className="p-button p-component p-button-sm" data-testid="confirm-close">
        {t("details.yes")}
      </Link>{" "}
      {onStay ? (
        <button type="button" className="p-button p-component p-button-sm p-button-text" onClick={onStay} data-testid="stay-open">
          {t("details.no")}
        </button>
      ) : null}
    </div>
  );
}

function DetailsDialog({ row, closing, baseHref }: { row: DetectionRow; closing: boolean; baseHref: string }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const { t } = useTranslation("inspection");
  const [confirming, setConfirming] = useState(false);
  const detailsHref = `${baseHref}${baseHref.includes("?") ? "&" : "?"}details=${row.id}`;
  if (!hydrated)
    return (
      <section className="card insp-dialog-inline" aria-label={t("details.title")} data-testid="details-dialog">
        <h2>{t("details.title")}</h2>
        <DetailsBody row={row} />
        {closing ? (
          <>
            <CloseConfirm baseHref={baseHref} />
            <Link to={detailsHref} preventScrollReset>
              {t("details.no")}
            </Link>
          </>
        ) : (
          <Link to={`${detailsHref}&closing=1`} preventScrollReset data-testid="close-details">
            {t("details.close")}
          </Link>
        )}
      </section>
    );
  return (
    <Dialog
      header={t("details.title")}
      visible
      draggable
      onHide={() => setConfirming(true)}
      style={{ width: "min(640px, 95vw)" }}
      data-testid="details-dialog"
      footer={
        confirming || closing ? (
          <CloseConfirm
            baseHref={baseHref}
            onStay={() => (closing ? navigate(detailsHref, { replace: true, preventScrollReset: true }) : setConfirming(false))}
          />
        ) : null
      }
    >
      <DetailsBody row={row} />
    </Dialog>
  );
}

function StartForm({ datasets, result }: { datasets: { id: number; name: string }[]; result?: ActionResult }) {
  const { t } = useTranslation("inspection");
  const busy = useNavigation().state === "submitting";
  return (
    <section className="card">
      <h2>{t("start.title")}</h2>
      <p className="muted">{t("start.lead", { max: INSPECTION_LIMITS.photosPerRun })}</p>
      {result?.error ? <Notice kind="error">{result.error}</Notice> : null}
      <Form method="post" action="/twodresult" className="ds-toolbar" aria-label={t("start.title")}>
        <input type="hidden" name="intent" value="start" />
        <div className="field">
          <label htmlFor="inspection-dataset">{t("start.dataset")}</label>
          <select id="inspection-dataset" name="dataset" defaultValue={result?.values.dataset} required>
            {datasets.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="inspection-scale">{t("start.scale")}</label>
          <input
            id="inspection-scale"
            name="scale"
            type="number"
            step="any"
            min={INSPECTION_LIMITS.mmPerPixel.min}
            max={INSPECTION_LIMITS.mmPerPixel.max}
            defaultValue={result?.values.scale ?? String(INSPECTION_LIMITS.mmPerPixel.default)}
            aria-describedby="scale-error"
            required
          />
          <FieldError id="scale-error" message={undefined} />
        </div>
        <button type="submit" className="p-button p-component" disabled={busy} data-testid="start-inspection">
          {busy ? t("start.starting") : t("start.button")}
        </button>
      </Form>
    </section>
  );
}

const INSPECTION_CSS = `
.insp-grid { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 1rem; }
@media (max-width: 700px) { .insp-grid { grid-template-columns: repeat(1, minmax(0, 1fr)); } }
.insp-tile { margin: 0; border: 1px solid var(--mr-border); border-radius: 10px; padding: .6rem; background: #fff; }
.insp-tile figcaption { margin-top: .5rem; font-size: .9rem; line-height: 1.8; }
.insp-photo { position: relative; width: 100%; aspect-ratio: 1 / 1; background: #f3f4f6; border-radius: 6px; overflow: hidden; }
.insp-photo img { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; }
.insp-photo .insp-mask { opacity: .6; }
.insp-photo.large { max-width: 384px; margin: 0 auto 1rem; }
.insp-badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; font-weight: 600; }
.insp-badge.yes { background: #fee2e2; color: #991b1b; }
.insp-badge.no { background: #dcfce7; color: #166534; }
.insp-figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: .75rem; margin: .5rem 0 0; }
.insp-figures div { background: #f8fafc; border-radius: 8px; padding: .5rem .75rem; }
.insp-figures dt { font-size: .8rem; color: var(--mr-muted); }
.insp-figures dd { margin: 0; font-size: 1.2rem; font-weight: 600; }
.insp-details dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 0; }
.insp-details dt { color: var(--mr-muted); }
.insp-details dd { margin: 0; word-break: break-all; }
.insp-confirm { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; justify-content: flex-end; }
.insp-confirm p { margin: 0 auto 0 0; font-weight: 600; }
.insp-status p { margin: .5rem 0; }
.insp-skipped { list-style: none; margin: 0; padding: 0; display: grid; gap: .6rem; }
.insp-skipped li { display: flex; gap: .75rem; align-items: flex-start; overflow-wrap: anywhere; }
.insp-skipped img { flex: none; width: 48px; height: 48px; object-fit: contain; background: #f3f4f6; border-radius: 4px; }
`;
