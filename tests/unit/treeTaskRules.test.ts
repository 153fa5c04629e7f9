// The create-task form's rules (app/lib/rules/treeTasks.ts): the order of its messages, Chinese
// remarks refused, datasets by category, the distributed-training bound and each advanced option
// checked against its kind and range.
import { describe, expect, it } from "vitest";
import { TASK_MSG, checkTaskForm, progressLabel, type TaskFormOptions } from "../../app/lib/rules/treeTasks.ts";

const OPTIONS: TaskFormOptions = {
  algorithms: [
    {
      id: "ProtPTree",
      isSupportDdp: true,
      datasets: [{ id: "fashion-mnist" }],
      args: [
        { name: "train_size", kind: "int", value: "5000", choices: [], min: 16, max: 60000 },
        { name: "lr", kind: "float", value: "0.01", choices: [], min: 1e-5, max: 0.1 },
        { name: "freeze_backbone", kind: "bool", value: "true", choices: ["true", "false"], min: 0, max: 0 },
        { name: "backbone", kind: "choice", value: "auto", choices: ["auto", "resnet-fashion-mnist"], min: 0, max: 0 },
      ],
    },
    { id: "SeBoW", isSupportDdp: false, datasets: [{ id: "scenes" }], args: [] },
  ],
  depths: [8, 9, 10],
  iterations: [100, 150, 200, 250, 300],
  protoDims: [128, 256, 512, 1024],
  maxDdp: 2,
};
const FULL = { category: "ProtPTree", name: "tree-1", dataset: "fashion-mnist", depth: "8", iterations: "100", protoDim: "128" };

describe("checkTaskForm", () => {
  it("names the first missing field in the original site's order", () => {
    const order: [keyof typeof FULL, string][] = [
      ["category", TASK_MSG.chooseCategory],
      ["name", TASK_MSG.nameTask],
      ["dataset", TASK_MSG.chooseDataset],
      ["depth", TASK_MSG.chooseDepth],
      ["iterations", TASK_MSG.chooseIterations],
      ["protoDim", TASK_MSG.chooseProtoDim],
    ];
    for (let i = 0; i < order.length; i++) {
      const values: Record<string, string> = { ...FULL };
      for (const [k] of order.slice(i)) values[k] = "";
      const r = checkTaskForm(values, OPTIONS);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.first).toBe(order[i][1]);
    }
    expect(checkTaskForm(FULL, OPTIONS).ok).toBe(true);
  });

  it("refuses values outside the original site's and the host's sets, and another category's dataset", () => {
    for (const [k, v, msg] of [
      ["depth", "7", TASK_MSG.chooseDepth],
      ["iterations", "120", TASK_MSG.chooseIterations],
      ["protoDim", "64", TASK_MSG.chooseProtoDim],
      ["dataset", "scenes", TASK_MSG.chooseDataset],
      ["category", "Other", TASK_MSG.chooseCategory],
      ["name", "树", TASK_MSG.nameRule],
      ["name", "a/b", TASK_MSG.nameRule],
    ])
      expect(checkTaskForm({ ...FULL, [k]: v }, OPTIONS)).toMatchObject({ ok: false, first: msg });
  });

  it("refuses Chinese remarks (not supported yet, as on the original site) and keeps English ones", () => {
    expect(checkTaskForm({ ...FULL, remarks: "第一次训练" }, OPTIONS)).toMatchObject({ ok: false, first: TASK_MSG.remarksChinese });
    expect(checkTaskForm({ ...FULL, remarks: "first run，ok" }, OPTIONS)).toMatchObject({ ok: false, first: TASK_MSG.remarksChinese });
    expect(checkTaskForm({ ...FULL, remarks: "x".repeat(501) }, OPTIONS)).toMatchObject({ ok: false, first: TASK_MSG.remarksTooLong });
    const ok = checkTaskForm({ ...FULL, remarks: "  first run  " }, OPTIONS);
    expect(ok.ok && ok.value.remarks).toBe("first run");
  });

  it("bounds the data-parallel count by the host and by the category", () => {
    expect(checkTaskForm({ ...FULL, ddpTraining: "on", ddpNum: "2" }, OPTIONS)).toMatchObject({ ok: true, value: { ddpTraining: true, ddpNum: 2 } });
    expect(checkTaskForm({ ...FULL, ddpTraining: "on", ddpNum: "3" }, OPTIONS)).toMatchObject({ ok: false, first: TASK_MSG.ddpNum(2) });
    // Unticked: the count is the default 1 whatever the field says.
    expect(checkTaskForm({ ...FULL, ddpNum: "9" }, OPTIONS)).toMatchObject({ ok: true, value: { ddpTraining: false, ddpNum: 1 } });
    expect(checkTaskForm({ ...FULL, category: "SeBoW", dataset: "scenes", ddpTraining: "on", ddpNum: "1" }, OPTIONS)).toMatchObject({
      ok: false,
      first: TASK_MSG.ddpUnsupported,
    });
  });

  it("checks the chosen category's advanced options by kind and range, keeps only changed ones, ignores the other card", () => {
    const r = checkTaskForm(
      { ...FULL, "arg.ProtPTree.train_size": "64", "arg.ProtPTree.lr": "0.01", "arg.ProtPTree.backbone": "resnet-fashion-mnist", "arg.SeBoW.anything": "x" },
      OPTIONS,
    );
    expect(r).toMatchObject({ ok: true, value: { args: { train_size: "64", backbone: "resnet-fashion-mnist" } } });
    for (const [k, v] of [
      ["train_size", "8"],
      ["train_size", "1.5"],
      ["lr", "1"],
      ["lr", "abc"],
      ["freeze_backbone", "yes"],
      ["backbone", "resnet-other"],
    ])
      expect(checkTaskForm({ ...FULL, [`arg.ProtPTree.${k}`]: v }, OPTIONS).ok, `${k}=${v}`).toBe(false);
    expect(checkTaskForm({ ...FULL, "arg.ProtPTree.unknown": "1" }, OPTIONS)).toMatchObject({ ok: false, first: TASK_MSG.unknownArg("unknown") });
  });
});

describe("progressLabel", () => {
  it("is failed, waiting while there is no completion time, completed once there is", () => {
    expect(progressLabel("failed", null)).toBe("failed");
    expect(progressLabel("running", null)).toBe("waiting");
    expect(progressLabel("queued", null)).toBe("waiting");
    expect(progressLabel("completed", "2026-11-25 10:00:00")).toBe("completed");
  });
});
