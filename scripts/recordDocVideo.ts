// Regenerates the documentation video (public/doc/intro.webm): a continuous screen recording of a
// new researcher's first visit, made on a fresh stack (tests/support/stack.ts: migrated, seeded,
// the sidecar running) in Debian's Chromium. Playwright moves the mouse, clicks, types and
// scrolls at a human pace through homepage → tutorial → leaderboard → classification demo →
// verified evaluation of a maps.zip written by the tutorial's own numpy script → history.
// Frames come from the DevTools screencast (Page.startScreencast: JPEG frames with timestamps;
// Playwright's recordVideo needs its bundled ffmpeg, which Debian does not ship), and Debian's
// ffmpeg turns them into a constant-frame-rate VP9 WebM, each frame held until the next one came.
// Captions in both languages (intro.en.vtt, intro.zh.vtt) start when their step started in the
// recording, and every number they say is read from the data while recording (suite.json, the
// board's API, the demo's and the run's own results). Run: make doc-video (needs Debian's ffmpeg).
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CDPSession, Locator, Page } from "playwright-core";
import { ROOT, startStack } from "../tests/support/stack.ts";
import { launchBrowser } from "../tests/e2e/browser.ts";
import { userClient } from "../tests/support/accounts.ts";
import { CLASSIFICATION_ALGORITHMS } from "../app/.server/classification.server.ts";

const OUT = path.join(ROOT, "public/doc");
const SUITE = "metarank-local-v1";
const SUITE_JSON = JSON.parse(fs.readFileSync(path.join(ROOT, "seeds/suites", SUITE, "suite.json"), "utf8")) as {
  name: string;
  tasks: string[];
  evaluation: { images: number };
};
const WIDTH = 1280;
const HEIGHT = 720;
const FPS = 25;
/** Waiting for the queue is shown faster than real time, at most this many seconds of video. */
const MAX_WAIT_SHOWN_S = 8;
const METHOD = "Sobel edges (numpy)";
/** The demo's choice, and the registry's name for it (what the captions call it). */
const DEMO_ALGORITHM = CLASSIFICATION_ALGORITHMS.find((a) => a.value === "IG")!;

