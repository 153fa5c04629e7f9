import { describe, expect, it } from "vitest";
import { limitsFor, UPLOAD_ROUTES } from "../../app/.server/uploads.server.ts";

describe("upload limits by route", () => {
  it("applies to the route, its children and its single-fetch .data twin", () => {
    expect(limitsFor("/submission")).toBe(UPLOAD_ROUTES["/submission"]);
    expect(limitsFor("/submission.data")).toBe(UPLOAD_ROUTES["/submission"]);
    expect(limitsFor("/datasetInDetail/12")).toBe(UPLOAD_ROUTES["/datasetInDetail"]);
    expect(limitsFor("/UserImgclassification.data")).toBe(UPLOAD_ROUTES["/UserImgclassification"]);
  });
  it("applies to every spelling the router matches: case, trailing slash, encoded characters, repeated slashes", () => {
    for (const spelling of ["/SUBMISSION", "/Submission/", "/%73ubmission", "//submission", "/submission.DATA", "/userimgclassification"])
      expect(limitsFor(spelling), spelling).toBeDefined();
  });
  it("does not parse bodies of other routes", () => {
    expect(limitsFor("/signin")).toBeUndefined();
    expect(limitsFor("/submissionx")).toBeUndefined();
  });
  it("keeps the original site's 500 KB limit for result files", () => {
    expect(UPLOAD_ROUTES["/submission"].fileSize).toBe(512_000);
  });
});
