// The concept page end to end (docs/concepts.md): /tcav through the real sidecar's Concepts
// service. The pool is 8 held-out textured-shapes images, the 47 slots come 3 a page with choices
// carried across pages, the checks come in their order (concept, model, algorithm, image: docs/product.md "Concepts") in
// both languages, and a TCAV run on a striped image gives the "striped" concept a significant score
// near 1; the result is stored, served again from the database, and an unknown result is a 404. A
// user's picture dataset of striped textures, used as a concept, scores like the built-in "striped"
// slot; a private dataset's concept and its results stay its owner's, and go with the dataset.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodePng } from "../../sidecar/data/png.ts";
import { renderTextureImage } from "../../sidecar/data/textures.ts";
import { userClient } from "../support/accounts.ts";
import { Client, location } from "../support/client.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
let anon: Client;

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");
const post = (c: Client, fields: [string, string][]) =>
  c.request("/tcav", { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

beforeAll(async () => {
  stack = await startStack({
    env: {
      CAV_CACHE_DIR: path.join(ROOT, `var/test/cavs_${process.pid}_${Date.now()}`),
      UPLOAD_DIR: path.join(ROOT, `var/test/uploads_tcav_${process.pid}_${Date.now()}`),
    },
  });
  anon = new Client(stack.baseUrl);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

describe("/tcav", () => {
  it("shows a pool of 8 held-out images and the concept slots 3 a page, choices kept across pages", async () => {
    const html = text(await anon.html("/tcav"));
    expect(html.match(/data-testid="pool-image"/g)).toHaveLength(8);
    expect(html).toContain("textured-shapes");
    // Page 1 of 16: banded, blotchy, braided (braided has no generator here).
    expect([...html.matchAll(/data-concept="([\w-]+)"/g)].map((m) => m[1])).toEqual(["banded", "blotchy", "braided"]);
    expect(html).toContain("No examples on this server.");
    expect(html).toContain("Page 1 of 16");
    // Choosing "striped" on page 14, then paging away: it travels as a hidden field.
    const page14 = text(await anon.html("/tcav?cpage=14&use.striped=with"));
    expect([...page14.matchAll(/data-testid="concept-slot" data-concept="([\w-]+)"/g)].map((m) => m[1])).toEqual(["striped", "studded", "swirly"]);
    const page15 = text(await anon.html("/tcav?cpage=15&c=striped"));
    expect(page15).toMatch(/type="hidden" name="c" value="striped"/);
    expect(page15).toContain("Chosen (1): striped");
    // A refreshed pool is another 8 images.
    const other = text(await anon.html("/tcav?seed=2"));
    const ids = (h: string) => [...h.matchAll(/name="image" value="(\d+)"/g)].map((m) => m[1]).join(",");
    expect(ids(other)).not.toBe(ids(html));
  });

  it("checks in the original site's order, in both languages", async () => {
    let res = await post(anon, [
      ["image", "1"],
      ["model", "inception-textured-shapes"],
      ["algorithm", "TCAV"],
    ]);
    expect(res.status).toBe(400);
    expect(text(await res.text())).toContain("Please choose at least one concept");
    res = await post(anon, [
      ["c", "striped"],
      ["image", "1"],
      ["model", "no-such-model"],
      ["algorithm", "TCAV"],
    ]);
    expect(text(await res.text())).toContain("Please choose the model to use");
    res = await post(anon, [
      ["c", "striped"],
      ["image", "1"],
      ["model", "inception-textured-shapes"],
      ["algorithm", "GradCAM"],
    ]);
    expect(text(await res.text())).toContain("Please choose the algorithm to use");
    res = await post(anon, [
      ["c", "striped"],
      ["model", "inception-textured-shapes"],
      ["algorithm", "TCAV"],
    ]);
    expect(text(await res.text())).toContain("Please choose the image to explain");
    // A slot without examples cannot be chosen.
    res = await post(anon, [
      ["c", "braided"],
      ["image", "1"],
      ["model", "inception-textured-shapes"],
      ["algorithm", "TCAV"],
    ]);
    expect(text(await res.text())).toContain("A chosen concept has no examples on this server");
    // Out of range: the sidecar's words.
    res = await post(anon, [
      ["c", "striped"],
      ["image", "999999"],
      ["model", "inception-textured-shapes"],
      ["algorithm", "TCAV"],
    ]);
    expect(res.status).toBe(400);
    expect(text(await res.text())).toContain("is not in the held-out images");
    const zh = new Client(stack.baseUrl);
    await zh.post("/language", { lng: "zh", redirectTo: "/homepage" });
    res = await post(zh, [
      ["image", "1"],
      ["model", "inception-textured-shapes"],
      ["algorithm", "TCAV"],
    ]);
    expect(text(await res.text())).toContain("请至少选择一个概念");
    const zhPage = text(await zh.html("/tcav"));
    expect(zhPage).toContain("第一步：选择图像");
    expect(zhPage).not.toMatch(/concepts:|howTo\.|results\./);
    // The image sources, which the sidecar names in English, in Chinese.
    expect(zhPage).toContain("程序生成的纹理，每个概念 40 张");
    expect(zhPage).not.toMatch(/<p>[^<]*procedurally generated/);
  });

  it("scores the striped concept near 1 and significant for a striped image, stores the result and serves it again", async () => {
    // Held-out image 0..: find a striped one in a pool.
    const html = text(await anon.html("/tcav?seed=1"));
    const striped = [...html.matchAll(/name="image" value="(\d+)"[^>]*\/?>\s*<img[^>]*alt="Held-out image \d+ \((\w+)\)"/g)].find((m) => m[2] === "striped");
    const index = striped?.[1] ?? "3";
    const started = Date.now();
    const res = await post(anon, [
      ["c", "striped"],
      ["use.dotted", "with"],
      ["image", index],
      ["model", "inception-textured-shapes"],
      ["algorithm", "TCAV"],
      ["seed", "1"],
    ]);
    expect(res.status).toBe(302);
    const to = location(res)!;
    expect(to).toMatch(/result=\d+/);
    const page = text(await anon.html(to.replace(/#.*$/, "")));
    expect(page).toContain('data-testid="tcav-results"');
    expect(page).toContain("The algorithm executed successfully!");
    const rows = [...page.matchAll(/<tr data-concept="(\w+)" data-layer="(\w+)" data-significant="(\d)"><td>\w+<\/td><td>\w+<\/td><td>([\d.]+) ±/g)].map(
      (m) => ({
        concept: m[1],
        layer: m[2],
        significant: m[3] === "1",
        mean: Number(m[4]),
      }),
    );
    expect(rows.length).toBe(8);
    const stripedRows = rows.filter((r) => r.concept === "striped");
    if (page.includes("Predicted: striped")) {
      for (const r of stripedRows) expect(r.mean).toBeGreaterThanOrEqual(0.8);
      expect(stripedRows.some((r) => r.significant)).toBe(true);
      for (const r of rows.filter((r) => r.concept === "dotted")) expect(r.mean).toBeLessThanOrEqual(0.2);
    }
    expect(page.match(/data-testid="tcav-chart"/g)).toHaveLength(2);
    // The same request again: the stored result, at once.
    const t0 = Date.now();
    const again = await post(anon, [
      ["c", "striped"],
      ["c", "dotted"],
      ["image", index],
      ["model", "inception-textured-shapes"],
      ["algorithm", "TCAV"],
    ]);
    expect(location(again)?.match(/result=(\d+)/)?.[1]).toBe(to.match(/result=(\d+)/)?.[1]);
    expect(Date.now() - t0).toBeLessThan(Date.now() - started);
    expect((await anon.get("/tcav?result=99999999")).status).toBe(404);
    expect((await anon.get("/tcav?result=abc")).status).toBe(404);
  }, 300_000);

  it("uses a picture dataset the viewer may see as a concept; a private one stays its owner's and its results go with it", async () => {
    const alice = await userClient(stack.baseUrl, "tcav-alice");
    const newDataset = async (name: string, count: number, offset: number) => {
      const created = await alice.post("/datasetInDetail", { intent: "create", name, visibility: "private" });
      const id = Number(new URL(location(created)!, "http://x").searchParams.get("dataset"));
      const fd = new FormData();
      fd.append("intent", "upload");
      fd.append("datasetId", String(id));
      // Striped textures the built-in slot never uses (other indices), at the size the model reads.
      for (let i = 0; i < count; i++) {
        const png = encodePng({ data: renderTextureImage("striped", offset + i, 32), width: 32, height: 32, channels: 3 });
        fd.append("pictures", new Blob([png], { type: "image/png" }), `stripes-${i}.png`);
      }
      await alice.post(`/datasetInDetail?dataset=${id}`, fd);
      return id;
    };
    const stripes = await newDataset("alice stripes", 14, 500);
    const tiny = await newDataset("alice tiny", 3, 600);

    const form = text(await alice.html("/tcav"));
    expect(form).toContain(`<option value="${stripes}">alice stripes (yours, 14 pictures)</option>`);
    expect(form).not.toContain(`<option value="${tiny}">`);
    expect(text(await anon.html("/tcav"))).not.toContain("alice stripes");

    const html = text(await anon.html("/tcav?seed=1"));
    const striped = [...html.matchAll(/name="image" value="(\d+)"[^>]*\/?>\s*<img[^>]*alt="Held-out image \d+ \((\w+)\)"/g)].find((m) => m[2] === "striped");
    const index = striped?.[1] ?? "3";
    const fields = (ds: number): [string, string][] => [
      ["ds", String(ds)],
      ["image", index],
      ["model", "inception-textured-shapes"],
      ["algorithm", "TCAV"],
    ];
    // Someone who may not see the dataset gets "not found", as for the dataset's own pages.
    let res = await post(anon, fields(stripes));
    expect(res.status).toBe(400);
    expect(text(await res.text())).toContain("The chosen dataset does not exist or is not visible to you");
    res = await post(alice, fields(tiny));
    expect(res.status).toBe(400);
    expect(text(await res.text())).toContain("A dataset used as a concept needs at least 10 pictures");

    // The dataset alone is a concept ("at least one concept", docs/product.md "Concepts", is met).
    res = await post(alice, fields(stripes));
    expect(res.status).toBe(302);
    const to = location(res)!.replace(/#.*$/, "");
    expect(to).toContain(`ds=${stripes}`);
    const page = text(await alice.html(to));
    const name = `alice stripes (#${stripes})`;
    expect(page).toContain(`<strong>${name}</strong>`);
    expect(page.match(/src="\/picture\/\d+\?size=thumb"/g)?.length).toBe(3);
    const rows = [...page.matchAll(/<tr data-concept="([^"]+)" data-layer="(\w+)" data-significant="(\d)"><td>[^<]+<\/td><td>\w+<\/td><td>([\d.]+) ±/g)];
    expect(rows.map((m) => m[1])).toEqual([name, name, name, name]);
    // The known answer: striped pictures, whoever uploaded them, are what this class is (the
    // pool of seed 1 holds a striped image the model gets right; the pool is deterministic).
    expect(striped).toBeDefined();
    expect(page).toContain("Predicted: striped");
    for (const m of rows) expect(Number(m[4])).toBeGreaterThanOrEqual(0.8);
    expect(rows.some((m) => m[3] === "1")).toBe(true);
    // The result is its owner's while the dataset is private …
    expect((await anon.get(to)).status).toBe(404);
    // … and goes with the dataset.
    await alice.post("/datasetInDetail", { intent: "deleteDataset", datasetId: String(stripes), confirm: "yes" });
    expect((await alice.get(to)).status).toBe(404);
  }, 300_000);

  it("reports the run's progress under the page's key while it computes, then forgets it", async () => {
    const key = "k".repeat(8) + Date.now().toString(36).padStart(16, "0");
    expect((await anon.get(`/tcav/progress?key=${key}`)).status).toBe(404);
    expect((await anon.get("/tcav/progress?key=../../etc")).status).toBe(404);
    // A concept no other test here uses, so its vectors are trained now (seconds, not a cache hit).
    const running = post(anon, [
      ["c", "chequered"],
      ["image", "5"],
      ["model", "inception-textured-shapes"],
      ["algorithm", "TCAV"],
      ["progressKey", key],
    ]);
    let finished = false;
    void running.finally(() => (finished = true));
    const seen: { done: number; total: number }[] = [];
    while (!finished) {
      const res = await anon.get(`/tcav/progress?key=${key}`);
      if (res.status === 200) seen.push((await res.json()) as { done: number; total: number });
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await running).status).toBe(302);
    expect(seen.length).toBeGreaterThan(0);
    // 4 layers × (1 concept + the random baseline) × 6 random sets.
    for (const p of seen) expect(p.total).toBe(48);
    for (let i = 1; i < seen.length; i++) expect(seen[i].done).toBeGreaterThanOrEqual(seen[i - 1].done);
    expect(seen.at(-1)!.done).toBeLessThanOrEqual(48);
    expect((await anon.get(`/tcav/progress?key=${key}`)).status).toBe(404);
  }, 300_000);
});
