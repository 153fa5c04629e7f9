// The inconsistency of a board: the case × method rank heatmap, Kendall's τ between cases, and
// each method's rank spread. The two matrices are SVG documents of their own (the *Svg
// components below, rendered once per board version and language by
// app/routes/board/plot.ts), shown as lazy images with their size reserved, so the
// page stays small and works without JavaScript (docs/performance.md "Plots"); the spread is a
// table, where picking a method highlights its row.
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** What the page itself needs: the matrices are images, drawn from the full data elsewhere. */
export interface InconsistencySummary {
  cases: number;
  methods: number;
  meanTau: number | null;
  spread: { method: string; best: number; median: number; worst: number }[];
}

export interface InconsistencyData {
  cases: string[];
  methods: string[];
  ranks: number[][];
  agreement: { tau: number[][]; meanTau: number | null };
  spread: { method: string; best: number; median: number; worst: number }[];
}

const CELL = 26;
const LABEL_W = 215;
const HEADER_H = 165;
/** Room right of the last column for its slanted label, which the SVG would otherwise clip. */
const HEADER_RIGHT = 125;

/** Rank 1 green → last red. */
const rankColour = (rank: number, n: number) => (Number.isNaN(rank) ? "#e5e7eb" : `hsl(${Math.round(120 * (1 - (rank - 1) / Math.max(1, n - 1)))}, 55%, 48%)`);
/** τ = 1 deep blue, 0 white, −1 deep red. */
const tauColour = (tau: number) => (Number.isNaN(tau) ? "#e5e7eb" : `hsl(${tau >= 0 ? 215 : 0}, 70%, ${Math.round(97 - 45 * Math.min(1, Math.abs(tau)))}%)`);
/** The page's .svg-label rule, inside each SVG document (an image does not see the page's styles). */
const SVG_STYLE = ".svg-label{fill:#374151}text{font-family:system-ui,sans-serif}";
const short = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + "…" : s);

function CaseHeader({ cases, x0 }: { cases: string[]; x0: number }) {
  return (
    <>
      {cases.map((c, i) => (
        <text
          key={c}
          x={x0 + i * CELL + CELL / 2}
          y={HEADER_H - 6}
          transform={`rotate(-50 ${x0 + i * CELL + CELL / 2} ${HEADER_H - 6})`}
          fontSize="11"
          className="svg-label"
        >
          {short(c, 34)}
        </text>
      ))}
    </>
  );
}

/** Pixel size of the rank heatmap of `cases` × `methods` (the page reserves it for the image). */
export const heatmapSize = (cases: number, methods: number) => ({ width: LABEL_W + cases * CELL + HEADER_RIGHT, height: HEADER_H + methods * CELL + 10 });
/** Pixel size of the τ matrix of `cases` × `cases`. */
export const agreementSize = (cases: number) => ({ width: LABEL_W + cases * CELL + HEADER_RIGHT, height: HEADER_H + cases * CELL + 10 });

/**
 * The rank heatmap as a standalone SVG document (app/routes/board/plot.ts renders
 * it once per board version and language); each cell keeps its tooltip for a reader who opens it.
 */
export function RankHeatmapSvg({ data, limit }: { data: InconsistencyData; limit: number }) {
  const { t } = useTranslation("board");
  const methods = data.methods.slice(0, limit);
  const n = data.methods.length;
  const { width, height } = heatmapSize(data.cases.length, methods.length);
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={t("heatmapTitle")}>
      <style>{SVG_STYLE}</style>
      <CaseHeader cases={data.cases} x0={LABEL_W} />
      {methods.map((m, mi) => (
        <g key={m}>
          <text x={LABEL_W - 8} y={HEADER_H + mi * CELL + CELL * 0.65} textAnchor="end" fontSize="12" className="svg-label">
            {short(m, 28)}
          </text>
          {data.cases.map((c, ci) => {
            const r = data.ranks[mi][ci];
            return (
              <g key={c}>
                <rect x={LABEL_W + ci * CELL} y={HEADER_H + mi * CELL} width={CELL - 2} height={CELL - 2} rx="3" fill={rankColour(r, n)}>
                  <title>{t("cellRank", { method: m, case: c, rank: Number.isNaN(r) ? "—" : r, n })}</title>
                </rect>
                <text x={LABEL_W + ci * CELL + (CELL - 2) / 2} y={HEADER_H + mi * CELL + CELL * 0.62} textAnchor="middle" fontSize="11" fill="#fff">
                  {Number.isNaN(r) ? "" : r}
                </text>
              </g>
            );
          })}
        </g>
      ))}
    </svg>
  );
}

/** The τ matrix between cases as a standalone SVG document (rendered like the heatmap). */
export function AgreementSvg({ data }: { data: InconsistencyData }) {
  const { t } = useTranslation("board");
  const { width, height } = agreementSize(data.cases.length);
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={t("agreementTitle")}>
      <style>{SVG_STYLE}</style>
      <CaseHeader cases={data.cases} x0={LABEL_W} />
      {data.cases.map((a, ai) => (
        <g key={a}>
          <text x={LABEL_W - 8} y={HEADER_H + ai * CELL + CELL * 0.65} textAnchor="end" fontSize="11" className="svg-label">
            {short(a, 34)}
          </text>
          {data.cases.map((b, bi) => {
            const tau = data.agreement.tau[ai][bi];
            return (
              <rect key={b} x={LABEL_W + bi * CELL} y={HEADER_H + ai * CELL} width={CELL - 2} height={CELL - 2} rx="3" fill={tauColour(tau)}>
                <title>{t("cellTau", { a, b, tau: Number.isNaN(tau) ? "—" : tau.toFixed(3) })}</title>
              </rect>
            );
          })}
        </g>
      ))}
    </svg>
  );
}

