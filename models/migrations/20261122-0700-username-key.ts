import { DataTypes, QueryTypes } from "sequelize";
import type { MigrationFn } from "../migrate.ts";
import { usernameKey } from "../User.ts";

// Usernames are compared NFKC-normalised and case-folded (models/User.ts usernameKey), so a
// look-alike of an existing name ("ＡＬＩＣＥ", "Alice" next to "alice") cannot be registered.
// Existing rows are backfilled; two old names that fold to the same key keep both accounts, the
// later one's key suffixed with its id.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addColumn("users", "username_key", { type: DataTypes.STRING(200), allowNull: true });
  const rows = await qi.sequelize.query<{ id: number; username: string }>("SELECT id, username FROM users ORDER BY id", { type: QueryTypes.SELECT });
  const seen = new Set<string>();
  for (const row of rows) {
    let key = usernameKey(row.username);
    if (seen.has(key)) key = `${key}#${row.id}`;
    seen.add(key);
    await qi.sequelize.query("UPDATE users SET username_key = ? WHERE id = ?", { replacements: [key, row.id] });
  }
  // Left nullable in the schema: on SQLite a column change rebuilds the table, and dropping `users`
  // would cascade to every row that references it. The model requires it (models/User.ts).
  await qi.addIndex("users", ["username_key"], { unique: true, name: "users_username_key" });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeIndex("users", "users_username_key");
  await qi.removeColumn("users", "username_key");
};
