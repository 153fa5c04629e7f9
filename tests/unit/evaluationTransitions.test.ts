// The EvaluationRun state machine: every move goes through transitionRun, which refuses moves the
// table does not allow and moves a row only from the states it names (a conditional update).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const file = path.resolve(`var/test/unit-transitions-${process.pid}.sqlite`);
process.env.DATABASE_URL = `sqlite:${file}`;
const models = await import("../../models/index.ts");
const { migrate } = await import("../../models/migrate.ts");

beforeAll(async () => {
  await migrate(models.sequelize);
});
afterAll(async () => {
  await models.sequelize.close();
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
});

describe("evaluation run transitions", () => {
  it("finished states are final, and only the listed moves exist", () => {
    for (const done of ["completed", "failed", "cancelled"] as const) expect(models.EVALUATION_TRANSITIONS[done]).toEqual([]);
    expect(models.EVALUATION_TRANSITIONS.queued).not.toContain("completed");
  });

  it("moves a row only from the named states; a forbidden move throws before touching it", async () => {
    const user = await models.User.create({ username: "run-owner", passwordHash: "x", telephone: "13800138000", institute: "" });
    const run = await models.EvaluationRun.create({ userId: user.id, suiteId: "s", method: "Saliency", paramsJson: "", imageLimit: 1 });
    expect(run.state).toBe("queued");
    await expect(models.transitionRun(run.id, ["queued"], "completed")).rejects.toThrow(/cannot go from queued to completed/);
    expect(await models.transitionRun(run.id, ["running"], "completed")).toBe(false); // not running yet
    expect(await models.transitionRun(run.id, ["queued"], "running", { attempts: 1 })).toBe(true);
    expect(await models.transitionRun(run.id, ["queued", "running"], "cancelled", { error: "by admin" })).toBe(true);
    expect(await models.transitionRun(run.id, ["queued", "running"], "cancelled")).toBe(false); // only once
    await run.reload();
    expect([run.state, run.attempts, run.error]).toEqual(["cancelled", 1, "by admin"]);
  });
});
