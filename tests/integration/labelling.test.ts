// Labelling (/labelPage, docs/datasets.md "Labelling") through the real app and database, as a
// browser without JavaScript sends it: classes defined and bounded, labels set by the page form and
// one by one, the progress, the labels as the classification demo's ground truth, refusals (a label
// outside the classes in both languages, a class in use, too many fields), and another user's
// dataset answered 404 for GET and POST. fullyLabelledDatasets (for the training page) is called
// here directly against the same database.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startStack, type Stack } from "../support/stack.ts";
import { Client, alerts, location } from "../support/client.ts";
import { userClient } from "../support/accounts.ts";

let stack: Stack;
let uploadDir: string;
let alice: Client;
let bob: Client;
let datasetId: number;
let sharedId: number;
let bobsDatasetId: number;
let pictures: number[];
let bobsPicture: number;
let models: typeof import("../../models/index.ts");
let labels: typeof import("../../app/.server/labels.server.ts");

const png = fs.readFileSync(path.join(ROOT, "tests/fixtures/images/red.png"));
/** The text as shown (React escapes quotes and apostrophes in HTML). */
const unescape = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const gridIds = (html: string) => {
  const grid = html.slice(html.indexOf('data-testid="picture-grid"'));
  return [...new Set([...grid.matchAll(/data-picture-id="(\d+)"/g)].map((m) => Number(m[1])))];
};
const progress = (html: string) => {
  const m = html.match(/data-testid="progress" data-labelled="(\d+)" data-total="(\d+)"/);
  return m ? { labelled: Number(m[1]), total: Number(m[2]) } : null;
};
const screen = (id = datasetId, extra = "") => `/labelPage?dataset=${id}${extra}`;

async function createDataset(c: Client, name: string, visibility = "private"): Promise<number> {
  const res = await c.post("/datasetInDetail", { intent: "create", name, visibility });
  expect(res.status).toBe(302);
  return Number(new URL(location(res)!, "http://x").searchParams.get("dataset"));
}

async function upload(c: Client, id: number, count: number) {
  const fd = new FormData();
  fd.append("intent", "upload");
  fd.append("datasetId", String(id));
  for (let i = 0; i < count; i++) fd.append("pictures", new Blob([png], { type: "image/png" }), `p${String(i).padStart(2, "0")}.png`);
  expect((await c.post(`/datasetInDetail?dataset=${id}`, fd)).status).toBe(302);
}

const setClasses = (c: Client, classes: string, id = datasetId) => c.post(screen(id), { intent: "classes", datasetId: String(id), classes });
const labelPage = (c: Client, page: number, values: Record<number, string>, id = datasetId) =>
  c.post(screen(id, `&page=${page}`), {
    intent: "labels",
    datasetId: String(id),
    page: String(page),
    ...Object.fromEntries(Object.entries(values).map(([pid, v]) => [`label-${pid}`, v])),
  });
const labelOne = (c: Client, pictureId: number, label: string, id = datasetId) =>
  c.post(screen(id), { intent: "label", datasetId: String(id), pictureId: String(pictureId), label });

async function labelsInDb(ids: number[]): Promise<(string | null)[]> {
  const rows = await models.Picture.findAll({ where: { id: ids }, order: [["id", "ASC"]] });
  return rows.map((r) => r.label);
}

beforeAll(async () => {
  uploadDir = path.join(ROOT, `var/test/uploads_lbl_${process.pid}_${Date.now()}`);
  stack = await startStack({ sidecar: false, env: { UPLOAD_DIR: uploadDir, SEED_FASHION_MNIST_PICTURES: "0", SEED_SCENES_PICTURES: "0" } });
  // The test process reads and writes the same database as the app (the demo's cached result,
  // fullyLabelledDatasets): models connect to DATABASE_URL when first imported.
  process.env.DATABASE_URL = stack.dbUrl;
  models = await import("../../models/index.ts");
  labels = await import("../../app/.server/labels.server.ts");
  alice = await userClient(stack.baseUrl, "alice");
  bob = await userClient(stack.baseUrl, "bob");
  datasetId = await createDataset(alice, "animals");
  sharedId = await createDataset(alice, "shared animals", "public");
  bobsDatasetId = await createDataset(bob, "bob's");
  await upload(alice, datasetId, 18);
  await upload(alice, sharedId, 1);
  await upload(bob, bobsDatasetId, 1);
  pictures = (await models.Picture.findAll({ where: { datasetId }, order: [["id", "ASC"]] })).map((p) => p.id);
  bobsPicture = (await models.Picture.findOne({ where: { datasetId: bobsDatasetId } }))!.id;
});

afterAll(async () => {
  await models?.sequelize.close();
  await stack?.stop();
  if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
});

