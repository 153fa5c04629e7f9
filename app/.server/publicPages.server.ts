// Which pages may be served from the rendered-page cache (server/pageCache.ts), and the
// version of what they show. Only anonymous GETs of pages that are the same for every visitor
// (in one language) qualify; any write to the tables those pages read bumps the version, so a
// cached page is never older than the data (docs/performance.md, "Page cache").
import type { Model, ModelStatic, Sequelize, Transaction } from "sequelize";
import { requestLanguage } from "./i18n.server.ts";
import { logger } from "./logger.server.ts";
import { sessionCookie } from "./session.server.ts";
import { incrementCounter, onCounter, readCounter } from "./shared.server.ts";

/** Pages whose HTML depends only on the URL, the language and the public content. */
const CACHEABLE_PATHS = new Set(["/homepage", "/leaderboard", "/datasetPreview", "/document", "/demos", "/Algorithm"]);
/** Tables those pages read: a write to any of them changes what a page may show. */
const CONTENT_MODELS = new Set(["Suite", "BoardMethod", "Submission", "Dataset", "Picture"]);

/** The shared counter (shared.server.ts) that is the content version. */
const COUNTER = "public-content";

let contentVersion = 0;
/** Bumps that have not heard back from the shared counter yet (see publicPageKey). */
let pendingBumps = 0;

/**
 * The version of what the public pages show. Every web process of every host reads the same value
 * for the same content (it comes from one shared counter: Redis with REDIS_URL, else the primary
 * of this machine's processes), so a version — and the ETag made from it — means one content.
 */
export function publicContentVersion(): number {
  return contentVersion;
}

function seen(value: number) {
  if (value > contentVersion) contentVersion = value;
}

async function bump(): Promise<void> {
  pendingBumps++;
  try {
    // A second at most: a write must not hang on a store that does not answer.
    seen(await Promise.race([incrementCounter(COUNTER), new Promise<never>((_, no) => setTimeout(() => no(new Error("no answer in 1 s")), 1000).unref())]));
  } catch (err) {
    // The shared store is down: this process at least moves on (others follow within the page
    // cache's lifetime of an entry, docs/performance.md).
    contentVersion++;
    logger("publicPages").warn({ err: (err as Error).message }, "could not share the content version");
  } finally {
    pendingBumps--;
  }
}

/**
 * Bumps the version on every write to a content table, and again when its transaction
 * commits (a page rendered between the write and the commit would otherwise be cached with
 * the new version and the old data). The hooks wait for the shared counter, and Sequelize waits
 * for the hooks, so the write's caller answers only once every process was sent the new version.
 * Installed once by startRuntime(), after startShared().
 */
export async function watchPublicContent(sequelize: Sequelize): Promise<void> {
  seen(await readCounter(COUNTER).catch(() => 0));
  onCounter((name, value) => name === COUNTER && seen(value));
  const bumpFor = async (modelName: string | undefined, options?: { transaction?: Transaction | null }) => {
    if (!modelName || !CONTENT_MODELS.has(modelName)) return;
    options?.transaction?.afterCommit(() => bump());
    await bump();
  };
  const instanceHook = (instance: Model, options: { transaction?: Transaction | null }) => bumpFor((instance.constructor as ModelStatic<Model>).name, options);
  const bulkHook = (options: { model?: ModelStatic<Model>; transaction?: Transaction | null }) => bumpFor(options.model?.name, options);
  sequelize.addHook("afterCreate", "publicContent", instanceHook);
  sequelize.addHook("afterUpdate", "publicContent", instanceHook);
  sequelize.addHook("afterDestroy", "publicContent", instanceHook);
  sequelize.addHook("afterSave", "publicContent", instanceHook);
  sequelize.addHook("afterBulkCreate", "publicContent", async (instances: readonly Model[], options: { transaction?: Transaction | null }) => {
    if (instances[0]) await instanceHook(instances[0], options);
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
  // A write is between its hook and the shared counter's answer: the version is about to change,
  // so nothing is kept (or served) under the old one meanwhile.
  if (pendingBumps > 0) return null;
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
