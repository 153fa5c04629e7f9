// Every field of the datasets area and the classification demo is bounded and clean
// (docs/security.md "Fields", app/lib/rules/datasets.ts and classification.ts): an over-long value
// or a control character (NUL, other C0/C1 controls; a tab in a one-line field) gives 400 with a
// message a person can read, never a 500, and the database is unchanged.
import fs from "node:fs";
import path from "node:path";
import { QueryTypes, type Sequelize } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "../../models/db.ts";
import { userClient } from "../support/accounts.ts";
import { alerts, location, type Client } from "../support/client.ts";
import { ROOT, startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
let db: Sequelize;
let alice: Client;
let uploadDir: string;
let datasetId: number;
let pictureId: number;

const CONTROL = "This field contains control characters (such as NUL) that cannot be stored. Please remove them.";
const fixture = (name: string) => fs.readFileSync(path.join(ROOT, "tests/fixtures/images", name));
const count = async (table: string) => Number((await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`, { type: QueryTypes.SELECT }))[0].n);
/** Rows of every table this area writes. */
const snapshot = async () => ({ datasets: await count("datasets"), pictures: await count("pictures"), cache: await count("inference_cache") });

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_fields_${process.pid}_${Date.now()}`);
  stack = await startStack({ sidecar: false, env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "12", SEED_SCENES_PICTURES: "8" } });
  db = createSequelize(stack.dbUrl);
  alice = await userClient(stack.baseUrl, "alice");
  const res = await alice.post("/datasetInDetail", { intent: "create", name: "bounded", visibility: "private" });
  expect(res.status).toBe(302);
  datasetId = Number(new URL(location(res)!, "http://x").searchParams.get("dataset"));
  const fd = new FormData();
  fd.append("intent", "upload");
  fd.append("datasetId", String(datasetId));
  fd.append("pictures", new Blob([fixture("red.png")], { type: "image/png" }), "red.png");
  expect((await alice.post(`/datasetInDetail?dataset=${datasetId}`, fd)).status).toBe(302);
  pictureId = Number((await alice.html(`/datasetInDetail?dataset=${datasetId}`)).match(/data-picture-id="(\d+)"/)![1]);
});
afterAll(async () => {
  await db?.close();
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

/** 400 and the message somewhere a person sees it (a field's alert or the error page), and no 500. */
async function refused(res: Response, message: string) {
  expect(res.status).toBe(400);
  const html = await res.text();
  expect(html).toContain(message);
  return html;
}

describe("create a dataset", () => {
  it("a name over 100 characters is refused with the maximum; 100 are fine", async () => {
    const before = await snapshot();
    const html = await refused(
      await alice.post("/datasetInDetail", { intent: "create", name: "n".repeat(101), visibility: "public" }),
      "The dataset name can be at most 100 characters.",
    );
    expect(alerts(html)).toContain("The dataset name can be at most 100 characters.");
    expect(await snapshot()).toEqual(before);
    expect((await alice.post("/datasetInDetail", { intent: "create", name: "n".repeat(100), visibility: "public" })).status).toBe(302);
  });

  for (const bad of ["cats\u0000", "bell\u0007", "esc\u001b[31m", "c1\u0085", "tab\there", "line\nbreak", "del\u007f"]) {
    it(`a name with ${JSON.stringify(bad)} is refused and stores nothing`, async () => {
      const before = await snapshot();
      await refused(await alice.post("/datasetInDetail", { intent: "create", name: bad, visibility: "private" }), CONTROL);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("a visibility that is not offered, or none, is refused with a message", async () => {
    const before = await snapshot();
    await refused(
      await alice.post("/datasetInDetail", { intent: "create", name: "odd", visibility: "everyone" }),
      "Please choose whether the dataset is private or public.",
    );
    await refused(await alice.post("/datasetInDetail", { intent: "create", name: "odd" }), "Please choose whether the dataset is private or public.");
    await refused(await alice.post("/datasetInDetail", { intent: "create", name: "odd", visibility: "p".repeat(10_000) }), "Please choose whether");
    expect(await snapshot()).toEqual(before);
  });

  it("an unknown or over-long intent is refused", async () => {
    await refused(await alice.post("/datasetInDetail", { intent: "x".repeat(5000), name: "odd", visibility: "public" }), "Unknown action.");
  });
});

describe("search keyword", () => {
  const pages = ["/datasetInDetail?", "/datasetPreview?tab=users&", "/UserImgclassification?"];
  for (const page of pages) {
    it(`${page.split("?")[0]}: over 200 characters or a control character gives 400 with a message`, async () => {
      await refused(await alice.get(`${page}type=name&q=${"q".repeat(201)}`), "The search text can be at most 200 characters.");
      await refused(await alice.get(`${page}type=user&q=al%00ice`), CONTROL);
      await refused(await alice.get(`${page}type=name&q=a%09b`), CONTROL);
      // 200 characters are a search like any other.
      const ok = await alice.get(`${page}type=name&q=${"q".repeat(200)}`);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain("No dataset matching the conditions was found!");
    });
  }
});

describe("upload pictures", () => {
  it("a control character in a multipart field is refused and stores nothing", async () => {
    const before = await snapshot();
    const fd = new FormData();
    fd.append("intent", "upload");
    fd.append("datasetId", `${datasetId}\u0000`);
    fd.append("pictures", new Blob([fixture("red.png")], { type: "image/png" }), "a.png");
    await refused(await alice.post(`/datasetInDetail?dataset=${datasetId}`, fd), CONTROL);
    expect(await snapshot()).toEqual(before);
  });

  it("an over-long or malformed dataset id is a bad request, not a 500", async () => {
    const before = await snapshot();
    for (const id of ["9".repeat(40), "1e3", "-1", ""]) {
      const fd = new FormData();
      fd.append("intent", "upload");
      fd.append("datasetId", id);
      fd.append("pictures", new Blob([fixture("red.png")], { type: "image/png" }), "a.png");
      await refused(await alice.post("/datasetInDetail", fd), "There is no such dataset or picture.");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("a file name is shown bounded (120 characters, cut rather than refused: nobody types it) and never with control characters", async () => {
    const fd = new FormData();
    fd.append("intent", "upload");
    fd.append("datasetId", String(datasetId));
    fd.append("pictures", new Blob([fixture("red.png")], { type: "image/png" }), `${"x".repeat(300)}.png`);
    expect((await alice.post(`/datasetInDetail?dataset=${datasetId}`, fd)).status).toBe(302);
    const newest = async () =>
      (
        (await db.query<{ displayName: string }>("SELECT display_name AS displayName FROM pictures WHERE dataset_id = ? ORDER BY id DESC", {
          type: QueryTypes.SELECT,
          replacements: [datasetId],
        })) as { displayName: string }[]
      )[0].displayName;
    expect(await newest()).toBe("x".repeat(120));
    // A control character in the name: the multipart parser refuses the body (400 with a message), nothing stored.
    const before = await snapshot();
    const bad = new FormData();
    bad.append("intent", "upload");
    bad.append("datasetId", String(datasetId));
    bad.append("pictures", new Blob([fixture("red.png")], { type: "image/png" }), "bell\u0007.png");
    await refused(await alice.post(`/datasetInDetail?dataset=${datasetId}`, bad), "The upload could not be read");
    expect(await snapshot()).toEqual(before);
  });
});

describe("delete pictures and datasets", () => {
  const del = (fields: [string, string][]) => alice.request(`/datasetInDetail?dataset=${datasetId}`, { method: "POST", body: new URLSearchParams(fields) });

  it("picture ids that are over-long, malformed or more than one page are refused; nothing is deleted", async () => {
    const before = await snapshot();
    const base: [string, string][] = [
      ["intent", "deletePictures"],
      ["datasetId", String(datasetId)],
      ["confirm", "yes"],
    ];
    await refused(await del([...base, ["pictureIds", "7".repeat(40)]]), "The selection names a picture that does not exist.");
    await refused(await del([...base, ["pictureIds", "abc"]]), "The selection names a picture that does not exist.");
    await refused(
      await del([...base, ...Array.from({ length: 17 }, (_, i) => ["pictureIds", String(pictureId + i)] as [string, string])]),
      "At most 16 pictures (one page) can be deleted at once.",
    );
    await refused(await del([...base, ["pictureIds", `${pictureId}\u0000`]]), CONTROL);
    await refused(await del([...base, ["pictureIds", `${pictureId}\u0085`]]), CONTROL);
    await refused(await del([...base.slice(0, 1), ["datasetId", "1".repeat(30)], ["pictureIds", String(pictureId)]]), "There is no such dataset or picture.");
    await refused(await del(base), "Please select at least one picture to delete.");
    expect(await snapshot()).toEqual(before);
  });

  it("a dataset deletion with a control character or a malformed id is refused; without confirmation nothing is deleted", async () => {
    const before = await snapshot();
    await refused(
      await del([
        ["intent", "deleteDataset"],
        ["datasetId", `${datasetId}\u0000`],
        ["confirm", "yes"],
      ]),
      CONTROL,
    );
    await refused(
      await del([
        ["intent", "deleteDataset"],
        ["datasetId", "9".repeat(40)],
        ["confirm", "yes"],
      ]),
      "There is no such dataset or picture.",
    );
    const ask = await del([
      ["intent", "deleteDataset"],
      ["datasetId", String(datasetId)],
    ]);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("will be removed for good");
    expect(await snapshot()).toEqual(before);
  });
});

describe("classification demo", () => {
  const run = (body: Record<string, string>) => alice.post(`/UserImgclassification?dataset=${datasetId}&picture=${pictureId}`, { intent: "run", ...body });

  it("an over-long model, algorithm or picture id is refused with a message, nothing computed or stored", async () => {
    const before = await snapshot();
    await refused(await run({ model: "m".repeat(101), algorithm: "IG", picture: String(pictureId) }), "At most 100 characters, please.");
    await refused(await run({ model: "m", algorithm: "A".repeat(65), picture: String(pictureId) }), "At most 64 characters, please.");
    await refused(await run({ model: "m", algorithm: "NotOffered", picture: String(pictureId) }), "Please choose the algorithm to use");
    await refused(await run({ model: "m", algorithm: "IG", picture: "1".repeat(30) }), "Please choose the image to explain");
    expect(await snapshot()).toEqual(before);
  });

  for (const bad of ["m\u0000", "m\u0007", "m\u009b", "m\tx"]) {
    it(`a model with ${JSON.stringify(bad)} is refused with the control-character message`, async () => {
      const before = await snapshot();
      await refused(await run({ model: bad, algorithm: "IG", picture: String(pictureId) }), CONTROL);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("the one-image upload refuses control characters in its fields and an unknown intent", async () => {
    const before = await snapshot();
    const fd = new FormData();
    fd.append("intent", "upload\u0000");
    fd.append("picture", new Blob([fixture("red.png")], { type: "image/png" }), "a.png");
    await refused(await alice.post("/UserImgclassification?tab=pool", fd), CONTROL);
    await refused(await alice.post("/UserImgclassification?tab=pool", { intent: "x".repeat(3000) }), "Unknown action.");
    expect(await snapshot()).toEqual(before);
  });
});

describe("signed-in picture uploads", () => {
  // A signed-in upload of up to 50 × 10 MB used to be held in the web process (multer's memory
  // storage) until the action ran. Pictures now stream to UPLOAD_DIR/incoming/*.part
  // (app/.server/uploads.server.ts UPLOAD_ROUTES) and the action reads them from there; whatever
  // the action did not move is removed with the response.
  it("four parallel 24 MiB bodies do not grow the web process; no .part file is left behind; a real picture is still stored", async () => {
    const rssKiB = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1]);
    const incoming = path.join(uploadDir, "incoming");
    const parts = () => (fs.existsSync(incoming) ? fs.readdirSync(incoming).filter((n) => n.endsWith(".part")) : []);
    const cookie = [...alice.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const junk = Buffer.alloc(2 * 1024 * 1024, 0x62);
    const boundary = "----metarank-signed-in";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="datasetId"\r\n\r\n${datasetId}\r\n`),
      ...Array.from({ length: 12 }, (_, i) =>
        Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pictures"; filename="p${i}.png"\r\nContent-Type: image/png\r\n\r\n`),
          junk,
          Buffer.from("\r\n"),
        ]),
      ),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const before = await snapshot();
    const pid = stack.webPid()!;
    const rss = rssKiB(pid);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${stack.baseUrl}/datasetInDetail?dataset=${datasetId}`, {
          method: "POST",
          body,
          headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, Cookie: cookie },
          redirect: "manual",
        }),
      ),
    );
    // Read, refused as not images (each named), nothing stored.
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("&quot;p11.png&quot; is not a PNG, JPEG, GIF or WebP image.");
    }
    expect(rssKiB(pid) - rss).toBeLessThan(48 * 1024); // the four bodies are 96 MiB together
    expect(await snapshot()).toEqual(before);
    // The files are removed as each response closes.
    await expect.poll(parts, { timeout: 5_000 }).toEqual([]);

    const fd = new FormData();
    fd.append("intent", "upload");
    fd.append("datasetId", String(datasetId));
    fd.append("pictures", new Blob([fixture("red.png")], { type: "image/png" }), "streamed.png");
    expect((await alice.post(`/datasetInDetail?dataset=${datasetId}`, fd)).status).toBe(302);
    const [row] = await db.query<{ file_path: string; thumb_path: string }>("SELECT file_path, thumb_path FROM pictures WHERE display_name = 'streamed.png'", {
      type: QueryTypes.SELECT,
    });
    expect(fs.readFileSync(path.join(uploadDir, row.file_path))).toEqual(fixture("red.png"));
    expect(fs.existsSync(path.join(uploadDir, row.thumb_path))).toBe(true);
    expect(parts()).toEqual([]);
  });
});