describe("choosing a dataset and defining classes", () => {
  it("lists only the user's own datasets with their progress, linked from the menu and the dataset page", async () => {
    const html = await alice.html("/labelPage");
    expect(html).toContain("<h1>Label pictures</h1>");
    expect(html).toContain('href="/labelPage"');
    expect(html).toContain(`href="/labelPage?dataset=${datasetId}"`);
    expect(html).not.toContain(`data-dataset-id="${bobsDatasetId}"`);
    expect(html).toMatch(new RegExp(`data-dataset-id="${datasetId}"[\\s\\S]*?data-testid="list-progress">0 / 18<`));
    expect(await alice.html(`/datasetInDetail?dataset=${datasetId}`)).toContain(`href="/labelPage?dataset=${datasetId}"`);
    // Someone else's public dataset: viewable there, but no labelling link.
    expect(await bob.html(`/datasetInDetail?dataset=${sharedId}`)).not.toContain(`/labelPage?dataset=${sharedId}`);
    expect(await new Client(stack.baseUrl).html("/homepage")).not.toContain('href="/labelPage"');
  });

  it("asks for classes first, then saves them one a line (trimmed, blank lines ignored)", async () => {
    const first = await alice.html(screen());
    expect(first).toContain("Define the classes first");
    expect(progress(first)).toEqual({ labelled: 0, total: 18 });
    expect(first).not.toContain('name="label-');
    const res = await setClasses(alice, "cat\r\n  dog  \n\nbig   bird\n");
    expect(res.status).toBe(302);
    expect(location(res)).toBe(`${screen()}&msg=classes`);
    const html = await alice.html(location(res)!);
    expect(html).toContain("Classes saved.");
    expect(JSON.parse((await models.Dataset.findByPk(datasetId))!.classNames!)).toEqual(["cat", "dog", "big bird"]);
    // Sixteen selects on the first page, each with "no label" and the three classes.
    expect([...html.matchAll(/<select [^>]*name="label-\d+"/g)]).toHaveLength(16);
    expect(html).toContain('<option value="big bird">big bird</option>');
  });

  it("bounds the class list: count, length, duplicates, control characters, total size", async () => {
    const refused = async (classes: string, message: string) => {
      const res = await setClasses(alice, classes);
      expect(res.status, message).toBe(400);
      expect(alerts(unescape(await res.text())).join(" ")).toContain(message);
    };
    await refused(Array.from({ length: 101 }, (_, i) => `c${i}`).join("\n"), "A dataset can have at most 100 classes.");
    await refused(`cat\n${"x".repeat(41)}`, `is longer than 40 characters.`);
    await refused("cat\ndog\nCat", 'The class "Cat" is listed twice');
    await refused("cat\nd\tog", "Line 2 contains a character that cannot be part of a class name");
    await refused("\n \n", "Please enter at least one class");
    await refused("a\n".repeat(3000), "The class list can be at most 4200 characters.");
    // A NUL never reaches a rule (app/.server/forms.server.ts): the request is refused as a whole.
    expect((await setClasses(alice, "cat\u0000")).status).toBe(400);
    // Exactly at the limits is accepted (100 classes of 40 characters), then put back.
    const longest = Array.from({ length: 100 }, (_, i) => `${i}`.padStart(40, "x"));
    expect((await setClasses(alice, ["cat", "dog", "big bird", ...longest.slice(3)].join("\n"))).status).toBe(302);
    expect((await setClasses(alice, "cat\ndog\nbig bird")).status).toBe(302);
    expect(JSON.parse((await models.Dataset.findByPk(datasetId))!.classNames!)).toEqual(["cat", "dog", "big bird"]);
  });
});

