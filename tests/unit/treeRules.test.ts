// The tree pages' rules (app/lib/rules/trees.ts: model first, then image) and the model select
// (app/.server/trees.server.ts treeChoices: the cub1/cub2/cars1 names for the platform's trees, the
// user's saved trees labelled as theirs, the platform's own data named when CUB or Cars is not
// installed).
import { describe, expect, it } from "vitest";
import { CANDIDATE_ID, MODEL_NAME, TREE_ID, TREE_MSG, parseClass, predictSchema } from "../../app/lib/rules/trees.ts";
import { parseForm } from "../../app/lib/forms/parse.ts";
import { treeChoices } from "../../app/.server/trees.server.ts";
import type { TreeModelInfo__Output } from "../../proto/generated/metarank/v1/TreeModelInfo.ts";

const info = (treeId: string, dataset: string, owner = "", category = "ProtPTree"): TreeModelInfo__Output => ({
  treeId,
  name: treeId.split(":").at(-1)!,
  category,
  dataset,
  datasetName: dataset,
  owner,
  depth: 4,
  protoDim: 32,
  testAccuracy: 0.5,
  cnnAccuracy: 0.6,
  leaves: 16,
  inputHeight: 28,
  inputWidth: 28,
  classNames: ["a", "b"],
  trainedAt: "",
});

describe("predictSchema", () => {
  const read = (fields: Record<string, string>) => parseForm(fields, predictSchema);
  it("says the model message first, then the image message", () => {
    expect(read({ model: "", sample: "" })).toEqual({ ok: false, errors: { model: TREE_MSG.chooseModel } });
    expect(read({ model: "platform:x", sample: "" })).toEqual({ ok: false, errors: { image: TREE_MSG.chooseImage } });
    expect(read({ model: " platform:x ", sample: "test:12" })).toEqual({ ok: true, value: { model: "platform:x", sample: "test:12", algorithm: "" } });
    expect(read({ model: "platform:x", sample: "../etc" }).ok).toBe(false);
    expect(read({ model: "platform:x", sample: "test:12", algorithm: "none" })).toEqual({ ok: false, errors: { form: TREE_MSG.unknownAction } });
  });
  it("bounds ids, names and classes", () => {
    expect(TREE_ID.test("user:alice:my-tree.2")).toBe(true);
    expect(TREE_ID.test("user:alice:bad name")).toBe(false);
    expect(TREE_ID.test(`platform:${"x".repeat(65)}`)).toBe(false);
    expect(CANDIDATE_ID.test("train:54682@3,3")).toBe(true);
    expect(MODEL_NAME.test("x".repeat(64))).toBe(true);
    expect(MODEL_NAME.test("x".repeat(65))).toBe(false);
    expect(parseClass("7")).toBe(7);
    expect(parseClass("-1")).toBeNull();
  });
});

describe("treeChoices", () => {
  const trees = [
    info("platform:fm-a", "fashion-mnist"),
    info("platform:fm-b", "fashion-mnist"),
    info("platform:sebow", "fashion-mnist", "", "SeBoW"),
    info("user:alice:mine", "fashion-mnist", "alice"),
  ];
  it("without CUB: the platform's trees as cub1, cub2, then the user's, and says so", () => {
    const c = treeChoices(trees, "cub");
    expect(c.ownData).toBe(true);
    expect(c.choices.map((x) => x.id)).toEqual(["platform:fm-a", "platform:fm-b", "user:alice:mine"]);
    expect(c.choices[0].label).toContain('"seedName":"cub1"');
    expect(c.choices[1].label).toContain('"seedName":"cub2"');
    expect(c.choices[2].label).toMatch(/^trees:option\.mine\|/);
    expect(treeChoices(trees, "cars").choices[0].label).toContain('"seedName":"cars1"');
  });
  it("with CUB installed: only trees on CUB", () => {
    const c = treeChoices([...trees, info("platform:cub", "cub-200-2011")], "cub");
    expect(c.ownData).toBe(false);
    expect(c.choices.map((x) => x.id)).toEqual(["platform:cub"]);
  });
});
