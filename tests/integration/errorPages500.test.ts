// The Remix pages' 500 (error pages are styled pages in the layout with a way back): a loader and
// an action that fail for a reason nobody planned, made real by taking a table away under the
// running app (a database that stopped answering as the code expects). The visitor gets
// app/root.tsx's ErrorBoundary inside the layout, in their language, with a link home — never the
// error's own words, a stack trace or the router's internals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";

let stack: Stack;
let db: ReturnType<typeof createSequelize>;
let user: Client;

beforeAll(async () => {
  stack = await startStack({ sidecar: false });
  db = createSequelize(stack.dbUrl);
  user = await userClient(stack.baseUrl, "unlucky-user");
}, 120_000);
afterAll(async () => {
  await db?.close();
  await stack?.stop();
});

/** Runs `during` with `table` renamed away, and puts it back whatever happens. */
async function withoutTable<T>(table: string, during: () => Promise<T>): Promise<T> {
  await db.query(`ALTER TABLE ${table} RENAME TO ${table}_away`);
  try {
    return await during();
  } finally {
    await db.query(`ALTER TABLE ${table}_away RENAME TO ${table}`);
  }
}

const TEXT = {
  en: { title: "Something went wrong", detail: "Please try again later.", back: "Back to the home page", lang: "en" },
  zh: { title: "出错了", detail: "请稍后再试。", back: "返回首页", lang: "zh-CN" },
};
/** What the database or Node would say; none of it may reach the visitor. */
const INTERNALS = /no such table|doesn't exist|SQLITE_ERROR|ER_NO_SUCH_TABLE|Sequelize|_away|\bat .*\.(?:js|ts):\d+|node_modules/;

function expectErrorPage(res: Response, html: string, lng: "en" | "zh") {
  const t = TEXT[lng];
  expect(res.status).toBe(500);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(html).toContain(`<html lang="${t.lang}"`);
  // Inside the layout: the top menu, the page frame and the footer are there.
  expect(html).toMatch(/<main class="page">/);
  expect(html).toContain('href="/leaderboard"');
  expect(html).toMatch(/<footer/);
  // The styled card with one heading, the sentence and the way back.
  expect(html).toContain('class="card narrow error-page"');
  expect([...html.matchAll(/<h1[\s>]/g)]).toHaveLength(1);
  expect(html).toContain(`<h1>${t.title}</h1>`);
  expect(html).toContain(t.detail);
  expect(html).toContain(`<a href="/homepage">${t.back}</a>`);
  // Not in the page, and not in the data below it either.
  expect(html).not.toMatch(INTERNALS);
}

describe(`the 500 page on ${process.env.TEST_DB}`, () => {
  for (const lng of ["en", "zh"] as const)
    it(`a loader that fails: /history without its table (${lng})`, async () => {
      await user.post("/language", { lng, redirectTo: "/homepage" });
      expect((await user.get("/history")).status).toBe(200);
      const [res, html] = await withoutTable("submissions", async () => {
        const r = await user.get("/history");
        return [r, await r.text()] as const;
      });
      expectErrorPage(res, html, lng);
      // The page works again once the table is back: the failure was the database's.
      expect((await user.get("/history")).status).toBe(200);
    });

  it("an action that fails: creating a dataset without its table", async () => {
    await user.post("/language", { lng: "zh", redirectTo: "/homepage" });
    const [res, html] = await withoutTable("datasets", async () => {
      const r = await user.post("/datasetInDetail", { intent: "create", name: "doomed", visibility: "private" });
      return [r, await r.text()] as const;
    });
    expectErrorPage(res, html, "zh");
  });

  it("the router's own data request gets no internals either (JavaScript on)", async () => {
    const [res, body] = await withoutTable("submissions", async () => {
      const r = await user.get("/history.data");
      return [r, await r.text()] as const;
    });
    expect(res.status).toBe(500);
    expect(body).not.toMatch(INTERNALS);
  });
});
