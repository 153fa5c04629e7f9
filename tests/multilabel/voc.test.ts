// The Pascal VOC 2012 reader on its fixture (tests/fixtures/voc/VOC2012, made by
// tests/fixtures/voc/generate.ts in VOC's published layout): split lists, the image-level
// labels from Annotations/*.xml (difficult objects ignored, <part> names not objects), palette
// PNG masks decoded to class ids with 255 = void, the colour map, and refusals of broken files.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { DatasetFormatError } from "../../sidecar/data/dataset.ts";
import {
  VOC_CLASSES,
  VOC_VOID,
  decodeVocMask,
  encodeVocMask,
  parseVocAnnotation,
  readVocIds,
  readVocItem,
  readVocMultiLabel,
  resolveVocRoot,
  vocColormap,
  vocDirFromEnv,
} from "../../sidecar/data/voc.ts";

const FIXTURE = path.join(import.meta.dirname, "..", "fixtures", "voc");
const ROOT = path.join(FIXTURE, "VOC2012");
const cls = (name: string) => VOC_CLASSES.indexOf(name as (typeof VOC_CLASSES)[number]);

describe("Pascal VOC 2012 reader", () => {
  it("names Pascal VOC's 20 classes in VOC's order", () => {
    expect(VOC_CLASSES).toHaveLength(20);
    expect(VOC_CLASSES[0]).toBe("aeroplane");
    expect(VOC_CLASSES[10]).toBe("dining table");
    expect(VOC_CLASSES[19]).toBe("tv/monitor");
  });

  it("finds the VOC2012 folder from VOC_DIR at the folder, its parent or VOCdevkit's parent", () => {
    expect(resolveVocRoot(ROOT)).toBe(ROOT);
    expect(resolveVocRoot(FIXTURE)).toBe(ROOT);
    expect(vocDirFromEnv({ VOC_DIR: FIXTURE })).toBe(ROOT);
    expect(vocDirFromEnv({})).toBeNull();
    expect(() => resolveVocRoot(os.tmpdir())).toThrow(DatasetFormatError);
  });

  it("reads the split lists of both tasks", () => {
    expect(readVocIds(ROOT, "Segmentation", "train")).toEqual(["2008_000001", "2008_000002"]);
    expect(readVocIds(ROOT, "Segmentation", "val")).toEqual(["2008_000003"]);
    expect(readVocIds(ROOT, "Main", "train")).toEqual(["2008_000001", "2008_000002", "2008_000004"]);
  });

  it("decodes the colour map as the devkit defines it", () => {
    const map = vocColormap();
    expect(map[0]).toEqual([0, 0, 0]);
    expect(map[1]).toEqual([128, 0, 0]);
    expect(map[2]).toEqual([0, 128, 0]);
    expect(map[15]).toEqual([192, 128, 128]); // person
    expect(map[255]).toEqual([224, 224, 192]); // void
    expect(new Set(map.map((c) => c.join(","))).size).toBe(256);
  });

  it("reads labels from the XML, masks from the palette PNGs with 255 = void", () => {
    const a = readVocItem(ROOT, "2008_000001");
    expect([a.image.width, a.image.height, a.image.channels]).toEqual([24, 16, 3]);
    const labelled = (l: Int8Array) => [...l].flatMap((v, i) => (v === 1 ? [VOC_CLASSES[i]] : []));
    expect(labelled(a.labels)).toEqual(["dog", "person"]);
    expect(a.objects.map((o) => VOC_CLASSES[o.cls])).toEqual(["person", "dog"]); // the <part> "head" is no object
    expect(a.objects[0].bbox).toEqual({ xmin: 3, ymin: 3, xmax: 10, ymax: 14 });
    const m = a.mask!;
    expect([m.width, m.height]).toEqual([24, 16]);
    const at = (x: number, y: number) => m.data[y * 24 + x];
    expect(at(0, 0)).toBe(0); // background
    expect(at(5, 8)).toBe(cls("person") + 1); // inside the person box
    expect(at(2, 8)).toBe(VOC_VOID); // its outline
    expect(at(17, 10)).toBe(cls("dog") + 1);
    expect(new Set(m.data)).toEqual(new Set([0, cls("person") + 1, cls("dog") + 1, VOC_VOID]));
    // The JPEG holds the colours drawn (within JPEG loss).
    expect(a.image.data[(8 * 24 + 5) * 3]).toBeGreaterThan(0.75);

    const c = readVocItem(ROOT, "2008_000003");
    // The dining table is only "difficult": 0 (ignored), not a label.
    expect(c.labels[cls("cat")]).toBe(1);
    expect(c.labels[cls("dining table")]).toBe(0);
    expect(c.labels[cls("dog")]).toBe(-1);

    const d = readVocItem(ROOT, "2008_000004");
    expect(d.mask).toBeNull();
    expect(labelled(d.labels)).toEqual(["bottle", "tv/monitor"]);
  });

  it("gives a split as a multi-label set at the model's size", () => {
    const s = readVocMultiLabel(ROOT, "train", { size: 8 });
    expect(s.ids).toEqual(["2008_000001", "2008_000002", "2008_000004"]);
    expect(s.images).toHaveLength(3 * 8 * 8 * 3);
    expect(s.targets[1 * 20 + cls("aeroplane")]).toBe(1);
    expect(s.targets[1 * 20 + cls("person")]).toBe(-1);
  });

  it("reads greyscale and RGB masks too, and round-trips its own palette writer", () => {
    const data = Uint8Array.from([0, 1, 20, 255, 15, 0]);
    expect(decodeVocMask(encodeVocMask({ width: 3, height: 2, data })).data).toEqual(data);
    const grey = new PNG({ width: 3, height: 2, colorType: 0, inputColorType: 0, bitDepth: 8 } as never);
    const rgb = new PNG({ width: 3, height: 2 });
    const map = vocColormap();
    data.forEach((v, p) => {
      for (let c = 0; c < 3; c++) {
        grey.data[p * 4 + c] = v;
        rgb.data[p * 4 + c] = map[v][c];
      }
      grey.data[p * 4 + 3] = rgb.data[p * 4 + 3] = 255;
    });
    expect(decodeVocMask(PNG.sync.write(grey, { colorType: 0 })).data).toEqual(data);
    expect(decodeVocMask(PNG.sync.write(rgb)).data).toEqual(data);
  });

  it("refuses values that are neither a class nor void, unknown classes and path-like ids", () => {
    expect(() => decodeVocMask(encodeVocMask({ width: 2, height: 1, data: Uint8Array.from([0, 21]) }))).toThrow(/neither a class/);
    expect(() => decodeVocMask(Buffer.from("not a png"))).toThrow(DatasetFormatError);
    expect(() => parseVocAnnotation("<annotation><object><name>unicorn</name></object></annotation>")).toThrow(/unicorn/);
    expect(() => parseVocAnnotation("<html></html>")).toThrow(/not a VOC annotation/);
    expect(() => readVocItem(ROOT, "../../etc/passwd")).toThrow(/not a VOC image id/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "voc-"));
    try {
      fs.mkdirSync(path.join(dir, "ImageSets", "Main"), { recursive: true });
      fs.writeFileSync(path.join(dir, "ImageSets", "Main", "train.txt"), "2008_000001\n../x\n");
      expect(() => readVocIds(dir, "Main", "train")).toThrow(/not a VOC image id/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
