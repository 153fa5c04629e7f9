import { User } from "../../models/index.ts";
import { hashPassword } from "../../models/password.ts";
import type { SeedStep } from "./index.ts";

/** An administrator from ADMIN_USERNAME / ADMIN_PASSWORD, so a fresh install can be managed. */
export const seedAdmin: SeedStep = {
  name: "admin account",
  async run() {
    const username = process.env.ADMIN_USERNAME;
    const password = process.env.ADMIN_PASSWORD;
    if (!username || !password) return "skipped (set ADMIN_USERNAME and ADMIN_PASSWORD to create one)";
    const existing = await User.findOne({ where: { username } });
    if (existing) {
      if (existing.authority !== 1) await existing.update({ authority: 1 });
      return `${username} exists`;
    }
    await User.create({
      username,
      passwordHash: await hashPassword(password),
      telephone: "00000000000",
      institute: process.env.ADMIN_INSTITUTE ?? "Meta-Rank",
      authority: 1,
    });
    return `${username} created`;
  },
};
