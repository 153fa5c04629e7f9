// The inconsistency of a board, drawn as server-rendered SVG (works without JavaScript; each
// cell has a tooltip): the case × method rank heatmap, Kendall's τ between cases, and each
// method's rank spread. With JavaScript, picking a method highlights it in every view.
import { useState } from "react";
import { useTranslation } from "react-i18next";

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

export function RankHeatmap({
  data,
  limit,
  selected,
  onSelect,
}: {
  data: InconsistencyData;
  limit: number;
  selected: string | null;
  onSelect: (m: string) => void;
}) {
  const { t } = useTranslation("board");
  const methods = data.methods.slice(0, limit);
  const n = data.methods.length;
  const width = LABEL_W + data.cases.length * CELL + HEADER_RIGHT;
  const height = HEADER_H + methods.length * CELL + 10;
  return (
    <figure className="plot-figure" data-testid="rank-heatmap">
      <div className="plot-scroll">
        <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={t("heatmapTitle")}>
          <CaseHeader cases={data.cases} x0={LABEL_W} />
          {methods.map((m, mi) => (
            <g key={m} className={"heat-row" + (selected === m ? " selected" : "")} onClick={() => onSelect(m)}>
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
                    <text
                      x={LABEL_W + ci * CELL + (CELL - 2) / 2}
                      y={HEADER_H + mi * CELL + CELL * 0.62}
                      textAnchor="middle"
                      fontSize="11"
                      fill="#fff"
                      pointerEvents="none"
                    >
                      {Number.isNaN(r) ? "" : r}
                    </text>
                  </g>
                );
              })}
            </g>
          ))}
        </svg>
      </div>
      <figcaption className="muted">{n > limit ? t("heatmapCaptionLimited", { limit, n }) : t("heatmapCaption")}</figcaption>
    </figure>
  );
}

export function AgreementMatrix({ data }: { data: InconsistencyData }) {
  const { t } = useTranslation("board");
  const k = data.cases.length;
  const width = LABEL_W + k * CELL + HEADER_RIGHT;
  const height = HEADER_H + k * CELL + 10;
  return (
    <figure className="plot-figure" data-testid="agreement-matrix">
      <div className="plot-scroll">
        <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={t("agreementTitle")}>
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
      </div>
      <figcaption className="muted">{t("agreementCaption")}</figcaption>
    </figure>
  );
}

export function RankSpreadTable({ data, selected, onSelect }: { data: InconsistencyData; selected: string | null; onSelect: (m: string) => void }) {
  const { t } = useTranslation("board");
  const n = data.methods.length;
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

/** The three views with their downloads. */
export function Inconsistency({ data, suiteId, limit }: { data: InconsistencyData; suiteId: string; limit: number }) {
  const { t } = useTranslation("board");
  const [selected, setSelected] = useState<string | null>(null);
  const select = (m: string) => setSelected((s) => (s === m ? null : m));
  const download = (table: string, format: string) => `/leaderboard/inconsistency?suite=${encodeURIComponent(suiteId)}&table=${table}&format=${format}`;
  return (
    <section className="inconsistency" aria-labelledby="inconsistency-title">
      <h2 id="inconsistency-title">{t("inconsistencyTitle")}</h2>
      <p>
        {data.agreement.meanTau === null
          ? t("meanTauNone")
          : t("meanTau", { tau: data.agreement.meanTau.toFixed(3), cases: data.cases.length, methods: data.methods.length })}
      </p>
      <p className="muted">{t("inconsistencyLead")}</p>
      <h3>{t("heatmapTitle")}</h3>
      <RankHeatmap data={data} limit={limit} selected={selected} onSelect={select} />
      <p className="downloads">
        {t("download")} <a href={download("ranks", "csv")}>CSV</a> · <a href={download("all", "json")}>JSON</a>
      </p>
      <div className="inconsistency-pair">
        <div>
          <h3>{t("agreementTitle")}</h3>
          <AgreementMatrix data={data} />
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
