// The app's view of the database: the Sequelize models of models/.
export * from "../../models/index.ts";

import { Transaction } from "sequelize";
import { isSqlite, sequelize } from "../../models/index.ts";

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

/** How many times inWriteTransaction runs a transaction MariaDB rolled back before giving up. */
export const WRITE_TRANSACTION_ATTEMPTS = 5;

/**
 * Runs `work` in a write transaction (writeTransaction) and runs it again, after a short random
 * pause, when MariaDB rolled it back to break a deadlock or a lock wait ran out
 * (isTransientLockError), up to WRITE_TRANSACTION_ATTEMPTS times. `work` must only touch the
 * database, through `transaction`: files are written before it and removed after its commit, and
 * queues are told after it, so running it again repeats nothing outside the database.
 */
export async function inWriteTransaction<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sequelize.transaction(writeTransaction(), work);
    } catch (err) {
      if (!isTransientLockError(err) || attempt >= WRITE_TRANSACTION_ATTEMPTS) throw err;
      // Apart again at random, so the two that deadlocked do not meet the same way twice.
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    }
  }
}
