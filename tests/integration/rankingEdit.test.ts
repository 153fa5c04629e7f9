// The contributor ranking's edit mode (a selected flag per entry): an administrator selects
// entries, hides them from the public board and restores them, exports the selection as CSV; every
// action is audited. Works without JavaScript (plain forms here).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueryTypes, type Sequelize } from "sequelize";
import { createSequelize } from "../../models/db.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import { Client, location } from "../support/client.ts";
import { startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
let db: Sequelize;
let admin: Client;
const SUITE = "metarank-local-v1";

beforeAll(async () => {
  stack = await startStack({ sidecar: false });
  db = createSequelize(stack.dbUrl);
  admin = await adminClient(stack.baseUrl);
});
afterAll(async () => {
  await db?.close();
  await stack?.stop();
});

/** The board's entries: id → algorithm. */
async function entries(): Promise<Map<number, string>> {
  const rows = await db.query<{ id: number; algorithm: string }>("SELECT id, algorithm FROM board_methods WHERE suite_id = ? ORDER BY id", {
    type: QueryTypes.SELECT,
    replacements: [SUITE],
  });
  return new Map(rows.map((r) => [Number(r.id), r.algorithm]));
}

/** Posts an edit-mode form the way the page does (every page_ids of the page, the ticked ids). */
function edit(c: Client, intent: string, extra: [string, string][] = []) {
  const body = new URLSearchParams([["intent", intent], ["suite", SUITE], ...extra]);
  return c.request(`/admin/ranking?suite=${SUITE}&edit=1`, { method: "POST", body });
}

const publicBoard = async () => {
  const html = await new Client(stack.baseUrl).html(`/leaderboard?suite=${SUITE}`);
  return html.replace(/<script[\s\S]*?<\/script>/g, "");
};

describe(`contributor ranking edit mode on ${process.env.TEST_DB}`, () => {
  it("select → hide → export → restore → clear, each audited; the public board follows", async () => {
    const ids = [...(await entries()).keys()];
    const board = await entries();
    expect(ids.length).toBe(8);
    const page = await admin.html(`/admin/ranking?suite=${SUITE}&edit=1`);
    expect(page).toContain('data-testid="ranking-edit"');
    expect(page).toContain("0 entries selected");
    expect(page).toContain("No changes yet.");

    // Select two entries of the page: the stored flag, and the notice.
    const [a, b] = [ids[0], ids[2]];
    const pageIds = ids.map((id): [string, string] => ["page_ids", String(id)]);
    let res = await edit(admin, "select", [...pageIds, ["ids", String(a)], ["ids", String(b)]]);
    expect(res.status).toBe(302);
    expect(location(res)).toBe(`/admin/ranking?suite=${SUITE}&edit=1&msg=selected&n=2`);
    let html = await admin.html(location(res)!);
    expect(html).toContain("2 entries are selected.");
    expect(html).toMatch(new RegExp(`data-testid="select-${a}" checked=""|checked="" [^>]*data-testid="select-${a}"`));

    // Hide them: gone from the public leaderboard, tagged in the admin view.
    expect(await publicBoard()).toContain(`>${board.get(a)}<`);
    res = await edit(admin, "hide");
    expect(location(res)).toContain("msg=hidden&n=2");
    html = await admin.html(location(res)!);
    expect(html).toContain("2 entries hidden from the public board.");
    expect(html).toContain(`data-testid="hidden-${a}"`);
    expect(html).toContain(`data-testid="hidden-${b}"`);
    let pub = await publicBoard();
    expect(pub).not.toContain(`>${board.get(a)}<`);
    expect(pub).not.toContain(`>${board.get(b)}<`);
    expect(pub).toContain(`>${board.get(ids[1])}<`);

    // Export: the two selected entries as CSV (Ranking, contributor, institute, algorithm, metascore, hidden).
    const csv = await admin.get(`/admin/ranking/selection.csv?suite=${SUITE}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toContain(`ranking-selection-${SUITE}.csv`);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe('"Ranking","contributor","institute","algorithm","metascore","hidden"');
    expect(lines.length).toBe(3);
    expect(lines.join("\n")).toContain(`"${board.get(a)}"`);
    expect(lines.every((l, i) => i === 0 || l.endsWith('"yes"'))).toBe(true);

    // Restore: back on the public board.
    res = await edit(admin, "restore");
    expect(location(res)).toContain("msg=restored&n=2");
    pub = await publicBoard();
    expect(pub).toContain(`>${board.get(a)}<`);

    // Clear: nothing selected, and an export says to select first.
    res = await edit(admin, "clear");
    expect(location(res)).toContain("msg=cleared");
    const empty = await admin.get(`/admin/ranking/selection.csv?suite=${SUITE}`);
    expect(empty.status).toBe(302);
    expect(location(empty)).toBe(`/admin/ranking?suite=${SUITE}&edit=1&msg=select-first`);
    expect(await admin.html(location(empty)!)).toContain("Select entries first.");

    // The audit trail: who did what to which entries, newest first; and the table behind it.
    html = await admin.html(`/admin/ranking?suite=${SUITE}&edit=1`);
    const actions = [...html.matchAll(/<tr data-action="([a-z-]+)"/g)].map((m) => m[1]);
    expect(actions).toEqual(["clear", "restore", "export", "hide", "select"]);
    expect(html).toContain("root-admin");
    const audits = await db.query<{ action: string; username: string; entries_json: string }>(
      "SELECT action, username, entries_json FROM ranking_audits ORDER BY id",
      {
        type: QueryTypes.SELECT,
      },
    );
    expect(audits.map((r) => r.action)).toEqual(["select", "hide", "export", "restore", "clear"]);
    expect(audits.every((r) => r.username === "root-admin")).toBe(true);
    expect(JSON.parse(audits[1].entries_json).map((e: { id: number }) => e.id)).toEqual([a, b]);
  });

  it("a selection naming entries that are not on the page changes nothing", async () => {
    const ids = [...(await entries()).keys()];
    const res = await edit(admin, "select", [
      ["page_ids", String(ids[0])],
      ["ids", String(ids[1])],
    ]);
    expect(location(res)).toContain("msg=invalid");
    expect(await admin.html(location(res)!)).toContain("nothing was changed");
    const selected = await db.query<{ n: number }>("SELECT COUNT(*) AS n FROM board_methods WHERE selected = ?", {
      type: QueryTypes.SELECT,
      replacements: [true],
    });
    expect(Number(selected[0].n)).toBe(0);
    expect((await edit(admin, "hide")).headers.get("location")).toContain("msg=select-first");
  });

  it("is for administrators only; the same page at /user; Chinese too", async () => {
    const user = await userClient(stack.baseUrl, "ranking-user");
    expect((await edit(user, "select-all")).status).toBe(403);
    // A download has no page to translate its refusal: the words come in the visitor's language, never the key.
    const refused = await user.get(`/admin/ranking/selection.csv?suite=${SUITE}`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe("Administrators only.");
    await user.post("/language", { lng: "zh", redirectTo: "/homepage" });
    expect(await (await user.get(`/admin/ranking/selection.csv?suite=${SUITE}`)).text()).toBe("仅限管理员。");
    const anon = await new Client(stack.baseUrl).get(`/admin/ranking/selection.csv?suite=${SUITE}`);
    expect(location(anon)).toMatch(/^\/signin\?notice=login-first/);
    const selected = await db.query<{ n: number }>("SELECT COUNT(*) AS n FROM board_methods WHERE selected = ?", {
      type: QueryTypes.SELECT,
      replacements: [true],
    });
    expect(Number(selected[0].n)).toBe(0);

    const res = await admin.request(`/user?suite=${SUITE}&edit=1`, { method: "POST", body: new URLSearchParams({ intent: "select-all", suite: SUITE }) });
    expect(location(res)).toBe(`/user?suite=${SUITE}&edit=1&msg=selected&n=8`);
    await admin.post("/language", { lng: "zh", redirectTo: "/homepage" });
    const zh = await admin.html(location(res)!);
    expect(zh).toContain("已选择 8 个条目。");
    expect(zh).toContain("审计记录");
    expect(zh).toContain("全选");
    await edit(admin, "clear");
    await admin.post("/language", { lng: "en", redirectTo: "/homepage" });
  });
});
