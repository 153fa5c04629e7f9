// Which database errors inWriteTransaction runs a transaction again for (app/.server/db.server.ts).
import { describe, expect, it } from "vitest";
import { DatabaseError } from "sequelize";
import { isTransientLockError } from "~/.server/db.server.ts";

const mysqlError = (errno: number, code: string) => new DatabaseError(Object.assign(new Error(code), { errno, code, sql: "UPDATE …" }) as never);

describe("isTransientLockError", () => {
  it("a deadlock and a lock wait timeout are run again", () => {
    expect(isTransientLockError(mysqlError(1213, "ER_LOCK_DEADLOCK"))).toBe(true);
    expect(isTransientLockError(mysqlError(1205, "ER_LOCK_WAIT_TIMEOUT"))).toBe(true);
  });
  it("anything else is not", () => {
    expect(isTransientLockError(mysqlError(1062, "ER_DUP_ENTRY"))).toBe(false);
    expect(isTransientLockError(new Error("boom"))).toBe(false);
    expect(isTransientLockError(null)).toBe(false);
  });
});
