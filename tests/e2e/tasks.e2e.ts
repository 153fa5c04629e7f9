// Tree training tasks in a real Chromium against the real stack (database, sidecar, built app),
// with JavaScript on and off (docs/tree-service.md "Training tasks and data parallelism"): the
// create form's first message, a tiny task created (创建成功 dialog), followed on My tasks until
// training completes, then every detail tab.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { userClient } from "../support/accounts.ts";
import { gotoHydrated, launchBrowser, newContext, signIn } from "./browser.ts";

let stack: Stack;
let browser: Browser;
let taskDir: string;
let treeDir: string;

beforeAll(async () => {
  taskDir = path.join(ROOT, `var/test/tasks_e2e_${process.pid}_${Date.now()}`);
  treeDir = path.join(ROOT, `var/test/trees_e2e_${process.pid}_${Date.now()}`);
  [stack, browser] = await Promise.all([
    startStack({ env: { ...process.env, TREE_TASK_DIR: taskDir, TREE_DIR: treeDir, SEED_FASHION_MNIST_PICTURES: "0", SEED_SCENES_PICTURES: "0" } }),
    launchBrowser(),
  ]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  for (const d of [taskDir, treeDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

async function signedIn(username: string, javaScriptEnabled: boolean): Promise<BrowserContext> {
  const client = await userClient(stack.baseUrl, username);
  const ctx = await newContext(browser, stack.baseUrl, javaScriptEnabled);
  await signIn(ctx, client, stack.baseUrl);
  return ctx;
}

async function fillTiny(page: Page, name: string) {
  await page.locator("#task-category").selectOption("ProtPTree");
  await page.locator("#task-name").fill(name);
  await page.locator("#task-dataset").selectOption("fashion-mnist");
  await page.locator("#task-depth").selectOption("8");
  await page.locator("#task-iterations").selectOption("100");
  await page.locator("#task-protoDim").selectOption("128");
  await page.locator("#task-arg-ProtPTree-train_size").fill("64");
  await page.locator("#task-arg-ProtPTree-test_size").fill("32");
  await page.locator("#task-arg-ProtPTree-batch_size").fill("8");
}

describe.each([true, false])("tree tasks with JavaScript %s", (js) => {
  it("creates a task, follows it on My tasks and opens every detail tab", async () => {
    const context = await signedIn(js ? "tasks-js" : "tasks-nojs", js);
    const page = await context.newPage();
    if (js) await gotoHydrated(page, "/task");
    else await page.goto("/task");
    await page.waitForURL(/\/task\/create_task/);
    // Nothing chosen: the category message first.
    await page.getByRole("button", { name: "Start training" }).click();
    await page.getByText("Failed to create the task!").waitFor();
    expect(await page.getByTestId("task-dialog").textContent()).toContain("Please choose the category of task to create");
    if (js) await page.getByRole("button", { name: "OK" }).click();
    else await page.getByRole("link", { name: "OK" }).click();
    await page.waitForURL(/\/task\/create_task$/);
    if (js) await page.waitForFunction(() => !document.querySelector('[data-testid="task-dialog"]'));
    const name = js ? "e2e-js" : "e2e-nojs";
    await fillTiny(page, name);
    await page.getByRole("button", { name: "Start training" }).click();
    await page.getByText("Created successfully").waitFor();
    if (js) await page.getByRole("button", { name: "OK" }).click();
    else await page.getByRole("link", { name: "OK" }).click();
    await page.waitForURL(/\/task\/my_tasks/);
    const row = page.locator("tr[data-task-id]", { hasText: name });
    await row.waitFor();
    // With JavaScript the list reloads itself; without it the refresh link does.
    const until = Date.now() + 240_000;
    while ((await row.getAttribute("data-state")) !== "completed" && Date.now() < until) {
      expect(await row.getAttribute("data-state")).not.toBe("failed");
      if (!js) {
        await page.waitForTimeout(2000);
        await page.reload();
      } else await page.waitForTimeout(1000);
    }
    expect(await row.getAttribute("data-state")).toBe("completed");
    expect(await row.textContent()).toContain("Training completed");
    await row.getByRole("link", { name, exact: true }).click();
    await page.waitForURL(/basic_task_info/);
    expect(await page.getByTestId("task-info").textContent()).toContain(`user:tasks-${js ? "js" : "nojs"}:${name}`);
    await page.getByRole("link", { name: "Training log" }).click();
    await page.getByTestId("training-log").waitFor();
    expect((await page.getByTestId("training-log").textContent())!.length).toBeGreaterThan(10);
    await page.getByRole("link", { name: "Curves" }).click();
    await page.getByTestId("curve-loss").locator("svg").first().waitFor();
    await page.getByRole("link", { name: "Images" }).click();
    await page.getByRole("heading", { name: "Images" }).waitFor();
    await page.getByRole("link", { name: "Training flow" }).click();
    await page.locator('[data-stage="training"][data-state="done"]').waitFor();

    // Deleting the finished task asks first (a dialog, or a step in the page without JavaScript):
    // Cancel keeps it, the question's own Delete removes it.
    if (js) await gotoHydrated(page, "/task/my_tasks");
    else await page.goto("/task/my_tasks");
    const question = js ? page.locator(".p-confirm-dialog") : page.getByTestId("confirm-delete-step");
    await row.getByRole("link", { name: `Delete the task ${name}` }).click();
    await question.getByText(`Delete the task “${name}”?`).waitFor();
    expect(await row.count()).toBe(1);
    if (js) await question.getByRole("button", { name: "Cancel" }).click();
    else await question.getByRole("link", { name: "Cancel" }).click();
    await question.waitFor({ state: "detached" });
    expect(await row.getAttribute("data-state")).toBe("completed");
    await row.getByRole("link", { name: `Delete the task ${name}` }).click();
    await question.getByRole("button", { name: "Delete" }).click();
    await page.getByText("Deleted successfully").waitFor();
    await row.waitFor({ state: "detached" });
    await context.close();
  }, 400_000);
});
