// The VOC-style multi-label demo in a real Chromium against the real stack (database, sidecar,
// built app), with JavaScript on and off: the messages in order (model, algorithm, image: docs/product.md "Multi-label"),
// a pool picture (red border) → start → five ranked classes with probabilities → explain one →
// its attribution map, the page naming the data and the model that produced what it shows.
import { describe, expect, it } from "vitest";
import { wholePage } from "./browser.ts";
import { demoStackAndBrowser, imageLoaded } from "./demoStack.ts";

// The stack, the browser and the signed-in contexts: the dense-prediction demos' shared frame.
const { signedIn } = demoStackAndBrowser("voc", { SEED_FASHION_MNIST_PICTURES: "8", SEED_SCENES_PICTURES: "8", SEED_SEG_SCENES_PICTURES: "20" });
const loaded = imageLoaded;

describe.each([true, false])("VOC-style multi-label demo with JavaScript %s", (js) => {
  it("walks pool picture → start → five ranked classes → explain one → its map", async () => {
    const context = await signedIn(js ? "voc-js" : "voc-nojs", js);
    const page = await context.newPage();
    await page.goto("/voc");
    // Without Pascal VOC installed the page says which data and model it serves instead.
    expect(await page.getByTestId("served-data").innerText()).toMatch(/Pascal VOC is not installed on this server .* VOC_DIR/);
    expect(await page.getByTestId("image-pool").locator("a.ds-tile").count()).toBe(12);
    const start = page.getByRole("button", { name: "Start inference" });
    // The checks' order: model, algorithm, image.
    await start.click();
    await page.getByText("Please choose the model to use").waitFor();
    await page.locator("#model").selectOption({ index: 1 });
    expect(await page.locator("#model option").nth(1).innerText()).toBe("ResNet18 (trained on seg-scenes-multilabel)");
    await start.click();
    await page.getByText("Please choose the algorithm to use").waitFor();
    await page.locator("#model").selectOption({ index: 1 });
    await page.locator("#algorithm").selectOption(js ? "Feature_Ablation" : "LIME");
    await start.click();
    await page.getByText("Please choose the image to explain").waitFor();
    // Pick a picture: red border on it.
    await page.getByTestId("image-pool").locator("a.ds-tile").nth(2).click();
    await page.waitForURL(/picture=\d+/);
    await page.locator(".ds-tile.picked").waitFor();
    await page.locator("#model").selectOption({ index: 1 });
    await page.locator("#algorithm").selectOption(js ? "Feature_Ablation" : "LIME");
    await page.getByRole("button", { name: "Start inference" }).click();
    await page.waitForURL(/ranking=\d+/, { timeout: 120_000 });
    const rows = page.getByTestId("ranked-classes").locator("tbody tr");
    // With JavaScript the address changes before the new page has rendered: wait for the table.
    await rows.first().waitFor();
    await wholePage(page);
    expect(await rows.count()).toBe(5);
    const probabilities = (await rows.locator("td:nth-child(3)").allInnerTexts()).map((s) => Number(s.replace(/[^\d.]/g, "")));
    expect([...probabilities].sort((a, b) => b - a)).toEqual(probabilities);
    for (const p of probabilities) expect(p).toBeLessThanOrEqual(100);
    expect(await page.getByTestId("ml-source").innerText()).toMatch(
      /Produced by model resnet-seg-scenes-multilabel .*trained on seg-scenes-multilabel; mean average precision [\d.]+ %/,
    );
    expect(await page.getByTestId("success").innerText()).toBe("The algorithm executed successfully!");
    // Explain the second-ranked class.
    const second = await rows.nth(1).locator("td:nth-child(2)").innerText();
    await rows.nth(1).getByRole("button", { name: "Explain" }).click();
    await page.waitForURL(/result=\d+/, { timeout: 120_000 });
    await loaded(page, "heatmap");
    await loaded(page, "overlay");
    expect(
      await page
        .getByRole("heading", { level: 2 })
        .filter({ hasText: `Attribution of “${second}” (${js ? "Feature_Ablation" : "LIME"})` })
        .count(),
    ).toBe(1);
    expect(await page.getByTestId("map-source").innerText()).toMatch(js ? /^FeatureAblation with / : /^Lime with /);
    // The five ranked classes are still there, the explained one marked as shown.
    await wholePage(page);
    expect(await page.getByTestId("ranked-classes").locator("tbody tr").count()).toBe(5);
    expect(await page.getByTestId("ranked-classes").locator("tbody tr").nth(1).innerText()).toMatch(/shown below/);
    await context.close();
    // The first journey also starts the sidecar's worker (runtime, checkpoint) on a shared machine.
  }, 300_000);
});
