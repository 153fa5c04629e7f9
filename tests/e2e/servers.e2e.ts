// Server pages in Chromium: an admin creates a server entry in the dialog, a sidecar with a
// fake nvidia-smi registers with it, and the detail page draws six react-vis charts (React 18)
// that refresh every 10 s and stop refreshing once the page is left. Without JavaScript the
// charts are server-rendered and the refresh link reloads them.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { ROOT, freePort, startStack, type Stack } from "../support/stack.ts";
import { adminClient } from "../support/accounts.ts";
import { gotoHydrated, launchBrowser, newContext, wholePage } from "./browser.ts";

let stack: Stack;
let browser: Browser;
let sidecar: ChildProcess | null = null;
let sessionCookie = "";
let serverId = "";

function startSidecar(port: number, name: string, password: string) {
  const env: NodeJS.ProcessEnv = {
    ...stack.env,
    PATH: `${path.join(ROOT, "tests/fixtures/nvidia-smi/bin")}${path.delimiter}${process.env.PATH}`,
    FAKE_NVIDIA_SMI_SCENARIO: "multi-gpu",
    SIDECAR_PORT: String(port),
    SIDECAR_HOST: "127.0.0.1",
    SIDECAR_ADVERTISE_ADDRESS: `127.0.0.1:${port}`,
    APP_URL: stack.baseUrl,
    SIDECAR_NAME: name,
    SIDECAR_PASSWORD: password,
    HEARTBEAT_INTERVAL_MS: "1000",
    TELEMETRY_INTERVAL_MS: "1000",
    METRICS_PORT: "0",
  };
  delete env.NVIDIA_SMI;
  return spawn(process.execPath, ["--import", "tsx", "sidecar/main.ts"], { cwd: ROOT, env, stdio: "ignore" });
}

async function adminContext(javaScriptEnabled: boolean): Promise<BrowserContext> {
  const ctx = await newContext(browser, stack.baseUrl, javaScriptEnabled);
  await ctx.addCookies([{ name: "mr_session", value: sessionCookie, url: stack.baseUrl }]);
  return ctx;
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ sidecar: false }), launchBrowser()]);
  const admin = await adminClient(stack.baseUrl);
  sessionCookie = admin.cookies.get("mr_session")!;
});
afterAll(async () => {
  sidecar?.kill("SIGTERM");
  await browser?.close();
  await stack?.stop();
});

