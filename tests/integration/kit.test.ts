// Suite kit downloads through the web app and the real sidecar (docs/suite-kit.md): GET
// /suites/<id>/kit.zip streams a valid zip equal byte for byte to the kit the sidecar's builder
// writes locally, concurrent first requests share one build, a second request is served from
// var/kits (X-Kit-Cache: hit, same file untouched), the ETag revalidates to 304, and suites without
// data here or unknown ones get the bilingual 404 page. ?task=<task> serves one task's kit (that
// task's files only, byte-equal to the builder's), cached beside the whole kit, which stays as it
// was; the tutorial page offers the choice as a plain GET form.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { writeKitFile } from "../../sidecar/kit/buildKit.ts";

const KIT_DIR = path.join(ROOT, "var/test", `kits_${process.pid}_${crypto.randomBytes(3).toString("hex")}`);
let stack: Stack;

function zipNames(buf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const names: string[] = [];
      zip!.on("entry", (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip!.readEntry();
      });
      zip!.on("end", () => resolve(names));
      zip!.on("error", reject);
      zip!.readEntry();
    }),
  );
}

const get = (p: string, headers: Record<string, string> = {}) => fetch(stack.baseUrl + p, { headers, redirect: "manual" });

beforeAll(async () => {
  stack = await startStack({ env: { KIT_DIR } });
});
afterAll(async () => {
  await stack?.stop();
  fs.rmSync(KIT_DIR, { recursive: true, force: true });
});

describe("GET /suites/<id>/kit.zip", () => {
  let first: Buffer;
  let etag: string;

  it("streams the suite's kit as a zip; two first requests at once share one build", async () => {
    const [a, b] = await Promise.all([get("/suites/metarank-local-v1/kit.zip"), get("/suites/metarank-local-v1/kit.zip")]);
    for (const res of [a, b]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/zip");
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="metarank-local-v1-kit.zip"');
      expect(res.headers.get("x-kit-cache")).toBe("miss");
    }
    first = Buffer.from(await a.arrayBuffer());
    const second = Buffer.from(await b.arrayBuffer());
    expect(Number(a.headers.get("content-length"))).toBe(first.length);
    expect(second.equals(first)).toBe(true);
    etag = a.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    // One finished file, nothing half-written left behind.
    expect(fs.readdirSync(KIT_DIR)).toEqual([`metarank-local-v1-${etag.slice(1, -1)}.zip`]);
    const names = await zipNames(first);
    expect(names.slice(0, 2)).toEqual(["suite.json", "README.md"]);
    expect(names).toContain("tasks/scenes_vgg/images.npy");
    expect(names).toContain("tasks/fashionmnist_resnet/model.onnx");
    expect(names).toContain("tasks/scenes_inception/images/00099.png");
    // The sidecar streamed exactly what its builder writes: deterministic, so byte-equal.
    const local = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kit-int-")), "local.zip");
    const built = await writeKitFile("metarank-local-v1", local);
    expect(built.plan.key).toBe(etag.slice(1, -1));
    expect(fs.readFileSync(local).equals(first)).toBe(true);
  });

  it("serves the second request from the cache, and 304 for a matching ETag", async () => {
    const file = path.join(KIT_DIR, `metarank-local-v1-${etag.slice(1, -1)}.zip`);
    const mtime = fs.statSync(file).mtimeMs;
    const res = await get("/suites/metarank-local-v1/kit.zip");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-kit-cache")).toBe("hit");
    expect(res.headers.get("etag")).toBe(etag);
    expect(Buffer.from(await res.arrayBuffer()).equals(first)).toBe(true);
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
    const revalidated = await get("/suites/metarank-local-v1/kit.zip", { "If-None-Match": etag });
    expect(revalidated.status).toBe(304);
  });

  it("answers 404 with the bilingual page for a suite without data here and for unknown suites", async () => {
    const seed = await get("/suites/metarank-seed/kit.zip", { Accept: "text/html" });
    expect(seed.status).toBe(404);
    const html = await seed.text();
    expect(html).toContain("The data and models of suite “metarank-seed” are not installed on this server");
    expect(html).toContain("评测套件“metarank-seed”的数据和模型未安装在本服务器上");
    for (const p of ["/suites/no-such-suite/kit.zip", "/suites/..%2F..%2Fetc/kit.zip"]) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      const text = await res.text();
      expect(text).toContain("There is no suite");
      expect(text).toContain("没有名为");
    }
    expect(fs.readdirSync(KIT_DIR)).toHaveLength(1);
  });
});

