// Accounts in a real Chromium: the journey with JavaScript on, register + login with it off.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startStack, CAPTCHA, type Stack } from "../support/stack.ts";
import { Client } from "../support/client.ts";
import { register } from "../support/accounts.ts";
import { gotoHydrated, launchBrowser, newContext } from "./browser.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ sidecar: false }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function registerAndLogin(javaScriptEnabled: boolean, username: string) {
  const ctx = await newContext(browser, stack.baseUrl, javaScriptEnabled);
  const page = await ctx.newPage();
  await page.goto("/signin");
  await page.getByRole("tab", { name: "Register" }).click();
  await page.waitForURL(/tab=register/);
  const form = page.getByRole("form", { name: "Register" });
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Password", { exact: true }).fill("pw-123456");
  await form.getByLabel("Confirm password").fill("pw-123456");
  await form.getByLabel("Phone number").fill("13800138000");
  await form.getByLabel("University / Institute").fill("Chromium Institute");
  await form.getByRole("textbox", { name: "Verification code" }).fill(CAPTCHA);
  await form.getByRole("button", { name: "Register" }).click();
  await page.waitForURL(/registered=1/);
  await page.getByText("Register successfully, now you can log in.").waitFor({ state: "visible" });
  const login = page.getByRole("form", { name: "Log in" });
  await login.getByLabel("Username").fill(username);
  await login.getByLabel("Password").fill("pw-123456");
  await login.getByRole("textbox", { name: "Verification code" }).fill(CAPTCHA);
  await login.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL(/\/homepage$/);
  return { ctx, page };
}

