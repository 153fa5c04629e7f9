import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { displayNameOf, preparePicture, PictureRejected, sniffImageType, storedFile } from "../../app/.server/pictures.server.ts";

const fixture = (n: string) => fs.readFileSync(path.join(__dirname, "../fixtures/images", n));

describe("picture checks", () => {
  it("sniffs PNG, JPEG, GIF and WebP from magic bytes, not names", () => {
    expect(sniffImageType(fixture("red.png"))).toBe("image/png");
    expect(sniffImageType(fixture("red.jpg"))).toBe("image/jpeg");
    expect(sniffImageType(fixture("red.gif"))).toBe("image/gif");
    expect(sniffImageType(fixture("red.webp"))).toBe("image/webp");
    expect(sniffImageType(fixture("not-an-image.png"))).toBeNull();
    expect(sniffImageType(Buffer.from("RIFF0000WAVE"))).toBeNull();
  });

  it("keeps only a clean base name for display", () => {
    expect(displayNameOf("../../etc/passwd")).toBe("passwd");
    expect(displayNameOf("C:\\Users\\x\\..\\cat.png")).toBe("cat.png");
    expect(displayNameOf("..")).toBe("picture");
    expect(displayNameOf("a\u0000b.png")).toBe("ab.png");
  });

  it("refuses stored paths that leave the storage root", () => {
    expect(() => storedFile("../../etc/passwd")).toThrow();
    expect(storedFile("datasets/ab/x.png")).toMatch(/datasets\/ab\/x\.png$/);
  });

  it("rejects broken images with magic bytes but no body, and thumbnails real ones", async () => {
    const truncated = fixture("red.png").subarray(0, 20);
    await expect(preparePicture(truncated, "t.png")).rejects.toBeInstanceOf(PictureRejected);
    const ok = await preparePicture(fixture("red.jpg"), "r.jpg");
    expect([ok.width, ok.height, ok.mimeType]).toEqual([40, 30, "image/jpeg"]);
    expect(sniffImageType(ok.thumb)).toBe("image/png");
  });
});
