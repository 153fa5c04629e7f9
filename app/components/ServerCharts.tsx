// The six charts of the server detail page: the first GPU's memory (MiB), utilization (%), fan (%),
// temperature (°C), performance state (P) and power (W) over time, the axis as hours:minutes. Fixed
// sizes, no measuring: the server renders the same SVG the browser hydrates, so the page shows its
// charts without JavaScript.
import * as ReactVisModule from "react-vis/dist/index.js";
import type { ChartSample } from "~/.server/servers.server.ts";
import { useTranslation } from "react-i18next";

// CommonJS interop: Node (SSR) hands us module.exports as `default`; the client bundle may
// expose the named exports directly.
type ReactVisParts = Record<
  "XYPlot" | "XAxis" | "YAxis" | "HorizontalGridLines" | "VerticalGridLines" | "LineSeries" | "MarkSeries",
  React.ComponentType<Record<string, unknown>>
>;
const RV = ((ReactVisModule as { default?: ReactVisParts }).default ?? ReactVisModule) as ReactVisParts;
const { XYPlot, XAxis, YAxis, HorizontalGridLines, VerticalGridLines, LineSeries, MarkSeries } = RV;

/** One point of the six charts (the first GPU at one sample time; null = unknown), as the loader sends it. */
export type ChartPoint = ChartSample;

type Metric = Exclude<keyof ChartPoint, "t">;

export const CHARTS: { key: Metric; title: string; unit: string; domain?: [number, number]; format?: (v: number) => string }[] = [
  { key: "memoryMiB", title: "charts.memory", unit: "MiB" },
  { key: "utilization", title: "charts.utilization", unit: "%", domain: [0, 100] },
  { key: "fan", title: "charts.fan", unit: "%", domain: [0, 100] },
  { key: "temperature", title: "charts.temperature", unit: "°C" },
  // P0 is full performance, P12 idle: the axis shows P-states, not a quantity.
  { key: "perf", title: "charts.perf", unit: "P", domain: [0, 12], format: (v) => `P${Math.round(v)}` },
  { key: "power", title: "charts.power", unit: "W" },
];

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * hours:minutes of an epoch-ms time, shifted by a fixed offset from UTC (the app server's,
 * sent by the loader) so the server render and the browser's hydration print the same text.
 */
export function hoursMinutes(t: number, utcOffsetMinutes: number): string {
  const d = new Date(t + utcOffsetMinutes * 60_000);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

const WIDTH = 360;
const HEIGHT = 200;

function Chart({ points, spec, utcOffsetMinutes }: { points: ChartPoint[]; spec: (typeof CHARTS)[number]; utcOffsetMinutes: number }) {
  const data = points.map((p) => ({ x: p.t, y: p[spec.key] }));
  const known = data.filter((d) => d.y !== null) as { x: number; y: number }[];
  const latest = known.length ? known[known.length - 1].y : null;
  const label = (v: number) => (spec.format ? spec.format(v) : `${Math.round(v * 10) / 10} ${spec.unit}`);
  const { t } = useTranslation("admin");
  const xs = data.map((d) => d.x);
  // One sample has no extent: show a minute either side so the axis still reads as time.
  const xDomain = xs.length ? (xs[0] === xs[xs.length - 1] ? [xs[0] - 60_000, xs[0] + 60_000] : [xs[0], xs[xs.length - 1]]) : undefined;
  const yMax = known.length ? Math.max(...known.map((d) => d.y)) : 1;
  const yDomain = spec.domain ?? [0, yMax > 0 ? yMax * 1.15 : 1];
  return (
    <figure
      className="server-chart"
      data-testid={`chart-${spec.key}`}
      data-points={known.length}
      data-latest={latest ?? ""}
      // A phone is narrower than a chart's fixed width: the chart scrolls inside its figure, not the page.
      style={{ margin: 0, minWidth: 0, overflowX: "auto" }}
    >
      <figcaption style={{ fontWeight: 600, marginBottom: ".25rem" }}>
        {t(spec.title)} ({spec.unit}){" "}
        <span className="muted" data-testid={`latest-${spec.key}`}>
          {latest === null ? t("unknown") : label(latest)}
        </span>
      </figcaption>
      {known.length ? (
        <XYPlot width={WIDTH} height={HEIGHT} xType="time" xDomain={xDomain} yDomain={yDomain} margin={{ left: 56, right: 16, top: 10, bottom: 40 }}>
          <HorizontalGridLines />
          <VerticalGridLines />
          <XAxis tickTotal={5} tickFormat={(v: number | Date) => hoursMinutes(+v, utcOffsetMinutes)} />
          <YAxis tickTotal={5} tickFormat={(v: number) => (spec.format ? spec.format(v) : String(Math.round(v * 10) / 10))} />
          {/* getNull leaves gaps where a value was unknown instead of drawing it as 0. */}
          <LineSeries data={data} getNull={(d: { y: number | null }) => d.y !== null} color="#16a34a" animation={false} />
          {known.length <= 30 ? <MarkSeries data={known} size={2.5} color="#15803d" animation={false} /> : null}
        </XYPlot>
      ) : (
        <div
          className="muted"
          style={{ width: WIDTH, maxWidth: "100%", height: HEIGHT, display: "grid", placeItems: "center", border: "1px dashed #d1d5db", borderRadius: 8 }}
        >
          {t("unknown")}
        </div>
      )}
    </figure>
  );
}

export function ServerCharts({ points, utcOffsetMinutes }: { points: ChartPoint[]; utcOffsetMinutes: number }) {
  return (
    <div
      className="server-charts"
      data-testid="server-charts"
      style={{ display: "grid", gridTemplateColumns: `repeat(auto-fill, minmax(min(${WIDTH}px, 100%), 1fr))`, gap: "1.25rem" }}
    >
      {CHARTS.map((spec) => (
        <Chart key={spec.key} points={points} spec={spec} utcOffsetMinutes={utcOffsetMinutes} />
      ))}
    </div>
  );
}
