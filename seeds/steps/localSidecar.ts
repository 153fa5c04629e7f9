import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Server } from "../../models/index.ts";
import { hashPassword, verifyPassword } from "../../models/password.ts";
import type { SeedStep } from "./index.ts";

/**
 * Where the generated password of the local sidecar is kept when LOCAL_SIDECAR_PASSWORD is not
 * set: `make serve` reads it to start the sidecar. A fixed default password would let anyone
 * who knows the source heartbeat as "local" and have the app send work to their address.
 */
export const LOCAL_SIDECAR_SECRET_FILE = process.env.LOCAL_SIDECAR_SECRET_FILE || "var/local-sidecar.secret";

function readSecretFile(): string | null {
  try {
    const v = fs.readFileSync(LOCAL_SIDECAR_SECRET_FILE, "utf8").trim();
    return v || null;
  } catch {
    return null;
  }
}

function writeSecretFile(secret: string): void {
  fs.mkdirSync(path.dirname(path.resolve(LOCAL_SIDECAR_SECRET_FILE)), { recursive: true });
  fs.writeFileSync(LOCAL_SIDECAR_SECRET_FILE, secret + "\n", { mode: 0o600 });
}

/**
 * The server entry of the sidecar that `make start` runs beside the app, so a fresh install
 * shows one online server. Name from LOCAL_SIDECAR_NAME (default "local"); password from
 * LOCAL_SIDECAR_PASSWORD, else generated once and stored in LOCAL_SIDECAR_SECRET_FILE.
 * Re-running keeps the entry and makes its password match what the sidecar will send.
 */
export const seedLocalSidecar: SeedStep = {
  name: "local sidecar server",
  async run() {
    const username = process.env.LOCAL_SIDECAR_NAME || "local";
    let password = process.env.LOCAL_SIDECAR_PASSWORD || readSecretFile();
    if (!password) {
      password = crypto.randomBytes(18).toString("base64url");
      writeSecretFile(password);
    }
    const existing = await Server.findOne({ where: { username } });
    if (existing) {
      if (await verifyPassword(existing.passwordHash, password)) return `${username} exists`;
      await existing.update({ passwordHash: await hashPassword(password) });
      return `${username} exists (password updated to the configured one)`;
    }
    await Server.create({ username, passwordHash: await hashPassword(password), processesJson: "[]" });
    return `${username} created`;
  },
};
