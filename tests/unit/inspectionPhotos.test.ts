// What crack detection does with each photo of a run before the detector sees it
// (app/.server/inspection.server.ts fitForDetection, whyRefused): PNG and JPEG go as they are,
// larger ones are scaled down with the scale grown to match, GIF and WebP are converted, and a
// photo that cannot be detected gets the reason its run's page shows (a damaged file, another
// format, not an image, more pixels than are read), in English and Chinese.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { TFunction } from "i18next";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "metarank-inspection-photos-"));
process.env.DATABASE_URL = `sqlite:${path.join(tmp, "db.sqlite")}`;
process.env.LOG_LEVEL = "silent";

let insp: typeof import("../../app/.server/inspection.server.ts");
let translate: (lng: "en" | "zh", ref: string) => string;

beforeAll(async () => {
  insp = await import("../../app/.server/inspection.server.ts");
  const { i18nFor } = await import("../../app/.server/i18n.server.ts");
  const { translateMessage } = await import("../../app/lib/forms/messages.ts");
  const t = { en: (await i18nFor("en")).getFixedT("en", "inspection"), zh: (await i18nFor("zh")).getFixedT("zh", "inspection") };
  translate = (lng, ref) => translateMessage(t[lng] as TFunction, ref);
});

const photo = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 120, g: 110, b: 100 } } });
const isPng = (b: Uint8Array) => Buffer.from(b.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A PNG whose header claims width × height (one row of pixels is all the data there is). */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(Buffer.alloc(1 + width * 3))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("fitForDetection", () => {
  it("sends a PNG or JPEG within the detector's bound as it is", async () => {
    const png = await photo(64, 48).png().toBuffer();
    const fitted = await insp.fitForDetection(png, 0.5, 10_000);
    expect(fitted).toEqual({ image: png, mmPerPixel: 0.5, original: null });
  });

  it("scales a larger photo down, growing the scale by the same factor, and describes the original", async () => {
    const jpeg = await photo(400, 300).jpeg().toBuffer();
    const fitted = await insp.fitForDetection(jpeg, 0.5, 10_000);
    if ("notDetectable" in fitted) throw new Error(fitted.notDetectable);
    expect(fitted.original).toEqual({ width: 400, height: 300, format: "jpeg" });
    const meta = await sharp(fitted.image).metadata();
    expect(meta.width! * meta.height!).toBeLessThanOrEqual(10_000);
    expect(fitted.mmPerPixel).toBeCloseTo(0.5 * (400 / meta.width!), 9);
  });

  it("converts GIF and WebP (which a dataset takes) to PNG at their own size", async () => {
    for (const [format, bytes] of [
      ["webp", await photo(60, 40).webp().toBuffer()],
      ["gif", await photo(60, 40).gif().toBuffer()],
    ] as const) {
      const fitted = await insp.fitForDetection(bytes, 0.25, 10_000);
      if ("notDetectable" in fitted) throw new Error(`${format}: ${fitted.notDetectable}`);
      expect(isPng(fitted.image), format).toBe(true);
      expect(fitted.original).toEqual({ width: 60, height: 40, format });
      expect(fitted.mmPerPixel).toBe(0.25);
    }
  });

  it("says why a photo cannot be detected: another format, not an image, damaged, empty, too many pixels", async () => {
    const tiff = await photo(30, 20).tiff().toBuffer();
    expect(await insp.fitForDetection(tiff, 0.5, 10_000)).toEqual({ notDetectable: 'inspection:skipped.unsupportedFormat|{"format":"TIFF"}' });
    expect(await insp.fitForDetection(Buffer.from("just some text, not a photo"), 0.5, 10_000)).toEqual({ notDetectable: "inspection:skipped.notAnImage" });
    expect(await insp.fitForDetection(Buffer.alloc(0), 0.5, 10_000)).toEqual({ notDetectable: "inspection:skipped.unreadable" });
    // A WebP cut short: its header reads, its pixels do not.
    const webp = await photo(200, 200).webp({ quality: 90 }).toBuffer();
    expect(await insp.fitForDetection(webp.subarray(0, 40), 0.5, 10_000)).toEqual({ notDetectable: "inspection:skipped.unreadable" });
    // More pixels than scaling down decodes (PICTURE_LIMITS.maxPixels, 40 megapixels).
    const huge = await insp.fitForDetection(pngClaiming(8000, 6000), 0.5, 4_000_000);
    expect(huge).toEqual({ notDetectable: 'inspection:skipped.tooManyPixels|{"width":8000,"height":6000,"megapixels":48,"max":40}' });
    expect(translate("en", (huge as { notDetectable: string }).notDetectable)).toBe(
      "The photo is 8000 × 6000 pixels (48 megapixels); photos of up to 40 megapixels are scaled down for detection, larger ones are not read.",
    );
    expect(translate("zh", (huge as { notDetectable: string }).notDetectable)).toContain("8000 × 6000 像素");
    // And when the detector refuses one (a photo sent as it is): the same reason.
    expect(await insp.whyRefused(pngClaiming(8000, 6000), "at most 4,000,000 pixels are accepted")).toBe((huge as { notDetectable: string }).notDetectable);
  });
});

describe("whyRefused", () => {
  it("tells a damaged file from the detector's own reasons", async () => {
    const png = await photo(120, 90).png().toBuffer();
    // A PNG cut short goes to the detector as it is (its header reads); when it is refused, the reason is the damage.
    const cut = png.subarray(0, Math.floor(png.length / 2));
    expect("notDetectable" in (await insp.fitForDetection(cut, 0.5, 4_000_000))).toBe(false);
    const damaged = await insp.whyRefused(cut, "the photo could not be decoded");
    expect(damaged).toBe("inspection:skipped.unreadable");
    expect(translate("en", damaged)).toBe("The image file is damaged or cut short: it cannot be decoded.");
    expect(translate("zh", damaged)).toBe("图像文件已损坏或不完整，无法解码。");
    // A photo that decodes: the detector's words, quoted.
    const own = await insp.whyRefused(png, "the scale must be between 0.001 and 100 mm per pixel");
    expect(translate("en", own)).toBe("The detector refused the photo: the scale must be between 0.001 and 100 mm per pixel");
    expect(translate("zh", own)).toBe("检测器拒绝了该照片：the scale must be between 0.001 and 100 mm per pixel");
  });
});
