// The question-answering page end to end (docs/vqa.md): /UserQuery through the real sidecar's
// QuestionAnswering service. Step 1 finds the platform's question-answer scenes, step 2 lists their
// pictures 16 a page, the checks come in their order (model, algorithm, image, question: docs/product.md "Question answering") in
// both languages, an unknown word is named with the vocabulary, and a real question is answered
// with attributions whose contributions add up (text + image = total, a small delta); the answer is
// stored and served again, and another user's private picture or an unknown result is a 404.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { sceneQA } from "../../sidecar/vqa/scenesQA.ts";
import { VQA_ANSWERS, tokenize } from "../../sidecar/vqa/vqaWords.ts";

let stack: Stack;
let anon: Client;
let uploadDir: string;
let datasetId: number;
let pictureIds: number[];

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");
const MODEL = "vqa-scenes";

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_vqa_${process.pid}_${Date.now()}`);
  stack = await startStack({ env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "4", SEED_SCENES_PICTURES: "4", SEED_VQA_PICTURES: "20" } });
  anon = new Client(stack.baseUrl);
  const search = text(await anon.html("/UserQuery?type=name&q=Question-answer"));
  const m = search.match(/href="\/UserQuery\?dataset=(\d+)[^"]*"/);
  expect(m, "the question-answer scenes are found by name").toBeTruthy();
  datasetId = Number(m![1]);
  const step2 = await anon.html(`/UserQuery?dataset=${datasetId}`);
  pictureIds = [...step2.matchAll(/data-picture-id="(\d+)"/g)].map((x) => Number(x[1]));
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

const ask = (c: Client, fields: Record<string, string>) => c.post(`/UserQuery?dataset=${datasetId}`, fields);

describe("/UserQuery", () => {
  it("step 1 finds the scenes dataset, step 2 shows 16 pictures a page with a way back, step 3 the model and its accuracy", async () => {
    expect(pictureIds).toHaveLength(16);
    const html = text(await anon.html(`/UserQuery?dataset=${datasetId}&picture=${pictureIds[0]}`));
    expect(html).toContain('href="/UserQuery"');
    // 20 seeded pictures: a second page, linked from the pager.
    expect(html).toMatch(new RegExp(`href="/UserQuery\\?dataset=${datasetId}&page=2[^"]*"`));
    expect(html).toContain(`<option value="${MODEL}">`);
    expect(html).toMatch(/IntegratedGradients<\/option>/);
    expect(html).toMatch(/LayerIntegratedGradients<\/option>/);
    // The model's note: accuracy against both blind baselines, from its checkpoint.
    expect(html).toMatch(/The same network trained without the image answers \d+(\.\d)?%, without the question \d+(\.\d)?%/);
    // The vocabulary in both languages, and the variants it understands (docs/vqa.md "Words").
    expect(html).toMatch(/data-testid="vqa-vocabulary-en"[^>]*><code>[^<]*\bcolor\b[^<]*\btriangle\b/);
    expect(html).toMatch(/data-testid="vqa-vocabulary-zh"[^>]*><code>[^<]*颜色[^<]*三角形/);
    expect(html).toMatch(/<td lang="en">colour<\/td><td lang="en">color<\/td>/);
    expect(html).toMatch(/<td lang="zh-CN">多少个<\/td><td lang="zh-CN">几个<\/td>/);
    expect(html).toMatch(/The same questions asked in Chinese: \d+(\.\d)?% answered correctly/);
  });

  it("checks model, algorithm, image and question in the original site's order, in both languages", async () => {
    const full = { model: MODEL, algorithm: "IntegratedGradients", picture: String(pictureIds[0]), question: "what color is the circle" };
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...full, model: "" }, "Please choose the model to use"],
      [{ ...full, model: "", algorithm: "", question: "" }, "Please choose the model to use"],
      [{ ...full, algorithm: "GradCAM" }, "Please choose the algorithm to use"],
      [{ ...full, picture: "" }, "Please choose the image to explain"],
      [{ ...full, question: "   " }, "Please enter the question you want to ask"],
      [{ ...full, question: "x".repeat(201) }, "The question can be at most 200 characters"],
    ];
    for (const [fields, message] of cases) {
      const res = await ask(anon, fields);
      expect(res.status, message).toBe(400);
      expect(text(await res.text())).toContain(message);
    }
    const zh = new Client(stack.baseUrl);
    const res = await zh.request(`/UserQuery?dataset=${datasetId}`, {
      method: "POST",
      body: new URLSearchParams({ ...full, question: "" }),
      headers: { "Accept-Language": "zh-CN" },
    });
    expect(text(await res.text())).toContain("请输入您想问的问题");
  });

  it("names the words the model does not know and lists its vocabulary", async () => {
    const res = await ask(anon, { model: MODEL, algorithm: "IntegratedGradients", picture: String(pictureIds[0]), question: "What colour is the banana?" });
    expect(res.status).toBe(400);
    const html = text(await res.text());
    // "colour" is understood (read as "color"); "banana" is not.
    expect(html).toContain("The model does not know these words: banana.");
    expect(html).toMatch(/data-testid="vocabulary"[\s\S]*\bcircle\b[\s\S]*\btriangle\b/);
  });

  it.each(["IntegratedGradients", "LayerIntegratedGradients"])(
    "answers a question with %s: answer, probability, word colours and contributions that add up",
    async (algorithm) => {
      // Scene 0 of the held-out split is the first picture; ask one of its own generated questions (underscores for spaces, as the original site sent them).
      const qa = sceneQA("test", 0).questions[0];
      const res = await ask(anon, { model: MODEL, algorithm, picture: String(pictureIds[0]), question: qa.question.replace(/ /g, "_") });
      expect(res.status).toBe(302);
      const to = location(res)!;
      expect(to).toMatch(/result=\d+/);
      const html = text(await anon.html(to));
      const answer = html.match(/data-testid="answer"[^>]*><strong>([^<]+)</)![1];
      expect(VQA_ANSWERS).toContain(answer);
      expect(html).toMatch(/data-testid="probability">\d+(\.\d)?%/);
      const words = [...html.matchAll(/data-attribution="([-\d.e]+)"/g)].map((x) => Number(x[1]));
      expect(words).toHaveLength(qa.question.split(" ").length);
      const num = (id: string) => Number(html.match(new RegExp(`data-testid="${id}">([-\\d.,]+)<`))![1].replace(/,/g, ""));
      const [t, i, total, delta] = [num("contribution-text"), num("contribution-image"), num("contribution-total"), num("delta")];
      expect(Math.abs(t + i - total)).toBeLessThan(2e-4);
      // The page shows the convergence delta as it is. With the demo's 50 steps the bilingual
      // network (docs/vqa.md) leaves up to about 9 % on some questions (0.0908 of 1.13 seen here);
      // more steps close it (tests/vqa's completeness test runs 600).
      expect(Math.abs(delta)).toBeLessThan(0.1 * Math.max(1, Math.abs(total)));
      expect(Math.abs(words.reduce((s, w) => s + w, 0) - t)).toBeLessThan(1e-3);
      expect(html).toMatch(/src="data:image\/png;base64,[^"]+"[^>]*data-testid="heatmap"/);
      expect(html).toContain(`trained on vqa-scenes`);
      // Asked again, with spaces instead of the original site's underscores: the stored answer (same result id).
      const again = await ask(anon, { model: MODEL, algorithm, picture: String(pictureIds[0]), question: qa.question });
      const resultOf = (url: string) => new URL(url, "http://x").searchParams.get("result");
      expect(resultOf(location(again)!)).toBe(resultOf(to));
    },
  );

  it("answers a question asked in Chinese, showing its words as the model reads them", async () => {
    const qa = sceneQA("test", 0).questions[0];
    const res = await ask(anon, { model: MODEL, algorithm: "IntegratedGradients", picture: String(pictureIds[0]), question: qa.questionZh });
    expect(res.status).toBe(302);
    const html = text(await anon.html(location(res)!));
    expect(VQA_ANSWERS).toContain(html.match(/data-testid="answer"[^>]*><strong>([^<]+)</)![1]);
    const tokens = tokenize(qa.questionZh).tokens;
    expect([...html.matchAll(/data-attribution="([-\d.e]+)"[^>]*>([^<]+)</g)].map((x) => x[2])).toEqual(tokens);
  });

  it("another user's private picture and an unknown result are 404", async () => {
    const alice = await userClient(stack.baseUrl, "vqa-alice");
    const created = await alice.post("/datasetInDetail", { intent: "create", name: "alice vqa private", visibility: "private" });
    const privateId = Number(new URL(location(created)!, "http://x").searchParams.get("dataset"));
    const fd = new FormData();
    fd.append("intent", "upload");
    fd.append("datasetId", String(privateId));
    fd.append("pictures", new Blob([fs.readFileSync(path.join(ROOT, "tests/fixtures/images/red.png"))], { type: "image/png" }), "red.png");
    await alice.post(`/datasetInDetail?dataset=${privateId}`, fd);
    const own = await alice.html(`/UserQuery?dataset=${privateId}`);
    const privatePicture = own.match(/data-picture-id="(\d+)"/)![1];
    expect((await anon.get(`/UserQuery?dataset=${privateId}`)).status).toBe(404);
    const res = await ask(anon, { model: MODEL, algorithm: "IntegratedGradients", picture: privatePicture, question: "is there a red circle" });
    expect(res.status).toBe(404);
    expect((await anon.get(`/UserQuery?dataset=${datasetId}&picture=${pictureIds[0]}&result=999999`)).status).toBe(404);
  });
});
