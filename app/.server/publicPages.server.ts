// Which pages may be served from the rendered-page cache (server/pageCache.ts), and the
// version of what they show. Only anonymous GETs of pages that are the same for every visitor
// (in one language) qualify; any write to the tables those pages read bumps the version, so a
// cached page is never older than the data (docs/performance.md, "Page cache").
import type { Model, ModelStatic, Sequelize, Transaction } from "sequelize";
import { requestLanguage } from "./i18n.server.ts";
import { sessionCookie } from "./session.server.ts";

/** Pages whose HTML depends only on the URL, the language and the public content. */
const CACHEABLE_PATHS = new Set(["/homepage", "/leaderboard", "/datasetPreview", "/document", "/demos", "/Algorithm"]);
/** Tables those pages read: a write to any of them changes what a page may show. */
const CONTENT_MODELS = new Set(["Suite", "BoardMethod", "Submission", "Dataset", "Picture"]);

let contentVersion = 0;

export function publicContentVersion(): number {
  return contentVersion;
}

/**
 * Bumps the version on every write to a content table, and again when its transaction
 * commits (a page rendered between the write and the commit would otherwise be cached with
 * the new version and the old data). Installed once by startRuntime().
 */
export function watchPublicContent(sequelize: Sequelize): void {
  const bump = (modelName: string | undefined, options?: { transaction?: Transaction | null }) => {
    if (!modelName || !CONTENT_MODELS.has(modelName)) return;
    contentVersion++;
    options?.transaction?.afterCommit(() => void contentVersion++);
  };
  const instanceHook = (instance: Model, options: { transaction?: Transaction | null }) => bump((instance.constructor as ModelStatic<Model>).name, options);
  const bulkHook = (options: { model?: ModelStatic<Model>; transaction?: Transaction | null }) => bump(options.model?.name, options);
  sequelize.addHook("afterCreate", "publicContent", instanceHook);
  sequelize.addHook("afterUpdate", "publicContent", instanceHook);
  sequelize.addHook("afterDestroy", "publicContent", instanceHook);
  sequelize.addHook("afterSave", "publicContent", instanceHook);
  sequelize.addHook("afterBulkCreate", "publicContent", (instances: readonly Model[], options: { transaction?: Transaction | null }) => {
    if (instances[0]) instanceHook(instances[0], options);
  });
  sequelize.addHook("afterBulkUpdate", "publicContent", bulkHook);
  sequelize.addHook("afterBulkDestroy", "publicContent", bulkHook);
  sequelize.addHook("afterUpsert", "publicContent", (attributes: [Model, boolean | null], options: { transaction?: Transaction | null }) =>
    instanceHook(attributes[0], options),
  );
}

/**
 * The cache key of a request, or null when it must be rendered: not a GET/HEAD, not a cacheable
 * path, a signed-in visitor (the top bar shows their name), or a data request.
 */
export async function publicPageKey(req: {
  method: string;
  path: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}): Promise<string | null> {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  if (!CACHEABLE_PATHS.has(req.path)) return null;
  // A search is counted each time its results are shown (searchAnalytics.server.ts): never served from the cache.
  if (new URL(req.url, "http://local").searchParams.get("q")) return null;
  const cookie = typeof req.headers.cookie === "string" ? req.headers.cookie : "";
  const headers = new Headers();
  if (cookie) headers.set("Cookie", cookie);
  if (cookie && (await sessionCookie.parse(cookie))) return null;
  const acceptLanguage = req.headers["accept-language"];
  if (typeof acceptLanguage === "string") headers.set("Accept-Language", acceptLanguage);
  const lng = await requestLanguage(new Request(`http://local${req.url}`, { headers }));
  return `${lng} ${req.url} v${contentVersion}`;
}
