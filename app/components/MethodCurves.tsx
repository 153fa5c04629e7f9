// Each method's MoRF and LeRF accuracy curves on one task (issue 14 §2), as small multiples:
// accuracy against the fraction of pixels removed, the area under each curve shaded. A good
// attribution drops fast under MoRF (small red area) and holds under LeRF (large green area).
// react-vis renders the SVG on the server (fixed sizes, as app/components/ServerCharts.tsx), so
// the charts and the task picker work without JavaScript; with it, hovering a chart reads off
// both accuracies at the nearest fraction and changing the task reloads at once.
import * as ReactVisModule from "react-vis/dist/index.js";
import { useState } from "react";
import { Form, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";

type ReactVisParts = Record<
  "XYPlot" | "XAxis" | "YAxis" | "HorizontalGridLines" | "AreaSeries" | "LineSeries" | "Hint",
  React.ComponentType<Record<string, unknown>>
>;
const RV = ((ReactVisModule as { default?: ReactVisParts }).default ?? ReactVisModule) as ReactVisParts;
const { XYPlot, XAxis, YAxis, HorizontalGridLines, AreaSeries, LineSeries, Hint } = RV;

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

function CurveChart({ grid, m }: { grid: number[]; m: CurvesData["methods"][number] }) {
  const { t } = useTranslation("board");
  const [at, setAt] = useState<number | null>(null);
  const points = (values: number[]) => values.map((y, i) => ({ x: grid[i], y }));
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
      {m.morf && m.lerf ? (
        <div onMouseLeave={() => setAt(null)} role="img" aria-label={t("curveAria", { method: m.method, morf: area(m.morfArea), lerf: area(m.lerfArea) })}>
          <XYPlot width={WIDTH} height={HEIGHT} xDomain={[0, 1]} yDomain={[0, 1]} margin={{ left: 40, right: 10, top: 8, bottom: 32 }}>
            <HorizontalGridLines />
            <XAxis tickValues={[0, 0.5, 1]} />
            <YAxis tickValues={[0, 0.5, 1]} />
            <AreaSeries data={points(m.lerf)} color={LERF} opacity={0.18} stroke="none" animation={false} />
            <AreaSeries data={points(m.morf)} color={MORF} opacity={0.18} stroke="none" animation={false} />
            <LineSeries data={points(m.lerf)} color={LERF} animation={false} onNearestX={(_: unknown, { index }: { index: number }) => setAt(index)} />
            <LineSeries data={points(m.morf)} color={MORF} animation={false} />
            {at !== null ? (
              <Hint value={{ x: grid[at], y: m.lerf[at] }}>
                <div className="curve-hint">{t("curveHint", { fraction: grid[at], lerf: m.lerf[at].toFixed(2), morf: m.morf[at].toFixed(2) })}</div>
              </Hint>
            ) : null}
          </XYPlot>
        </div>
      ) : (
        <p className="muted" style={{ width: WIDTH, height: HEIGHT, display: "grid", placeItems: "center", border: "1px dashed #d1d5db", borderRadius: 8 }}>
          {t("curveMissing")}
        </p>
      )}
    </figure>
  );
}

export function MethodCurves({ data, suiteId, tasks }: { data: CurvesData; suiteId: string; tasks: string[] }) {
  const { t } = useTranslation("board");
  const submit = useSubmit();
  const shown = data.methods.slice(0, CURVE_CHARTS);
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
          <CurveChart key={`${m.method}\u0000${m.contributor}`} grid={data.grid} m={m} />
        ))}
      </div>
      <p className="muted">
        {data.methods.length > CURVE_CHARTS ? t("curvesLimited", { limit: CURVE_CHARTS, n: data.methods.length }) + " " : ""}
        {t("download")} <a href={download("csv")}>CSV</a> · <a href={download("json")}>JSON</a>
      </p>
    </section>
  );
}
