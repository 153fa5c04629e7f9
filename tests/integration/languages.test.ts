// The interface language: Accept-Language on a first visit, the top bar's toggle (a plain
// form, no JavaScript) afterwards, kept in a cookie; <html lang> follows it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sidecar: false });
});
afterAll(async () => {
  await stack?.stop();
});

const htmlLang = (html: string) => html.match(/<html lang="([^"]+)"/)?.[1];

describe(`interface languages on ${process.env.TEST_DB}`, () => {
  it("a first visit follows Accept-Language; English otherwise", async () => {
    const c = new Client(stack.baseUrl);
    const en = await c.html("/homepage");
    expect(htmlLang(en)).toBe("en");
    expect(en).toContain(">LEADERBOARD<");
    const zh = await (await c.request("/homepage", { headers: { "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5" } })).text();
    expect(htmlLang(zh)).toBe("zh-CN");
    expect(zh).toContain(">排行榜<");
    expect(zh).toContain("研究动机");
    expect(zh).not.toContain("Motivation");
  });

  it("the toggle sets a cookie that wins over Accept-Language and returns to the same page", async () => {
    const c = new Client(stack.baseUrl);
    const res = await c.post("/language", { lng: "zh", redirectTo: "/leaderboard?suite=x" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/leaderboard?suite=x");
    expect(c.cookies.get("lng")).toBeTruthy();
    const page = await (await c.request("/homepage", { headers: { "Accept-Language": "en" } })).text();
    expect(htmlLang(page)).toBe("zh-CN");
    // The toggle now offers English.
    expect(page).toMatch(/name="lng" value="en"/);
    await c.post("/language", { lng: "en", redirectTo: "/homepage" });
    expect(htmlLang(await c.html("/homepage"))).toBe("en");
  });

  it("unknown languages and foreign redirect targets fall back safely", async () => {
    const c = new Client(stack.baseUrl);
    const res = await c.post("/language", { lng: "xx", redirectTo: "https://evil.example/" });
    expect(location(res)).toBe("/homepage");
    expect(htmlLang(await c.html("/homepage"))).toBe("en");
  });

  it("the leaderboard names and describes each suite in the visitor's language (suite.json translations)", async () => {
    const c = new Client(stack.baseUrl);
    const en = await c.html("/leaderboard?suite=metarank-local");
    expect(en).toMatch(/data-testid="suite-name">Meta-Rank local suite</);
    expect(en).toContain("Baselines computed by this platform");
    expect(en).not.toContain("基线由本平台");
    await c.post("/language", { lng: "zh", redirectTo: "/leaderboard" });
    const zh = await c.html("/leaderboard?suite=metarank-local");
    expect(zh).toMatch(/data-testid="suite-name">Meta-Rank 本地基准</);
    expect(zh).toContain("基线由本平台自己的评估引擎计算");
    expect(zh).not.toContain("Baselines computed by this platform");
    // The other suites' tabs too.
    expect(zh).toContain("Meta-Rank 本地基准（第 1 版）");
  });

  it("the documentation reads in both languages", async () => {
    const c = new Client(stack.baseUrl);
    const en = await c.html("/document");
    expect(en).toContain("<title>Documentation — Meta-Rank</title>");
    expect(en).toContain("Users and roles");
    await c.post("/language", { lng: "zh", redirectTo: "/document" });
    const zh = await c.html("/document");
    expect(zh).toContain("<title>系统文档 — Meta-Rank</title>");
    expect(zh).toContain("系统用户管理");
    expect(zh).not.toContain("Users and roles");
  });

  it("pages whose title was fixed English have it in the page's language (tab, bookmark, screen reader)", async () => {
    const c = new Client(stack.baseUrl);
    const titles = async () =>
      Promise.all(["/dam3d", "/tcav", "/scenes", "/scenesebow", "/twodresult"].map(async (p) => (await c.html(p)).match(/<title>([^<]*)<\/title>/)?.[1]));
    expect(await titles()).toEqual([
      "3D dam viewer — Meta-Rank",
      "Concept-based explanation (TCAV) — Meta-Rank",
      "Scene demo — Meta-Rank",
      "Scene demo: SeBoW neural trees — Meta-Rank",
      "Crack detection results — Meta-Rank",
    ]);
    await c.post("/language", { lng: "zh", redirectTo: "/dam3d" });
    expect(await titles()).toEqual([
      "三维大坝查看器 — Meta-Rank",
      "基于概念的解释（TCAV） — Meta-Rank",
      "场景演示 — Meta-Rank",
      expect.stringMatching(/^场景演示.* — Meta-Rank$/),
      "裂缝检测结果 — Meta-Rank",
    ]);
  });

  it("error pages are translated too", async () => {
    const c = new Client(stack.baseUrl);
    await c.post("/language", { lng: "zh", redirectTo: "/homepage" });
    const res = await c.get("/no-such-page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("404 — 未找到");
    expect(html).toContain("<title>404 — 未找到 — Meta-Rank</title>");
    expect(html).toContain("此地址没有内容。");
    // What the visitor sees (the hydration data below the page is the router's business).
    expect(html.replace(/<script[\s\S]*?<\/script>/g, "")).not.toContain("No route matches");
  });
});
