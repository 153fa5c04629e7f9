// The answers Express gives outside the Remix app (server/errorPage.ts): an unhandled error is a
// 500 page with a way back for browsers and one sentence for scripts, logged with its request
// id, and never shows the error's own message or stack.
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPRESS_ERRORS, errorHandler, errorPageHtml } from "../../server/errorPage.ts";

const logged: { err: unknown; reqId: string | undefined }[] = [];
let server: ReturnType<express.Express["listen"]>;
let base = "";

beforeAll(async () => {
  const app = express();
  app.use((req, _res, next) => {
    (req as express.Request & { requestId?: string }).requestId = "req-42";
    next();
  });
  app.get("/boom", () => {
    throw new Error("secret detail at /srv/app/db.ts:12");
  });
  app.use(errorHandler((err, reqId) => logged.push({ err, reqId })));
  await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", resolve)));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("Express's own error answers", () => {
  it("gives a browser a styled 500 page in both languages with a link home, and logs the error with the request id", async () => {
    const res = await fetch(`${base}/boom`, { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<h1>Server error · <span lang="zh-CN">服务器错误</span></h1>');
    expect(html).toContain(EXPRESS_ERRORS.internal.en);
    expect(html).toContain(EXPRESS_ERRORS.internal.zh);
    expect(html).toContain('<a href="/homepage">Back to the homepage</a>');
    expect(html).not.toContain("secret detail");
    expect(html).not.toMatch(/<script/);
    expect(logged.at(-1)?.reqId).toBe("req-42");
    expect((logged.at(-1)?.err as Error).message).toContain("secret detail");
  });

  it("gives a script the sentence as plain text", async () => {
    const res = await fetch(`${base}/boom`, { headers: { Accept: "application/json" } });
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(EXPRESS_ERRORS.internal.en);
  });

  it("escapes what it shows", () => {
    expect(errorPageHtml(403, { en: "<b>x</b>", zh: "&" })).toContain("&#60;b&#62;x&#60;/b&#62;");
  });
});
