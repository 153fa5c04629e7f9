// Downloads of a suite's inconsistency views (app/components/Inconsistency.tsx):
// ?suite=ID&table=ranks|agreement|spread&format=csv, or format=json for all of them;
// ?suite=ID&table=curves&task=T&format=csv|json for one task's accuracy curves.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { chooseSuite, listSuites } from "~/.server/board.server.ts";
import { inconsistencyCsv, suiteInconsistency } from "~/.server/inconsistency.server.ts";
import { curvesCsv, taskCurves } from "~/.server/curves.server.ts";

const TABLES = ["ranks", "agreement", "spread"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const suite = chooseSuite(await listSuites(), url.searchParams.get("suite"));
  if (suite && url.searchParams.get("table") === "curves") {
    // One task's accuracy curves of every public method (app/components/MethodCurves.tsx).
    const task = url.searchParams.get("task") ?? "";
    if (!suite.tasks.includes(task)) throw new Response(`Task "${task.slice(0, 100)}" is not one of this suite's tasks.`, { status: 404 });
    const curves = await taskCurves(suite, task);
    const file = `${suite.id}-${task}-curves`;
    if (url.searchParams.get("format") === "json")
      return new Response(JSON.stringify({ suite: suite.id, ...curves }, null, 2), {
        headers: { "Content-Type": "application/json; charset=utf-8", "Content-Disposition": `attachment; filename="${file}.json"` },
      });
    return new Response(curvesCsv(curves), {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${file}.csv"` },
    });
  }
  const data = suite ? await suiteInconsistency(suite) : null;
  if (!suite || !data) throw new Response("This suite has fewer than two methods, so there is nothing to compare.", { status: 404 });
  const name = `${suite.id}-inconsistency`;
  if (url.searchParams.get("format") === "json") {
    const body = {
      suite: suite.id,
      cases: data.cases,
      methods: data.methods,
      ranks: data.ranks,
      tau: data.agreement.tau,
      meanTau: data.agreement.meanTau,
      spread: data.spread,
    };
    return new Response(JSON.stringify(body, null, 2), {
      headers: { "Content-Type": "application/json; charset=utf-8", "Content-Disposition": `attachment; filename="${name}.json"` },
    });
  }
  const table = TABLES.find((t) => t === url.searchParams.get("table")) ?? "ranks";
  return new Response(inconsistencyCsv(data, table), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}-${table}.csv"` },
  });
}