describe("GET /suites/<id>/kit.zip?task=<task>", () => {
  it("serves one task's kit, cached beside the whole kit, which stays as it was", async () => {
    const whole = fs.readdirSync(KIT_DIR).filter((f) => f.endsWith(".zip"));
    expect(whole).toHaveLength(1);
    const wholeMtime = fs.statSync(path.join(KIT_DIR, whole[0])).mtimeMs;
    const res = await get("/suites/metarank-local-v1/kit.zip?task=scenes_vgg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="metarank-local-v1-scenes_vgg-kit.zip"');
    expect(res.headers.get("x-kit-cache")).toBe("miss");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(etag).not.toBe(`"${whole[0].slice("metarank-local-v1-".length, -4)}"`);
    const body = Buffer.from(await res.arrayBuffer());
    const names = await zipNames(body);
    expect(names.slice(0, 2)).toEqual(["suite.json", "README.md"]);
    expect(names.slice(2).every((n) => n.startsWith("tasks/scenes_vgg/"))).toBe(true);
    expect(names).toContain("tasks/scenes_vgg/model.onnx");
    expect(names).toContain("tasks/scenes_vgg/images/00099.png");
    const local = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kit-int-task-")), "task.zip");
    const built = await writeKitFile("metarank-local-v1", local, undefined, "scenes_vgg");
    expect(`"${built.plan.key}"`).toBe(etag);
    expect(fs.readFileSync(local).equals(body)).toBe(true);
    // Cached under tasks/<suite>/; the whole kit's file is untouched, and still served as it was.
    expect(fs.readdirSync(path.join(KIT_DIR, "tasks", "metarank-local-v1"))).toEqual([`scenes_vgg-${built.plan.key}.zip`]);
    expect(fs.statSync(path.join(KIT_DIR, whole[0])).mtimeMs).toBe(wholeMtime);
    const again = await get("/suites/metarank-local-v1/kit.zip?task=scenes_vgg");
    expect(again.headers.get("x-kit-cache")).toBe("hit");
    expect(Buffer.from(await again.arrayBuffer()).equals(body)).toBe(true);
    expect((await get("/suites/metarank-local-v1/kit.zip?task=scenes_vgg", { "If-None-Match": etag })).status).toBe(304);
    // An empty choice is the whole kit.
    const all = await get("/suites/metarank-local-v1/kit.zip?task=");
    expect(all.headers.get("x-kit-cache")).toBe("hit");
    expect(all.headers.get("content-disposition")).toBe('attachment; filename="metarank-local-v1-kit.zip"');
    await all.body?.cancel();
  });

  it("answers 404 for a task the suite does not have, and for a task without data here", async () => {
    for (const task of ["no_such_task", "..%2F..%2Fetc"]) {
      const res = await get(`/suites/metarank-local-v1/kit.zip?task=${task}`);
      expect(res.status, task).toBe(404);
      const html = await res.text();
      expect(html).toContain("Suite “metarank-local-v1” has no task");
      expect(html).toContain("评测套件“metarank-local-v1”中没有任务");
    }
    const seed = await get("/suites/metarank-seed/kit.zip?task=nwpuresisc45_resnet18");
    expect(seed.status).toBe(404);
    const html = await seed.text();
    expect(html).toContain("The data or model of task “nwpuresisc45_resnet18” of suite “metarank-seed” is not installed on this server");
    expect(fs.readdirSync(path.join(KIT_DIR, "tasks"))).toEqual(["metarank-local-v1"]);
  });

  it("is offered on the tutorial page as a GET form that works without JavaScript", async () => {
    const html = await (await get("/Algorithm?suite=metarank-local-v1")).text();
    const form = html.match(/<form[^>]*data-testid="kit-task-form"[^>]*>[\s\S]*?<\/form>/)?.[0] ?? "";
    expect(form).toMatch(/method="get"/);
    expect(form).toMatch(/action="\/suites\/metarank-local-v1\/kit\.zip"/);
    expect(form).toContain('name="task"');
    const options = [...form.matchAll(/<option value="([^"]+)"[^>]*>([^<]+)<\/option>/g)].map((m) => [m[1], m[2]]);
    expect(options.map(([value]) => value)).toEqual([
      "fashionmnist_resnet",
      "fashionmnist_vgg",
      "fashionmnist_inception",
      "scenes_resnet",
      "scenes_vgg",
      "scenes_inception",
    ]);
    for (const [value, label] of options) expect(label).toBe(value);
    expect(html).toContain("Download this task&#x27;s kit (.zip)");
  });
});
