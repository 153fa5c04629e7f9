// The captcha of the log-in and registration forms, and what stands behind it (docs/security.md
// "Captcha"). svg-captcha's SVG drew each letter as a path whose shape names the letter, so a
// 15-line script read 30 of 30. No captcha a person can read is beyond OCR, so the captcha is one
// of three costs a script pays per try, and the one that is not a throttle:
//
// 1. The picture is a PNG drawn here: svg-captcha's letters turned, scaled and moved one by one,
//    rasterised by sharp, then speckled with noise, so there is no path or text left to read,
//    only pixels, and no letter where the same code's own pictures would have it.
// 2. A proof of work (app/lib/captchaWork.ts): a page with JavaScript finds a number while the
//    person types; the server derived that number from the captcha's id with an HMAC, so checking
//    it costs nothing and nothing more is stored. A form sent without it (no JavaScript) is
//    allowed NOSCRIPT_ANSWERS times per address in 15 minutes, enough for a person; a script that
//    skips the work meets that limit instead.
// 3. Throttles (app/.server/throttle.server.ts): every log-in is counted per account and address
//    and per address; on registration every wrong answer counts per address, and accounts per
//    address per hour are capped (app/.server/auth.server.ts).
//
// altcha-lib and @cap.js/server were looked at: both sign stateless challenges so that a server
// need store nothing; here each captcha already has a single-use row with its expiry, so the
// challenge's number is derived from the row's id and no signature or second store is needed.
import crypto from "node:crypto";
import sharp from "sharp";
import svgCaptcha from "svg-captcha";
import { Op } from "sequelize";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { WorkChallenge } from "~/lib/captchaWork.ts";
import { Captcha } from "./db.server.ts";
import { fixedCaptchaAnswer, sessionSecret } from "./env.server.ts";
import { addressOf, requestCounter } from "./throttle.server.ts";

const TTL_MS = 5 * 60_000;

/** The picture's size in CSS pixels; it is drawn at twice that for high-density screens. */
export const CAPTCHA_WIDTH = 150;
export const CAPTCHA_HEIGHT = 50;

/**
 * The proof of work's size: a browser on the development machine (Chromium, two cores) finds the
 * number in about 0.7 s on average, while the person reads the picture (bench/captcha.ts
 * measures it, and what a script pays: docs/security.md "Captcha").
 */
export const WORK_ITERATIONS = 1000;
export const WORK_MAX = Number(process.env.CAPTCHA_WORK_MAX) || 4000;

/** Forms sent without the proof of work (JavaScript off) per address in 15 minutes. */
export const NOSCRIPT_ANSWERS = Number(process.env.CAPTCHA_NOSCRIPT_ANSWERS) || 10;
export const NOSCRIPT_WINDOW_S = 15 * 60;

export interface IssuedCaptcha {
  id: string;
  /** data: URL of the PNG picture; the answer itself stays on the server. */
  image: string;
  /** The proof of work the page's script solves (app/lib/captchaWork.ts). */
  work: WorkChallenge;
}

/** The number the proof of work must find: derived from the id with a server key, so it is not stored. */
let workKey: string | null = null;
function workNumber(id: string): number {
  // The session secret is the same in every web process (SESSION_SECRET or var/session.secret).
  workKey ??= sessionSecret();
  const mac = crypto.createHmac("sha256", workKey).update(`captcha-work:${id}`).digest();
  return mac.readUInt32BE(0) % WORK_MAX;
}

export function workChallenge(id: string): WorkChallenge {
  const target = crypto.pbkdf2Sync(id, String(workNumber(id)), WORK_ITERATIONS, 32, "sha256").toString("hex");
  return { salt: id, target, max: WORK_MAX, iterations: WORK_ITERATIONS };
}

/**
 * svg-captcha's picture as pixels: rendered at twice its size, then about one pixel in twelve
 * replaced by a random colour. Letters stay readable to people (the speckles are fine and
 * scattered); nothing in the file says where a letter is or which.
 */
