// inWriteTransaction (app/.server/db.server.ts) against a deadlock the database itself breaks: two
// transactions lock two rows in opposite orders, the database rolls one of them back, and the
// wrapper runs that one again, so both writes land. On MariaDB this is a real InnoDB deadlock
// (1213); on SQLite the write lock taken at BEGIN (IMMEDIATE) serialises the two and neither is
// rolled back. Errors that are not lock errors are not run again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/stack.ts";

const kind = process.env.TEST_DB ?? "sqlite";
let db: { url: string; drop(): Promise<void> };
let models: typeof import("../../models/index.ts");
let dbServer: typeof import("../../app/.server/db.server.ts");

beforeAll(async () => {
  db = await createTestDatabase(kind);
  // The models connect to DATABASE_URL when first imported.
  process.env.DATABASE_URL = db.url;
  models = await import("../../models/index.ts");
  dbServer = await import("../../app/.server/db.server.ts");
  await models.sequelize.query("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
  await models.sequelize.query("INSERT INTO counters (id, n) VALUES (1, 0), (2, 0)");
});

afterAll(async () => {
  await models?.sequelize.close();
  await db?.drop();
});

/** Resolves when both sides have arrived, or after `ms` when the other side cannot (SQLite's lock). */
function meeting(ms: number) {
  let arrived = 0;
  let release!: () => void;
  const met = new Promise<void>((r) => (release = r));
  return () => {
    if (++arrived === 2) release();
    return Promise.race([met, new Promise<void>((r) => setTimeout(r, ms))]);
  };
}

describe(`inWriteTransaction on ${kind}`, () => {
  it("runs again the transaction the database rolled back to break a deadlock, so both writes land", async () => {
    const meet = meeting(kind === "sqlite" ? 200 : 5_000);
    const attempts = { a: 0, b: 0 };
    const bump = (id: number, transaction: import("sequelize").Transaction) =>
      models.sequelize.query("UPDATE counters SET n = n + 1 WHERE id = ?", { replacements: [id], transaction });
    const side = (name: "a" | "b", first: number, second: number) =>
      dbServer.inWriteTransaction(async (transaction) => {
        attempts[name]++;
        await bump(first, transaction);
        // Only the first attempts meet: each holds its first row before asking for the other's.
        if (attempts[name] === 1) await meet();
        await bump(second, transaction);
        return name;
      });
    const results = await Promise.all([side("a", 1, 2), side("b", 2, 1)]);
    expect(results).toEqual(["a", "b"]);
    const [rows] = await models.sequelize.query("SELECT id, n FROM counters ORDER BY id");
    // Each side added one to each row exactly once: the rolled-back attempt left nothing behind.
    expect(rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
    if (kind !== "sqlite") expect(attempts.a + attempts.b, "one side was rolled back and run again").toBe(3);
    else expect(attempts).toEqual({ a: 1, b: 1 });
  }, 30_000);

  it("does not run again a transaction that failed for another reason", async () => {
    let attempts = 0;
    await expect(
      dbServer.inWriteTransaction(async (transaction) => {
        attempts++;
        await models.sequelize.query("INSERT INTO counters (id, n) VALUES (1, 5)", { transaction });
      }),
    ).rejects.toThrow();
    expect(attempts).toBe(1);
    const [rows] = await models.sequelize.query("SELECT n FROM counters WHERE id = 1");
    expect(rows).toEqual([{ n: 2 }]);
  });
});
