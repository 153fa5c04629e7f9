// A tree task's training curves (the vis_scalars tab): the loss, and the training and held-out
// accuracy, against the iteration, as the sidecar's Tree.Train reported them. react-vis renders the
// SVG on the server at fixed sizes (as app/components/ServerCharts.tsx), so the curves show without
// JavaScript; the held-out accuracy is drawn only where it was measured.
import * as ReactVisModule from "react-vis/dist/index.js";
import { useTranslation } from "react-i18next";

type ReactVisParts = Record<
  "XYPlot" | "XAxis" | "YAxis" | "HorizontalGridLines" | "LineMarkSeries" | "LineSeries",
  React.ComponentType<Record<string, unknown>>
>;
const RV = ((ReactVisModule as { default?: ReactVisParts }).default ?? ReactVisModule) as ReactVisParts;
const { XYPlot, XAxis, YAxis, HorizontalGridLines, LineMarkSeries, LineSeries } = RV;

export interface ScalarPoint {
  iteration: number;
  loss: number | null;
  trainAccuracy: number | null;
  testAccuracy: number | null;
}

const WIDTH = 420;
const HEIGHT = 240;
const SERIES = [
  { key: "trainAccuracy", color: "#2563eb" },
  { key: "testAccuracy", color: "#16a34a" },
] as const;

const pointsOf = (scalars: ScalarPoint[], key: keyof Omit<ScalarPoint, "iteration">) =>
  scalars.filter((s) => s[key] !== null).map((s) => ({ x: s.iteration, y: s[key] as number }));

// A plot is drawn WIDTH px wide (react-vis draws fixed sizes): on a phone it scrolls inside its own
// figure instead of widening the whole page (it made /task_detail/…/vis_scalars 461 px wide at 390).
const FIGURE = { margin: 0, maxWidth: "100%", overflowX: "auto" } as const;

export function TrainingCurves({ scalars }: { scalars: ScalarPoint[] }) {
  const { t } = useTranslation("tasks");
  const loss = pointsOf(scalars, "loss");
  const lossMax = loss.length ? Math.max(...loss.map((p) => p.y)) : 1;
  const xDomain = scalars.length ? [Math.min(...scalars.map((s) => s.iteration)), Math.max(1, ...scalars.map((s) => s.iteration))] : [0, 1];
  const last = (key: keyof Omit<ScalarPoint, "iteration">) => {
    const p = pointsOf(scalars, key);
    return p.length ? p[p.length - 1].y : null;
  };
  if (!scalars.length) return <p data-testid="training-curves">--</p>;
  return (
    <div data-testid="training-curves" data-points={scalars.length} style={{ display: "flex", flexWrap: "wrap", gap: "1.5rem" }}>
      <figure style={FIGURE} data-testid="curve-loss" data-latest={last("loss") ?? ""}>
        <figcaption style={{ fontWeight: 600 }}>{t("curves.loss")}</figcaption>
        <XYPlot
          width={WIDTH}
          height={HEIGHT}
          xDomain={xDomain}
          yDomain={[0, lossMax > 0 ? lossMax * 1.1 : 1]}
          margin={{ left: 56, right: 16, top: 10, bottom: 40 }}
        >
          <HorizontalGridLines />
          <XAxis title={t("curves.iteration")} tickTotal={5} />
          <YAxis tickTotal={5} />
          <LineSeries data={loss} color="#dc2626" animation={false} />
        </XYPlot>
      </figure>
      <figure style={FIGURE} data-testid="curve-accuracy" data-latest-train={last("trainAccuracy") ?? ""} data-latest-test={last("testAccuracy") ?? ""}>
        <figcaption style={{ fontWeight: 600 }}>
          {t("curves.accuracy")} <span style={{ color: SERIES[0].color }}>■ {t("curves.train")}</span>{" "}
          <span style={{ color: SERIES[1].color }}>■ {t("curves.test")}</span>
        </figcaption>
        <XYPlot width={WIDTH} height={HEIGHT} xDomain={xDomain} yDomain={[0, 1]} margin={{ left: 56, right: 16, top: 10, bottom: 40 }}>
          <HorizontalGridLines />
          <XAxis title={t("curves.iteration")} tickTotal={5} />
          <YAxis tickTotal={5} tickFormat={(v: number) => `${Math.round(v * 100)} %`} />
          <LineSeries data={pointsOf(scalars, "trainAccuracy")} color={SERIES[0].color} animation={false} />
          <LineMarkSeries data={pointsOf(scalars, "testAccuracy")} color={SERIES[1].color} size={3} animation={false} />
        </XYPlot>
      </figure>
    </div>
  );
}