export function RankSpreadTable({ data, selected, onSelect }: { data: InconsistencySummary; selected: string | null; onSelect: (m: string) => void }) {
  const { t } = useTranslation("board");
  const n = data.methods;
  const x = (rank: number) => 8 + ((rank - 1) / Math.max(1, n - 1)) * 184;
  return (
    <table className="spread-table" data-testid="rank-spread">
      <thead>
        <tr>
          <th>{t("method")}</th>
          <th>{t("best")}</th>
          <th>{t("median")}</th>
          <th>{t("worst")}</th>
          <th aria-hidden="true" />
        </tr>
      </thead>
      <tbody>
        {data.spread.map((s) => (
          <tr key={s.method} className={selected === s.method ? "selected" : undefined} onClick={() => onSelect(s.method)}>
            <th scope="row">{s.method}</th>
            <td>{s.best}</td>
            <td>{s.median}</td>
            <td>{s.worst}</td>
            <td>
              <svg width="200" height="16" aria-hidden="true">
                <line x1={x(1)} x2={x(n)} y1="8" y2="8" stroke="#e5e7eb" strokeWidth="2" />
                <line x1={x(s.best)} x2={x(s.worst)} y1="8" y2="8" stroke="#6366f1" strokeWidth="4" strokeLinecap="round" />
                <circle cx={x(s.median)} cy="8" r="5" fill="#111827" />
              </svg>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The URL of one of the board's plots (app/routes/board/plot.ts): the version makes a changed board a new URL. */
export function plotUrl(plot: "heatmap" | "agreement" | "curve", params: Record<string, string | number>): string {
  return `/leaderboard/plots/${plot}.svg?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()}`;
}

/** One of the board's matrices: a lazy image of its plot, scrolling sideways when wide, with its caption and source. */
function PlotFigure({
  testId,
  src,
  size,
  alt,
  caption,
  source,
}: {
  testId: string;
  src: string;
  size: { width: number; height: number };
  alt: string;
  caption: string;
  source: string;
}) {
  return (
    <figure className="plot-figure" data-testid={testId}>
      <div className="plot-scroll">
        <img src={src} width={size.width} height={size.height} loading="lazy" decoding="async" alt={alt} />
      </div>
      <figcaption className="muted">
        {caption} {source}
      </figcaption>
    </figure>
  );
}

/** The three views with their downloads; the matrices are lazy images below the boards. */
export function Inconsistency({ data, suiteId, limit, version }: { data: InconsistencySummary; suiteId: string; limit: number; version: number }) {
  const { t, i18n } = useTranslation("board");
  const [selected, setSelected] = useState<string | null>(null);
  const select = (m: string) => setSelected((s) => (s === m ? null : m));
  const download = (table: string, format: string) => `/leaderboard/inconsistency?suite=${encodeURIComponent(suiteId)}&table=${table}&format=${format}`;
  const params = { suite: suiteId, lng: i18n.language, v: version };
  const heat = heatmapSize(data.cases, Math.min(limit, data.methods));
  const agree = agreementSize(data.cases);
  return (
    <section className="inconsistency" aria-labelledby="inconsistency-title">
      <h2 id="inconsistency-title">{t("inconsistencyTitle")}</h2>
      <p>{data.meanTau === null ? t("meanTauNone") : t("meanTau", { tau: data.meanTau.toFixed(3), cases: data.cases, methods: data.methods })}</p>
      <p className="muted">{t("inconsistencyLead")}</p>
      <h3>{t("heatmapTitle")}</h3>
      <PlotFigure
        testId="rank-heatmap"
        src={plotUrl("heatmap", params)}
        size={heat}
        alt={t("heatmapAlt", { methods: Math.min(limit, data.methods), cases: data.cases })}
        caption={data.methods > limit ? t("heatmapCaptionLimited", { limit, n: data.methods }) : t("heatmapCaption")}
        source={t("plotSource", { suite: suiteId, version })}
      />
      <p className="downloads">
        {t("download")} <a href={download("ranks", "csv")}>CSV</a> · <a href={download("all", "json")}>JSON</a>
      </p>
      <div className="inconsistency-pair">
        <div>
          <h3>{t("agreementTitle")}</h3>
          <PlotFigure
            testId="agreement-matrix"
            src={plotUrl("agreement", params)}
            size={agree}
            alt={t("agreementAlt", { cases: data.cases })}
            caption={t("agreementCaption")}
            source={t("plotSource", { suite: suiteId, version })}
          />
          <p className="downloads">
            {t("download")} <a href={download("agreement", "csv")}>CSV</a>
          </p>
        </div>
        <div>
          <h3>{t("spreadTitle")}</h3>
          <RankSpreadTable data={data} selected={selected} onSelect={select} />
          <p className="downloads">
            {t("download")} <a href={download("spread", "csv")}>CSV</a>
          </p>
        </div>
      </div>
    </section>
  );
}
