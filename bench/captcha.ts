// What the captcha costs a script (docs/security.md "Captcha"), measured on this machine: (1) the
// probe's path-reading script on svg-captcha's SVG pictures (what the page used to serve) and on
// the PNG pictures it serves now; (2) OCR of the PNG pictures with Tesseract, when the `tesseract`
// command is installed (Debian: tesseract-ocr), as a stronger script would try; (3) the proof of
// work: seconds per captcha in Chromium (the page's own solver), in Node's WebCrypto (the same
// code), and with a native loop over OpenSSL's PBKDF2 on one core (the best a script without a GPU
// does here). Prints the figures docs/security.md's table is made from.
// Run: node --import tsx bench/captcha.ts [pictures=60] [challenges=30]
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import svgCaptcha from "svg-captcha";

process.env.SESSION_SECRET ??= crypto.randomBytes(32).toString("hex");
process.env.LOG_LEVEL = "silent";
const { jitterLetters, rasterise, workChallenge, WORK_MAX, WORK_ITERATIONS } = await import("../app/.server/captcha.server.ts");
const { solveWork } = await import("../app/lib/captchaWork.ts");

const PICTURES = Number(process.argv[2] ?? 60);
const CHALLENGES = Number(process.argv[3] ?? 30);
const OPTIONS = { size: 4, noise: 3, ignoreChars: "0oO1ilI", color: true, background: "#f4f6fb", width: 150, height: 50 };

// ---- (1) the probe's script ----
const callable = svgCaptcha as unknown as (text: string, opts: object) => string;
const shape = (d: string) => d.replace(/[^A-Za-z]/g, "");
const letterPaths = (svg: string) => [...svg.matchAll(/<path fill="(?!none)[^"]*" d="([^"]+)"/g)].map((m) => m[1]);
const glyphs = new Map([..."abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"].map((ch) => [shape(letterPaths(callable(ch, {}))[0]), ch]));
const x = (d: string) => Number(/^M([\d.]+)/.exec(d)![1]);
const readSvg = (svg: string) =>
  letterPaths(svg)
    .sort((a, b) => x(a) - x(b))
    .map((d) => glyphs.get(shape(d)) ?? "?")
    .join("");

const pics = Array.from({ length: PICTURES }, () => svgCaptcha.create(OPTIONS));
const svgRead = pics.filter((p) => readSvg(p.data).toLowerCase() === p.text.toLowerCase()).length;
// As the page draws them (app/.server/captcha.server.ts issueCaptcha); JITTER=0 draws them as before the letters were jittered.
const draw = (svg: string) => rasterise(process.env.JITTER === "0" ? svg : jitterLetters(svg));
const pngs = await Promise.all(pics.map((p) => draw(p.data)));
const pngRead = pngs.filter((png, i) => readSvg(png.toString("latin1")).toLowerCase() === pics[i].text.toLowerCase()).length;
console.log(`path-reading script: svg-captcha SVG ${svgRead}/${PICTURES}, served PNG ${pngRead}/${PICTURES}`);

// ---- (2) OCR ----
let tesseract = false;
try {
  execFileSync("tesseract", ["--version"], { stdio: "ignore" });
  tesseract = true;
} catch {
  console.log("OCR: tesseract is not installed (apt-get install tesseract-ocr); skipped");
}
if (tesseract) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "captcha-ocr-"));
  const sharp = (await import("sharp")).default;
  // As served, and after the clean-up a script would try first: a median filter against the
  // speckles, grey, stretched contrast, and a threshold that keeps the darker strokes.
  const variants: [string, (png: Buffer) => Promise<Buffer>][] = [
    ["as served", async (png) => png],
    ["median 3 + threshold", (png) => sharp(png).median(3).greyscale().normalise().threshold(200).png().toBuffer()],
  ];
  for (const [name, prepare] of variants) {
    let read = 0;
    const t0 = performance.now();
    for (const [i, png] of pngs.entries()) {
      const file = path.join(dir, `${i}.png`);
      fs.writeFileSync(file, await prepare(png));
      const out = execFileSync(
        "tesseract",
        [file, "-", "--psm", "7", "-c", "tessedit_char_whitelist=abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"],
        {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        },
      );
      if (out.replace(/\s/g, "").toLowerCase() === pics[i].text.toLowerCase()) read++;
    }
    console.log(
      `OCR (tesseract --psm 7, the captcha's letters only), ${name}: ${read}/${PICTURES} read, ${((performance.now() - t0) / PICTURES).toFixed(0)} ms each`,
    );
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

// ---- (2b) a reader trained on this code's own pictures ----
// svg-captcha puts letter i of 4 at a fixed centre (x = 29.6 × (i + 1), y = 25): a script cuts the
// picture into four slots and labels each by its nearest neighbour among slots of pictures it made
// itself with the same open-source code (their texts known). No network, a few dozen lines.
{
  const sharp = (await import("sharp")).default;
  const SLOT_W = 30;
  const slotsOf = async (png: Buffer): Promise<Float32Array[]> => {
    const { data } = await sharp(png).median(3).greyscale().resize(150, 50).raw().toBuffer({ resolveWithObject: true });
    return [0, 1, 2, 3].map((i) => {
      const cx = Math.round(29.6 * (i + 1));
      const v = new Float32Array(SLOT_W * 50);
      for (let y = 0; y < 50; y++) for (let x = 0; x < SLOT_W; x++) v[y * SLOT_W + x] = 255 - data[y * 150 + Math.min(149, Math.max(0, cx - SLOT_W / 2 + x))];
      let mean = 0;
      for (const a of v) mean += a / v.length;
      let norm = 0;
      for (let k = 0; k < v.length; k++) norm += (v[k] -= mean) ** 2;
      const scale = 1 / Math.sqrt(norm || 1);
      for (let k = 0; k < v.length; k++) v[k] *= scale;
      return v;
    });
  };
  const TRAIN = Number(process.env.CAPTCHA_BENCH_TRAIN ?? 3000);
  const t0 = performance.now();
  const train: { v: Float32Array; ch: string }[] = [];
  for (let i = 0; i < TRAIN; i++) {
    const p = svgCaptcha.create(OPTIONS);
    const vs = await slotsOf(await draw(p.data));
    vs.forEach((v, k) => train.push({ v, ch: p.text[k].toLowerCase() }));
  }
  const made = performance.now() - t0;
  let read = 0;
  let letters = 0;
  for (const [i, png] of pngs.entries()) {
    const guess = (await slotsOf(png))
      .map((v) => {
        let best = -Infinity;
        let ch = "?";
        for (const t of train) {
          let dot = 0;
          for (let k = 0; k < v.length; k++) dot += v[k] * t.v[k];
          if (dot > best) [best, ch] = [dot, t.ch];
        }
        return ch;
      })
      .join("");
    const truth = pics[i].text.toLowerCase();
    if (guess === truth) read++;
    for (let k = 0; k < 4; k++) if (guess[k] === truth[k]) letters++;
  }
  console.log(
    `nearest-neighbour slots, trained on ${TRAIN} pictures made with this code (${(made / 1000).toFixed(0)} s): ${read}/${PICTURES} read, ${letters}/${PICTURES * 4} letters`,
  );
}

// ---- (3) the proof of work ----
const challenges = Array.from({ length: CHALLENGES }, () => workChallenge(crypto.randomBytes(16).toString("hex")));
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `mean ${(s.reduce((a, b) => a + b, 0) / s.length / 1000).toFixed(2)} s, median ${(s[s.length >> 1] / 1000).toFixed(2)} s, max ${(s[s.length - 1] / 1000).toFixed(2)} s`;
};
console.log(`proof of work: PBKDF2-SHA-256, ${WORK_ITERATIONS} rounds, number in [0, ${WORK_MAX}), ${CHALLENGES} challenges`);

