import { startStack } from "./tests/support/stack.ts";
import { Client } from "./tests/support/client.ts";
import { chromium } from "playwright-core";
const stack = await startStack({ env: { UPLOAD_DIR: "/tmp/shot_uploads", SEED_INSPECTION_RUN: "1", SEED_INSPECTION_PICTURES: "12", SEED_FASHION_MNIST_PICTURES: "4", SEED_SCENES_PICTURES: "4" } });
try {
  const c = new Client(stack.baseUrl);
  for (let i = 0; i < 200 && !/data-state="completed"/.test(await c.html("/twodresult")); i++) await new Promise((r) => setTimeout(r, 500));
  const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  const p = await b.newPage({ viewport: { width: 1280, height: 900 } });
  await p.goto(stack.baseUrl + "/twodresult"); await p.waitForTimeout(1000);
  await p.screenshot({ path: "/tmp/cr/page.png", fullPage: true });
  const html = await c.html("/twodresult"); const id = html.match(/details=(\d+)/)![1]; const run = html.match(/Run #(\d+)/)![1];
  await p.goto(`${stack.baseUrl}/twodresult?run=${run}&details=${id}`); await p.waitForTimeout(1500);
  await p.screenshot({ path: "/tmp/cr/dialog.png" });
  await b.close();
} finally { await stack.stop(); }
