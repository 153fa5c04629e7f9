// The documentation video (public/doc/intro.webm, `make doc-video`, scripts/recordDocVideo.ts) is a
// screen recording, not a slideshow of stills: a constant frame rate with many frames that change
// the picture (scrolling, the pointer, typing, the progress bar), within 1280×720 and a few MB.
// Its captions in both languages share their timing and cover the whole video, and the numbers
// they say agree with the suite the recording was made from (seeds/suites/metarank-local-v1).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readWebm } from "../support/webm.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOC = path.join(ROOT, "public/doc");
const video = readWebm(new Uint8Array(fs.readFileSync(path.join(DOC, "intro.webm"))));
const SUITE = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites/metarank-local-v1/suite.json"), "utf8")) as {
  tasks: string[];
  evaluation: { images: number; methods: unknown[] };
};

interface Cue {
  from: number;
  to: number;
  text: string;
}
const seconds = (t: string) => t.split(":").reduce((s, part) => s * 60 + Number(part), 0);
function cues(lang: string): Cue[] {
  const text = fs.readFileSync(path.join(DOC, `intro.${lang}.vtt`), "utf8");
  expect(text.startsWith("WEBVTT\n")).toBe(true);
  return [...text.matchAll(/^(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n([^\n]+)/gm)].map((m) => ({
    from: seconds(m[1]),
    to: seconds(m[2]),
    text: m[3],
  }));
}
const english = cues("en");
const chinese = cues("zh");

/** Frames of a VP9 stream that repeat the previous picture take a few dozen bytes; these do not. */
const CHANGED_FRAME_BYTES = 200;

describe("the documentation video", () => {
  it("is VP9 within 1280×720 and a few MB", () => {
    expect(video.codec).toBe("V_VP9");
    expect(video.width).toBeGreaterThan(0);
    expect(video.width).toBeLessThanOrEqual(1280);
    expect(video.height).toBeLessThanOrEqual(720);
    expect(fs.statSync(path.join(DOC, "intro.webm")).size).toBeLessThan(5 * 1024 * 1024);
    expect(video.durationS).toBeGreaterThan(30);
    expect(video.durationS).toBeLessThan(240);
  });

  it("has a constant frame rate over its whole duration", () => {
    const times = video.frames.map((f) => f.time);
    const steps = times.slice(1).map((t, i) => t - times[i]);
    const step = steps[0];
    expect(step).toBeGreaterThan(0);
    // Matroska stores milliseconds: 1/25 s is 40 ms, 1/30 s alternates 33 and 34.
    expect(Math.max(...steps) - Math.min(...steps)).toBeLessThanOrEqual(1);
    expect(video.frames.length * (step / 1000)).toBeCloseTo(video.durationS, 0);
  });

  it("is a recording: far more changing frames than steps, not one still per step", () => {
    const changing = video.frames.filter((f, i) => i > 0 && !f.key && f.bytes > CHANGED_FRAME_BYTES).length;
    expect(video.frames.length).toBeGreaterThan(20 * english.length);
    expect(changing).toBeGreaterThan(15 * english.length);
  });

  it("has captions in English and Chinese, cue for cue, covering the whole video", () => {
    expect(english.length).toBeGreaterThanOrEqual(6);
    expect(chinese.map((c) => [c.from, c.to])).toEqual(english.map((c) => [c.from, c.to]));
    expect(english[0].from).toBeLessThan(1);
    for (const [i, c] of english.entries()) {
      expect(c.to - c.from, c.text).toBeGreaterThanOrEqual(2);
      if (i > 0) expect(c.from).toBeCloseTo(english[i - 1].to, 3);
    }
    expect(Math.abs(english.at(-1)!.to - video.durationS)).toBeLessThan(0.5);
  });

  it("says the suite's numbers: tasks, cases, evaluation images, methods", () => {
    const text = english.map((c) => c.text).join("\n");
    const zh = chinese.map((c) => c.text).join("\n");
    const tasks = SUITE.tasks.length;
    const images = SUITE.evaluation.images;
    expect(text).toContain(`${tasks} tasks, ${tasks * 2} cases`);
    expect(text).toContain(`${images} evaluation images for each of the ${tasks} tasks`);
    expect(text).toContain(`${tasks * images} maps in all`);
    expect(text).toContain(`evaluates ${tasks * images} images`);
    // The board as seeded: the suite's baselines, all computed by the platform.
    expect(text).toContain(`${SUITE.evaluation.methods.length} methods on ${tasks} tasks`);
    expect(text).toMatch(new RegExp(`this platform \\(${SUITE.evaluation.methods.length}\\)`));
    // The run's own figures, the same in both languages.
    const done = text.match(/Done in ([\d.]+) s.*metascore (-?\d\.\d{4}), rank (\d+) of (\d+)/);
    expect(done).toBeTruthy();
    const [, secs, score, rank, total] = done!;
    expect(zh).toContain(`${secs} 秒完成`);
    expect(zh).toContain(`元分数 ${score}，排名 ${total} 个中的第 ${rank} 名`);
    expect(Number(rank)).toBeLessThanOrEqual(Number(total));
    expect(Number(total)).toBe(SUITE.evaluation.methods.length + 1);
  });
});
