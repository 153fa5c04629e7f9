// The interface font (scripts/uiFont.ts, docs/i18n.md) must hold every character the interface uses:
// a translation with a new character fails here until `npm run -s ui-font` regenerates the subset.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHARS_FILE, FONT_DIR, interfaceCharacters, missingCharacters } from "../../scripts/uiFont.ts";

describe("interface font subset", () => {
  it("covers every character of the sources and translations", () => {
    expect(missingCharacters()).toEqual([]);
  });
  it("is real woff2 files for both weights, and the collector sees the Chinese translations", () => {
    for (const weight of [400, 700]) {
      const bytes = fs.readFileSync(path.join(FONT_DIR, `noto-sans-sc-ui-${weight}.woff2`));
      expect(bytes.subarray(0, 4).toString("latin1")).toBe("wOF2");
    }
    const chars = interfaceCharacters();
    for (const ch of "第一步选择图像请至少选择一个概念") expect(chars).toContain(ch);
    expect(fs.readFileSync(CHARS_FILE, "utf8")).toContain("概");
  });
});