export async function rasterise(svg: string): Promise<Buffer> {
  const scale = 2;
  const { data, info } = await sharp(Buffer.from(svg), { density: 72 * scale })
    .resize(CAPTCHA_WIDTH * scale, CAPTCHA_HEIGHT * scale, { fit: "fill" })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const noise = crypto.randomBytes(info.width * info.height * 4);
  for (let px = 0, i = 0; px < info.width * info.height; px++, i += info.channels) {
    if (noise[px * 4] < 21) for (let c = 0; c < 3; c++) data[i + c] = noise[px * 4 + 1 + c];
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** A random number in [lo, hi) from the CSPRNG: the picture's jitter must not be predictable. */
const uniform = (lo: number, hi: number) => lo + (crypto.randomInt(1_000_000) / 1_000_000) * (hi - lo);

/**
 * svg-captcha puts letter i at a fixed centre, upright and the same size: a script that cuts the
 * picture into four slots and compares each with slots of pictures it made itself with this same
 * (open-source) code read 49–53 of 60 (bench/captcha.ts); with this jitter, 2 of 60. Each letter
 * is turned (±28°), scaled (0.85–1.15) and moved (±7 px across, ±4 px down) about its own centre
 * before the picture is drawn.
 */
export function jitterLetters(svg: string): string {
  return svg.replace(/<path fill="(?!none)[^"]*" d="([^"]+)"\/>/g, (letter: string, d: string) => {
    const nums = (d.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
    const xs = nums.filter((_, i) => i % 2 === 0);
    const ys = nums.filter((_, i) => i % 2 === 1);
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    const t = `translate(${(cx + uniform(-7, 7)).toFixed(1)} ${(cy + uniform(-4, 4)).toFixed(1)}) rotate(${uniform(-28, 28).toFixed(1)}) scale(${uniform(0.85, 1.15).toFixed(2)}) translate(${(-cx).toFixed(1)} ${(-cy).toFixed(1)})`;
    return `<g transform="${t}">${letter}</g>`;
  });
}

export async function issueCaptcha(): Promise<IssuedCaptcha> {
  const pic = svgCaptcha.create({
    size: 4,
    noise: 3,
    ignoreChars: "0oO1ilI",
    color: true,
    background: "#f4f6fb",
    width: CAPTCHA_WIDTH,
    height: CAPTCHA_HEIGHT,
  });
  const id = crypto.randomBytes(16).toString("hex");
  const answer = fixedCaptchaAnswer() ?? pic.text;
  await Captcha.create({ id, answer: answer.toLowerCase(), expiresAt: new Date(Date.now() + TTL_MS) });
  // Old rows are swept opportunistically so the table stays small without a cron job.
  if (Math.random() < 0.05) await Captcha.destroy({ where: { expiresAt: { [Op.lt]: new Date() } } });
  const png = await rasterise(jitterLetters(pic.data));
  return { id, image: `data:image/png;base64,${png.toString("base64")}`, work: workChallenge(id) };
}

let noscriptCounter: RateLimiterAbstract | null = null;

/** What a checked captcha comes to: right, wrong, or refused for the address's no-JavaScript allowance. */
export type CaptchaCheck = { ok: true } | { ok: false; waitS?: number };

export interface CaptchaAnswer {
  id: string;
  answer: string;
  /** The proof of work's number as the page's script sent it; empty without JavaScript. */
  work?: string;
  /** The sender's address (the no-JavaScript allowance is per address). */
  ip: string;
}

/**
 * Single use: the row is deleted whatever the answer, so a captcha can neither be replayed after
 * success nor brute-forced after a failure. With the proof of work the number must be the right
 * one; without it, one of the address's no-JavaScript answers is spent first (counted before the
 * answer is checked, so parallel forms cannot pass together). The test hook
 * CAPTCHA_FIXED_ANSWER (never in production) lets forms without the work through uncounted.
 */
export async function consumeCaptcha({ id, answer, work = "", ip }: CaptchaAnswer): Promise<CaptchaCheck> {
  if (!id || !answer || id.length > 64) return { ok: false };
  const row = await Captcha.findByPk(id);
  if (!row) return { ok: false };
  const deleted = await Captcha.destroy({ where: { id } });
  if (deleted !== 1) return { ok: false }; // someone else consumed it concurrently
  if (work) {
    if (!/^\d{1,10}$/.test(work) || Number(work) !== workNumber(id)) return { ok: false };
  } else if (!fixedCaptchaAnswer()) {
    noscriptCounter ??= requestCounter("captcha-noscript", NOSCRIPT_ANSWERS, NOSCRIPT_WINDOW_S);
    const state = await noscriptCounter.penalty(addressOf(ip), 1);
    if (state.consumedPoints > NOSCRIPT_ANSWERS) return { ok: false, waitS: Math.ceil(state.msBeforeNext / 1000) };
  }
  return { ok: row.expiresAt.getTime() > Date.now() && row.answer === answer.trim().toLowerCase() };
}
