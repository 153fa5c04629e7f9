// One "score image" of the concept page (docs/concepts.md): a concept's mean TCAV score per layer
// as bars, the random baseline's mean as a dashed line, and each bar marked * (significant, p <
// 0.05) or n.s. Fixed size, so the server renders the same SVG the browser hydrates (react-vis, as
// app/components/ServerCharts.tsx does).
import * as ReactVisModule from "react-vis/dist/index.js";
import { useTranslation } from "react-i18next";

type ReactVisParts = Record<
  "XYPlot" | "XAxis" | "YAxis" | "HorizontalGridLines" | "VerticalBarSeries" | "LineSeries" | "LabelSeries",
  React.ComponentType<Record<string, unknown>>
>;
const RV = ((ReactVisModule as { default?: ReactVisParts }).default ?? ReactVisModule) as ReactVisParts;
const { XYPlot, XAxis, YAxis, HorizontalGridLines, VerticalBarSeries, LineSeries, LabelSeries } = RV;

export interface TcavChartConcept {
  name: string;
  layers: { layer: string; mean: number; std: number; significant: boolean }[];
}

export function TcavScoreChart({ concept, random }: { concept: TcavChartConcept; random: { layer: string; mean: number }[] }) {
  const { t } = useTranslation("concepts");
  const bars = concept.layers.map((l) => ({ x: l.layer, y: l.mean, color: l.significant ? "#1565c0" : "#9e9e9e" }));
  const baseline = random.map((r) => ({ x: r.layer, y: r.mean }));
  const marks = concept.layers.map((l) => ({
    x: l.layer,
    y: Math.min(1, l.mean + 0.04),
    label: l.significant ? "*" : "n.s.",
    style: { fontSize: 12, textAnchor: "middle" },
  }));
  return (
    <figure className="tcav-chart" data-testid="tcav-chart" data-concept={concept.name} style={{ margin: 0 }}>
      <figcaption style={{ fontWeight: 600 }}>{t("results.chartTitle", { name: concept.name })}</figcaption>
      <XYPlot width={300} height={220} xType="ordinal" yDomain={[0, 1.1]} margin={{ left: 40, right: 10, top: 10, bottom: 40 }}>
        <HorizontalGridLines />
        <XAxis />
        <YAxis tickValues={[0, 0.25, 0.5, 0.75, 1]} />
        <VerticalBarSeries data={bars} colorType="literal" barWidth={0.6} />
        <LineSeries data={baseline} strokeStyle="dashed" color="#d32f2f" style={{ fill: "none" }} animation={false} />
        <LabelSeries data={marks} />
      </XYPlot>
      <p className="muted" style={{ fontSize: ".8rem", margin: 0 }}>
        {t("results.chartLegend")}
      </p>
    </figure>
  );
}
