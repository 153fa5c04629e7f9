// How a page is put together from React 18's writes (app/.server/stripNul.server.ts): NULs go,
// every other byte (multi-byte characters split across writes included) stays, in order.
import { describe, expect, it } from "vitest";
import { withoutNulBytes } from "../../app/.server/stripNul.server.ts";

const through = (chunks: Buffer[]) => withoutNulBytes(chunks);

describe("withoutNulBytes", () => {
  it("drops the NUL React leaves where a character did not fit, and keeps the character whole", async () => {
    const text = Buffer.from("删除所选服务器：short-lived？");
    // "服务" | NUL (the unused tail of the flushed buffer) | "器…", as React 18.3 wrote it.
    const cut = Buffer.from("删除所选服务").length;
    const got = through([text.subarray(0, cut), Buffer.from([0]), text.subarray(cut)]);
    expect(got.toString("utf8")).toBe("删除所选服务器：short-lived？");
  });
  it("passes chunks without NUL unchanged, even a character split across two chunks", async () => {
    const text = Buffer.from("三维大坝查看器 — 3D dam viewer");
    const got = through([text.subarray(0, 4), text.subarray(4, 11), text.subarray(11)]);
    expect(got.equals(text)).toBe(true);
  });
});
