// The captcha and what stands behind it (docs/security.md "Captcha"), on a stack with real, random
// captchas (no CAPTCHA_FIXED_ANSWER). A probe read 30 of 30 with a short script: svg-captcha draws
// each letter as a filled path whose drawing commands are the glyph's, whatever its place, size and
// colour. That script is below; the served picture is now pixels, so it reads nothing, and wrong
// answers are throttled per address. A person's way in still works with JavaScript (the proof of
// work, solved here as the page's script solves it) and without (up to the address's allowance of
// forms without the work); accounts per address and hour are capped.
import { createRequire } from "node:module";
import { QueryTypes, type Sequelize } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { solveWork, type WorkChallenge } from "../../app/lib/captchaWork.ts";
import { Client, alerts, location } from "../support/client.ts";
import { startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
let db: Sequelize;
beforeAll(async () => {
  // A small proof of work (the default's 4,000 is a second of CPU per form): the test checks the rule, not the cost.
  stack = await startStack({
    sidecar: false,
    env: { CAPTCHA_FIXED_ANSWER: "", CAPTCHA_NOSCRIPT_ANSWERS: "2", REGISTRATIONS_PER_HOUR: "4", CAPTCHA_WORK_MAX: "200" },
  });
  db = createSequelize(stack.dbUrl);
});
afterAll(async () => {
  await db?.close();
  await stack?.stop();
});

// ---- the probe's script: a table of glyph shapes made with svg-captcha itself, then lookup ----
// svg-captcha is callable (a given text's picture) besides its typed create(); its types name only create().
const svgCaptcha = createRequire(import.meta.url)("svg-captcha") as ((text: string, opts: object) => string) & {
  create(opts: object): { data: string; text: string };
};
const shape = (d: string) => d.replace(/[^A-Za-z]/g, "");
const letterPaths = (svg: string) => [...svg.matchAll(/<path fill="(?!none)[^"]*" d="([^"]+)"/g)].map((m) => m[1]);
const glyphs = new Map([..."abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"].map((ch) => [shape(letterPaths(svgCaptcha(ch, {}))[0]), ch]));
const x = (d: string) => Number(/^M([\d.]+)/.exec(d)![1]);
const readSvg = (svg: string) =>
  letterPaths(svg)
    .sort((a, b) => x(a) - x(b))
    .map((d) => glyphs.get(shape(d)) ?? "?")
    .join("");
/** What the script makes of a page's captcha picture (a data: URL). */
const readPicture = (dataUrl: string) => readSvg(Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64").toString("latin1"));

interface Shown {
  id: string;
  image: string;
  work: WorkChallenge;
}
/** The register form's captcha as a browser gets it: the picture, the id, and the work from the page's data. */
async function shown(c: Client): Promise<Shown> {
  const html = await c.html("/signin?tab=register");
  const id = html.match(/name="captchaId" value="([0-9a-f]+)"/)![1];
  const image = html.match(/<img src="(data:image\/[^"]+)" alt="verification code"/)![1];
  const work = JSON.parse(html.match(/data-work="([^"]+)"/)![1].replace(/&quot;/g, '"')) as WorkChallenge;
  return { id, image, work };
}
const rightAnswer = async (id: string) =>
  (await db.query<{ answer: string }>("SELECT answer FROM captchas WHERE id = ?", { replacements: [id], type: QueryTypes.SELECT }))[0].answer;

let n = 0;
function register(c: Client, captcha: Shown, answer: string, work: string) {
  const name = `captcha-user-${++n}`;
  return c.post("/signin", {
    intent: "register",
    account: name,
    pass: "secret-pass-1",
    checkPass: "secret-pass-1",
    phoneNumber: "13800138000",
    verificationCode: answer,
    captchaId: captcha.id,
    captchaWork: work,
    institute: "Test University",
    authority: "0",
  });
}
const users = async () => Number((await db.query<{ n: number }>("SELECT COUNT(*) AS n FROM users", { type: QueryTypes.SELECT }))[0].n);

describe(`captcha on ${process.env.TEST_DB}`, () => {
  it("the path-reading script reads svg-captcha's pictures but nothing in the served one; its guesses are throttled per address", async () => {
    // The script as the probe ran it, on pictures like the ones the page used to serve.
    const before = Array.from({ length: 10 }, () => svgCaptcha.create({ size: 4, noise: 2, ignoreChars: "0oO1ilI", color: true }));
    expect(before.filter((p) => readSvg(p.data).toLowerCase() === p.text.toLowerCase())).toHaveLength(10);

    const attacker = new Client(stack.baseUrl, "127.0.0.21");
    const users0 = await users();
    const said: string[] = [];
    for (let i = 0; i < 6; i++) {
      const captcha = await shown(attacker);
      expect(captcha.image.startsWith("data:image/png;base64,")).toBe(true);
      const guess = readPicture(captcha.image);
      expect(guess.replace(/\?/g, "")).toBe(""); // no letter found: pixels, no paths
      // The work is done, so only the picture's answer decides.
      const res = await register(attacker, captcha, guess || "abcd", String(await solveWork(captcha.work)));
      expect(res.status).toBe(400);
      said.push(alerts(await res.text()).join(" "));
    }
    expect(said.slice(0, 5)).toEqual(Array(5).fill("The verification code is wrong!"));
    expect(said[5]).toMatch(/^Too many wrong attempts\. Please try again in \d+ minute\(s\)\.$/);
    expect(await users()).toBe(users0);

    // A person elsewhere, with JavaScript: the right answer and the work.
    const person = new Client(stack.baseUrl, "127.0.0.22");
    const captcha = await shown(person);
    const res = await register(person, captcha, await rightAnswer(captcha.id), String(await solveWork(captcha.work)));
    expect(res.status).toBe(302);
    expect(location(res)).toMatch(/^\/signin\?tab=login&registered=1/);
  });

  it("without JavaScript (no work) an address gets its allowance of forms; a wrong number for the work is refused", async () => {
    const noScript = new Client(stack.baseUrl, "127.0.0.23");
    for (let i = 0; i < 2; i++) {
      const captcha = await shown(noScript);
      expect((await register(noScript, captcha, await rightAnswer(captcha.id), "")).status).toBe(302);
    }
    const third = await shown(noScript);
    const refused = await register(noScript, third, await rightAnswer(third.id), "");
    expect(refused.status).toBe(400);
    expect(alerts(await refused.text()).join(" ")).toMatch(/Too many forms were sent from your address without JavaScript/);
    // A made-up number is no way round it.
    const forged = await shown(noScript);
    expect((await register(noScript, forged, await rightAnswer(forged.id), "12345")).status).toBe(400);
    // With the work, the same address goes on.
    const withWork = await shown(noScript);
    expect((await register(noScript, withWork, await rightAnswer(withWork.id), String(await solveWork(withWork.work)))).status).toBe(302);
  });

  it("accounts per address and hour are capped; another address is not affected", async () => {
    const many = new Client(stack.baseUrl, "127.0.0.24");
    const statuses: number[] = [];
    let last = "";
    for (let i = 0; i < 5; i++) {
      const captcha = await shown(many);
      const res = await register(many, captcha, await rightAnswer(captcha.id), String(await solveWork(captcha.work)));
      statuses.push(res.status);
      last = await res.text();
    }
    expect(statuses).toEqual([302, 302, 302, 302, 400]);
    expect(last).toMatch(/Too many accounts were registered from your address\. Please try again in \d+ minute\(s\)\./);
    const other = new Client(stack.baseUrl, "127.0.0.25");
    const captcha = await shown(other);
    expect((await register(other, captcha, await rightAnswer(captcha.id), String(await solveWork(captcha.work)))).status).toBe(302);
  });
});
