// A method module in a researcher's own folder (docs/adding-an-attribution-method.md "A method
// module in your own folder"; here a fresh folder under os.tmpdir(), without package.json or
// node_modules, as ~/research is) evaluates through the CLI. Its `import * as tf from
// "@tensorflow/tfjs"` must reach the platform's own copy of the library (methodModuleHooks.mjs,
// methodModule.ts): the module checks that the image it is given is a tensor of *its* tf, which
// fails with a second copy of the library.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, writeTestSuite } from "../evaluation/mapsSidecar.ts";

const run = promisify(execFile);
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "research-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const MODULE = `import * as tf from "@tensorflow/tfjs";

export const name = "OutsideAbsGradient";

export default function attribute(net: { forward(x: tf.Tensor4D): tf.Tensor }, input: tf.Tensor4D, target: number) {
  if (!(input instanceof tf.Tensor)) throw new Error("the input is not a tensor of this module's tf");
  const attribution = tf.tidy(() => {
    const score = (x: tf.Tensor) => tf.sum(tf.gather(net.forward(x as tf.Tensor4D), [target], 1));
    return tf.abs(tf.grad(score)(input)) as tf.Tensor4D;
  });
  return { attribution };
}
`;

describe("evaluate --method-module from a folder outside the checkout", () => {
  it("resolves the module's @tensorflow/tfjs to the platform's and writes the result files", async () => {
    const research = path.join(dir, "research");
    fs.mkdirSync(research);
    const file = path.join(research, "mine.ts");
    fs.writeFileSync(file, MODULE);
    const suiteDir = writeTestSuite(path.join(dir, "platform"));
    const out = path.join(dir, "out");
    // Run from the research folder, as a researcher would, with the platform's CLI by path.
    const { stdout, stderr } = await run(
      path.join(ROOT, "node_modules/.bin/tsx"),
      [
        path.join(ROOT, "sidecar/inference/evaluation/cli.ts"),
        "--suite",
        suiteDir,
        "--method-module",
        file,
        "--task",
        "fashionmnist_resnet",
        "--limit",
        "1",
        "--workers",
        "1",
        "--out",
        out,
      ],
      { cwd: research, env: { ...process.env, TENSOR_BACKEND: "wasm" } },
    );
    expect(stderr).toContain("OutsideAbsGradient: 1 task(s) × 1 images");
    expect(stdout).toContain("maps.zip");
    const morf = fs.readFileSync(path.join(out, "morf.csv"), "utf8").trim().split("\n");
    expect(morf.length).toBeGreaterThan(1);
    expect(JSON.parse(fs.readFileSync(path.join(out, "images.json"), "utf8"))).toMatchObject({ algorithm: "OutsideAbsGradient", images: 1 });
  }, 60_000);
});