const native: number[] = [];
for (const c of challenges) {
  const t0 = performance.now();
  for (let n = 0; n < c.max; n++) if (crypto.pbkdf2Sync(c.salt, String(n), c.iterations, 32, "sha256").toString("hex") === c.target) break;
  native.push(performance.now() - t0);
}
const meanNative = native.reduce((a, b) => a + b, 0) / native.length / 1000;
console.log(`  native loop (OpenSSL, one core): ${stats(native)} → ${Math.round(3600 / meanNative)} captchas per core-hour`);

const node: number[] = [];
for (const c of challenges) {
  const t0 = performance.now();
  await solveWork(c);
  node.push(performance.now() - t0);
}
console.log(`  the page's solver in Node's WebCrypto: ${stats(node)}`);

try {
  const { launchBrowser } = await import("../tests/e2e/browser.ts");
  // 127.0.0.1 is a secure context, so the page has WebCrypto as it has on the real site.
  const server = http.createServer((_req, res) => res.end("<!doctype html><title>bench</title>"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    const chromium: number[] = [];
    for (const c of challenges) {
      const ms = await page.evaluate(
        async ([source, challenge]) => {
          // tsx's transform names functions through a helper (__name) the page does not have.
          const solve = new Function("__name", `return (${source})`)((f: unknown) => f) as (c: unknown) => Promise<number | null>;
          const t0 = performance.now();
          if ((await solve(challenge)) === null) throw new Error("not solved");
          return performance.now() - t0;
        },
        [solveWork.toString(), c] as const,
      );
      chromium.push(ms);
    }
    console.log(`  the page's solver in Chromium (headless): ${stats(chromium)}`);
  } finally {
    await browser.close();
    server.close();
  }
} catch (err) {
  console.log(`  Chromium: skipped (${(err as Error).message.split("\n")[0]})`);
}
