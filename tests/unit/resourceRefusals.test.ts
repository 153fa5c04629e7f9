// Resource routes (files, pictures, CSVs) have no page whose error boundary translates a thrown
// refusal: app/.server/resourceRefusals.server.ts sends its message ref as text in the visitor's
// language. Before it, a signed-in user who opened /admin/ranking/selection.csv read the raw key
// "account:msg.adminsOnly".
import { describe, expect, it } from "vitest";
import { translateRefusal, withTranslatedRefusals } from "../../app/.server/resourceRefusals.server.ts";

const asked = (lng: "en" | "zh") =>
  new Request("http://localhost/admin/ranking/selection.csv", { headers: { "Accept-Language": lng === "zh" ? "zh-CN" : "en" } });

describe("refusals of resource routes", () => {
  it("translates a thrown message ref into the request's language, keeping status and headers", async () => {
    for (const [lng, text] of [
      ["en", "Administrators only."],
      ["zh", "仅限管理员。"],
    ] as const) {
      const thrown = await withTranslatedRefusals(asked(lng), async () => {
        throw new Response("account:msg.adminsOnly", { status: 403, statusText: "Forbidden", headers: { "Cache-Control": "private, no-store" } });
      }).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(Response);
      const res = thrown as Response;
      expect(res.status).toBe(403);
      expect(res.statusText).toBe("Forbidden");
      expect(res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      expect(await res.text()).toBe(text);
    }
  });

  it("fills a ref's values and reads the language cookie before Accept-Language", async () => {
    const req = new Request("http://localhost/x", { headers: { Cookie: `lng=${Buffer.from('"zh"').toString("base64")}`, "Accept-Language": "en" } });
    const res = await translateRefusal(req, new Response('submission:msg.dailyLimit|{"count":3}', { status: 429 }));
    expect(await res.text()).toBe("24 小时内最多提交 3 个算法，请明天再试。");
  });

  it("leaves alone what is not a refusal with a message ref: redirects, answers, plain words, JSON, other errors", async () => {
    const redirect = new Response(null, { status: 302, headers: { Location: "/signin?notice=login-first" } });
    await expect(withTranslatedRefusals(asked("zh"), async () => Promise.reject(redirect))).rejects.toBe(redirect);
    const ok = new Response("method,score\n");
    expect(await withTranslatedRefusals(asked("zh"), async () => ok)).toBe(ok);
    const words = new Response("No such plot.", { status: 404 });
    expect(await translateRefusal(asked("zh"), words)).toBe(words);
    const json = new Response('"account:msg.adminsOnly"', { status: 403, headers: { "Content-Type": "application/json" } });
    expect(await translateRefusal(asked("zh"), json)).toBe(json);
    const boom = new Error("db down");
    await expect(withTranslatedRefusals(asked("en"), async () => Promise.reject(boom))).rejects.toBe(boom);
  });
});
