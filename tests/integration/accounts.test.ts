// The accounts journey against the real app, sidecar and database (TEST_DB=sqlite|mariadb).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, CAPTCHA, ADMIN_CODE, ADMIN, type Stack } from "../support/stack.ts";
import { Client, alerts, location } from "../support/client.ts";
import { login, register } from "../support/accounts.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe(`accounts on ${process.env.TEST_DB}`, () => {
  it("register → login → profile edit → password change → logout", async () => {
    const c = new Client(stack.baseUrl);
    const reg = await register(c, "alice");
    expect(reg.status).toBe(302);
    expect(location(reg)).toBe("/signin?tab=login&registered=1");
    expect(await c.html("/signin?tab=login&registered=1")).toContain("Register successfully, now you can log in.");

    await login(c, "alice");
    let profile = await c.html("/profile");
    expect(profile).toContain('data-testid="profile-username">alice<');
    expect(profile).toContain('data-testid="profile-authority">User<');

    // Nothing given → 未修改！; a bad phone → the registration form's phone message (docs/product.md "Accounts and profile"); a good one → 修改成功！
    expect(await (await c.post("/profile", { intent: "edit", telephone: "", identify: "" })).text()).toContain("Nothing was changed!");
    expect(alerts(await (await c.post("/profile", { intent: "edit", telephone: "12ab" })).text())).toContain("Please enter numbers!");
    const edit = await c.post("/profile", { intent: "edit", telephone: "13911112222" });
    expect(location(edit)).toBe("/profile?msg=modified");
    profile = await c.html("/profile?msg=modified");
    expect(profile).toContain("Changed successfully!");
    expect(profile).toContain('data-testid="profile-phone">13911112222<');

    // Password change needs the old password and fails visibly when it is wrong.
    const wrong = await c.post("/profile", { intent: "password", oldPassword: "nope", newPassword: "new-pass-2", confirmPassword: "new-pass-2" });
    expect(wrong.status).toBe(400);
    expect(alerts(await wrong.text())).toContain("The old password is wrong!");
    const mismatch = await c.post("/profile", { intent: "password", oldPassword: "secret-pass-1", newPassword: "a", confirmPassword: "b" });
    expect(alerts(await mismatch.text())).toContain("The two passwords do not match!");
    const ok = await c.post("/profile", { intent: "password", oldPassword: "secret-pass-1", newPassword: "new-pass-2", confirmPassword: "new-pass-2" });
    expect(location(ok)).toBe("/profile?msg=modified");

    // Sign out ends the session on the server: the old cookie no longer works.
    const stolen = new Client(stack.baseUrl);
    stolen.cookies = new Map(c.cookies);
    const out = await c.post("/signout", {});
    expect(location(out)).toBe("/homepage");
    const after = await stolen.get("/profile");
    expect(after.status).toBe(302);
    expect(location(after)).toBe("/signin?notice=expired&redirectTo=%2Fprofile");

    // Old password is gone, the new one works.
    const c2 = new Client(stack.baseUrl);
    const captchaId = await c2.captchaId();
    const bad = await c2.post("/signin", { intent: "login", username: "alice", password: "secret-pass-1", code: CAPTCHA, captchaId });
    expect(alerts(await bad.text())).toContain("Wrong username or password!");
    await login(c2, "alice", "new-pass-2");
  });

  it("register rules are enforced on the server", async () => {
    const c = new Client(stack.baseUrl);
    const res = await register(c, "x".repeat(201), { phoneNumber: "123", checkPass: "other" });
    expect(res.status).toBe(400);
    const msgs = alerts(await res.text());
    expect(msgs).toEqual(expect.arrayContaining(["Username is too long!", "The phone number must be 11 digits!", "The passwords are different!"]));
    await register(c, "dup-user");
    const dup = await register(c, "dup-user");
    expect(alerts(await dup.text())).toContain("This username is already registered.");
  });

  it("the admin role needs the server's admin register code", async () => {
    const c = new Client(stack.baseUrl);
    const bad = await register(c, "wannabe", { authority: "1", checkAdministrator: "guess" });
    expect(alerts(await bad.text())).toContain("The admin register code is wrong!");
    const good = await register(c, "real-admin", { authority: "1", checkAdministrator: ADMIN_CODE });
    expect(good.status).toBe(302);
    await login(c, "real-admin");
    expect(await c.html("/profile")).toContain('data-testid="profile-authority">Admin<');
  });

  it("a user cannot promote themselves without the code", async () => {
    const c = new Client(stack.baseUrl);
    await register(c, "bob");
    await login(c, "bob");
    const res = await c.post("/profile", { intent: "edit", identify: "1" });
    expect(res.status).toBe(400);
    expect(alerts(await res.text())).toContain("The admin register code is wrong!");
    expect(await c.html("/profile")).toContain('data-testid="profile-authority">User<');
    // …and admin pages stay closed to them.
    for (const path of ["/approval", "/admin", "/user"]) expect((await c.get(path)).status, path).toBe(403);
  });

  it("a user calling an admin action gets 403", async () => {
    const c = new Client(stack.baseUrl);
    await register(c, "carol");
    await login(c, "carol");
    const res = await c.post("/approval", { intent: "approve", id: "1" });
    expect(res.status).toBe(403);
  });

  it("anonymous visitors are sent to log in", async () => {
    const c = new Client(stack.baseUrl);
    for (const path of ["/submission", "/history", "/profile", "/approval"]) {
      const res = await c.get(path);
      expect(res.status, path).toBe(302);
      expect(location(res), path).toMatch(/^\/signin\?notice=login-first/);
    }
    expect(await c.html("/signin?notice=login-first")).toContain("Please log in first.");
  });

  it("forged and replayed captchas are refused", async () => {
    const c = new Client(stack.baseUrl);
    await register(c, "dave");
    const forged = await c.post("/signin", { intent: "login", username: "dave", password: "secret-pass-1", code: CAPTCHA, captchaId: "0".repeat(32) });
    expect(alerts(await forged.text())).toContain("the verification code is wrong");
    const captchaId = await c.captchaId();
    const first = await c.post("/signin", { intent: "login", username: "dave", password: "secret-pass-1", code: CAPTCHA, captchaId });
    expect(first.status).toBe(302);
    const replay = await new Client(stack.baseUrl).post("/signin", { intent: "login", username: "dave", password: "secret-pass-1", code: CAPTCHA, captchaId });
    expect(replay.status).toBe(400);
    expect(alerts(await replay.text())).toContain("the verification code is wrong");
  });

  it("login messages and throttling", async () => {
    const c = new Client(stack.baseUrl);
    const attempt = async (username: string, password: string) =>
      alerts(await (await c.post("/signin", { intent: "login", username, password, code: CAPTCHA, captchaId: await c.captchaId() })).text());
    expect(await attempt("nobody-here", "x")).toContain("User does not exist!");
    await register(c, "erin");
    for (let i = 0; i < 5; i++) expect(await attempt("erin", "bad")).toContain("Wrong username or password!");
    const locked = await attempt("erin", "secret-pass-1");
    expect(locked.join(" ")).toMatch(/Too many failed log-ins/);
  });

  it("the seeded administrator can log in", async () => {
    const c = new Client(stack.baseUrl);
    await login(c, ADMIN.username, ADMIN.password);
    expect(await c.html("/profile")).toContain('data-testid="profile-authority">Admin<');
  });
});