describe("accounts in Chromium", () => {
  it("journey with JavaScript on: on-blur checks, register, login, profile, password, sign out", async () => {
    const ctx = await newContext(browser, stack.baseUrl, true);
    const page = await ctx.newPage();
    await gotoHydrated(page, "/signin?tab=register");
    const form = page.getByRole("form", { name: "Register" });
    await form.getByLabel("Phone number").fill("12ab");
    await form.getByLabel("Username").focus(); // blur the phone field
    await page.getByText("Please enter numbers!").waitFor({ state: "visible" });
    await ctx.close();

    const { page: p } = await registerAndLogin(true, "js-user");
    expect(await p.locator(".user-menu summary").innerText()).toContain("js-user");
    await gotoHydrated(p, "/profile");
    expect(await p.getByTestId("profile-authority").innerText()).toBe("User");
    await p.getByRole("link", { name: "Edit Profile" }).click();
    const dialog = p.getByRole("dialog");
    await dialog.getByLabel("Phone number").fill("13912345678");
    await dialog.getByRole("button", { name: "Save" }).click();
    await p.getByText("Changed successfully!").waitFor();
    expect(await p.getByTestId("profile-phone").innerText()).toBe("13912345678");

    await p.getByRole("link", { name: "Change password" }).click();
    const pw = p.getByRole("dialog");
    await pw.getByLabel("Old password").fill("wrong-old");
    await pw.getByLabel("New password", { exact: true }).fill("pw-654321");
    await pw.getByLabel("Confirm new password").fill("pw-654321");
    await pw.getByRole("button", { name: "Change password" }).click();
    await p.getByText("The old password is wrong!").waitFor();
    await pw.getByLabel("Old password").fill("pw-123456");
    await pw.getByRole("button", { name: "Change password" }).click();
    await p.getByText("Changed successfully!").waitFor();

    await p.locator(".user-menu summary").click();
    await p.getByRole("button", { name: "Sign out" }).click();
    await p.waitForURL(/\/homepage$/);
    await p.getByRole("link", { name: "Log in / Register" }).waitFor({ state: "visible" });
    await p.goto("/history");
    await p.waitForURL(/\/signin\?notice=login-first/);
    await p.getByText("Please log in first.").waitFor({ state: "visible" });
  });

  it("register and login with JavaScript disabled", async () => {
    const { page, ctx } = await registerAndLogin(false, "nojs-user");
    await page.goto("/profile");
    expect(await page.getByTestId("profile-username").innerText()).toBe("nojs-user");
    expect(await page.getByTestId("profile-institute").innerText()).toBe("Chromium Institute");
    // Server-rendered validation without JavaScript.
    const anon = await newContext(browser, stack.baseUrl, false);
    const p2 = await anon.newPage();
    await p2.goto("/signin?tab=register");
    await p2.getByRole("form", { name: "Register" }).getByRole("button", { name: "Register" }).click();
    // waitFor, not isVisible: a form POST without JavaScript may still be rendering the answer.
    await p2.getByText("Please enter your Username.").waitFor({ state: "visible" });
    await p2.getByText("Please enter your phone number.").waitFor({ state: "visible" });
    await ctx.close();
    await anon.close();
  });

  it("with JavaScript a refused log-in brings a fresh captcha, so the next attempt can succeed", async () => {
    const { ctx } = await registerAndLogin(true, "captcha-user");
    await ctx.close();
    const c2 = await newContext(browser, stack.baseUrl, true);
    const page = await c2.newPage();
    await gotoHydrated(page, "/signin");
    const login = page.getByRole("form", { name: "Log in" });
    const picture = login.getByRole("img", { name: "verification code" });
    const firstId = await login.locator('input[name="captchaId"]').inputValue();
    const firstSrc = await picture.getAttribute("src");
    // A PNG drawn on the server, and the proof of work found by the page's script while the person
    // types (app/lib/captchaWork.ts; docs/security.md "Captcha"): the form carries the number.
    expect(firstSrc).toMatch(/^data:image\/png;base64,/);
    const work = login.locator('input[name="captchaWork"]');
    await expect.poll(() => work.inputValue(), { timeout: 20_000 }).toMatch(/^\d+$/);
    await login.getByLabel("Username").fill("captcha-user");
    await login.getByLabel("Password").fill("wrong-password");
    await login.getByRole("textbox", { name: "Verification code" }).fill(CAPTCHA);
    await login.getByRole("button", { name: "Log in" }).click();
    await page.getByText("Wrong username or password!").waitFor();
    // A new captcha (id and picture), and its answer field starts empty. The message comes with the
    // action's reply and the new captcha with the loaders' revalidation just after it: wait for it.
    await expect.poll(() => login.locator('input[name="captchaId"]').inputValue(), { timeout: 15_000 }).not.toBe(firstId);
    await expect.poll(() => picture.getAttribute("src"), { timeout: 15_000 }).not.toBe(firstSrc);
    expect(await login.getByRole("textbox", { name: "Verification code" }).inputValue()).toBe("");
    // The new captcha's work is found again; the server refuses a number for another captcha, so
    // the log-in below passes only with this one's.
    await expect.poll(() => work.inputValue(), { timeout: 20_000 }).toMatch(/^\d+$/);
    await login.getByLabel("Password").fill("pw-123456");
    await login.getByRole("textbox", { name: "Verification code" }).fill(CAPTCHA);
    await login.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(/\/homepage$/);
    await c2.close();
  });

  it("with JavaScript a refused registration brings a fresh captcha, so the second attempt succeeds without a reload", async () => {
    // The name is taken, which the server finds only after the captcha was spent.
    expect((await register(new Client(stack.baseUrl), "taken-name")).status).toBe(302);
    const ctx = await newContext(browser, stack.baseUrl, true);
    const page = await ctx.newPage();
    await gotoHydrated(page, "/signin?tab=register");
    // Gone if the page reloads: the second attempt must happen in this same document.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const form = page.getByRole("form", { name: "Register" });
    const picture = form.getByRole("img", { name: "verification code" });
    const captchaId = () => form.locator('input[name="captchaId"]').inputValue();
    const firstId = await captchaId();
    const firstSrc = await picture.getAttribute("src");
    await form.getByLabel("Username").fill("taken-name");
    await form.getByLabel("Password", { exact: true }).fill("pw-123456");
    await form.getByLabel("Confirm password").fill("pw-123456");
    await form.getByLabel("Phone number").fill("13800138000");
    await form.getByLabel("University / Institute").fill("Chromium Institute");
    await form.getByRole("textbox", { name: "Verification code" }).fill(CAPTCHA);
    await form.getByRole("button", { name: "Register" }).click();
    await page.getByText("This username is already registered.").first().waitFor();
    // A new captcha (id and picture) arrives with the loaders' revalidation after the reply.
    await expect.poll(captchaId, { timeout: 15_000 }).not.toBe(firstId);
    await expect.poll(() => picture.getAttribute("src"), { timeout: 15_000 }).not.toBe(firstSrc);
    expect(await form.getByRole("textbox", { name: "Verification code" }).inputValue()).toBe("");
    await form.getByLabel("Username").fill("second-try");
    await form.getByRole("textbox", { name: "Verification code" }).fill(CAPTCHA);
    await form.getByRole("button", { name: "Register" }).click();
    await page.waitForURL(/registered=1/);
    await page.getByText("Register successfully, now you can log in.").waitFor({ state: "visible" });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await ctx.close();
  });

  it("with JavaScript the captcha's proof of work survives the form's re-renders and goes with the registration", async () => {
    // A hidden input's value is its default value: with a defaultValue prop React wrote "" back on
    // every re-render (an on-blur check, choosing Administrators), the number was gone, and the form
    // was sent as one without JavaScript, spending the address's no-JavaScript allowance.
    const ctx = await newContext(browser, stack.baseUrl, true);
    const page = await ctx.newPage();
    await gotoHydrated(page, "/signin?tab=register");
    const form = page.getByRole("form", { name: "Register" });
    const work = form.locator('input[name="captchaWork"]');
    await expect.poll(() => work.inputValue(), { timeout: 20_000 }).toMatch(/^\d+$/);
    const found = await work.inputValue();
    await form.getByLabel("Username").focus();
    await form.getByLabel("Password", { exact: true }).focus(); // blur the empty username: a re-render
    await page.getByText("Please enter your Username.").waitFor({ state: "visible" });
    await form.getByLabel("Authority").selectOption("1");
    await form.getByLabel("Authority").selectOption("0");
    expect(await work.inputValue()).toBe(found);
    await form.getByLabel("Username").fill("work-kept");
    await form.getByLabel("Password", { exact: true }).fill("pw-123456");
    await form.getByLabel("Confirm password").fill("pw-123456");
    await form.getByLabel("Phone number").fill("13800138000");
    await form.getByRole("textbox", { name: "Verification code" }).fill(CAPTCHA);
    const sent = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname.startsWith("/signin"));
    await form.getByRole("button", { name: "Register" }).click();
    expect(new URLSearchParams((await sent).postData() ?? "").get("captchaWork")).toBe(found);
    await page.waitForURL(/registered=1/);
    await ctx.close();
  });

  it("without JavaScript too, the admin register code shows only when Administrators is chosen (a :has() rule)", async () => {
    const ctx = await newContext(browser, stack.baseUrl, false);
    const page = await ctx.newPage();
    await page.goto("/signin?tab=register");
    const form = page.getByRole("form", { name: "Register" });
    const code = form.getByLabel("Admin register code (Administrators only)");
    expect(await code.isVisible()).toBe(false);
    await form.getByLabel("Authority").selectOption("1");
    await code.waitFor({ state: "visible" });
    await form.getByLabel("Authority").selectOption("0");
    await code.waitFor({ state: "hidden" });
    await ctx.close();
  });

  it("a form sent with an ended session: the original site's message, and log-in returns to the page it was sent from (?dialog=edit)", async () => {
    const { ctx, page } = await registerAndLogin(true, "expiring-user");
    await gotoHydrated(page, "/profile?dialog=edit");
    // The session ends elsewhere (signed out with the same cookie); this page still has the old one.
    const other = new Client(stack.baseUrl);
    other.cookies.set("mr_session", (await ctx.cookies()).find((c) => c.name === "mr_session")!.value);
    expect((await other.post("/signout", {})).status).toBe(302);
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Phone number").fill("13900001111");
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/signin\?notice=expired-unsaved/);
    await page.getByText("Your session has expired, please log in again. What you sent was not saved", { exact: false }).waitFor();
    const login = page.getByRole("form", { name: "Log in" });
    await login.getByLabel("Username").fill("expiring-user");
    await login.getByLabel("Password").fill("pw-123456");
    await login.getByRole("textbox", { name: "Verification code" }).fill(CAPTCHA);
    await login.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL(/\/profile\?dialog=edit$/);
    await page.getByRole("dialog").getByLabel("Phone number").waitFor();
    await ctx.close();
  });
});

describe("sign-in details in Chromium", () => {
  it("with JavaScript, a failed log-in gets a fresh captcha; the admin code shows only for administrators", async () => {
    const ctx = await newContext(browser, stack.baseUrl, true);
    const page = await ctx.newPage();
    await gotoHydrated(page, "/signin");
    const login = page.getByRole("form", { name: "Log in" });
    const captcha = () => login.locator('input[name="captchaId"]').inputValue();
    const before = await captcha();
    await login.getByLabel("Username").fill("nobody-here");
    await login.getByLabel("Password").fill("whatever");
    await login.getByRole("textbox", { name: "Verification code" }).fill(CAPTCHA);
    await login.getByRole("button", { name: "Log in" }).click();
    await page.getByText("User does not exist!").waitFor();
    await expect.poll(captcha).not.toBe(before);
    await page.getByRole("tab", { name: "Register" }).click();
    await page.waitForURL(/tab=register/);
    const code = page.getByLabel("Admin register code (Administrators only)");
    expect(await code.isVisible()).toBe(false);
    await page.getByLabel("Authority").selectOption("1");
    await code.waitFor({ state: "visible" });
    await ctx.close();
  });
});
