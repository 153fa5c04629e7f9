// Regenerates the documentation video (public/doc/intro.webm) from real screens of the platform:
// a fresh stack (tests/support/stack.ts: migrated, seeded, the sidecar running) is opened in
// Debian's Chromium, each step's page is captured, and ffmpeg joins the frames into a VP9 WebM.
// Captions in both languages (intro.en.vtt, intro.zh.vtt) are written from the same step list,
// so text and pictures cannot drift apart. Run: make doc-video (needs Debian's ffmpeg).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startStack } from "../tests/support/stack.ts";
import { launchBrowser } from "../tests/e2e/browser.ts";
import { userClient } from "../tests/support/accounts.ts";

const OUT = path.resolve("public/doc");
const SECONDS_PER_FRAME = 3;

interface Step {
  path: string;
  /** CSS selector scrolled into view before the capture */
  scrollTo?: string;
  en: string;
  zh: string;
}

const STEPS: Step[] = [
  {
    path: "/homepage",
    en: "Meta-Rank ranks attribution methods by one metascore over many datasets, models and removal orders.",
    zh: "Meta-Rank 用一个元分数在多个数据集、模型和移除顺序上对归因方法排名。",
  },
  {
    path: "/document#concepts",
    en: "Faithfulness is measured by removal: most relevant patches first (MoRF) or least relevant first (LeRF).",
    zh: "忠实性通过移除来度量：最相关的图像块先移除（MoRF）或最不相关的先移除（LeRF）。",
  },
  {
    path: "/Algorithm",
    en: "The tutorial gives the evaluation settings and generates the commands for the chosen tasks.",
    zh: "教程给出评估设置，并为所选任务生成命令。",
  },
  {
    path: "/leaderboard?suite=metarank-local",
    en: "The leaderboard: each method's metascore on the platform's own suite, overall and per removal order.",
    zh: "排行榜：每种方法在平台自有评测集上的元分数，包括总体和各移除顺序。",
  },
  {
    path: "/leaderboard?suite=metarank-local",
    scrollTo: "#inconsistency-title",
    en: "Each case ranks the methods differently: the rank heatmap and Kendall's τ between cases show how much.",
    zh: "每个情形对方法的排名各不相同：名次热力图和情形之间的 Kendall τ 显示了差异有多大。",
  },
  { path: "/datasetPreview", en: "The datasets the models were trained and evaluated on, with real samples.", zh: "模型训练和评估所用的数据集，附真实样例。" },
  { path: "/demos", en: "Live demos explain a model's prediction on a picture you choose.", zh: "在线演示针对您选择的图片解释模型的预测。" },
  {
    path: "/submission",
    en: "Signed-in researchers upload their MoRF and LeRF files, see their metascore and rank, and submit.",
    zh: "登录的研究者上传 MoRF 和 LeRF 文件，查看元分数与排名，然后提交。",
  },
];

const vttTime = (s: number) => `00:${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}.000`;
function vtt(lang: "en" | "zh"): string {
  return (
    "WEBVTT\n\n" + STEPS.map((st, i) => `${i + 1}\n${vttTime(i * SECONDS_PER_FRAME)} --> ${vttTime((i + 1) * SECONDS_PER_FRAME)}\n${st[lang]}\n`).join("\n")
  );
}

const stack = await startStack({ db: "sqlite" });
const browser = await launchBrowser();
const frames = fs.mkdtempSync(path.join(os.tmpdir(), "doc-video-"));
try {
  const ctx = await browser.newContext({ baseURL: stack.baseUrl, viewport: { width: 1280, height: 720 }, extraHTTPHeaders: { "Accept-Language": "en" } });
  // A signed-in researcher (the submission step), signed in the way the tests do.
  const researcher = await userClient(stack.baseUrl, "video-researcher");
  const host = new URL(stack.baseUrl).hostname;
  await ctx.addCookies([...researcher.cookies].map(([name, value]) => ({ name, value, domain: host, path: "/" })));
  const page = await ctx.newPage();
  for (const [i, step] of STEPS.entries()) {
    await page.goto(step.path, { waitUntil: "networkidle" });
    if (step.scrollTo) await page.locator(step.scrollTo).scrollIntoViewIfNeeded();
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(frames, `frame-${String(i).padStart(2, "0")}.png`) });
  }
  // One frame per step, held SECONDS_PER_FRAME seconds (ffmpeg's concat demuxer with durations).
  const list = STEPS.map((_, i) => `file '${path.join(frames, `frame-${String(i).padStart(2, "0")}.png`)}'\nduration ${SECONDS_PER_FRAME}`).join("\n");
  fs.writeFileSync(path.join(frames, "list.txt"), `${list}\nfile '${path.join(frames, `frame-${String(STEPS.length - 1).padStart(2, "0")}.png`)}'\n`);
  execFileSync(
    "ffmpeg",
    [
      "-y",
      "-loglevel",
      "error",
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      path.join(frames, "list.txt"),
      "-vf",
      "fps=10,format=yuv420p",
      "-c:v",
      "libvpx-vp9",
      "-b:v",
      "0",
      "-crf",
      "40",
      "-row-mt",
      "1",
      path.join(OUT, "intro.webm"),
    ],
    { stdio: "inherit" },
  );
  fs.copyFileSync(path.join(frames, "frame-00.png"), path.join(OUT, "intro-poster.png"));
  fs.writeFileSync(path.join(OUT, "intro.en.vtt"), vtt("en"));
  fs.writeFileSync(path.join(OUT, "intro.zh.vtt"), vtt("zh"));
  console.log(`wrote ${path.join(OUT, "intro.webm")} (${STEPS.length} steps, ${STEPS.length * SECONDS_PER_FRAME} s) with English and Chinese captions`);
} finally {
  await browser.close();
  await stack.stop();
  fs.rmSync(frames, { recursive: true, force: true });
}
