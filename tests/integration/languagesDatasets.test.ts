// The datasets pages and the classification demo in both languages (docs/i18n.md): every page,
// dialog, step and message of the area rendered in English and in Chinese (cookie lng=zh, or
// Accept-Language: zh-CN); the Chinese page has its Chinese heading and none of the English labels,
// the English page none of the Chinese ones, and no page ever shows a raw key (ns:key) or an
// unfilled {{variable}}. The empty-search message (docs/product.md "Datasets and labelling") in both languages.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userClient } from "../support/accounts.ts";
import { Client, location } from "../support/client.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
let uploadDir: string;
let alice: Client;
let datasetId: number;
let pictureId: number;
let fashionId: number;
let fashionPicture: number;
/** The lng cookie's value for Chinese, as the top bar's toggle sets it. */
let zhCookie: string;

const fixture = (name: string) => fs.readFileSync(path.join(ROOT, "tests/fixtures/images", name));
type Lang = "en" | "zh";

/** The page as a visitor of that language gets it: Chinese by the cookie, English by default. */
async function page(c: Client, lng: Lang, url: string, init: RequestInit = {}): Promise<{ status: number; html: string }> {
  const saved = c.cookies.get("lng");
  if (lng === "zh") c.cookies.set("lng", zhCookie);
  else c.cookies.delete("lng");
  try {
    const res = await c.request(url, init);
    return { status: res.status, html: await res.text() };
  } finally {
    if (saved) c.cookies.set("lng", saved);
    else c.cookies.delete("lng");
  }
}

