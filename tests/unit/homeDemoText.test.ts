// The homepage's "usage" sentence promises live demos of named attribution methods (a text may
// promise only what exists): in both languages it names methods of the sidecar's registry, spelled
// as the registry spells them, that the classification demo really offers.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALGORITHM_NAMES } from "../../sidecar/inference/attribution/index.ts";
import { CLASSIFICATION_ALGORITHMS } from "../../app/.server/classification.server.ts";

const LOCALES = path.resolve(import.meta.dirname, "../../app/locales");
const usage = (lng: string) => (JSON.parse(fs.readFileSync(path.join(LOCALES, lng, "home.json"), "utf8")) as Record<string, string>).usage;
/** A registry name however a writer might space or hyphenate it ("Integrated Gradients", "Grad-CAM"). */
const loosely = (name: string) =>
  new RegExp(
    `(?<![A-Za-z])${name
      .split("")
      .map((ch) => ch.replace(/[_-]/, ""))
      .filter(Boolean)
      .join("[\\s_-]?")}(?![A-Za-z])`,
    "gi",
  );

describe("the homepage's usage sentence", () => {
  const demoed = new Set<string>(CLASSIFICATION_ALGORITHMS.map((a) => a.method));
  for (const lng of ["en", "zh"]) {
    it(`${lng}: names demoed methods exactly as the registry spells them`, () => {
      const text = usage(lng);
      const named = ALGORITHM_NAMES.filter((n) => new RegExp(`(?<![\\w])${n}(?![\\w])`).test(text));
      expect(named.length).toBeGreaterThanOrEqual(3);
      for (const n of named) expect(demoed.has(n), `${n} is offered by the classification demo`).toBe(true);
      // No registry method under another spelling.
      for (const n of ALGORITHM_NAMES) for (const m of text.matchAll(loosely(n))) expect(m[0], `"${m[0]}" is spelled ${n} in the registry`).toBe(n);
    });
  }
  it("is the same list in both languages", () => {
    const names = (lng: string) => ALGORITHM_NAMES.filter((n) => new RegExp(`(?<![\\w])${n}(?![\\w])`).test(usage(lng)));
    expect(names("zh")).toEqual(names("en"));
  });
});
