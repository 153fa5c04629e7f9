// The transform that removes the NUL bytes React 18's Node renderer can write into a page
// (app/.server/stripNul.server.ts): NULs go, every other byte (multi-byte characters split across
// chunks included) passes unchanged and in order.
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { stripNulBytes } from "../../app/.server/stripNul.server.ts";

async function through(chunks: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  const t = Readable.from(chunks).pipe(stripNulBytes());
  for await (const c of t) out.push(c as Buffer);
  return Buffer.concat(out);
}

describe("stripNulBytes", () => {
  it("drops the NUL React leaves where a character did not fit, and keeps the character whole", async () => {
    const text = Buffer.from("删除所选服务器：short-lived？");
    // "服务" | NUL (the unused tail of the flushed buffer) | "器…", as React 18.3 wrote it.
    const cut = Buffer.from("删除所选服务").length;
    const got = await through([text.subarray(0, cut), Buffer.from([0]), text.subarray(cut)]);
    expect(got.toString("utf8")).toBe("删除所选服务器：short-lived？");
  });
  it("passes chunks without NUL unchanged, even a character split across two chunks", async () => {
    const text = Buffer.from("三维大坝查看器 — 3D dam viewer");
    const got = await through([text.subarray(0, 4), text.subarray(4, 11), text.subarray(11)]);
    expect(got.equals(text)).toBe(true);
  });
});
