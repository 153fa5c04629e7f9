// Backend selection: auto falls back to wasm where no native TensorFlow binding is
// installed (as here), an explicit unavailable backend is a clear error, and a bad
// TENSOR_BACKEND value names the allowed ones.
import { it, expect } from "vitest";
import * as tf from "@tensorflow/tfjs";
import { activeBackend, BackendUnavailableError, initBackend } from "../../sidecar/inference/runtime/backend.ts";

it("auto picks wasm without tfjs-node, registers the filter-gradient kernel, and reports it", async () => {
  const hasNative = await import("@tensorflow/tfjs-node" as string).then(
    () => true,
    () => false,
  );
  const info = await initBackend("auto");
  expect(info.name).toBe(hasNative ? "tensorflow" : "wasm");
  expect(tf.getBackend()).toBe(info.name);
  expect(activeBackend()).toEqual(info);
  if (info.name === "wasm") expect(tf.getKernel("Conv2DBackpropFilter", "wasm")).toBeDefined();
});

it("an explicit tensorflow backend that cannot load is a clear error", async () => {
  const hasNative = await import("@tensorflow/tfjs-node" as string).then(
    () => true,
    () => false,
  );
  if (hasNative) return;
  await expect(initBackend("tensorflow")).rejects.toThrow(BackendUnavailableError);
  await expect(initBackend("tensorflow")).rejects.toThrow(/tfjs-node-gpu nor @tensorflow\/tfjs-node/);
});

it("TENSOR_BACKEND is validated and cpu can be chosen", async () => {
  const saved = process.env.TENSOR_BACKEND;
  try {
    process.env.TENSOR_BACKEND = "gpu";
    await expect(initBackend()).rejects.toThrow(/auto, wasm, cpu, tensorflow/);
    process.env.TENSOR_BACKEND = "cpu";
    expect((await initBackend()).name).toBe("cpu");
    expect(tf.getBackend()).toBe("cpu");
  } finally {
    process.env.TENSOR_BACKEND = saved;
  }
});
