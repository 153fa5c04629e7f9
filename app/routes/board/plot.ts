// The leaderboard's plots as their own URLs (docs/performance.md "Plots"):
//   /leaderboard/plots/heatmap.svg?suite=ID&lng=en&v=N         the case × method rank heatmap
//   /leaderboard/plots/agreement.svg?suite=ID&lng=en&v=N       Kendall's τ between the cases
//   /leaderboard/plots/curve.svg?suite=ID&task=T&method=M&contributor=C&lng=en&v=N
// Each is rendered once per content version and language and kept, brotli and gzip included;
// `v` is the content version the page was rendered at, so a changed board is a new URL, and the
// ETag lets a browser revalidate without a body. The numbers behind every plot are the
// downloads of app/routes/board/inconsistencyDownload.ts.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { chooseSuite, listSuites } from "~/.server/board.server.ts";
import { HEATMAP_METHODS, suiteInconsistency } from "~/.server/inconsistency.server.ts";
import { taskCurves } from "~/.server/curves.server.ts";
import { requestLanguage } from "~/.server/i18n.server.ts";
import { publicContentVersion } from "~/.server/publicPages.server.ts";
import { agreementDocument, curveDocument, heatmapDocument } from "~/.server/plots.server.tsx";
import { RenderedCache, answerRendered } from "~/.server/renderedCache.server.ts";
import { isLanguage } from "~/i18n/config.ts";

const PLOTS = new Set(["heatmap.svg", "agreement.svg", "curve.svg"]);
/** A board's plots in two languages, several boards and tasks: a few hundred SVGs of ~10–60 KB. */
const plots = new RenderedCache(400, 32 * 1024 * 1024);

const notFound = (what: string) => new Response(what, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const plot = params.plot ?? "";
  if (!PLOTS.has(plot)) throw notFound("No such plot.");
  const url = new URL(request.url);
  const asked = url.searchParams.get("lng");
  const lng = isLanguage(asked) ? asked : await requestLanguage(request);
  const q = (name: string) => url.searchParams.get(name) ?? "";
  // Everything that decides the drawing, and the version of the data it is drawn from.
  // Only what the plot uses is in the key, and only a board's own id is answered: made-up
  // parameters cannot fill the cache with copies.
  const inputs = plot === "curve.svg" ? [q("suite"), q("task"), q("method"), q("contributor")] : [q("suite")];
  const key = JSON.stringify([plot, lng, ...inputs, publicContentVersion()]);
  const entry = await plots.get(
    key,
    async () => {
      const suite = chooseSuite(await listSuites(lng), q("suite"));
      if (!suite || suite.id !== q("suite")) throw notFound("No such board.");
      if (plot === "curve.svg") {
        if (!suite.tasks.includes(q("task"))) throw notFound("No such task on this board.");
        const curves = await taskCurves(suite, q("task"));
        const m = curves.methods.find((c) => c.method === q("method") && c.contributor === q("contributor"));
        const svg = m ? await curveDocument(lng, curves.grid, m) : null;
        if (!svg) throw notFound("No curves of this method on this task.");
        return svg;
      }
      const data = await suiteInconsistency(suite);
      if (!data) throw notFound("This board has fewer than two methods.");
      return plot === "heatmap.svg" ? heatmapDocument(lng, data, HEATMAP_METHODS) : agreementDocument(lng, data);
    },
    { compress: true },
  );
  return answerRendered(request, entry, { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "public, max-age=60" });
}
