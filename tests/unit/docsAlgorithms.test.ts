// The documentation promises only what exists: its list of attribution methods (/document,
// app/locales/<lng>/docs.json "algorithms") names exactly the methods of the sidecar's registry,
// spelled as the registry spells them (the names a user types in the demos and evaluations).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALGORITHM_NAMES } from "../../sidecar/inference/attribution/index.ts";

const LOCALES = path.resolve(import.meta.dirname, "../../app/locales");
/** The list items of the section: every entry but its lead sentence and its advice. */
function listItems(lng: string): string {
  const section = JSON.parse(fs.readFileSync(path.join(LOCALES, lng, "docs.json"), "utf8")).algorithms as Record<string, string>;
  return Object.entries(section)
    .filter(([k]) => k !== "p1" && k !== "choose")
    .map(([, v]) => v)
    .join("\n");
}
/** Method-like words: CamelCase (two capitals or more) or with an underscore. */
const methodLike = (text: string) => [...text.matchAll(/\b(?:[A-Z][a-z]*[A-Z]\w*|\w+_\w+)\b/g)].map((m) => m[0]);
const named = (text: string, name: string) => new RegExp(`(?<![\\w])${name}(?![\\w])`).test(text);

describe("the documentation's algorithm list", () => {
  it("the registry is what the test reads (so an empty list cannot pass)", () => {
    expect(ALGORITHM_NAMES.length).toBeGreaterThanOrEqual(10);
    expect(ALGORITHM_NAMES).toContain("IntegratedGradients");
  });
  for (const lng of ["en", "zh"]) {
    it(`${lng}: names every method of the registry`, () => {
      const text = listItems(lng);
      expect(ALGORITHM_NAMES.filter((n) => !named(text, n))).toEqual([]);
    });
    it(`${lng}: names no method the registry lacks`, () => {
      const text = listItems(lng);
      // In Chinese every Latin word of the list is a method name; in English the CamelCase ones.
      const words = lng === "zh" ? [...text.matchAll(/[A-Za-z_]+/g)].map((m) => m[0]) : methodLike(text);
      expect([...new Set(words)].filter((w) => !ALGORITHM_NAMES.includes(w))).toEqual([]);
    });
  }
});
