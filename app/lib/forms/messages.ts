// A message a form or page shows, as one string that travels unchanged through zod, conform,
// loader/action JSON and the page cache: an i18n key with its namespace ("forms:tooLong"),
// optionally followed by "|" and the JSON of its values. The component that shows it
// translates it in the visitor's language (docs/i18n.md, "Messages from rules").
import type { TFunction } from "i18next";

export type MessageRef = string;
export type MessageValues = Record<string, string | number>;

const SEPARATOR = "|";
/** "namespace:key.path": what makes a string a key rather than a text shown as it is. */
const KEY = /^[a-zA-Z]+:[\w.]+$/;

export function messageRef(key: string, values?: MessageValues): MessageRef {
  return values && Object.keys(values).length ? `${key}${SEPARATOR}${JSON.stringify(values)}` : key;
}

export function decodeMessage(ref: MessageRef): { key: string; values?: MessageValues } | null {
  const cut = ref.indexOf(SEPARATOR);
  const key = cut < 0 ? ref : ref.slice(0, cut);
  if (!KEY.test(key)) return null;
  if (cut < 0) return { key };
  try {
    const values = JSON.parse(ref.slice(cut + 1)) as unknown;
    return values && typeof values === "object" ? { key, values: values as MessageValues } : { key };
  } catch {
    return null;
  }
}

/**
 * The text of a message in the language of `t`. A string that is not a key (a text from a
 * place not yet converted, or a server's own words) is shown as it is.
 */
export function translateMessage(t: TFunction, ref: MessageRef | undefined | null): string {
  if (!ref) return "";
  const m = decodeMessage(ref);
  if (!m) return ref;
  return String(t(m.key, { ...m.values, defaultValue: ref }));
}
