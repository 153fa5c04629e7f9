// The site's URLs as the route config declares them (app/routes.ts): `api/v1/suites/:id/score`
// under its parents becomes `/api/v1/suites/:id/score`; an index route is its parent's URL.
import type { RouteConfigEntry } from "@remix-run/route-config";
import routes from "../../app/routes.ts";

/** Every URL pattern of app/routes.ts, with the module that answers it. */
export function routeUrls(): { url: string; file: string }[] {
  const out: { url: string; file: string }[] = [];
  const walk = (entries: readonly RouteConfigEntry[], prefix: string) => {
    for (const e of entries) {
      const url = e.path ? `${prefix}/${e.path}` : prefix || "/";
      out.push({ url, file: e.file });
      walk(e.children ?? [], url === "/" ? "" : url);
    }
  };
  walk(routes, "");
  return out;
}
