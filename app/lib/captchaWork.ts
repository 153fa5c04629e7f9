// The captcha's proof of work (docs/security.md "Captcha"): the browser finds the number n in
// [0, max) whose PBKDF2-SHA-256 of the captcha's salt (n as the PBKDF2 salt, `iterations`
// rounds) is `target`, and sends n with the form. The server chose n and never has to search.
// PBKDF2 rather than one SHA-256 per try: WebCrypto runs PBKDF2's rounds natively, so a browser
// pays about what a script on the same machine pays, where a single async digest per try costs a
// browser far more in call overhead than the hash itself costs an attacker.
// Runs in the browser (WebCrypto) and in Node (its global WebCrypto: tests and bench/captcha.ts).

export interface WorkChallenge {
  salt: string;
  /** Hex of the 32 bytes PBKDF2 gives for the chosen n. */
  target: string;
  max: number;
  iterations: number;
}

/**
 * The number that meets the challenge, or null (no WebCrypto — a page served over plain HTTP to
 * another host is not a secure context and has none —, cancelled, or none in range). Everything
 * it uses is inside it, so bench/captcha.ts can run this very function in Chromium.
 */
export async function solveWork(challenge: WorkChallenge, signal?: AbortSignal): Promise<number | null> {
  // Tries run at once: WebCrypto answers each on its own thread, so a few in flight keep it busy.
  const BATCH = 8;
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const enc = new TextEncoder();
  const hex = (bits: ArrayBuffer) => Array.from(new Uint8Array(bits), (b) => b.toString(16).padStart(2, "0")).join("");
  const key = await subtle.importKey("raw", enc.encode(challenge.salt), "PBKDF2", false, ["deriveBits"]);
  const attempt = async (n: number) => {
    const bits = await subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: enc.encode(String(n)), iterations: challenge.iterations }, key, 256);
    return hex(bits) === challenge.target ? n : -1;
  };
  for (let start = 0; start < challenge.max; start += BATCH) {
    if (signal?.aborted) return null;
    const tries: Promise<number>[] = [];
    for (let n = start; n < Math.min(start + BATCH, challenge.max); n++) tries.push(attempt(n));
    const found = (await Promise.all(tries)).find((n) => n >= 0);
    if (found !== undefined) return found;
  }
  return null;
}
