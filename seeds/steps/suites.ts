import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importSuite } from "../importSuite.ts";
import type { SeedStep } from "./index.ts";

const SUITES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../suites");

/** Every folder of seeds/suites/ with a suite.json: the suite and its baseline methods. */
export const seedSuites: SeedStep = {
  name: "suites",
  async run() {
    const ids = fs
      .readdirSync(SUITES_DIR, { withFileTypes: true })
      .filter((e) => e.isDirectory() && fs.existsSync(path.join(SUITES_DIR, e.name, "suite.json")))
      .map((e) => e.name)
      .sort();
    const lines: string[] = [];
    // Folder order is the leaderboard's tab order.
    for (const [position, id] of ids.entries()) {
      const r = await importSuite(path.join(SUITES_DIR, id), position);
      lines.push(`${r.suite} (${r.board} on the board)`);
    }
    return lines.join(", ") || "none found";
  },
};
