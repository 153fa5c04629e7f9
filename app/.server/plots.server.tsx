// The leaderboard's plots as SVG documents (docs/performance.md "Plots"): rendered on the server
// by the same components the page used to draw inline (react-vis for the curves), in the
// visitor's language, once per board version (app/routes/board/plot.ts keeps them).
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import reactVisCss from "react-vis/dist/style.css?raw";
import type { Language } from "~/i18n/config.ts";
import { i18nFor } from "./i18n.server.ts";
import { AgreementSvg, RankHeatmapSvg, type InconsistencyData } from "~/components/Inconsistency.tsx";
import { CurveSvg, type CurvesData } from "~/components/MethodCurves.tsx";

/** Static markup of `element` in `lng` (no React attributes, nothing to hydrate). */
export async function renderInLanguage(lng: Language, element: ReactElement): Promise<string> {
  const i18n = await i18nFor(lng);
  return renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
}

/** react-vis's rules for its XY plots, which a standalone SVG must carry itself. */
const REACT_VIS_RULES = (reactVisCss.match(/\.rv-xy-plot__[^{]*\{[^}]*\}/g) ?? []).join("");

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

export async function heatmapDocument(lng: Language, data: InconsistencyData, limit: number): Promise<string> {
  return XML_HEADER + (await renderInLanguage(lng, <RankHeatmapSvg data={data} limit={limit} />));
}

export async function agreementDocument(lng: Language, data: InconsistencyData): Promise<string> {
  return XML_HEADER + (await renderInLanguage(lng, <AgreementSvg data={data} />));
}

/** One method's accuracy curves; null when its curves are not on this server. */
export async function curveDocument(lng: Language, grid: number[], m: CurvesData["methods"][number]): Promise<string | null> {
  const html = await renderInLanguage(lng, <CurveSvg grid={grid} m={m} />);
  const start = html.indexOf("<svg");
  const end = html.lastIndexOf("</svg>");
  if (start < 0 || end < 0) return null;
  // react-vis wraps its <svg> in a positioned <div>: the document is the <svg> alone.
  const svg = html.slice(start, end + "</svg>".length);
  const open = svg.indexOf(">");
  const tag = svg.slice(0, open).includes("xmlns=") ? svg.slice(0, open) : svg.slice(0, open).replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"');
  return `${XML_HEADER}${tag}><style>${REACT_VIS_RULES}text{font-family:system-ui,sans-serif}</style>${svg.slice(open + 1)}`;
}