describe("server pages in Chromium", () => {
  it("creates a server in the dialog; its sidecar comes online", async () => {
    const ctx = await adminContext(true);
    const page = await ctx.newPage();
    await gotoHydrated(page, "/admin");
    await page.waitForURL(/\/admin\/manage_server$/);
    await page.getByTestId("new-server").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Server name").fill("gpu-e2e");
    await dialog.getByLabel("Password", { exact: true }).fill("e2e-pass");
    await dialog.getByLabel("Confirm password").fill("nope");
    await dialog.getByRole("button", { name: "Create" }).click();
    await dialog.getByText("The two passwords differ").waitFor();
    await dialog.getByLabel("Password", { exact: true }).fill("e2e-pass");
    await dialog.getByLabel("Confirm password").fill("e2e-pass");
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.getByText("Created successfully").waitFor();
    const row = page.getByTestId("server-gpu-e2e");
    expect(await row.getAttribute("data-online")).toBe("false");
    serverId = (await row.getByRole("link", { name: "gpu-e2e" }).getAttribute("href"))!.split("/").pop()!;

    sidecar = startSidecar(await freePort(), "gpu-e2e", "e2e-pass");
    await page.waitForFunction(
      async () => (await (await fetch("/admin/manage_server")).text()).includes('data-testid="server-gpu-e2e" data-online="true"'),
      null,
      { timeout: 60_000, polling: 500 },
    );
    // Online and offline read apart at a glance: the two badges' classes draw different colours
    // (the theme's severity colours were once overridden by one indigo for every tag).
    expect(await page.getByTestId("server-local").getByTestId("online-state").getAttribute("class")).toContain("p-tag-secondary");
    const [online, offline] = await page.evaluate(() =>
      ["p-tag-success", "p-tag-secondary"].map((severity) => {
        const tag = document.createElement("span");
        tag.className = `p-tag ${severity}`;
        document.body.append(tag);
        const colour = getComputedStyle(tag).backgroundColor;
        tag.remove();
        return colour;
      }),
    );
    expect(online).not.toBe(offline);
    await ctx.close();
  });

  it("draws six charts, refreshes them every 10 s, and stops when the page is left", async () => {
    const ctx = await adminContext(true);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // A hydration mismatch (e.g. tick labels formatted differently in the browser) shows up here.
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    const polls: number[] = [];
    page.on("request", (r) => {
      if (r.url().includes(`/server_detail/${serverId}.data`)) polls.push(Date.now());
    });
    await page.goto(`/server_detail/${serverId}`);
    await page.getByTestId("chart-memoryMiB").locator("svg").waitFor();
    expect(await page.getByTestId("server-charts").locator("figure").count()).toBe(6);
    expect(await page.locator(".rv-xy-plot svg").count()).toBe(5); // fan is [N/A] on GPU 0: "unknown"
    expect(await page.getByTestId("latest-fan").textContent()).toBe("unknown");
    expect(await page.getByTestId("driver-version").textContent()).toBe("535.161.08");
    expect(await page.getByTestId("cuda-version").textContent()).toBe("12.2");
    // hours:minutes ticks, and react-vis's stylesheet is applied (the plot box is positioned by it).
    expect(await page.locator(".rv-xy-plot__axis--horizontal .rv-xy-plot__axis__tick__text").first().textContent()).toMatch(/^\d\d:\d\d$/);
    expect(
      await page
        .locator(".rv-xy-plot")
        .first()
        .evaluate((el) => getComputedStyle(el).position),
    ).toBe("relative");

    const firstLoad = await page.getByTestId("loaded-at").textContent();
    const firstPoints = Number(await page.getByTestId("chart-memoryMiB").getAttribute("data-points"));
    await page.waitForFunction((t) => document.querySelector('[data-testid="loaded-at"]')?.textContent !== t, firstLoad, { timeout: 15_000, polling: 250 });
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(Number(await page.getByTestId("chart-memoryMiB").getAttribute("data-points"))).toBeGreaterThan(firstPoints);
    expect(await page.locator(".rv-xy-plot svg").count()).toBe(5);

    // Leave the page (a client navigation): no more polls of the detail data.
    await page.getByRole("link", { name: "← Server management" }).click();
    await page.waitForURL(/\/admin\/manage_server$/);
    const pollsWhenLeft = polls.length;
    await page.waitForTimeout(11_500);
    expect(polls.length).toBe(pollsWhenLeft);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it("without JavaScript: server-rendered charts and a refresh link", async () => {
    const ctx = await adminContext(false);
    const page = await ctx.newPage();
    await page.goto(`/server_detail/${serverId}`);
    expect(await page.locator(".rv-xy-plot svg").count()).toBe(5);
    expect(await page.locator(".rv-xy-plot__series--line").count()).toBe(5);
    const before = await page.getByTestId("chart-memoryMiB").getAttribute("data-points");
    await page.waitForTimeout(1500);
    await page.getByTestId("refresh-link").click();
    await page.waitForLoadState("load");
    expect(Number(await page.getByTestId("chart-memoryMiB").getAttribute("data-points"))).toBeGreaterThan(Number(before));
    await ctx.close();
  });
});

describe("deleting servers asks first", () => {
  async function createEntry(name: string) {
    const admin = await adminClient(stack.baseUrl);
    const res = await admin.post("/admin/manage_server", { intent: "create", username: name, password: "pw-1", password2: "pw-1" });
    expect(res.status).toBe(302);
  }

  it("with JavaScript: a PrimeReact ConfirmDialog; Cancel keeps the server, Delete removes it", async () => {
    await createEntry("doomed-js");
    const ctx = await adminContext(true);
    const page = await ctx.newPage();
    await gotoHydrated(page, "/admin/manage_server");
    const row = page.getByTestId("server-doomed-js");
    await row.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Delete selected" }).click();
    const dialog = page.locator(".p-confirm-dialog");
    await dialog.getByText("Delete the selected servers: doomed-js?").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.waitForURL(/\/admin\/manage_server$/);
    expect(await row.count()).toBe(1);

    await row.getByRole("button", { name: "Delete doomed-js" }).click();
    await dialog.getByText("Delete the selected servers: doomed-js?").waitFor();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.getByText("Deleted successfully").waitFor();
    await row.waitFor({ state: "detached" });
    await ctx.close();
  });

  it("without JavaScript: a confirmation step in the page", async () => {
    await createEntry("doomed-nojs");
    const ctx = await adminContext(false);
    const page = await ctx.newPage();
    await page.goto("/admin/manage_server");
    await page.getByTestId("server-doomed-nojs").getByRole("button", { name: "Delete doomed-nojs" }).click();
    const step = page.getByTestId("confirm-delete-step");
    await step.getByText("Delete the selected servers: doomed-nojs?").waitFor();
    await wholePage(page);
    // Nothing is deleted yet.
    expect(await page.getByTestId("server-doomed-nojs").count()).toBe(1);
    await step.getByRole("button", { name: "Delete" }).click();
    await page.getByText("Deleted successfully").waitFor();
    await wholePage(page);
    expect(await page.getByTestId("server-doomed-nojs").count()).toBe(0);
    await ctx.close();
  });
});
