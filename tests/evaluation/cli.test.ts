// The evaluate command's argument checks: every misuse exits 2 with the reason and the
// usage, before any model is loaded.
import { spawnSync } from "node:child_process";
import { describe, it, expect } from "vitest";

function evaluate(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "sidecar/inference/evaluation/cli.ts", ...args], { encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stderr: r.stderr };
}

describe("npm run evaluate", () => {
  it.each([
    [["--method", "Saliency", "--out", "/tmp/x"], /--suite is required/],
    [["--suite", "metarank-local", "--all-methods", "--write-suite", "--limit", "3"], /drop --limit, --task and --out/],
    [["--suite", "metarank-local", "--method", "Saliency", "--task", "imagenet_vgg19", "--out", "/tmp/x"], /has no task imagenet_vgg19/],
    [["--suite", "no-such-suite", "--method", "Saliency", "--out", "/tmp/x"], /no suite "no-such-suite"/],
  ])("%j", (args, message) => {
    const r = evaluate(...(args as string[]));
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.code).not.toBe(0);
  });

  it("names the known methods for an unknown one", () => {
    const r = evaluate("--suite", "metarank-local", "--method", "Magic", "--out", "/tmp/x");
    expect(r.stderr).toMatch(/unknown attribution method "Magic" \(known: Saliency, /);
    expect(r.code).toBe(1);
  });
});
