// The app's view of the database: the Sequelize models of models/.
export * from "../../models/index.ts";

import { Transaction } from "sequelize";
import { isSqlite } from "../../models/index.ts";

/**
 * Options for a transaction that will write: on SQLite it takes the write lock at BEGIN
 * (IMMEDIATE), so nothing can write between its reads and its writes; MariaDB locks rows as
 * the transaction's statements ask (FOR UPDATE).
 */
export function writeTransaction(): { type?: Transaction.TYPES } {
  return isSqlite() ? { type: Transaction.TYPES.IMMEDIATE } : {};
}

/**
 * Whether MariaDB rolled a transaction back to break a deadlock (1213, ER_LOCK_DEADLOCK) or a
 * lock wait ran out (1205): the whole transaction may simply be run again, which is what
 * MariaDB's documentation asks of applications: besides the rows a statement names, InnoDB
 * also locks index entries and rows that foreign keys refer to, so concurrent writers of one
 * row can deadlock even where the code takes its locks in one order.
 */
export function isTransientLockError(err: unknown): boolean {
  const cause = (err as { parent?: { errno?: unknown; code?: unknown } } | null)?.parent;
  return cause?.errno === 1213 || cause?.errno === 1205 || cause?.code === "ER_LOCK_DEADLOCK" || cause?.code === "ER_LOCK_WAIT_TIMEOUT";
}