describe("labelling without JavaScript", () => {
  it("labels a page with the form and counts the progress", async () => {
    const page1 = await alice.html(screen(datasetId, "&page=1"));
    expect(gridIds(page1)).toEqual(pictures.slice(0, 16));
    const res = await labelPage(alice, 1, { [pictures[0]]: "cat", [pictures[1]]: "dog", [pictures[2]]: "" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe(`${screen(datasetId, "&page=1")}&msg=saved&n=2`);
    const html = await alice.html(location(res)!);
    expect(html).toContain("2 labels changed.");
    expect(progress(html)).toEqual({ labelled: 2, total: 18 });
    expect(html).toContain("2 of 18 pictures labelled");
    expect(await labelsInDb(pictures.slice(0, 3))).toEqual(["cat", "dog", null]);
    // The selects show what is saved.
    expect(html).toMatch(new RegExp(`name="label-${pictures[0]}"[^>]*>[\\s\\S]*?<option value="cat" selected="">`));
    expect(unescape(await alice.html("/labelPage"))).toContain("2 / 18");
  });

  it("labels one picture at a time and moves on to the next, across pages", async () => {
    // Without a page the screen opens at the first unlabelled picture.
    const opened = await alice.html(screen());
    expect(opened).toMatch(new RegExp(`data-testid="current" data-picture-id="${pictures[2]}"`));
    const res = await labelOne(alice, pictures[2], "big bird");
    expect(res.status).toBe(302);
    expect(location(res)).toBe(`${screen(datasetId, "&page=1&at=3")}&msg=labelled`);
    const next = await alice.html(location(res)!);
    expect(next).toMatch(new RegExp(`data-testid="current" data-picture-id="${pictures[3]}"`));
    expect(next).toContain("Label saved.");
    const last = await labelOne(alice, pictures[15], "cat");
    expect(location(last)).toBe(`${screen(datasetId, "&page=2&at=0")}&msg=labelled`);
    // An empty label clears it.
    expect((await labelOne(alice, pictures[15], "")).status).toBe(302);
    expect(await labelsInDb([pictures[2], pictures[15]])).toEqual(["big bird", null]);
    expect(progress(await alice.html(screen()))).toEqual({ labelled: 3, total: 18 });
  });

  it("refuses a label outside the classes, in both languages, and writes nothing of that form", async () => {
    const res = await labelPage(alice, 1, { [pictures[4]]: "dog", [pictures[5]]: "horse" });
    expect(res.status).toBe(400);
    expect(unescape(await res.text())).toContain(`"horse" is not one of this dataset's classes.`);
    expect(await labelsInDb([pictures[4], pictures[5]])).toEqual([null, null]);
    const one = await labelOne(alice, pictures[4], "Cat");
    expect(one.status).toBe(400);
    const zh = await userClient(stack.baseUrl, "alice-zh");
    await zh.post("/language", { lng: "zh", redirectTo: "/homepage" });
    const zhDataset = await createDataset(zh, "动物");
    await upload(zh, zhDataset, 1);
    expect((await setClasses(zh, "猫\n狗", zhDataset)).status).toBe(302);
    const zhPicture = (await models.Picture.findOne({ where: { datasetId: zhDataset } }))!.id;
    const refused = await labelOne(zh, zhPicture, "马", zhDataset);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("“马”不是此数据集的类别。");
    expect(html).toContain("标注：动物");
    expect((await labelOne(zh, zhPicture, "猫", zhDataset)).status).toBe(302);
    expect(await labelsInDb([zhPicture])).toEqual(["猫"]);
    // Both screens in both languages: one heading, no message ref or key left untranslated.
    for (const [c, url] of [
      [zh, screen(zhDataset)],
      [zh, "/labelPage"],
      [alice, screen()],
      [alice, "/labelPage"],
    ] as const) {
      const shown = (await c.html(url)).replace(/<script[\s\S]*?<\/script>/g, "").replace(/<style[\s\S]*?<\/style>/g, "");
      expect(shown.match(/<h1[^>]*>/g), url).toHaveLength(1);
      expect(shown, url).not.toMatch(/(?<![\w/.-])(labels|datasets|forms|common):[a-z][A-Za-z]*(\.[A-Za-z_]+)*(?![\w/-])/);
      expect(shown, url).not.toMatch(/\{\{\s*\w+\s*\}\}/);
    }
  });

  it("refuses to remove a class that labels pictures, and removes an unused one", async () => {
    const res = await setClasses(alice, "cat\nbig bird");
    expect(res.status).toBe(400);
    expect(alerts(unescape(await res.text())).join(" ")).toContain("These classes still label pictures and cannot be removed: dog (1 pictures).");
    expect(JSON.parse((await models.Dataset.findByPk(datasetId))!.classNames!)).toEqual(["cat", "dog", "big bird"]);
    expect((await setClasses(alice, "cat\ndog\nbig bird\nfish")).status).toBe(302);
    expect((await setClasses(alice, "dog\ncat\nbig bird")).status).toBe(302);
    expect(JSON.parse((await models.Dataset.findByPk(datasetId))!.classNames!)).toEqual(["dog", "cat", "big bird"]);
  });

  it("bounds the label forms: one page of fields, pictures of this dataset only, a known action", async () => {
    const seventeen = Object.fromEntries(pictures.slice(0, 17).map((id) => [id, "cat"]));
    const tooMany = await labelPage(alice, 1, seventeen);
    expect(tooMany.status).toBe(400);
    expect(unescape(await tooMany.text())).toContain("At most 16 pictures (one page) can be labelled at once.");
    expect((await labelPage(alice, 1, {})).status).toBe(400);
    // A picture of another dataset (Bob's, or Alice's other one) is not found; nothing is written.
    expect((await labelPage(alice, 1, { [pictures[6]]: "cat", [bobsPicture]: "cat" })).status).toBe(404);
    expect((await labelOne(alice, 99_999_999, "cat")).status).toBe(404);
    expect(await labelsInDb([pictures[6], bobsPicture])).toEqual([null, null]);
    expect((await alice.post(screen(), { intent: "relabel-everything", datasetId: String(datasetId) })).status).toBe(400);
    const huge = await labelOne(alice, pictures[6], "x".repeat(100_000));
    expect(huge.status).toBe(400);
    expect((await huge.text()).length).toBeLessThan(200_000);
  });
});

describe("another user's dataset", () => {
  it("is not found for GET and POST, public or private, and nothing changes", async () => {
    for (const id of [datasetId, sharedId]) {
      expect((await bob.get(screen(id))).status).toBe(404);
      expect((await bob.get(screen(id, "&page=1&at=0"))).status).toBe(404);
      expect((await setClasses(bob, "mine", id)).status).toBe(404);
    }
    expect((await labelPage(bob, 1, { [pictures[0]]: "dog" })).status).toBe(404);
    expect((await labelOne(bob, pictures[0], "dog")).status).toBe(404);
    // Bob's own dataset named with Alice's picture: still not found.
    await setClasses(bob, "dog", bobsDatasetId);
    expect((await labelPage(bob, 1, { [pictures[0]]: "dog" }, bobsDatasetId)).status).toBe(404);
    expect(await labelsInDb([pictures[0]])).toEqual(["cat"]);
    expect(JSON.parse((await models.Dataset.findByPk(datasetId))!.classNames!)).toEqual(["dog", "cat", "big bird"]);
    // Platform datasets have no owner to label them.
    const platform = await models.Dataset.findOne({ where: { ownerId: null } });
    if (platform) expect((await alice.get(screen(platform.id))).status).toBe(404);
    expect((await alice.get("/labelPage?dataset=abc")).status).toBe(404);
    // Signed out: to the sign-in page.
    expect((await new Client(stack.baseUrl).get(screen())).status).toBe(302);
  });
});

describe("labels as the classification demo's ground truth", () => {
  it("shows a label set here, and the 'no label' text for an unlabelled picture", async () => {
    const step = await alice.html(`/UserImgclassification?dataset=${datasetId}&picture=${pictures[0]}`);
    expect(step).toContain("(ground truth: cat)");
    // A cached result for each (the sidecar is not needed to show one).
    const result = async (pictureId: number) =>
      (
        await models.InferenceCache.create({
          pictureId,
          modelId: "test-model",
          algorithm: "IG",
          paramsKey: `k${pictureId}`,
          paramsJson: "{}",
          predictedClass: "cat",
          predictedIndex: 0,
          probability: 0.5,
          heatmapPath: "none.png",
          overlayPath: "none.png",
        })
      ).id;
    const truth = async (pictureId: number) => {
      const html = await alice.html(`/UserImgclassification?dataset=${datasetId}&picture=${pictureId}&result=${await result(pictureId)}`);
      return html.match(/data-testid="ground-truth">([^<]*)</)?.[1];
    };
    expect(await truth(pictures[0])).toBe("cat");
    expect(await truth(pictures[7])).toBe("unknown (no label)");
  });
});

describe("fullyLabelledDatasets", () => {
  it("lists a user's datasets once every picture has a label, and no one else's", async () => {
    const aliceId = (await models.User.findOne({ where: { username: "alice" } }))!.id;
    const bobId = (await models.User.findOne({ where: { username: "bob" } }))!.id;
    expect(await labels.fullyLabelledDatasets(aliceId)).toEqual([]);
    const page1 = Object.fromEntries(pictures.slice(0, 16).map((id, i) => [id, ["dog", "cat", "big bird"][i % 3]]));
    expect((await labelPage(alice, 1, page1)).status).toBe(302);
    expect((await labelPage(alice, 2, { [pictures[16]]: "cat" })).status).toBe(302);
    expect(progress(await alice.html(screen(datasetId, "&page=2")))).toEqual({ labelled: 17, total: 18 });
    expect(await labels.fullyLabelledDatasets(aliceId)).toEqual([]);
    expect((await labelPage(alice, 2, { [pictures[16]]: "cat", [pictures[17]]: "dog" })).status).toBe(302);
    expect(await labels.fullyLabelledDatasets(aliceId)).toEqual([{ id: datasetId, name: "animals", classes: ["dog", "cat", "big bird"], pictures: 18 }]);
    // Bob has classes but an unlabelled picture.
    expect(await labels.fullyLabelledDatasets(bobId)).toEqual([]);
    expect(progress(await alice.html(screen()))).toEqual({ labelled: 18, total: 18 });
  });
});
