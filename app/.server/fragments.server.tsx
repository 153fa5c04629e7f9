// Parts of pages that are the same for every viewer, rendered once per content version and
// language and reused for everyone, signed in or not (docs/performance.md "Fragments"): a loader
// asks for a fragment by what it depends on, gets its HTML from memory or renders it once, and
// hands it to the page's render through the request's load context. What is personal (the top
// bar, a viewer's own rows, forms) is never put in a fragment: it stays in the page's React tree,
// rendered per request.
import type { ReactElement } from "react";
import type { AppLoadContext } from "@remix-run/node";
import { MemoryRouter } from "react-router-dom";
import type { Language } from "~/i18n/config.ts";
import type { FragmentRef } from "~/components/SharedHtml.tsx";
import { publicContentVersion } from "./publicPages.server.ts";
import { renderInLanguage } from "./plots.server.tsx";
import { RenderedCache } from "./renderedCache.server.ts";

const fragments = new RenderedCache(500, 48 * 1024 * 1024);
/** Loader data every viewer shares (what a page needs besides its fragments), by the same keys. */
const shared = new Map<string, Promise<unknown>>();
const SHARED_MAX = 500;

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Fragments this request's loaders fetched, by key, for the document's render (app/entry.server.tsx). */
    fragments?: Map<string, string>;
  }
}

/**
 * Whether the request is a browser's navigation (its document is rendered on the server and the
 * fragment goes into it once) rather than Remix's data request of a client-side navigation
 * (which needs the fragment's HTML in the loader data). A client that says neither gets the HTML
 * in both places: larger, never missing.
 */
export function isDocumentRequest(request: Request): boolean {
  const dest = request.headers.get("Sec-Fetch-Dest");
  if (dest) return dest === "document";
  return (request.headers.get("Accept") ?? "").includes("text/html");
}

/** The key of what `name` shows for these inputs, in this language (null: any), at the current content version. */
export function fragmentKey(name: string, lng: Language | null, inputs: unknown): string {
  return `${name} ${lng ?? "*"} v${publicContentVersion()} ${JSON.stringify(inputs)}`;
}

/**
 * The shared fragment `name` for `inputs` (everything its HTML depends on besides the language
 * and the content version). `url` is where its links are resolved (the page's own path and query).
 */
export async function sharedFragment(
  request: Request,
  context: AppLoadContext,
  opts: { name: string; lng: Language; inputs: unknown; url: string; render: () => Promise<ReactElement> },
): Promise<FragmentRef> {
  const key = fragmentKey(opts.name, opts.lng, opts.inputs);
  const entry = await fragments.get(key, async () =>
    renderInLanguage(opts.lng, <MemoryRouter initialEntries={[opts.url]}>{await opts.render()}</MemoryRouter>),
  );
  (context.fragments ??= new Map()).set(key, entry.text);
  return isDocumentRequest(request) ? { name: opts.name, key } : { name: opts.name, key, html: entry.text };
}

/** Loader data every viewer shares, loaded once per key (fragmentKey) and kept while the key is current. */
export function sharedData<T>(key: string, load: () => Promise<T>): Promise<T> {
  const kept = shared.get(key) as Promise<T> | undefined;
  if (kept) {
    shared.delete(key);
    shared.set(key, kept);
    return kept;
  }
  const made = load();
  shared.set(key, made);
  // A failed load is not kept: the next request tries again.
  made.catch(() => shared.get(key) === made && shared.delete(key));
  for (const k of shared.keys()) {
    if (shared.size <= SHARED_MAX) break;
    shared.delete(k);
  }
  return made;
}
