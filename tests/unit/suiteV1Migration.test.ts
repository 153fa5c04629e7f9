// A database seeded before metarank-local grew to 22 cases keeps its first-version board under
// metarank-local-v1 (models/migrations/20261126-0100-metarank-local-v1.ts): the suite row, its
// board, submissions, drafts, evaluation runs and audits move; nothing else changes.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const file = path.resolve(`var/test/unit-suite-v1-${process.pid}.sqlite`);
process.env.DATABASE_URL = `sqlite:${file}`;
const models = await import("../../models/index.ts");
const { migrator } = await import("../../models/migrate.ts");

const V1_TASKS = ["fashionmnist_resnet", "fashionmnist_vgg", "fashionmnist_inception", "scenes_resnet", "scenes_vgg", "scenes_inception"];

beforeAll(async () => {
  await migrator(models.sequelize).up({ to: "20261125-0700-board-curves" });
});
afterAll(async () => {
  await models.sequelize.close();
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
});

describe("metarank-local → metarank-local-v1", () => {
  it("moves the first version's suite and every row that points at it, and leaves other suites alone", async () => {
    const suite = (id: string, tasks: string[], isDefault: boolean) =>
      models.Suite.create({
        id,
        name: id,
        description: "d",
        tasksJson: JSON.stringify(tasks),
        gridJson: "[0,1]",
        fillerJson: "[0,0,0]",
        patchSize: 2,
        isDefault,
        position: 0,
      });
    await suite("metarank-local", V1_TASKS, true);
    await suite("other", ["a_b"], false);
    const user = await models.User.create({ username: "v1-owner", passwordHash: "x", telephone: "13800138000", institute: "" });
    const scores = JSON.stringify(V1_TASKS.map((task) => ({ task, morf: 0.1, lerf: 0.9 })));
    const sub = await models.Submission.create({
      userId: user.id,
      suiteId: "metarank-local",
      algorithm: "Mine",
      email: "a@b.cd",
      info: "",
      scoresJson: scores,
      morfFile: "m",
      morfName: "morf.csv",
      lerfFile: "l",
      lerfName: "lerf.csv",
      metascore: 0.5,
      ranking: 1,
    } as never);
    await models.BoardMethod.create({
      suiteId: "metarank-local",
      sourceKey: "saliency",
      submissionId: null,
      contributor: "c",
      institute: "",
      algorithm: "Saliency",
      scoresJson: scores,
      metascore: 0,
      morfMetascore: 0,
      lerfMetascore: 0,
    } as never);
    await models.BoardMethod.create({
      suiteId: "other",
      sourceKey: "x",
      submissionId: null,
      contributor: "c",
      institute: "",
      algorithm: "X",
      scoresJson: "[]",
      metascore: 0,
      morfMetascore: 0,
      lerfMetascore: 0,
    } as never);
    await models.EvaluationRun.create({ userId: user.id, suiteId: "metarank-local", method: "Saliency", paramsJson: "", imageLimit: 1 });

    await migrator(models.sequelize).up();

    expect(await models.Suite.findByPk("metarank-local")).toBeNull();
    const v1 = await models.Suite.findByPk("metarank-local-v1");
    expect(v1).toMatchObject({ isDefault: false, name: "Meta-Rank local suite, version 1", tasksJson: JSON.stringify(V1_TASKS), description: "d" });
    expect((await models.Submission.findByPk(sub.id))!.suiteId).toBe("metarank-local-v1");
    expect((await models.BoardMethod.findAll({ where: { suiteId: "metarank-local-v1" } })).map((b) => b.sourceKey)).toEqual(["saliency"]);
    expect(await models.BoardMethod.count({ where: { suiteId: "other" } })).toBe(1);
    expect(await models.EvaluationRun.count({ where: { suiteId: "metarank-local-v1" } })).toBe(1);
  });
});
