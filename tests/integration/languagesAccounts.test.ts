// The accounts and admin pages in English and Chinese (account and admin namespaces): the original
// site's messages (docs/product.md "Accounts and profile") in their own words in their language and a translation in the other (docs/i18n.md),
// the notices of the sign-in page, the profile's, the server, evaluation and ranking pages', and
// the 403/404 pages of the admin area.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, login, register, userClient } from "../support/accounts.ts";
import { Client, alerts, location } from "../support/client.ts";
import { CAPTCHA, startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sidecar: false });
});
afterAll(async () => {
  await stack?.stop();
});

const inLanguage = async (c: Client, lng: "en" | "zh") => {
  await c.post("/language", { lng, redirectTo: "/homepage" });
  return c;
};
/** What a person sees: the page without its scripts (the hydration data holds every key's text). */
const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");

describe(`accounts and admin pages in both languages on ${process.env.TEST_DB}`, () => {
  it("sign-in: titles, tabs and the original site's log-in and register messages", async () => {
    const en = new Client(stack.baseUrl);
    const zh = await inLanguage(new Client(stack.baseUrl), "zh");
    expect(await en.html("/signin")).toContain("<title>Log in / Register — Meta-Rank</title>");
    const zhPage = visible(await zh.html("/signin?tab=register"));
    expect(zhPage).toContain("<title>登录 / 注册 — Meta-Rank</title>");
    for (const label of ["用户名", "确认密码", "手机号码", "验证码"]) expect(zhPage).toContain(label);
    expect(zhPage).not.toContain("Confirm password");

    const bad = { phoneNumber: "12ab", checkPass: "other" };
    expect(alerts(await (await register(en, "x".repeat(201), bad)).text())).toEqual(
      expect.arrayContaining(["Username is too long!", "Please enter numbers!", "The passwords are different!"]),
    );
    expect(alerts(await (await register(zh, "x".repeat(201), bad)).text())).toEqual(
      expect.arrayContaining(["用户名过长！", "请输入数字！", "两次输入的密码不一致！"]),
    );

    const attempt = async (c: Client, username: string, code = CAPTCHA) =>
      alerts(await (await c.post("/signin", { intent: "login", username, password: "x", code, captchaId: await c.captchaId() })).text());
    expect(await attempt(en, "nobody-here")).toContain("User does not exist!");
    expect(await attempt(zh, "nobody-here")).toContain("用户不存在！");
    // The captcha alert is 验证码错误 (docs/product.md "Accounts and profile").
    expect(await attempt(zh, "nobody-here", "wrong")).toContain("验证码错误");
    expect(await attempt(en, "nobody-here", "wrong")).toContain("the verification code is wrong");
  });

  it("the notices that send a visitor to log in: 'Please log in first.' and the original site's token失效，请重新登录", async () => {
    const en = new Client(stack.baseUrl);
    const zh = await inLanguage(new Client(stack.baseUrl), "zh");
    expect(await en.html("/signin?notice=login-first")).toContain("Please log in first.");
    expect(await zh.html("/signin?notice=login-first")).toContain("请先登录。");
    expect(await en.html("/signin?notice=expired")).toContain("Your session has expired, please log in again.");
    expect(await zh.html("/signin?notice=expired")).toContain("token失效，请重新登录");
    // A registration from there comes back to log in on the same way.
    const res = await register(zh, "returning-user", { redirectTo: "/history" });
    expect(location(res)).toBe("/signin?tab=login&registered=1&redirectTo=%2Fhistory");
    const page = visible(await zh.html(location(res)!));
    expect(page).toContain("注册成功，现在可以登录了。");
    expect(page).toContain('name="redirectTo" value="/history"');
  });

  it("a form sent with an ended session returns, after log-in, to the page it was sent from", async () => {
    const c = await userClient(stack.baseUrl, "dialog-user");
    const stale = new Client(stack.baseUrl);
    stale.cookies = new Map(c.cookies);
    await c.post("/signout", {});
    // The edit dialog's page (?dialog=edit) sent the form: the Referer names it.
    const res = await stale.request("/profile", {
      method: "POST",
      body: new URLSearchParams({ intent: "edit", telephone: "13900139000", identify: "" }),
      headers: { Referer: `${stack.baseUrl}/profile?dialog=edit` },
    });
    expect(location(res)).toBe(`/signin?notice=expired-unsaved&redirectTo=${encodeURIComponent("/profile?dialog=edit")}`);
    // A Referer from another site is not followed: the form's own page stands in.
    const foreign = await stale.request("/profile", {
      method: "POST",
      body: new URLSearchParams({ intent: "edit", telephone: "" }),
      headers: { Referer: "https://evil.example/profile?dialog=edit" },
    });
    expect(location(foreign)).toBe("/signin?notice=expired-unsaved&redirectTo=%2Fprofile");
    await inLanguage(stale, "zh");
    expect(await stale.html(location(res)!)).toContain("token失效，请重新登录。您刚才提交的内容没有保存");
  });

  it("profile: the original site's Chinese words in Chinese, translations in English; a notice gives way to the next answer", async () => {
    const en = await userClient(stack.baseUrl, "bilingual");
    const zh = await inLanguage(new Client(stack.baseUrl), "zh");
    await login(zh, "bilingual");
    const pw = { intent: "password", oldPassword: "", newPassword: "a", confirmPassword: "b" };
    expect(alerts(await (await zh.post("/profile", pw)).text())).toEqual(expect.arrayContaining(["请输入密码", "两次输入密码不一致!"]));
    expect(alerts(await (await en.post("/profile", pw)).text())).toEqual(
      expect.arrayContaining(["Please enter the password", "The two passwords do not match!"]),
    );
    expect(visible(await (await zh.post("/profile", { intent: "edit", telephone: "", identify: "" })).text())).toContain("未修改！");
    expect(await zh.html("/profile?msg=modified")).toContain("修改成功！");
    // After "changed", a refused edit shows its own message only.
    const refused = visible(
      await (await en.request("/profile?msg=modified", { method: "POST", body: new URLSearchParams({ intent: "edit", telephone: "1" }) })).text(),
    );
    expect(refused).toContain("The phone number must be 11 digits!");
    expect(refused).not.toContain("Changed successfully!");
  });

  it("admin pages: server deletion's question, evaluation messages, the ranking's edit mode, times with their zone", async () => {
    const en = await adminClient(stack.baseUrl);
    const zh = await inLanguage(await adminClient(stack.baseUrl), "zh");
    await en.post("/admin/manage_server", { intent: "create", username: "lang-gpu", password: "pw", password2: "pw" });
    const id = (await en.html("/admin/manage_server")).match(/href="\/server_detail\/(\d+)">lang-gpu</)![1];
    expect(visible(await en.html(`/admin/manage_server?confirm=delete&only=${id}`))).toContain("Delete the selected servers: lang-gpu?");
    const zhStep = visible(await zh.html(`/admin/manage_server?confirm=delete&only=${id}`));
    expect(zhStep).toContain("删除所选服务器：lang-gpu？");
    expect(zhStep).toContain("此操作无法撤销");

    const start = { intent: "start", suite: "", method: "", limit: "0", params: "[1]" };
    expect(alerts(await (await en.post("/admin/evaluations", start)).text())).toEqual(
      expect.arrayContaining(["Please choose a suite.", "The image limit must be a whole number from 1 to 1000."]),
    );
    expect(alerts(await (await zh.post("/admin/evaluations", start)).text())).toEqual(
      expect.arrayContaining(["请选择一个评测套件。", "请选择一种归因方法。", "图像数量必须是 1 到 1000 之间的整数。"]),
    );

    const ranking = visible(await zh.html("/admin/ranking?edit=1"));
    for (const text of ["完成编辑", "已选择 0 个条目", "审计记录", "暂无修改。", "从公开排行榜中隐藏所选"]) expect(ranking).toContain(text);
    expect(visible(await en.html("/admin/ranking"))).toContain(">Edit<");

    const detail = visible(await zh.html(`/server_detail/${id}`));
    expect(detail).toContain("这台服务器从未发送过心跳，因此还没有监控数据。");
    expect(detail).toMatch(/data-testid="time-zone">\(UTC[+−]\d\d:\d\d\)</);
    expect(detail).toMatch(/时间轴：时:分，UTC[+−]\d\d:\d\d。/);
  });

  it("the admin area's 403 and 404 pages are translated", async () => {
    const user = await userClient(stack.baseUrl, "not-an-admin");
    let res = await user.get("/admin/manage_server");
    expect(res.status).toBe(403);
    expect(visible(await res.text())).toContain("Administrators only.");
    await inLanguage(user, "zh");
    res = await user.get("/admin/manage_server");
    expect(visible(await res.text())).toContain("仅限管理员。");
    const zhAdmin = await inLanguage(await adminClient(stack.baseUrl), "zh");
    res = await zhAdmin.get("/server_detail/999999");
    expect(res.status).toBe(404);
    expect(visible(await res.text())).toContain("没有这台服务器。");
  });
});
