// Every key of every namespace exists in both languages, with a non-empty text, and the
// interpolation variables and markup tags of a text are the same in both.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const LOCALES = path.resolve(import.meta.dirname, "../../app/locales");

function flatten(obj: Record<string, unknown>, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") for (const [kk, vv] of flatten(v as Record<string, unknown>, key)) out.set(kk, vv);
    else out.set(key, String(v));
  }
  return out;
}
const read = (lng: string, ns: string) => flatten(JSON.parse(fs.readFileSync(path.join(LOCALES, lng, `${ns}.json`), "utf8")));
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)\s*\/?>/g)].map((m) => m[1] ?? `<${m[2]}>`).sort();

describe("translations", () => {
  const namespaces = fs.readdirSync(path.join(LOCALES, "en")).map((f) => f.replace(/\.json$/, ""));
  it("both languages have the same namespaces", () => {
    expect(
      fs
        .readdirSync(path.join(LOCALES, "zh"))
        .map((f) => f.replace(/\.json$/, ""))
        .sort(),
    ).toEqual([...namespaces].sort());
  });
  for (const ns of namespaces) {
    it(`${ns}: same keys, no empty text, same variables and tags`, () => {
      const en = read("en", ns);
      const zh = read("zh", ns);
      expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
      for (const [key, text] of en) {
        expect(text.trim(), `en ${ns}:${key}`).not.toBe("");
        expect(zh.get(key)!.trim(), `zh ${ns}:${key}`).not.toBe("");
        expect(placeholders(zh.get(key)!), `${ns}:${key}`).toEqual(placeholders(text));
      }
    });
  }
});
