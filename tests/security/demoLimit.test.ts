// The demo pages rate-limit per visitor (docs/security.md "Limits chosen"): a visitor who used up
// their allowance gets a clear message (429) instead of more compute; results already computed stay
// available.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, alerts, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";

let stack: Stack;
const uploadDir = path.join(ROOT, `var/test/uploads_demo_${process.pid}_${Date.now()}`);
const ids = (html: string) => [...html.matchAll(/data-picture-id="(\d+)"/g)].map((m) => Number(m[1]));

beforeAll(async () => {
  stack = await startStack({ env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "20", SEED_SCENES_PICTURES: "8", DEMO_RUNS: "2" } });
});
afterAll(async () => {
  await stack?.stop();
  fs.rmSync(uploadDir, { recursive: true, force: true });
});

describe(`demo rate limit on ${process.env.TEST_DB}`, () => {
  it("after DEMO_RUNS explanations a visitor waits; a cached result is still served; another visitor is not affected", async () => {
    const carl = await userClient(stack.baseUrl, "demo-carl");
    const fashion = Number((await carl.html("/UserImgclassification?type=name&q=fashion")).match(/data-dataset-id="(\d+)"/)![1]);
    const [p1, p2, p3] = ids(await carl.html(`/UserImgclassification?dataset=${fashion}`));
    const run = (c: Client, picture: number) =>
      c.post(`/UserImgclassification?dataset=${fashion}&picture=${picture}`, {
        intent: "run",
        model: "resnet-fashion-mnist",
        algorithm: "IG",
        picture: String(picture),
      });
    expect((await run(carl, p1)).status).toBe(302);
    expect((await run(carl, p2)).status).toBe(302);
    const third = await run(carl, p3);
    expect(third.status).toBe(429);
    expect(alerts(await third.text()).join(" ")).toContain("Please try again in");
    // The first result again: from the cache, no compute spent.
    const again = await run(carl, p1);
    expect(again.status).toBe(302);
    expect(location(again)).toContain("ok=1");
    const dora = await userClient(stack.baseUrl, "demo-dora");
    expect((await run(dora, p3)).status).toBe(302);
  });
});
