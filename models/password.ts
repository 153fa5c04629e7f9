import argon2 from "argon2";

// argon2id with OWASP's recommended minimums (19 MiB, 2 passes): strong, yet a login
// costs tens of milliseconds, not seconds, on the 2-core hosts this runs on.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(plain: string): Promise<string> {
  return argon2.hash(plain, OPTIONS);
}

export async function verifyPassword(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}
