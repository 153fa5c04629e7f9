// Crack detection end to end (docs/crack-detection.md): the seeding step's platform run is handed
// to the queue at start-up, the job detects every generated photo through the real sidecar's
// Inspection service, and /twodresult shows the results 6 a page with the details dialog and its
// confirm step (no JavaScript: everything is in the URL). The numbers on the page are the
// detector's own on those photos (recomputed here in-process) and agree with the generator's ground
// truth; a user's run over their private dataset is theirs alone (page, masks, getResults); bad
// input gets the page's messages. A photo it cannot detect (a damaged file, one gone from the
// storage) is not skipped silently: the run's page says per photo why, in English and Chinese, and
// getResults lists it with the reason; a GIF (a dataset takes it) is converted and detected.
import fs from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRACK_MM_PER_PIXEL, generateCrackPhoto } from "../../sidecar/data/cracks.ts";
import { encodePng } from "../../sidecar/data/png.ts";
import { detectCracks } from "../../sidecar/inspection/detector.ts";
import { Client, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";

const PHOTOS = 8;
let stack: Stack;
let alice: Client;
let bob: Client;
let anon: Client;
const UPLOAD_DIR = path.join(ROOT, `var/test/uploads_inspection_${process.pid}_${Date.now()}`);

/** The stored picture files (not thumbnails) under the test's upload root. */
const storedPictures = () =>
  fs.existsSync(path.join(UPLOAD_DIR, "datasets"))
    ? fs
        .readdirSync(path.join(UPLOAD_DIR, "datasets"), { recursive: true, encoding: "utf8" })
        .filter((f) => /\.(png|jpg|gif|webp)$/.test(f) && !f.includes(".thumb."))
        .map((f) => path.join(UPLOAD_DIR, "datasets", f))
    : [];

async function until<T>(what: string, fn: () => Promise<T | false | null | undefined>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");
const runState = (html: string) => html.match(/data-testid="run-status" data-state="(\w+)"/)?.[1];
const detailIds = (html: string) => [...text(html).matchAll(/details=(\d+)"/g)].map((m) => Number(m[1]));

async function finished(c: Client, query: string) {
  return until(`run ${query} to finish`, async () => {
    const html = await c.html(`/twodresult${query}`);
    return ["completed", "failed", "cancelled"].includes(runState(html) ?? "") && html;
  });
}

beforeAll(async () => {
  stack = await startStack({
    env: {
      UPLOAD_DIR,
      SEED_INSPECTION_RUN: "1",
      SEED_INSPECTION_PICTURES: String(PHOTOS),
      SEED_FASHION_MNIST_PICTURES: "4",
      SEED_SCENES_PICTURES: "4",
      QUEUE_BACKOFF_MS: "300",
    },
  });
  alice = await userClient(stack.baseUrl, "alice");
  bob = await userClient(stack.baseUrl, "bob");
  anon = new Client(stack.baseUrl);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe("the platform's run over its generated photos", () => {
  it("completes on its own after start-up and shows 6 results a page with the detector's own numbers", async () => {
    const html = text(await finished(anon, ""));
    expect(runState(html)).toBe("completed");
    expect(html).toContain(`${PHOTOS} of ${PHOTOS} photos detected`);
    // The detector card quotes the committed held-out figures through the sidecar.
    expect(html).toMatch(/data-testid="precision">\d+\.\d %/);
    expect(html).toContain("Measured on 1000 photos with known cracks");
    const page1 = [...html.matchAll(/data-testid="result-tile"/g)].length;
    expect(page1).toBe(6);
    const runId = Number(html.match(/Run #(\d+)/)![1]);
    const page2 = text(await anon.html(`/twodresult?run=${runId}&page=2`));
    expect([...page2.matchAll(/data-testid="result-tile"/g)].length).toBe(PHOTOS - 6);

    // getResults: every row, with its fields, equal to the detector's own result on the same
    // generated photo, and agreeing with the generator's ground truth.
    const res = await anon.post("/algorithm/getResults", { modelName: "ridge-frangi-v1" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { run: { id: number }; rows: Record<string, unknown>[] };
    expect(body.run.id).toBe(runId);
    expect(body.rows).toHaveLength(PHOTOS);
    let agree = 0;
    for (const [i, row] of body.rows.entries()) {
      for (const key of ["id", "index", "type", "size", "address", "isCrack", "length", "width", "number", "time"]) expect(row).toHaveProperty(key);
      expect(row.index).toBe(i + 1);
      expect(row.type).toBe("PNG");
      const photo = generateCrackPhoto(i, "train");
      // The seeding step stores 8-bit PNGs: detect on the same quantised pixels.
      const quantised = photo.image.map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255) / 255);
      const own = detectCracks({ data: quantised, width: photo.width, height: photo.height, channels: 3 }, CRACK_MM_PER_PIXEL);
      expect(row.isCrack).toBe(own.hasCrack);
      expect(row.length).toBeCloseTo(own.lengthMm, 4);
      expect(row.width).toBeCloseTo(own.maxWidthMm, 4);
      if (row.isCrack === photo.truth.hasCrack) agree++;
      if (photo.truth.hasCrack && row.isCrack) expect(Math.abs((row.length as number) / photo.truth.lengthMm - 1)).toBeLessThan(0.25);
    }
    expect(agree).toBeGreaterThanOrEqual(PHOTOS - 1);
    expect((await (await anon.post("/algorithm/getResults", { modelName: "no-such-model" })).json()).rows).toEqual([]);
    expect((await anon.post("/algorithm/getResults", { modelName: "" })).status).toBe(400);
    expect((await anon.get("/algorithm/getResults")).status).toBe(405);
  });

  it("opens the details dialog from the URL, and closing asks first (no JavaScript)", async () => {
    const html = text(await anon.html("/twodresult"));
    const runId = Number(html.match(/Run #(\d+)/)![1]);
    const id = detailIds(html)[0];
    const dialog = text(await anon.html(`/twodresult?run=${runId}&details=${id}`));
    expect(dialog).toContain("Detection details");
    for (const label of ["Image format", "Image size", "Address", "Crack length", "Crack width", "Image number", "Detection time"])
      expect(dialog).toContain(label);
    expect(dialog).toContain(`closing=1`);
    const confirm = text(await anon.html(`/twodresult?run=${runId}&details=${id}&closing=1`));
    expect(confirm).toContain("Close the detection details?");
    expect(confirm).toMatch(/data-testid="confirm-close"[^>]*href="\/twodresult\?run=\d+"|href="\/twodresult\?run=\d+"[^>]*data-testid="confirm-close"/);
    // The mask is a PNG of the photo's size; the overlay is red on transparent.
    const mask = await anon.get(`/inspection/mask/${id}`);
    expect(mask.status).toBe(200);
    const meta = await sharp(Buffer.from(await mask.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([192, 192]);
    const overlay = PNG.sync.read(Buffer.from(await (await anon.get(`/inspection/mask/${id}?style=overlay`)).arrayBuffer()));
    expect(overlay.data[0]).toBe(239);
    // In Chinese.
    const zh = new Client(stack.baseUrl);
    const zhHtml = text(await (await zh.request(`/twodresult?run=${runId}&details=${id}`, { headers: { "Accept-Language": "zh-CN" } })).text());
    expect(zhHtml).toContain("裂缝检测结果");
    expect(zhHtml).toContain("检测详情");
    // The detector's description, which the sidecar sends in English, in Chinese too.
    expect(zhHtml).toContain("多尺度 Frangi 暗线滤波");
    expect(zhHtml).toMatch(/测试集中生成的混凝土照片 400–1399（种子 \d+，每像素 0\.5 毫米；阈值在测试照片 0–399 上选定）/);
    expect(zhHtml).not.toMatch(/<p>[^<]*Frangi line filter/);
  });
});

describe("a user's run over a private dataset", () => {
  it("detects the user's photos at their scale, and is invisible to everyone else", async () => {
    const created = await alice.post("/datasetInDetail", { intent: "create", name: "bridge deck", visibility: "private" });
    const datasetId = Number(new URL(location(created)!, "http://x").searchParams.get("dataset"));
    const fd = new FormData();
    fd.append("intent", "upload");
    fd.append("datasetId", String(datasetId));
    // Two test-split photos, one with a crack, as the user's own PNG files.
    const withCrack = [0, 1, 2, 3].find((i) => generateCrackPhoto(i, "test").truth.hasCrack)!;
    for (const i of [withCrack, withCrack + 1]) {
      const p = generateCrackPhoto(i, "test");
      fd.append("pictures", new Blob([encodePng({ width: p.width, height: p.height, channels: 3, data: p.image })], { type: "image/png" }), `deck-${i}.png`);
    }
    // A phone's photo: 4032 × 3024 pixels, three times what the detector takes. It is scaled down
    // for detection (not skipped), and its row describes the photo as uploaded.
    const big = generateCrackPhoto(withCrack, "test");
    const phone = await sharp(encodePng({ width: big.width, height: big.height, channels: 3, data: big.image }))
      .resize(4032, 3024)
      .jpeg({ quality: 90 })
      .toBuffer();
    fd.append("pictures", new Blob([phone], { type: "image/jpeg" }), "phone.jpg");
    // A GIF: the detector reads PNG and JPEG; it is converted, not skipped.
    const gif = await sharp(encodePng({ width: big.width, height: big.height, channels: 3, data: big.image }))
      .gif()
      .toBuffer();
    fd.append("pictures", new Blob([gif], { type: "image/gif" }), "deck.gif");
    expect((await alice.post(`/datasetInDetail?dataset=${datasetId}`, fd)).status).toBe(302);
    // Two photos that were fine when uploaded and are not by the time of the run: one file damaged
    // (cut to half), one gone from the storage. Each is uploaded alone to know its stored file.
    for (const [k, name, spoil] of [
      [2, "deck-damaged.png", (f: string) => fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2))],
      [3, "deck-gone.png", (f: string) => fs.rmSync(f)],
    ] as const) {
      const before = new Set(storedPictures());
      const one = new FormData();
      one.append("intent", "upload");
      one.append("datasetId", String(datasetId));
      const p = generateCrackPhoto(withCrack + k, "test");
      one.append("pictures", new Blob([encodePng({ width: p.width, height: p.height, channels: 3, data: p.image })], { type: "image/png" }), name);
      expect((await alice.post(`/datasetInDetail?dataset=${datasetId}`, one)).status).toBe(302);
      const added = storedPictures().filter((f) => !before.has(f));
      expect(added).toHaveLength(1);
      spoil(added[0]);
    }

    // Bad input first: the messages of the page, nothing queued.
    const badScale = text(await (await alice.post("/twodresult", { intent: "start", dataset: String(datasetId), scale: "0" })).text());
    expect(badScale).toContain("The scale must be a number between 0.01 and 100 mm per pixel.");
    const notHers = text(await (await bob.post("/twodresult", { intent: "start", dataset: String(datasetId), scale: "0.5" })).text());
    expect(notHers).toContain("Choose a dataset you can see.");
    const visitor = await anon.post("/twodresult", { intent: "start", dataset: String(datasetId), scale: "0.5" });
    expect(visitor.status).toBe(302);
    expect(location(visitor)).toMatch(/^\/signin/);

    const started = await alice.post("/twodresult", { intent: "start", dataset: String(datasetId), scale: "0.25" });
    expect(started.status).toBe(302);
    const query = location(started)!.replace("/twodresult", "").replace("&msg=started", "");
    const runId = Number(new URLSearchParams(query).get("run"));
    const html = text(await finished(alice, query));
    expect(runState(html)).toBe("completed");
    expect(html).toContain("at 0.25 mm per pixel");
    expect(html).toContain("4 of 6 photos detected");
    // The two photos not detected, each with its reason, in the visitor's language.
    expect(html).toContain("2 photos could not be detected: the list below says why for each.");
    expect(html).toContain("Photos not detected (2)");
    const reasons = [
      ...html.matchAll(/data-testid="skipped-photo">[\s\S]*?<a href="\/picture\/\d+">([^<]+)<\/a>[\s\S]*?data-testid="skipped-reason">([^<]+)</g),
    ].map((m) => [m[1], m[2]]);
    expect(reasons).toEqual([
      ["deck-damaged.png", "The image file is damaged or cut short: it cannot be decoded."],
      ["deck-gone.png", "The photo's file is no longer on the server."],
    ]);
    const zhRun = text(await (await alice.request(`/twodresult${query}`, { headers: { "Accept-Language": "zh-CN" } })).text());
    expect(zhRun).toContain("未检测的照片（2 张）");
    expect(zhRun).toContain("图像文件已损坏或不完整，无法解码。");
    expect(zhRun).toContain("该照片的文件已不在服务器上。");
    const results = (await (await alice.post("/algorithm/getResults", { modelName: "ridge-frangi-v1" })).json()) as {
      run: { id: number; photosSkipped: number };
      rows: { isCrack: boolean; length: number; type: string; size: string }[];
      skipped: { index: number; number: string; reason: string; reasonKey: string }[];
    };
    const rows = results.rows;
    expect(rows).toHaveLength(4);
    expect(rows[2].type).toBe("JPEG");
    expect(rows[2].size).toMatch(/^4032 × 3024 px, /);
    expect(rows[3].type).toBe("GIF");
    expect(results.run.photosSkipped).toBe(2);
    expect(results.skipped.map((p) => [p.index, p.number, p.reasonKey])).toEqual([
      [5, "deck-damaged.png", "unreadable"],
      [6, "deck-gone.png", "missing"],
    ]);
    expect(results.skipped[0].reason).toBe("The image file is damaged or cut short: it cannot be decoded.");
    // The newest completed run Alice may see is hers: the crack's length at half the scale is half the platform's figure.
    const truth = generateCrackPhoto(withCrack, "test").truth;
    expect(rows[0].isCrack).toBe(true);
    expect(Math.abs(rows[0].length / (truth.lengthMm / 2) - 1)).toBeLessThan(0.25);

    // Bob and visitors: the run, its detections and its masks do not exist for them.
    expect((await bob.get(`/twodresult?run=${runId}`)).status).toBe(404);
    expect((await anon.get(`/twodresult?run=${runId}`)).status).toBe(404);
    const detection = detailIds(html)[0];
    expect((await alice.get(`/inspection/mask/${detection}`)).status).toBe(200);
    expect((await bob.get(`/inspection/mask/${detection}`)).status).toBe(404);
    const bobs = (await (await bob.post("/algorithm/getResults", { modelName: "ridge-frangi-v1" })).json()) as { run: { id: number } };
    expect(bobs.run.id).not.toBe(runId);
    // Bob cannot cancel it either (only the owner's own active runs move).
    expect(text(await bob.html("/twodresult"))).not.toContain(`#${runId} · bridge deck`);
  });
});

describe("one active run per user", () => {
  it("of several simultaneous starts exactly one is queued, the others are told to wait", async () => {
    const platform = text(await bob.html("/twodresult"));
    const datasetId = platform.match(/<option value="(\d+)"[^>]*>Concrete inspection \(generated\)/)![1];
    const answers = await Promise.all(Array.from({ length: 5 }, () => bob.post("/twodresult", { intent: "start", dataset: datasetId, scale: "0.5" })));
    const started = answers.filter((r) => r.status === 302);
    expect(started).toHaveLength(1);
    for (const r of answers.filter((r) => r.status !== 302)) {
      expect(r.status).toBe(400);
      expect(text(await r.text())).toContain("One of your detection runs is still going.");
    }
    const runId = new URLSearchParams(location(started[0])!.split("?")[1]).get("run")!;
    // Another user cannot cancel it; its owner can.
    await alice.post("/twodresult", { intent: "cancel", run: runId });
    expect(runState(await bob.html(`/twodresult?run=${runId}`))).not.toBe("cancelled");
    await bob.post("/twodresult", { intent: "cancel", run: runId });
    const state = runState(await bob.html(`/twodresult?run=${runId}`));
    // It may have finished its 8 photos before the cancel arrived; it never stays active.
    expect(["cancelled", "completed"]).toContain(state);
  });
});

describe("the 3D dam viewer (/dam3d)", () => {
  it("lays the platform run's photos on the panels and computes its facts from the model and the detections", async () => {
    const html = text(await anon.html("/dam3d"));
    expect(html).toContain("Dam information");
    expect(html).toContain("Gravity dam (generated)");
    const rows = ((await (await anon.post("/algorithm/getResults", { modelName: "ridge-frangi-v1" })).json()) as { rows: { isCrack: boolean }[] }).rows;
    const cracks = rows.slice(0, 36).filter((r) => r.isCrack).length;
    expect(html).toMatch(new RegExp(`data-testid="dam-abnormalities">${cracks}<`));
    // Two textures in the GLB, one photo a panel for the run's photos.
    expect(html).toContain(`${2 + Math.min(36, rows.length)} (2 in the model, ${Math.min(36, rows.length)} inspection photos)`);
    // The still image: one link per placed photo, each to its detection details.
    expect([...html.matchAll(/data-testid="dam-panel-link"/g)]).toHaveLength(Math.min(36, rows.length));
    expect(html).toMatch(/href="\/twodresult\?run=\d+&details=\d+"/);
    const glb = await anon.get("/models/dam.glb");
    expect(glb.status).toBe(200);
    expect(Buffer.from(await glb.arrayBuffer()).readUInt32LE(0)).toBe(0x46546c67);
    const zh = text(await (await new Client(stack.baseUrl).request("/dam3d", { headers: { "Accept-Language": "zh-CN" } })).text());
    expect(zh).toContain("三维大坝查看器");
    expect(zh).toContain("大坝信息");
  });
  it("shows another user's private run to no one else (404)", async () => {
    const mine = text(await alice.html("/twodresult"));
    const privateRun = mine.match(/#(\d+) · bridge deck/)![1];
    expect((await alice.get(`/dam3d?run=${privateRun}`)).status).toBe(200);
    expect((await bob.get(`/dam3d?run=${privateRun}`)).status).toBe(404);
    expect((await anon.get(`/dam3d?run=${privateRun}`)).status).toBe(404);
  });
});