const TAG = `${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "doc-video-"));
const FRAMES = path.join(TMP, "frames");
const UPLOAD_DIR = path.join(ROOT, "var/test", `uploads_video_${TAG}`);
const EVALUATION_DIR = path.join(ROOT, "var/test", `evaluations_video_${TAG}`);
fs.mkdirSync(FRAMES);

interface Frame {
  file: string;
  /** seconds, wall clock */
  at: number;
}
interface Caption {
  at: number;
  en: string;
  zh: string;
}
/** A stretch of the recording played faster (the wait for the evaluation queue). */
interface FastForward {
  from: number;
  to: number;
  factor: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => Date.now() / 1000;

/** The screencast: every frame Chromium paints, written to disk with its timestamp. */
async function startScreencast(cdp: CDPSession, frames: Frame[]): Promise<() => Promise<void>> {
  let pending = Promise.resolve();
  cdp.on("Page.screencastFrame", (f) => {
    // The frame's own timestamp (seconds since the epoch) when Chromium gives one, else arrival.
    const stamp = f.metadata.timestamp;
    const at = stamp && Math.abs(stamp - now()) < 5 ? stamp : now();
    const file = path.join(FRAMES, `f${String(frames.length).padStart(6, "0")}.jpg`);
    frames.push({ file, at });
    pending = pending.then(() => fs.promises.writeFile(file, Buffer.from(f.data, "base64")));
    // Chromium sends the next frame only after this one is acknowledged.
    cdp.send("Page.screencastFrameAck", { sessionId: f.sessionId }).catch(() => undefined);
  });
  await cdp.send("Page.startScreencast", { format: "jpeg", quality: 80, maxWidth: WIDTH, maxHeight: HEIGHT, everyNthFrame: 1 });
  return async () => {
    await cdp.send("Page.stopScreencast").catch(() => undefined);
    await pending;
  };
}

/** A visible pointer: headless Chromium paints none, so the page draws one where the mouse is. */
const CURSOR_SCRIPT = `
(() => {
  const install = () => {
    if (document.getElementById("doc-video-cursor")) return;
    const c = document.createElement("div");
    c.id = "doc-video-cursor";
    c.setAttribute("aria-hidden", "true");
    c.style.cssText = "position:fixed;left:0;top:0;width:22px;height:22px;margin:-11px 0 0 -11px;border-radius:50%;" +
      "background:rgba(220,38,38,.35);border:2px solid rgba(220,38,38,.9);pointer-events:none;z-index:2147483647;" +
      "transition:transform .12s;transform:translate(var(--x,-50px),var(--y,-50px))";
    // React hydrates the whole document and drops nodes it did not render: put it back when gone.
    const attach = () => { if (!c.isConnected && document.body) document.body.appendChild(c); };
    attach();
    setInterval(attach, 100);
    const pos = JSON.parse(sessionStorage.getItem("doc-video-cursor") || "[-50,-50]");
    c.style.setProperty("--x", pos[0] + "px"); c.style.setProperty("--y", pos[1] + "px");
    addEventListener("mousemove", (e) => {
      attach();
      c.style.setProperty("--x", e.clientX + "px"); c.style.setProperty("--y", e.clientY + "px");
      sessionStorage.setItem("doc-video-cursor", JSON.stringify([e.clientX, e.clientY]));
    }, true);
    addEventListener("mousedown", () => (c.style.background = "rgba(220,38,38,.8)"), true);
    addEventListener("mouseup", () => (c.style.background = "rgba(220,38,38,.35)"), true);
  };
  if (document.body) install(); else addEventListener("DOMContentLoaded", install);
})();
`;

/** Mouse, keyboard and wheel at a person's pace. */
class Person {
  private x = WIDTH / 2;
  private y = HEIGHT / 2;
  constructor(private page: Page) {}

  async move(x: number, y: number) {
    const steps = Math.max(8, Math.round(Math.hypot(x - this.x, y - this.y) / 12));
    await this.page.mouse.move(x, y, { steps });
    [this.x, this.y] = [x, y];
  }

  /** Scrolls with the wheel until the element sits in the upper part of the viewport. */
  async scrollTo(target: Locator, topShare = 0.25) {
    await target.waitFor();
    for (let i = 0; i < 60; i++) {
      const box = await target.boundingBox();
      if (!box) break;
      const goal = HEIGHT * topShare;
      const delta = box.y - goal;
      if (Math.abs(delta) < 40) break;
      const before = await this.page.evaluate(() => scrollY);
      await this.page.mouse.wheel(0, Math.sign(delta) * Math.min(Math.abs(delta), 110));
      await sleep(60);
      if ((await this.page.evaluate(() => scrollY)) === before) break; // the page's end
    }
    await sleep(400);
  }

  async point(target: Locator) {
    await target.waitFor();
    let box = await target.boundingBox();
    if (!box || box.y < 0 || box.y + box.height > HEIGHT) {
      await this.scrollTo(target, 0.4);
      box = await target.boundingBox();
    }
    if (!box) throw new Error("element has no box");
    await this.move(box.x + box.width / 2, box.y + box.height / 2);
    await sleep(250);
  }

  async click(target: Locator) {
    await this.point(target);
    await target.click();
    await sleep(500);
  }

  async type(target: Locator, text: string) {
    await this.click(target);
    await target.fill("");
    await target.pressSequentially(text, { delay: 55 });
    await sleep(300);
  }

  async select(target: Locator, option: { label?: string; value?: string }) {
    await this.point(target);
    await target.selectOption(option);
    await sleep(600);
  }
}

const mapTime = (t: number, start: number, fast: FastForward[]) => {
  let out = t - start;
  for (const f of fast) {
    const inside = Math.min(t, f.to) - f.from;
    if (inside > 0) out -= inside * (1 - 1 / f.factor);
  }
  return out;
};

const vttTime = (s: number) => {
  const ms = Math.round(s * 1000);
  const hh = Math.floor(ms / 3_600_000);
  const mm = Math.floor(ms / 60_000) % 60;
  const ss = Math.floor(ms / 1000) % 60;
  return `${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}:${String(ss).padStart(2, "0")}.${String(ms % 1000).padStart(3, "0")}`;
};
function vtt(captions: { from: number; to: number; text: string }[]): string {
  return "WEBVTT\n\n" + captions.map((c, i) => `${i + 1}\n${vttTime(c.from)} --> ${vttTime(c.to)}\n${c.text}\n`).join("\n");
}

/** Opens a page the way a click would leave it: hydrated (handlers attached) and its fonts loaded. */
async function open(page: Page, url: string) {
  await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
  await page.evaluate(() => document.fonts.ready);
}

const decode = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

const stack = await startStack({
  db: "sqlite",
  env: { EVALUATION_WORKERS: "2", UPLOAD_DIR, EVALUATION_DIR, SEED_FASHION_MNIST_PICTURES: "40", SEED_SCENES_PICTURES: "20" },
});
const browser = await launchBrowser();
try {
  // Before the camera runs: the researcher's account, the kit, and maps.zip from the tutorial's
  // script exactly as /Algorithm prints it (the download itself takes a while and shows nothing).
  const researcher = await userClient(stack.baseUrl, "new-researcher");
  const kit = await researcher.get(`/suites/${SUITE}/kit.zip`);
  if (kit.status !== 200) throw new Error(`kit.zip: HTTP ${kit.status}`);
  fs.writeFileSync(path.join(TMP, `${SUITE}-kit.zip`), Buffer.from(await kit.arrayBuffer()));
  execFileSync("python3", [
    "-c",
    "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
    path.join(TMP, `${SUITE}-kit.zip`),
    path.join(TMP, "kit"),
  ]);
  const tutorialHtml = decode(await researcher.html(`/Algorithm?suite=${SUITE}`));
  const script = tutorialHtml.match(/data-testid="maps-script">([\s\S]*?)<\/pre>/)?.[1];
  if (!script) throw new Error("the tutorial prints no maps script");
  fs.writeFileSync(path.join(TMP, "tutorial_maps.py"), script);
  execFileSync("python3", ["tutorial_maps.py"], { cwd: TMP });
  const mapsZip = path.join(TMP, "maps.zip");

  // The numbers the captions say, from the data as it is now.
  const tasks = SUITE_JSON.tasks.length;
  const imagesPerTask = SUITE_JSON.evaluation.images;
  const board = (await (await researcher.get(`/api/v1/suites/${SUITE}/board`)).json()) as { rows: { source: string | null }[] };
  const methods = board.rows.length;
  const bySource = (s: string) => board.rows.filter((r) => r.source === s).length;

  const ctx = await browser.newContext({
    baseURL: stack.baseUrl,
    viewport: { width: WIDTH, height: HEIGHT },
    deviceScaleFactor: 1,
    extraHTTPHeaders: { "Accept-Language": "en" },
  });
  await ctx.addCookies([...researcher.cookies].map(([name, value]) => ({ name, value, url: stack.baseUrl })));
  await ctx.addInitScript(CURSOR_SCRIPT);
  const page = await ctx.newPage();
  const me = new Person(page);
  const frames: Frame[] = [];
  const captions: Caption[] = [];
  const fast: FastForward[] = [];
  const say = (en: string, zh: string) => captions.push({ at: now(), en, zh });

  // The homepage is loaded before the camera starts, so the recording opens on a painted page.
  await open(page, "/homepage");
  const cdp = await page.context().newCDPSession(page);
  const stop = await startScreencast(cdp, frames);
  const start = now();

  // 1. Homepage.
  say(
    `Meta-Rank ranks attribution methods by one metascore: ${methods} methods on ${tasks} tasks, ${tasks * 2} cases (MoRF and LeRF each).`,
    `Meta-Rank 用一个元分数对归因方法排名：${methods} 种方法，${tasks} 个任务，${tasks * 2} 个情形（各含 MoRF 和 LeRF）。`,
  );
  await sleep(1500);
  await me.point(page.getByTestId("board-coverage"));
  await sleep(2000);
  await me.click(page.locator(".hero-actions a[href='/Algorithm']"));
  await page.waitForURL(/\/Algorithm/);

  // 2. Tutorial: the kit and the numpy script.
  say(
    `The tutorial: “Evaluate your method” — download the kit with ${imagesPerTask} evaluation images for each of the ${tasks} tasks.`,
    `教程：“评估您的方法”——下载评测包，其中 ${tasks} 个任务各有 ${imagesPerTask} 张评测图像。`,
  );
  await sleep(800);
  await me.scrollTo(page.locator("#evaluate"), 0.12);
  await me.point(page.getByTestId("kit-link"));
  await sleep(1800);
  say(
    `Its numpy script writes one map per image into maps.zip: ${tasks * imagesPerTask} maps in all.`,
    `教程的 numpy 脚本为每张图像写一张归因图到 maps.zip：共 ${tasks * imagesPerTask} 张。`,
  );
  await me.scrollTo(page.getByTestId("maps-script"), 0.15);
  await me.point(page.getByTestId("maps-script"));
  await sleep(2500);

  // 3. Leaderboard and its Source column.
  await me.scrollTo(page.locator("body"), 0);
  await page.evaluate(() => scrollTo({ top: 0, behavior: "smooth" }));
  await sleep(700);
  await me.click(page.locator("header a[href='/leaderboard'], nav a[href='/leaderboard']").first());
  await page.waitForURL(/\/leaderboard/);
  say(
    `The leaderboard: ${methods} methods. Source says who computed each row: this platform (${bySource("platform")}), verified from uploaded maps (${bySource("verified")}) or self-reported (${bySource("self-reported")}).`,
    `排行榜：${methods} 种方法。“来源”一列说明每行由谁计算：本平台（${bySource("platform")}）、由上传的归因图验证（${bySource("verified")}）或自报（${bySource("self-reported")}）。`,
  );
  const overall = page.getByTestId("board-overall");
  await me.scrollTo(overall, 0.1);
  await me.point(overall.locator("td[data-source]").first());
  await sleep(2500);

  // 4. The classification demo.
  await open(page, "/UserImgclassification");
  say(
    "A demo: choose a dataset and a picture, then a model and a method, and see which pixels the prediction rests on.",
    "演示：选择数据集和图片，再选模型和方法，查看预测依据的是哪些像素。",
  );
  await sleep(800);
  await me.type(page.getByLabel("Search text"), "fashion");
  await me.click(page.getByRole("button", { name: "Search" }));
  await page.waitForURL(/q=fashion/);
  await me.click(page.locator(".ds-preview").first().getByRole("link", { name: "Select" }));
  await page.waitForURL(/dataset=\d+/);
  await me.click(page.getByTestId("image-grid").locator(".ds-tile a").nth(3));
  await page.waitForURL(/picture=\d+/);
  const model = page.locator("#model");
  const modelLabel = (await model.locator("option").allInnerTexts()).find((o) => /ResNet/i.test(o)) ?? (await model.locator("option").nth(1).innerText());
  await me.select(model, { label: modelLabel });
  await me.select(page.locator("#algorithm"), { value: DEMO_ALGORITHM.value });
  await me.click(page.getByRole("button", { name: "Start inference" }));
  await page.waitForURL(/result=\d+/, { timeout: 180_000 });
  const heatmap = page.getByTestId("heatmap");
  await heatmap.waitFor();
  await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await heatmap.elementHandle());
  const predicted = (await page.getByTestId("predicted").first().innerText()).trim().split("\n")[0];
  const probability = (
    await page
      .getByTestId("probability")
      .innerText()
      .catch(() => "")
  ).trim();
  const modelName = modelLabel.trim();
  say(
    `${modelName} predicts “${predicted}”${probability ? ` (${probability})` : ""}; ${DEMO_ALGORITHM.method}'s heatmap shows the pixels behind it.`,
    `${modelName} 预测为“${predicted}”${probability ? `（${probability}）` : ""}；${DEMO_ALGORITHM.method} 的热力图显示了其依据的像素。`,
  );
  await me.scrollTo(heatmap, 0.3);
  await me.point(heatmap);
  await sleep(3000);

  // 5. Verified evaluation of the tutorial's maps.zip.
  await open(page, `/submission?suite=${SUITE}`);
  const section = page.getByTestId("verified-evaluation");
  say(
    `Submission: upload the maps.zip; the platform evaluates ${tasks * imagesPerTask} images itself and marks the result verified.`,
    `提交：上传 maps.zip；平台自行评估 ${tasks * imagesPerTask} 张图像，并将结果标记为已验证。`,
  );
  await me.scrollTo(section, 0.08);
  await me.type(section.getByLabel("Name of your attribution method"), METHOD);
  await me.point(section.locator("#maps-file"));
  await section.locator("#maps-file").setInputFiles(mapsZip);
  await sleep(600);
  await me.click(section.getByRole("button", { name: "Upload and evaluate" }));
  await page.waitForURL(/[?&]maps=\d+/);
  const run = page.getByTestId("maps-run");
  await run.waitFor();
  await me.scrollTo(run, 0.2);
  const waitFrom = now();
  let state: string | null = null;
  for (const until = Date.now() + 400_000; Date.now() < until; await sleep(250)) {
    state = await run.getAttribute("data-state");
    if (state && !["queued", "running"].includes(state)) break;
  }
  const waitTo = now();
  if (state !== "completed") throw new Error(`the evaluation ended ${state}:\n${stack.logs().slice(-3000)}`);
  if (waitTo - waitFrom > MAX_WAIT_SHOWN_S) fast.push({ from: waitFrom, to: waitTo, factor: (waitTo - waitFrom) / MAX_WAIT_SHOWN_S });
  const done = (await run.innerText()).match(/in ([\d.]+) s \(metascore (-?\d\.\d{4}), rank (\d+) of (\d+)\)/);
  if (!done) throw new Error(`no figures in the finished run: ${await run.innerText()}`);
  const [, seconds, score, rank, total] = done;
  const speed = fast.length ? fast[0].factor : 1;
  say(
    `Done in ${seconds} s${speed > 1 ? ` (the wait shown ${speed.toFixed(0)}× faster)` : ""}: metascore ${score}, rank ${rank} of ${total}.`,
    `${seconds} 秒完成${speed > 1 ? `（等待过程以 ${speed.toFixed(0)} 倍速显示）` : ""}：元分数 ${score}，排名 ${total} 个中的第 ${rank} 名。`,
  );
  await me.point(run);
  await sleep(2500);
  say(
    "The verified files are in the draft: get the scores against the board, add an email and a description, and submit.",
    "已验证的文件已在草稿中：获取相对排行榜的分数，填写邮箱和说明，然后提交。",
  );
  await me.click(page.getByTestId("maps-score"));
  await page.getByTestId("board-current").waitFor();
  await me.type(page.getByLabel("Email"), "researcher@example.org");
  await me.type(page.getByLabel("Detailed information"), "Gradient magnitude computed with the tutorial's numpy script.");
  await me.click(page.getByRole("button", { name: "Submit your algorithm" }));
  await page.locator(".p-toast-message, .notice", { hasText: "Upload algorithm successfully!" }).first().waitFor({ timeout: 30_000 });
  await sleep(1500);

  // 6. History.
  await me.click(page.locator("header a[href='/history'], nav a[href='/history']").first());
  await page.waitForURL(/\/history/);
  const row = page.locator("tr", { hasText: METHOD }).first();
  await row.waitFor();
  say(
    `History: “${METHOD}” waits for approval, marked verified, with its metascore ${score}.`,
    `历史记录：“${METHOD}”等待审核，标记为已验证，元分数 ${score}。`,
  );
  await me.point(row.locator("[data-provenance]"));
  await sleep(3500);
  const end = now();
  await stop();
  await ctx.close();

  // Frames → a constant frame rate: each JPEG held until the next one arrived (concat demuxer
  // durations), the queue wait fast-forwarded, the last frame held to the end.
  if (frames.length < 2) throw new Error("the screencast sent no frames");
  const times = frames.map((f) => mapTime(Math.max(f.at, start), start, fast));
  const length = mapTime(end, start, fast);
  const list = frames
    .map((f, i) => `file '${f.file}'\nduration ${Math.max(0, (i + 1 < frames.length ? times[i + 1] : length) - times[i]).toFixed(4)}`)
    .join("\n");
  fs.writeFileSync(path.join(TMP, "list.txt"), `ffconcat version 1.0\n${list}\nfile '${frames.at(-1)!.file}'\n`);
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
      path.join(TMP, "list.txt"),
      "-vf",
      `fps=${FPS},scale=${WIDTH}:${HEIGHT}:force_original_aspect_ratio=decrease,pad=ceil(iw/2)*2:ceil(ih/2)*2,format=yuv420p`,
      "-t",
      length.toFixed(3),
      "-c:v",
      "libvpx-vp9",
      "-b:v",
      "0",
      "-crf",
      "42",
      "-deadline",
      "good",
      "-cpu-used",
      "4",
      "-row-mt",
      "1",
      "-g",
      String(FPS * 10),
      path.join(OUT, "intro.webm"),
    ],
    { stdio: "inherit" },
  );
  fs.copyFileSync(frames[0].file, path.join(TMP, "poster.jpg"));
  execFileSync("ffmpeg", ["-y", "-loglevel", "error", "-i", path.join(TMP, "poster.jpg"), path.join(OUT, "intro-poster.png")]);
  const cues = captions.map((c, i) => ({
    from: mapTime(c.at, start, fast),
    to: i + 1 < captions.length ? mapTime(captions[i + 1].at, start, fast) : length,
    c,
  }));
  fs.writeFileSync(path.join(OUT, "intro.en.vtt"), vtt(cues.map((q) => ({ from: q.from, to: q.to, text: q.c.en }))));
  fs.writeFileSync(path.join(OUT, "intro.zh.vtt"), vtt(cues.map((q) => ({ from: q.from, to: q.to, text: q.c.zh }))));
  const size = fs.statSync(path.join(OUT, "intro.webm")).size;
  console.log(
    `wrote ${path.join(OUT, "intro.webm")}: ${length.toFixed(1)} s at ${FPS} fps from ${frames.length} screencast frames, ${(size / 1024).toFixed(0)} KiB, ${captions.length} captions in English and Chinese`,
  );
} finally {
  await browser.close();
  await stack.stop();
  for (const dir of [TMP, UPLOAD_DIR, EVALUATION_DIR]) fs.rmSync(dir, { recursive: true, force: true });
}
