import type { MigrationFn } from "../migrate.ts";

// metarank-local grew from 6 tasks (12 cases) to 11 tasks (22 cases) with new checkpoints; the
// first version stays as metarank-local-v1 so earlier submissions keep their board
// (seeds/suites/metarank-local-v1). A database seeded before this change holds the first version
// under the old id: its suite row, board, submissions, drafts, evaluation runs and audit rows move
// to the new id here, in one transaction, before the seeding step imports the new metarank-local
// fresh. A database whose metarank-local already has other tasks (new, or seeded after this change)
// is left alone, as is one that already has metarank-local-v1.
const OLD = "metarank-local";
const NEW = "metarank-local-v1";
const V1_TASKS = ["fashionmnist_resnet", "fashionmnist_vgg", "fashionmnist_inception", "scenes_resnet", "scenes_vgg", "scenes_inception"];
const CHILDREN = ["board_methods", "submissions", "submission_drafts", "evaluation_runs", "ranking_audits"];

export const up: MigrationFn = async ({ context: qi }) => {
  const sq = qi.sequelize;
  const [rows] = (await sq.query("SELECT id, tasks_json FROM suites WHERE id IN (?, ?)", { replacements: [OLD, NEW] })) as [
    Array<{ id: string; tasks_json: string }>,
    unknown,
  ];
  const old = rows.find((r) => r.id === OLD);
  if (!old || rows.some((r) => r.id === NEW)) return;
  let tasks: unknown;
  try {
    tasks = JSON.parse(old.tasks_json);
  } catch {
    return;
  }
  if (JSON.stringify(tasks) !== JSON.stringify(V1_TASKS)) return;
  const columns = Object.keys(await qi.describeTable("suites")).filter((c) => c !== "id");
  const list = columns.map((c) => qi.quoteIdentifier(c)).join(", ");
  await sq.transaction(async (transaction) => {
    // The copy first (children's foreign keys need it), then the children, then the old row.
    await sq.query(`INSERT INTO suites (id, ${list}) SELECT ?, ${list} FROM suites WHERE id = ?`, { replacements: [NEW, OLD], transaction });
    await sq.query("UPDATE suites SET is_default = ?, name = ? WHERE id = ?", { replacements: [false, "Meta-Rank local suite, version 1", NEW], transaction });
    for (const table of CHILDREN)
      await sq.query(`UPDATE ${qi.quoteIdentifier(table)} SET suite_id = ? WHERE suite_id = ?`, { replacements: [NEW, OLD], transaction });
    await sq.query("DELETE FROM suites WHERE id = ?", { replacements: [OLD], transaction });
  });
};

export const down: MigrationFn = async () => {
  // Not reversible without losing the new suite's rows; the first version stays under its new id.
};
