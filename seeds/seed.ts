// Idempotent seeding: safe to run on every `make start`. Each step lives in its own module
// under seeds/steps/ and only inserts what is missing.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sequelize } from "../models/index.ts";
import { migrate } from "../models/migrate.ts";
import { SEED_STEPS } from "./steps/index.ts";

export async function seed(): Promise<string[]> {
  const report: string[] = [];
  for (const step of SEED_STEPS) report.push(`${step.name}: ${await step.run()}`);
  return report;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Stored pictures and secrets are the service account's alone (docs/security.md).
  process.umask(0o077);
  // --migrate: the migrations first, in this same process (each test stack does both; one
  // process start instead of two).
  (process.argv.includes("--migrate") ? migrate() : Promise.resolve([]))
    .then(() => seed())
    .then((lines) => {
      for (const l of lines) console.log(l);
      return sequelize.close();
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