/** The visible text of a page (tags, scripts and styles removed), where labels are looked for. */
function text(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<style[\s\S]*?<\/style>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** Attribute values people read: labels, titles, placeholders and image descriptions. */
const attributes = (html: string) => [...html.matchAll(/(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((m) => m[1]).join(" | ");

/** No raw key and no unfilled variable in what people see (the loader data in scripts carries message refs on purpose). */
function clean(html: string) {
  const seen = text(html) + " " + attributes(html);
  expect(seen).not.toMatch(/\b(?:datasets|demo|forms|common|account|board):[a-zA-Z]+/);
  expect(seen).not.toContain("{{");
  expect(html.match(/<h1[\s>]/g)?.length ?? 0).toBe(1);
}

interface Case {
  name: string;
  url: () => string;
  client?: () => Client;
  init?: () => RequestInit;
  status?: number;
  zh: string[];
  en: string[];
}

// English labels a Chinese page must not show, and Chinese texts an English page must not show.
const CASES: Case[] = [
  {
    name: "gallery",
    url: () => "/datasetPreview",
    zh: ["<title>数据集 — Meta-Rank</title>", "<h1>数据集</h1>", "Meta-rank 数据集", "其他基准数据集", "数据详情", "简介"],
    en: ["<title>Datasets — Meta-Rank</title>", "<h1>Datasets</h1>", "Meta-rank datasets", "Other benchmark datasets", "Data Details", "Introduction"],
  },
  {
    name: "gallery storage warning",
    url: () => "/datasetPreview?details=food",
    zh: ["抱歉，由于存储空间不足，本服务器暂不提供数据集查看。"],
    en: ["Sorry, dataset viewing is not available on this server due to insufficient storage space."],
  },
  {
    name: "gallery introduction dialog (no JavaScript)",
    url: () => "/datasetPreview?intro=nwpu",
    zh: ["NWPU-RESISC45 简介"],
    en: ["Introduction for NWPU-RESISC45"],
  },
  {
    name: "gallery users' tab with an empty search",
    url: () => "/datasetPreview?tab=users&type=name&q=no-such-thing",
    zh: ["未找到符合条件的数据集！", "搜索方式", "数据集名称（模糊）"],
    en: ["No dataset matching the conditions was found!", "Search by", "Dataset name (fuzzy)"],
  },
  {
    name: "gallery examples",
    url: () => "/datasetPreview?examples=fashion-mnist",
    zh: ["返回预览"],
    en: ["Back to Preview"],
  },
  {
    name: "my datasets",
    url: () => "/datasetInDetail",
    client: () => alice,
    zh: ["<title>我的数据集 — Meta-Rank</title>", "<h1>我的数据集</h1>", "创建数据集", "您可见的数据集", "私有", "公开"],
    en: ["<title>My datasets — Meta-Rank</title>", "<h1>My datasets</h1>", "Create a dataset", "Datasets visible to you", "Private", "Public"],
  },
  {
    name: "my datasets, an empty search",
    url: () => "/datasetInDetail?type=user&q=nobody-here",
    client: () => alice,
    zh: ["未找到符合条件的数据集！"],
    en: ["No dataset matching the conditions was found!"],
  },
  {
    name: "a dataset",
    url: () => `/datasetInDetail?dataset=${datasetId}`,
    client: () => alice,
    zh: ["上传图片", "删除图片", "删除此数据集", "删除数据集"],
    en: ["Upload pictures", "Delete pictures", "Delete this dataset", "Delete dataset"],
  },
  {
    name: "the upload dialog (no JavaScript)",
    url: () => `/datasetInDetail?dataset=${datasetId}&upload=1`,
    client: () => alice,
    zh: ["确认上传", "取消"],
    en: ["Confirm upload", "Cancel"],
  },
  {
    name: "delete mode",
    url: () => `/datasetInDetail?dataset=${datasetId}&mode=delete`,
    client: () => alice,
    zh: ["全选", "取消全部选择", "确认"],
    en: ["Select all", "Cancel all selections", "Confirm"],
  },
  {
    name: "the pictures' confirmation step",
    url: () => `/datasetInDetail?dataset=${datasetId}&mode=delete`,
    client: () => alice,
    init: () => ({
      method: "POST",
      body: new URLSearchParams([
        ["intent", "deletePictures"],
        ["datasetId", String(datasetId)],
        ["pictureIds", String(pictureId)],
      ]),
    }),
    zh: ["删除图片？", "所选的 1 张图片及其已计算的解释将被永久删除，且无法恢复。", "永久删除", "保留"],
    en: ["Delete pictures?", "The selected picture will be removed for good", "Delete for good", "Keep them"],
  },
  {
    name: "the dataset's confirmation step",
    url: () => `/datasetInDetail?dataset=${datasetId}`,
    client: () => alice,
    init: () => ({
      method: "POST",
      body: new URLSearchParams([
        ["intent", "deleteDataset"],
        ["datasetId", String(datasetId)],
      ]),
    }),
    zh: ["删除此数据集？", "数据集“trip”及其全部 1 张图片将被永久删除，且无法恢复。"],
    en: ["Delete this dataset?", "The dataset “trip” and its 1 picture will be removed for good."],
  },
  {
    name: "a refused dataset name",
    url: () => "/datasetInDetail",
    client: () => alice,
    init: () => ({ method: "POST", body: new URLSearchParams({ intent: "create", name: "x".repeat(101), visibility: "public" }) }),
    status: 400,
    zh: ["数据集名称最多 100 个字符。"],
    en: ["The dataset name can be at most 100 characters."],
  },
  {
    name: "a refused upload",
    url: () => `/datasetInDetail?dataset=${datasetId}`,
    client: () => alice,
    init: () => {
      const fd = new FormData();
      fd.append("intent", "upload");
      fd.append("datasetId", String(datasetId));
      fd.append("pictures", new Blob([fixture("not-an-image.png")], { type: "image/png" }), "holiday.png");
      return { method: "POST", body: fd };
    },
    status: 400,
    zh: ["“holiday.png”不是 PNG、JPEG、GIF 或 WebP 图片。"],
    en: ["is not a PNG, JPEG, GIF or WebP image."],
  },
  {
    name: "classification, step 1",
    url: () => "/UserImgclassification",
    zh: ["<title>图像分类 — Meta-Rank</title>", "<h1>图像分类</h1>", "从数据集选择", "图像池与上传"],
    en: ["<title>Image classification — Meta-Rank</title>", "<h1>Image classification</h1>", "From a dataset", "Image pool and upload"],
  },
  {
    name: "classification, an empty search",
    url: () => "/UserImgclassification?type=name&q=no-such-dataset",
    zh: ["未找到符合条件的数据集！"],
    en: ["No dataset matching the conditions was found!"],
  },
  {
    name: "classification, step 2 and 3",
    url: () => `/UserImgclassification?dataset=${fashionId}`,
    zh: ["返回数据集预览", "开始推理"],
    en: ["Back to dataset preview", "Start inference"],
  },
  {
    name: "classification, the seed's model message",
    url: () => `/UserImgclassification?dataset=${fashionId}`,
    init: () => ({ method: "POST", body: new URLSearchParams({ intent: "run", model: "", algorithm: "", picture: "" }) }),
    status: 400,
    zh: ["请选择要使用的模型"],
    en: ["Please choose the model to use"],
  },
  {
    name: "classification, pool and upload",
    url: () => "/UserImgclassification?tab=pool",
    zh: ["刷新图像池"],
    en: ["Refresh pool"],
  },
  {
    name: "demos",
    url: () => "/demos",
    zh: ["<h1>在线演示</h1>"],
    en: [],
  },
  {
    name: "a dataset that does not exist",
    url: () => "/datasetInDetail?dataset=999999",
    client: () => alice,
    status: 404,
    zh: ["没有这个数据集或图片。"],
    en: ["There is no such dataset or picture."],
  },
];

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_lang_${process.pid}_${Date.now()}`);
  stack = await startStack({ env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "40", SEED_SCENES_PICTURES: "20" } });
  alice = await userClient(stack.baseUrl, "alice");
  const toggle = new Client(stack.baseUrl);
  await toggle.post("/language", { lng: "zh", redirectTo: "/homepage" });
  zhCookie = toggle.cookies.get("lng")!;
  const res = await alice.post("/datasetInDetail", { intent: "create", name: "trip", visibility: "private" });
  datasetId = Number(new URL(location(res)!, "http://x").searchParams.get("dataset"));
  const fd = new FormData();
  fd.append("intent", "upload");
  fd.append("datasetId", String(datasetId));
  fd.append("pictures", new Blob([fixture("red.png")], { type: "image/png" }), "red.png");
  expect((await alice.post(`/datasetInDetail?dataset=${datasetId}`, fd)).status).toBe(302);
  pictureId = Number((await alice.html(`/datasetInDetail?dataset=${datasetId}`)).match(/data-picture-id="(\d+)"/)![1]);
  fashionId = Number((await alice.html("/UserImgclassification?type=name&q=fashion")).match(/data-dataset-id="(\d+)"/)![1]);
  fashionPicture = Number((await alice.html(`/UserImgclassification?dataset=${fashionId}`)).match(/data-picture-id="(\d+)"/)![1]);
});
afterAll(async () => {
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

describe.each(CASES)("$name", (c) => {
  it.each(["en", "zh"] as const)("in %s", async (lng) => {
    const client = c.client?.() ?? new Client(stack.baseUrl);
    const { status, html } = await page(client, lng, c.url(), c.init?.());
    expect(status, html.slice(0, 400)).toBe(c.status ?? 200);
    clean(html);
    const own = lng === "zh" ? c.zh : c.en;
    const other = lng === "zh" ? c.en : c.zh;
    for (const s of own) expect(html.includes(s) || text(html).includes(s), `${lng} page has ${s}`).toBe(true);
    // The other language's labels nowhere in the text or the attributes people read.
    const seen = text(html) + " " + attributes(html);
    for (const s of other) expect(seen.includes(s.replace(/<[^>]+>/g, "")), `${lng} page shows ${s}`).toBe(false);
    expect(html).toContain(lng === "zh" ? '<html lang="zh-CN"' : '<html lang="en"');
  });
});

describe("languages by the browser's Accept-Language and in resource routes", () => {
  it("a Chinese browser without the cookie gets the Chinese gallery", async () => {
    const res = await fetch(`${stack.baseUrl}/datasetPreview`, { headers: { "Accept-Language": "zh-CN,zh;q=0.9" } });
    const html = await res.text();
    expect(html).toContain("<h1>数据集</h1>");
    clean(html);
  });

  it("a missing picture or result says so in the visitor's language, not as a key", async () => {
    const zh = await fetch(`${stack.baseUrl}/picture/999999`, { headers: { "Accept-Language": "zh-CN" } });
    expect(zh.status).toBe(404);
    expect(await zh.text()).toBe("没有这个数据集或图片。");
    const en = await fetch(`${stack.baseUrl}/explanation/999999?kind=overlay`);
    expect(en.status).toBe(404);
    expect(await en.text()).toBe("There is no such result.");
  });
});

describe("a result in both languages", () => {
  it("states the model and the data, and flags a picture unlike the model's data", async (ctx) => {
    const step3 = await alice.html(`/UserImgclassification?dataset=${fashionId}&picture=${fashionPicture}`);
    const model = step3.match(/<select id="model"[\s\S]*?<option value="([^"]+)">ResNet18<\/option>/)?.[1];
    if (!model) return ctx.skip();
    const run = await alice.post(`/UserImgclassification?dataset=${fashionId}&picture=${fashionPicture}`, {
      intent: "run",
      model,
      algorithm: "Occlusion",
      picture: String(fashionPicture),
    });
    expect(run.status).toBe(302);
    const target = location(run)!;
    const en = (await page(alice, "en", target)).html;
    const zh = (await page(alice, "zh", target)).html;
    for (const html of [en, zh]) clean(html);
    expect(text(en)).toContain("Where this result comes from");
    expect(text(en)).toContain("trained on Fashion-MNIST");
    expect(text(en)).toContain("This picture is from the model's held-out test split");
    expect(text(zh)).toContain("此结果的来源");
    expect(text(zh)).toContain("此图片来自模型的留出测试集");
    expect(text(zh)).not.toContain("Where this result comes from");
    // Alice's red square in her own dataset, with the same model: flagged, no bare "Bag 79.90 %".
    const other = await alice.post(`/UserImgclassification?dataset=${datasetId}&picture=${pictureId}`, {
      intent: "run",
      model,
      algorithm: "Occlusion",
      picture: String(pictureId),
    });
    expect(other.status).toBe(302);
    const ood = location(other)!;
    const oodEn = (await page(alice, "en", ood)).html;
    const oodZh = (await page(alice, "zh", ood)).html;
    for (const html of [oodEn, oodZh]) clean(html);
    expect(oodEn).toContain('data-testid="out-of-distribution"');
    expect(text(oodEn)).toContain("This picture is unlike the data the model learned");
    expect(text(oodEn)).toContain("not meaningful for this picture");
    expect(oodEn).not.toContain('data-testid="probability"');
    expect(text(oodZh)).toContain("此图片与模型所学的数据不同");
    expect(text(oodZh)).toContain("对此图片没有意义");
  });
});
