// After log-in only same-site paths are followed (docs/security.md "Cases", redirects): whatever
// the browser would read as another host falls back to /homepage, and no value makes the function
// throw.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirect } from "../../app/.server/session.server.ts";

const offSite = (to: string) => new URL(safeRedirect(to), "http://same.site").host !== "same.site";

describe("safeRedirect", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeRedirect("/history?page=2")).toBe("/history?page=2");
    expect(safeRedirect("/leaderboard?suite=metarank-local#board")).toBe("/leaderboard?suite=metarank-local#board");
  });
  it("refuses other hosts however they are spelled", () => {
    for (const to of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "\\\\evil.example",
      "/%2F%2Fevil.example",
      "/%5Cevil.example",
      "/\tevil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\u0000x",
      "javascript:alert(1)",
      "",
      "history",
    ])
      expect(safeRedirect(to), JSON.stringify(to)).toBe("/homepage");
    expect(safeRedirect(null)).toBe("/homepage");
    expect(safeRedirect("/%E0%A4%A")).toBe("/homepage"); // malformed escape
    expect(safeRedirect("/" + "a".repeat(5000))).toBe("/homepage");
  });
  it("sends a path with non-Latin-1 characters percent-encoded, so the Location header can carry it", () => {
    expect(safeRedirect("/datasetInDetail?keyword=数据集")).toBe(`/datasetInDetail?keyword=${encodeURIComponent("数据集")}`);
    expect(safeRedirect("/history?q=a b")).toBe("/history?q=a%20b");
    expect(safeRedirect("/already%20encoded")).toBe("/already%20encoded");
    expect(safeRedirect("/x\uD800")).toBe("/homepage"); // a lone surrogate has no UTF-8 form
  });
  it("never throws and never leaves the site, for any string (fast-check)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.fullUnicodeString(), fc.webUrl(), fc.constantFrom("/", "//", "/\\", "%2F", "%5C", "\t", "\\")), (to) => {
        expect(() => safeRedirect(to)).not.toThrow();
        expect(offSite(to)).toBe(false);
        // What a redirect puts in its Location header must be bytes (a 500 otherwise).
        expect(() => new Headers({ Location: safeRedirect(to) })).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});
