// A route's <title> in the page's language. A route's `meta` runs without i18next, on the server
// and in the browser alike, so it reads the language from the root loader's data and the words
// from the bundled resources (the same ones the page's own headings use): a Chinese page's
// browser tab, bookmark and screen-reader title are Chinese too (docs/i18n.md).
import type { MetaDescriptor } from "@remix-run/node";
import { FALLBACK_LANGUAGE, isLanguage, resources, type Language } from "~/i18n/config.ts";

type Match = { id: string; data?: unknown };

/** The page's language, as the root loader chose it (English when there is no root data). */
export function matchesLanguage(matches: readonly Match[]): Language {
  const locale = (matches.find((m) => m.id === "root")?.data as { locale?: unknown } | undefined)?.locale;
  return isLanguage(locale) ? locale : FALLBACK_LANGUAGE;
}

/** The text of `key` ("namespace:path.to.key") in `lng`, else in English, else the key itself. */
export function resourceText(lng: Language, key: string): string {
  const [ns, path] = key.split(":", 2) as [string, string];
  const lookup = (l: Language) => {
    let v: unknown = (resources[l] as Record<string, unknown>)[ns];
    for (const part of path.split(".")) v = v && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
    return typeof v === "string" ? v : null;
  };
  return lookup(lng) ?? lookup(FALLBACK_LANGUAGE) ?? key;
}

/** `meta` for a page whose title is the heading `key`: "<heading> — Meta-Rank". */
export function pageTitle(matches: readonly Match[], key: string): MetaDescriptor[] {
  return [{ title: `${resourceText(matchesLanguage(matches), key)} — Meta-Rank` }];
}
