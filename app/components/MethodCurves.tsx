// Each method's MoRF and LeRF accuracy curves on one task, as small multiples: accuracy against the
// fraction of pixels removed, the area under each curve shaded. A good attribution drops fast under
// MoRF (small red area) and holds under LeRF (large green area). react-vis draws each chart on the
// server (fixed sizes, as app/components/ServerCharts.tsx) as an SVG document of its own, once per
// board version (app/routes/board/plot.ts), and the page shows it as a lazy image
// with its numbers in the caption and the alt text (docs/performance.md "Plots"), so the charts and
// the task picker work without JavaScript; with it, changing the task reloads at once.
import * as ReactVisModule from "react-vis/dist/index.js";
import { Form, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { plotUrl } from "./Inconsistency.tsx";

type ReactVisParts = Record<"XYPlot" | "XAxis" | "YAxis" | "HorizontalGridLines" | "AreaSeries" | "LineSeries", React.ComponentType<Record<string, unknown>>>;
const RV = ((ReactVisModule as { default?: ReactVisParts }).default ?? ReactVisModule) as ReactVisParts;
const { XYPlot, XAxis, YAxis, HorizontalGridLines, AreaSeries, LineSeries } = RV;

export interface CurvesData {
  task: string;
  grid: number[];
  methods: { method: string; contributor: string; morf: number[] | null; lerf: number[] | null; morfArea: number; lerfArea: number }[];
}

/** Small multiples shown; the download has every method. */
export const CURVE_CHARTS = 12;
const WIDTH = 250;
const HEIGHT = 170;
const MORF = "#dc2626";
const LERF = "#16a34a";

/** What the page needs of a method's curves: the chart itself is an image. */
export interface CurveSummary {
  method: string;
  contributor: string;
  morfArea: number;
  lerfArea: number;
  /** false where this method's result files are not on this server (no chart). */
  drawn: boolean;
}

export interface CurvesSummary {
  task: string;
  methods: CurveSummary[];
}

/** Only the figures the page shows, without the curves' numbers (those are in the chart and the download). */
export function summariseCurves(data: CurvesData): CurvesSummary {
  return {
    task: data.task,
    methods: data.methods
      .slice(0, CURVE_CHARTS)
      .map((m) => ({ method: m.method, contributor: m.contributor, morfArea: m.morfArea, lerfArea: m.lerfArea, drawn: Boolean(m.morf && m.lerf) })),
  };
}

/**
 * One method's chart as a standalone SVG document (app/routes/board/plot.ts draws
 * it once per board version): react-vis's markup, with the stylesheet rules it needs inside
 * (an image does not see the page's styles; without them its lines are filled black).
 */
export function CurveSvg({ grid, m }: { grid: number[]; m: CurvesData["methods"][number] }) {
  const points = (values: number[]) => values.map((y, i) => ({ x: grid[i], y }));
  if (!m.morf || !m.lerf) return null;
  return (
    <XYPlot width={WIDTH} height={HEIGHT} xDomain={[0, 1]} yDomain={[0, 1]} margin={{ left: 40, right: 10, top: 8, bottom: 32 }}>
      <HorizontalGridLines />
      <XAxis tickValues={[0, 0.5, 1]} />
      <YAxis tickValues={[0, 0.5, 1]} />
      <AreaSeries data={points(m.lerf)} color={LERF} opacity={0.18} stroke="none" animation={false} />
      <AreaSeries data={points(m.morf)} color={MORF} opacity={0.18} stroke="none" animation={false} />
      <LineSeries data={points(m.lerf)} color={LERF} animation={false} />
      <LineSeries data={points(m.morf)} color={MORF} animation={false} />
    </XYPlot>
  );
}

export const CURVE_SIZE = { width: WIDTH, height: HEIGHT };

function CurveChart({ m, src }: { m: CurveSummary; src: string }) {
  const { t } = useTranslation("board");
  const area = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : "—");
  return (
    <figure className="curve-chart" data-testid="curve-chart" data-method={m.method} style={{ margin: 0 }}>
      <figcaption>
        <strong>{m.method}</strong> <span className="muted">{m.contributor}</span>
        <br />
        <span className="muted" style={{ fontSize: ".85em" }}>
          <span style={{ color: MORF }}>■</span> MoRF {area(m.morfArea)} · <span style={{ color: LERF }}>■</span> LeRF {area(m.lerfArea)}
        </span>
      </figcaption>
      {m.drawn ? (
        <img
          src={src}
          width={WIDTH}
          height={HEIGHT}
          loading="lazy"
          decoding="async"
          alt={`${t("curveAria", { method: m.method, morf: area(m.morfArea), lerf: area(m.lerfArea) })}. ${t("curveAlt", { method: m.method })}`}
        />
      ) : (
        <p className="muted" style={{ width: WIDTH, height: HEIGHT, display: "grid", placeItems: "center", border: "1px dashed #d1d5db", borderRadius: 8 }}>
          {t("curveMissing")}
        </p>
      )}
    </figure>
  );
}

export function MethodCurves({
  data,
  total,
  suiteId,
  tasks,
  version,
}: {
  data: CurvesSummary;
  total: number;
  suiteId: string;
  tasks: string[];
  version: number;
}) {
  const { t, i18n } = useTranslation("board");
  const submit = useSubmit();
  const shown = data.methods;
  const src = (m: CurveSummary) =>
    plotUrl("curve", { suite: suiteId, task: data.task, method: m.method, contributor: m.contributor, lng: i18n.language, v: version });
  const download = (format: string) =>
    `/leaderboard/inconsistency?suite=${encodeURIComponent(suiteId)}&table=curves&task=${encodeURIComponent(data.task)}&format=${format}`;
  return (
    <section aria-labelledby="curves-title" data-testid="method-curves">
      <h3 id="curves-title">{t("curvesTitle")}</h3>
      <p className="muted">{t("curvesLead")}</p>
      <Form method="get" preventScrollReset className="curves-picker" onChange={(e) => submit(e.currentTarget, { preventScrollReset: true })}>
        <input type="hidden" name="suite" value={suiteId} />
        <label htmlFor="curves-task">{t("curvesTask")}</label>{" "}
        <select id="curves-task" name="curvesTask" defaultValue={data.task} key={data.task}>
          {tasks.map((task) => (
            <option key={task} value={task}>
              {task}
            </option>
          ))}
        </select>{" "}
        <noscript>
          <button type="submit" className="p-button p-component p-button-sm">
            {t("curvesShow")}
          </button>
        </noscript>
      </Form>
      <div
        className="curve-grid"
        style={{ display: "grid", gridTemplateColumns: `repeat(auto-fill, minmax(${WIDTH}px, 1fr))`, gap: "1rem", marginTop: ".75rem" }}
      >
        {shown.map((m) => (
          <CurveChart key={`${m.method}\u0000${m.contributor}`} m={m} src={src(m)} />
        ))}
      </div>
      <p className="muted">
        {t("curvesSource", { task: data.task, suite: suiteId, version })}{" "}
        {total > CURVE_CHARTS ? t("curvesLimited", { limit: CURVE_CHARTS, n: total }) + " " : ""}
        {t("download")} <a href={download("csv")}>CSV</a> · <a href={download("json")}>JSON</a>
      </p>
    </section>
  );
}
