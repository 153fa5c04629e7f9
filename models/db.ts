// One Sequelize connection per process, chosen by DATABASE_URL:
//   sqlite:var/metarank.sqlite (default, embedded) | mysql://user:pass@host:3306/db (MySQL/MariaDB)
import fs from "node:fs";
import path from "node:path";
import { Sequelize, type Options } from "sequelize";

export const DEFAULT_DATABASE_URL = "sqlite:var/metarank.sqlite";

export function databaseUrl(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function createSequelize(url = databaseUrl()): Sequelize {
  const common: Options = { logging: false, define: { underscored: true } };
  if (url.startsWith("sqlite:")) {
    const file = url.slice("sqlite:".length).replace(/^\/\//, "");
    if (file !== ":memory:") {
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      // Readable by the service account only (docs/security.md), whatever the umask was when it was made.
      if (fs.existsSync(file)) fs.chmodSync(file, 0o600);
    }
    const sequelize = new Sequelize({
      ...common,
      dialect: "sqlite",
      storage: file,
      // Retry only when the database was busy: any other error (a constraint, a bad value) is
      // final, and retrying it ten times only delays the answer.
      retry: { max: 10, match: [/SQLITE_BUSY/] },
    });
    // WAL lets the web app read while a migration, seed or second process writes;
    // busy_timeout turns brief lock contention into waiting instead of SQLITE_BUSY errors.
    sequelize.addHook("afterConnect", async (connection: unknown) => {
      // The sqlite3 driver's Database (sequelize types the hook's connection as unknown).
      const conn = connection as { exec(sql: string, cb: (e: Error | null) => void): void };
      await new Promise<void>((res, rej) =>
        conn.exec("PRAGMA journal_mode=WAL; PRAGMA busy_timeout=5000; PRAGMA foreign_keys=ON;", (e: Error | null) => (e ? rej(e) : res())),
      );
    });
    return sequelize;
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    return new Sequelize(url.replace(/^mariadb:/, "mysql:"), {
      ...common,
      dialect: "mysql",
      dialectOptions: { charset: "utf8mb4", decimalNumbers: true },
      pool: { max: 10, min: 0, idle: 10_000 },
    });
  }
  throw new Error(`DATABASE_URL must start with sqlite: or mysql:// (got "${url.split(":")[0]}:…")`);
}

export const sequelize = createSequelize();
export const isSqlite = () => sequelize.getDialect() === "sqlite";
