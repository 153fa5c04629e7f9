// The maps zip's shape check (app/lib/rules/maps.ts checkMapsShape), run by the app before a
// verified evaluation is queued: with the task's input size known it refuses a wrong grid, a
// wrong channel count and PyTorch's channels-first layout at once, each with its own message in
// both languages, and accepts the two layouts the engine reads.
import { describe, expect, it } from "vitest";
import { bilingual } from "~/.server/api/errors.server.ts";
import { checkMapsShape } from "~/lib/rules/maps.ts";

const gray: [number, number, number] = [28, 28, 1];
const rgb: [number, number, number] = [32, 32, 3];
const en = (shape: number[], input?: [number, number, number] | null) => {
  const m = checkMapsShape("t", shape, 10, input);
  return m === null ? null : bilingual(m).en;
};

describe("maps shapes against the task's input", () => {
  it("accepts N×H×W and N×H×W×C with the task's H, W and C", () => {
    expect(en([10, 28, 28], gray)).toBeNull();
    expect(en([10, 28, 28, 1], gray)).toBeNull();
    expect(en([10, 32, 32], rgb)).toBeNull();
    expect(en([10, 32, 32, 3], rgb)).toBeNull();
  });

  it("names channels first, with the transpose that fixes it", () => {
    expect(en([10, 1, 28, 28], gray)).toBe(
      "t.npy has shape (10, 1, 28, 28), channels first (N×C×H×W); this task's images are 28×28×1, so save the maps channels last, N×H×W×C (numpy: maps.transpose(0, 2, 3, 1)), or summed over channels, N×H×W.",
    );
    expect(en([10, 3, 32, 32], rgb)).toMatch(/^t\.npy has shape \(10, 3, 32, 32\), channels first/);
  });

  it("a square image with as many channels as pixels reads as channels last", () => {
    // 3×3×3: both layouts fit; the engine's (channels last) wins and nothing is refused.
    expect(en([10, 3, 3, 3], [3, 3, 3])).toBeNull();
  });

  it("a wrong grid or channel count says the task's own size", () => {
    expect(en([10, 32, 32], gray)).toBe("t.npy has shape (10, 32, 32); this task's images are 28×28 pixels, so its maps must be N×28×28 or N×28×28×1.");
    expect(en([10, 28, 28, 3], gray)).toBe(
      "t.npy has shape (10, 28, 28, 3); this task's images have 1 channel(s): the last axis must be 1, or leave it out (N×H×W).",
    );
    expect(bilingual(checkMapsShape("t", [10, 32, 32], 10, gray)!).zh).toBe(
      "t.npy 的形状为 (10, 32, 32)；该任务的图片为 28×28 像素，因此其归因图必须是 N×28×28 或 N×28×28×1。",
    );
  });

  it("rank and count first; without a known input only those", () => {
    expect(en([10, 28], gray)).toMatch(/must be N×H×W or N×H×W×C/);
    expect(en([9, 28, 28], gray)).toMatch(/holds 9 maps; the task has 10/);
    expect(en([10, 1, 28, 28], null)).toBeNull();
    expect(en([10, 5, 5])).toBeNull();
  });
});
