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
