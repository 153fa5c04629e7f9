// Users' datasets through the real app (real DB, real multipart parsing, files on disk):
// upload checks, storage names, paging, delete mode, and visibility between two users.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PICTURE_LIMITS } from "../../app/lib/rules/datasets.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";

const FIX = path.join(ROOT, "tests/fixtures/images");
const fixture = (name: string) => fs.readFileSync(path.join(FIX, name));
let stack: Stack;
let uploadDir: string;
let alice: Client;
let bob: Client;
let anon: Client;
let privateId: number;
let publicId: number;

const ids = (html: string) => [...html.matchAll(/data-picture-id="(\d+)"/g)].map((m) => Number(m[1]));
const storedFiles = () =>
  fs.existsSync(path.join(uploadDir, "datasets"))
    ? fs
        .readdirSync(path.join(uploadDir, "datasets"), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && !e.parentPath.includes("platform"))
        .map((e) => path.join(e.parentPath, e.name))
    : [];

async function create(c: Client, name: string, visibility: "public" | "private") {
  const res = await c.post("/datasetInDetail", { intent: "create", name, visibility });
  expect(res.status).toBe(302);
  return Number(new URL(location(res)!, "http://x").searchParams.get("dataset"));
}

function upload(c: Client, datasetId: number, files: { name: string; bytes: Buffer; type?: string }[]) {
  const fd = new FormData();
  fd.append("intent", "upload");
  fd.append("datasetId", String(datasetId));
  for (const f of files) fd.append("pictures", new Blob([f.bytes], { type: f.type ?? "image/png" }), f.name);
  return c.post(`/datasetInDetail?dataset=${datasetId}`, fd);
}

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_${process.pid}_${Date.now()}`);
  stack = await startStack({
    env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "20", SEED_SCENES_PICTURES: "12", CIFAR_DIR: path.join(ROOT, "tests/fixtures/data/cifar-10") },
  });
  alice = await userClient(stack.baseUrl, "alice");
  bob = await userClient(stack.baseUrl, "bob");
  anon = new Client(stack.baseUrl);
  privateId = await create(alice, "alpha private", "private");
  publicId = await create(alice, "alpha shared", "public");
});

afterAll(async () => {
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

describe("uploads", () => {
  it("stores PNG, JPEG, GIF and WebP sniffed from bytes, refuses a renamed non-image, and makes thumbnails", async () => {
    const res = await upload(alice, privateId, [
      { name: "a.png", bytes: fixture("red.png") },
      // Names and declared types lie on purpose: the bytes decide.
      { name: "b.png", bytes: fixture("red.jpg"), type: "image/png" },
      { name: "c.jpg", bytes: fixture("red.gif"), type: "image/jpeg" },
      { name: "d.webp", bytes: fixture("red.webp"), type: "image/webp" },
      { name: "holiday.png", bytes: fixture("not-an-image.png"), type: "image/png" },
    ]);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("4 picture(s) uploaded");
    expect(html).toContain("&quot;holiday.png&quot; is not a PNG, JPEG, GIF or WebP image.");
    const page = await alice.html(`/datasetInDetail?dataset=${privateId}`);
    const pics = ids(page);
    expect(pics).toHaveLength(4);
    const types = [];
    for (const id of pics) {
      const file = await alice.get(`/picture/${id}`);
      types.push(file.headers.get("content-type"));
      const thumb = await alice.get(`/picture/${id}?size=thumb`);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get("content-type")).toBe("image/png");
      expect([...new Uint8Array(await thumb.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    }
    expect(types).toEqual(["image/png", "image/jpeg", "image/gif", "image/webp"]);
    // Four originals and four thumbnails, nothing for the refused file.
    expect(storedFiles()).toHaveLength(8);
  });

  it("makes thumbnails at the resolution they are shown: large pictures reduced to the box, tiny ones enlarged by a whole factor", async () => {
    const id = await create(alice, "thumb sizes", "private");
    const large = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 20, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    const tiny = await sharp({ create: { width: 28, height: 28, channels: 3, background: { r: 128, g: 128, b: 128 } } })
      .png()
      .toBuffer();
    await upload(alice, id, [
      { name: "large.png", bytes: large },
      { name: "tiny.png", bytes: tiny },
    ]);
    const [largeId, tinyId] = ids(await alice.html(`/datasetInDetail?dataset=${id}`));
    const size = async (pictureId: number) => {
      const meta = await sharp(Buffer.from(await (await alice.get(`/picture/${pictureId}?size=thumb`)).arrayBuffer())).metadata();
      return [meta.width, meta.height];
    };
    // The grid's widest tile at twice the CSS pixels (PICTURE_LIMITS.thumbBox), aspect kept.
    expect(await size(largeId)).toEqual([PICTURE_LIMITS.thumbBox, Math.round((PICTURE_LIMITS.thumbBox * 800) / 1200)]);
    // 28 px × floor(360 / 28) = 336 px, every source pixel the same size.
    const factor = Math.floor(PICTURE_LIMITS.thumbBox / 28);
    expect(await size(tinyId)).toEqual([28 * factor, 28 * factor]);
  });

  it("stores a path-traversal file name under a generated name inside the storage root", async () => {
    const before = new Set(storedFiles());
    const res = await upload(alice, privateId, [{ name: "../../../../tmp/evil\\..\\owned.png", bytes: fixture("red.png") }]);
    expect(res.status).toBe(302);
    const added = storedFiles().filter((f) => !before.has(f));
    expect(added).toHaveLength(2);
    for (const f of added) {
      expect(f.startsWith(path.join(uploadDir, "datasets") + path.sep)).toBe(true);
      expect(path.basename(f)).toMatch(/^[0-9a-f-]{36}(\.thumb)?\.png$/);
    }
    expect(fs.existsSync("/tmp/evil")).toBe(false);
    expect(fs.existsSync(path.join(ROOT, "owned.png"))).toBe(false);
    const page = await alice.html(`/datasetInDetail?dataset=${privateId}`);
    expect(page).toContain("owned.png");
    expect(page).not.toContain("../");
  });

  it("refuses an oversize file with a clear message and stores nothing", async () => {
    const before = storedFiles().length;
    const big = Buffer.concat([fixture("red.png"), Buffer.alloc(10 * 1024 * 1024 + 10)]);
    const res = await upload(alice, privateId, [{ name: "big.png", bytes: big }]);
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("Each picture must be at most 10 MB.");
    expect(storedFiles()).toHaveLength(before);
  });

  it("refuses more than 50 files in one request", async () => {
    const files = Array.from({ length: 51 }, (_, i) => ({ name: `p${i}.png`, bytes: fixture("red.png") }));
    const res = await upload(alice, privateId, files);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("At most 50 pictures can be uploaded at once.");
  });
});

describe("paging and delete mode", () => {
  it("shows 16 pictures a page with a pager, and hides the pager on one page", async () => {
    const one = await alice.html(`/datasetInDetail?dataset=${privateId}`);
    expect(one).not.toContain('aria-label="Picture pages"');
    const res = await upload(
      alice,
      publicId,
      Array.from({ length: 18 }, (_, i) => ({ name: `s${i}.png`, bytes: fixture("red.png") })),
    );
    expect(res.status).toBe(302);
    const p1 = await alice.html(`/datasetInDetail?dataset=${publicId}&page=1`);
    expect(ids(p1)).toHaveLength(16);
    expect(p1).toContain('aria-label="Picture pages"');
    expect(ids(await alice.html(`/datasetInDetail?dataset=${publicId}&page=2`))).toHaveLength(2);
  });

  it("deletes the checked pictures of a page: rows and files together", async () => {
    const page = await alice.html(`/datasetInDetail?dataset=${privateId}&mode=delete`);
    expect(page).toContain("Select all");
    expect(page).toContain("Cancel all selections");
    expect(page.match(/name="pictureIds"/g)).toHaveLength(5);
    const [first, second] = ids(page);
    const before = storedFiles().length;
    const fields: [string, string][] = [
      ["intent", "deletePictures"],
      ["datasetId", String(privateId)],
      ["page", "1"],
      ["pictureIds", String(first)],
      ["pictureIds", String(second)],
    ];
    // Unconfirmed (a browser without JavaScript): the confirmation step, nothing deleted yet (docs/datasets.md "Deleting asks first").
    const ask = await alice.request(`/datasetInDetail?dataset=${privateId}&mode=delete`, { method: "POST", body: new URLSearchParams(fields) });
    expect(ask.status).toBe(200);
    const step = await ask.text();
    expect(step).toContain('data-testid="confirm-step"');
    expect(step).toContain("The 2 selected pictures will be removed for good");
    expect(step).toContain('name="confirm" value="yes"');
    expect(storedFiles()).toHaveLength(before);
    expect((await alice.get(`/picture/${first}`)).status).toBe(200);
    const body = new URLSearchParams([...fields, ["confirm", "yes"]]);
    const res = await alice.request(`/datasetInDetail?dataset=${privateId}&mode=delete`, { method: "POST", body });
    expect(res.status).toBe(302);
    expect(location(res)).toContain("msg=deleted");
    expect(storedFiles()).toHaveLength(before - 4);
    expect((await alice.get(`/picture/${first}`)).status).toBe(404);
    expect(ids(await alice.html(`/datasetInDetail?dataset=${privateId}`))).not.toContain(first);
  });

  it("select all without JavaScript checks every box of the page only", async () => {
    const html = await alice.html(`/datasetInDetail?dataset=${publicId}&page=2&mode=delete&select=all`);
    expect(html.match(/name="pictureIds"[^>]*checked|checked=""[^>]*name="pictureIds"/g)?.length).toBe(2);
  });
});

describe("visibility", () => {
  let alicePrivatePic: number;
  let alicePublicPic: number;
  beforeAll(async () => {
    alicePrivatePic = ids(await alice.html(`/datasetInDetail?dataset=${privateId}`))[0];
    alicePublicPic = ids(await alice.html(`/datasetInDetail?dataset=${publicId}`))[0];
  });

  it("another user's private dataset page and picture URLs are 404", async () => {
    expect((await bob.get(`/datasetInDetail?dataset=${privateId}`)).status).toBe(404);
    expect((await bob.get(`/picture/${alicePrivatePic}`)).status).toBe(404);
    expect((await bob.get(`/picture/${alicePrivatePic}?size=thumb`)).status).toBe(404);
    expect((await anon.get(`/picture/${alicePrivatePic}`)).status).toBe(404);
    // The public one is fine for everyone.
    expect((await bob.get(`/datasetInDetail?dataset=${publicId}`)).status).toBe(200);
    expect((await anon.get(`/picture/${alicePublicPic}`)).status).toBe(200);
  });

  it("search never shows another user's private dataset", async () => {
    const byUser = await bob.html(`/datasetInDetail?type=user&q=alice`);
    expect(byUser).toContain("alpha shared");
    expect(byUser).not.toContain("alpha private");
    const byName = await bob.html(`/datasetInDetail?type=name&q=${encodeURIComponent("ALPHA PRIV")}`);
    expect(byName).toContain("No dataset matching the conditions was found!");
    // Alice finds her own private one by a fuzzy (case-insensitive, partial) name.
    expect(await alice.html(`/datasetInDetail?type=name&q=${encodeURIComponent("ALPHA PRIV")}`)).toContain("alpha private");
    const shared = await anon.html(`/datasetPreview?tab=users`);
    expect(shared).toContain("alpha shared");
    expect(shared).not.toContain("alpha private");
  });

  it("uploads and deletes into another user's private dataset are 404; into their public one 403", async () => {
    const before = storedFiles().length;
    expect((await upload(bob, privateId, [{ name: "x.png", bytes: fixture("red.png") }])).status).toBe(404);
    expect((await upload(bob, publicId, [{ name: "x.png", bytes: fixture("red.png") }])).status).toBe(403);
    const del = (datasetId: number, pic: number) =>
      bob.request(`/datasetInDetail?dataset=${datasetId}`, {
        method: "POST",
        body: new URLSearchParams([
          ["intent", "deletePictures"],
          ["datasetId", String(datasetId)],
          ["pictureIds", String(pic)],
        ]),
      });
    expect((await del(privateId, alicePrivatePic)).status).toBe(404);
    expect((await del(publicId, alicePublicPic)).status).toBe(403);
    // A dataset of Bob's own cannot be used to reach Alice's picture either.
    const bobs = await create(bob, "bob set", "private");
    expect((await del(bobs, alicePrivatePic)).status).toBe(404);
    expect(storedFiles()).toHaveLength(before);
    expect((await alice.get(`/picture/${alicePrivatePic}`)).status).toBe(200);
  });

  it("the dataset screens need a signed-in user", async () => {
    const res = await anon.get(`/datasetInDetail?dataset=${publicId}`);
    expect(res.status).toBe(302);
    expect(location(res)).toMatch(/^\/signin/);
  });
});

describe("public gallery", () => {
  it("shows the nine Meta-rank datasets, real samples only for installed data, and the storage warning", async () => {
    const html = await anon.html("/datasetPreview");
    for (const key of ["cifar", "imagenet", "voc", "coco", "cub", "cars", "nwpu", "food", "places", "fashion-mnist", "scenes"])
      expect(html).toContain(`data-gallery="${key}"`);
    // CIFAR comes from the operator's folder (CIFAR_DIR, here the reader's fixture); the other eight are not installed.
    expect(html.match(/data-testid="not-installed"/g)).toHaveLength(8);
    expect(html).toMatch(/data-gallery="cifar"[\s\S]*?<img src="\/picture\/\d+\?size=thumb" alt="CIFAR: /);
    expect(html).toContain("Installed on this platform");
    const details = await anon.html("/datasetPreview?details=food");
    expect(details).toContain("Sorry, dataset viewing is not available on this server due to insufficient storage space.");
    // An installed dataset's details are its pictures, not the warning.
    expect(html).toContain('href="/datasetPreview?examples=cifar"');
    const installed = await anon.get("/datasetPreview?details=cifar");
    expect(installed.status).toBe(302);
    expect(location(installed)).toBe("/datasetPreview?examples=cifar");
    const intro = await anon.html("/datasetPreview?intro=nwpu&lang=zh");
    expect(intro).toContain("Introduction for NWPU-RESISC45");
    expect(intro).toContain("共 31,500 张图像、45 个场景类别，每类 700 张。");
    expect(intro).toContain("https://arxiv.org/abs/1703.00121");
    // The examples view (docs/product.md "Datasets and labelling"): 30 a page with Back to Preview.
    const examples = await anon.html("/datasetPreview?examples=cifar");
    expect(examples).toContain("Back to Preview");
    expect(examples.match(/data-picture-id="/g)?.length).toBeGreaterThan(0);
    expect(examples.match(/data-picture-id="/g)!.length).toBeLessThanOrEqual(30);
    const preview = await anon.html("/datasetPreview?preview=fashion-mnist&i=1");
    expect(preview).toMatch(/src="\/picture\/\d+"/);
  });
});
