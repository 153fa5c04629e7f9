// The explain CLI: JSON on stdout, a message on stderr and exit code 2 for bad input.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const sample = "tests/fixtures/data/samples/fashion-mnist-0.png";

function explainCli(...args: string[]) {
  const r = spawnSync(path.join(root, "node_modules/.bin/tsx"), ["sidecar/inference/cli.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, TENSOR_BACKEND: "wasm" },
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("npm run explain", () => {
  it("--list prints models and algorithms", () => {
    const r = explainCli("--list");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    const m = j.models.find((x: any) => x.id === "resnet-fashion-mnist");
    expect(m).toMatchObject({ dataset: "fashion-mnist", height: 28, width: 28, channels: 1 });
    expect(m.classes[9]).toBe("Ankle boot");
    expect(j.algorithms.map((a: any) => a.name)).toContain("IntegratedGradients");
  });

  it("explains with --steps and predicts with --method none", () => {
    const r = explainCli("--model", "resnet-fashion-mnist", "--image", sample, "--method", "IntegratedGradients", "--steps", "8", "--target", "9");
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.attribution.shape).toEqual([1, 28, 28, 1]);
    expect(j.attribution.data).toHaveLength(784);
    expect(j.baselineOutput).toHaveLength(10);
    expect(j.prediction).toBe(9);
    const p = JSON.parse(explainCli("--model", "resnet-fashion-mnist", "--image", sample, "--method", "none").out);
    expect(p.prediction).toBe(9);
    expect(p.attribution).toBeUndefined();
  });

  it("exits 2 with a message on bad input", () => {
    for (const args of [
      ["--model", "nope", "--image", sample, "--method", "Saliency"],
      ["--model", "resnet-fashion-mnist", "--image", "tests/fixtures/data/samples/scenes-0.png", "--method", "Saliency"],
      ["--model", "resnet-fashion-mnist", "--image", sample, "--method", "Saliency", "--steps", "3"],
      ["--model", "resnet-fashion-mnist", "--image", "missing.png", "--method", "Saliency"],
      ["--model", "resnet-fashion-mnist"],
    ]) {
      const r = explainCli(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(/^explain: .+/);
      expect(r.out).toBe("");
    }
  });
});
