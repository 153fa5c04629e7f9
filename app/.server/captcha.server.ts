import crypto from "node:crypto";
import svgCaptcha from "svg-captcha";
import { Op } from "sequelize";
import { Captcha } from "./db.server.ts";
import { fixedCaptchaAnswer } from "./env.server.ts";

const TTL_MS = 5 * 60_000;

export interface IssuedCaptcha {
  id: string;
  /** data: URL of the SVG picture; the answer itself stays on the server. */
  image: string;
}

export async function issueCaptcha(): Promise<IssuedCaptcha> {
  const pic = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: "0oO1ilI", color: true, background: "#f4f6fb" });
  const id = crypto.randomBytes(16).toString("hex");
  const answer = fixedCaptchaAnswer() ?? pic.text;
  await Captcha.create({ id, answer: answer.toLowerCase(), expiresAt: new Date(Date.now() + TTL_MS) });
  // Old rows are swept opportunistically so the table stays small without a cron job.
  if (Math.random() < 0.05) await Captcha.destroy({ where: { expiresAt: { [Op.lt]: new Date() } } });
  return { id, image: `data:image/svg+xml;base64,${Buffer.from(pic.data).toString("base64")}` };
}

/**
 * Single use: the row is deleted whatever the answer, so a captcha can neither be
 * replayed after success nor brute-forced after a failure.
 */
export async function consumeCaptcha(id: string, answer: string): Promise<boolean> {
  if (!id || !answer) return false;
  const row = await Captcha.findByPk(id);
  if (!row) return false;
  const deleted = await Captcha.destroy({ where: { id } });
  if (deleted !== 1) return false; // someone else consumed it concurrently
  return row.expiresAt.getTime() > Date.now() && row.answer === answer.trim().toLowerCase();
}
