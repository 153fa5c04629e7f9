// Schema changes happen only here: umzug runs models/migrations/*.ts in name order and
// records them in SequelizeMeta. Run with `npm run migrate` (make start does it).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Umzug, SequelizeStorage } from "umzug";
import type { QueryInterface, Sequelize } from "sequelize";
import { sequelize as defaultSequelize } from "./db.ts";

export type MigrationFn = (params: { context: QueryInterface }) => Promise<void>;

const here = path.dirname(fileURLToPath(import.meta.url));

export function migrator(sequelize: Sequelize = defaultSequelize) {
  return new Umzug({
    migrations: {
      glob: ["migrations/*.ts", { cwd: here }],
      resolve: ({ name, path: file, context }) => ({
        name: name.replace(/\.ts$/, ""),
        up: async () => (await import(pathToFileURL(file!).href)).up({ context }),
        down: async () => (await import(pathToFileURL(file!).href)).down({ context }),
      }),
    },
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize }),
    logger: undefined,
  });
}

export async function migrate(sequelize: Sequelize = defaultSequelize) {
  return migrator(sequelize).up();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Files this process creates (the database) are the service account's alone (docs/security.md).
  process.umask(0o077);
  const down = process.argv.includes("--down");
  const run = down ? migrator().down() : migrate();
  run
    .then((done) => {
      console.log(done.length ? `${down ? "reverted" : "applied"}: ${done.map((m) => m.name).join(", ")}` : "database is up to date");
      return defaultSequelize.close();
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
