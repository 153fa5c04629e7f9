// The heartbeat client in-process, against a tiny HTTP server standing in for the app.
import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import {
  HEARTBEAT_PATH,
  HeartbeatClient,
  bestGpu,
  heartbeatConfigFromEnv,
  setWorkerSlotsProvider,
  type HeartbeatConfig,
} from "../../sidecar/registry/heartbeat.ts";
import { readGpuProcesses } from "../../sidecar/telemetry/nvidiaSmi.ts";
import { TelemetrySampler } from "../../sidecar/telemetry/sampler.ts";
import { fakeSmi, freePort, recordingApp, waitFor } from "./helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  setWorkerSlotsProvider(null);
});

function config(appUrl: string, over: Partial<HeartbeatConfig> = {}): HeartbeatConfig {
  return {
    appUrl,
    name: "gpu-box-1",
    password: "s3cret",
    grpcAddress: "gpu-box-1:50051",
    callKey: "k".repeat(43),
    intervalMs: 40,
    maxBackoffMs: 200,
    requestTimeoutMs: 2000,
    ...over,
  };
}

function client(scenario: string, cfg: HeartbeatConfig) {
  const smi = fakeSmi(scenario);
  const sampler = new TelemetrySampler({ smi });
  return new HeartbeatClient(cfg, sampler, async () => {
    const r = await readGpuProcesses(smi);
    return r.ok ? r.processes : [];
  });
}

describe("heartbeat", () => {
  it("POSTs the documented JSON, retries after a 401 and carries on after the 200", async () => {
    const app = await recordingApp((n) => (n === 1 ? 401 : 200));
    cleanups.push(app.close);
    const hb = client("multi-gpu", config(app.url));
    hb.start();
    cleanups.push(() => hb.stop());
    await waitFor("3 heartbeats", () => app.posts.length >= 3);
    hb.stop();
    expect(app.posts[0].path).toBe(HEARTBEAT_PATH);
    expect(app.posts[1].body).toEqual(app.posts[0].body); // the refused one is retried as is
    expect(app.posts[0].body).toEqual({
      name: "gpu-box-1",
      password: "s3cret",
      grpcAddress: "gpu-box-1:50051",
      callKey: "k".repeat(43),
      gpuIndex: 1, // GPU 1 is idle (0 %); GPU 0 is at 87 %, GPU 2 at 100 %, GPU 3 at 12 %
      freeCompute: 100,
      totalMemoryMiB: 2 * 81920 + 2 * 24576,
      driverVersion: "535.161.08",
      cudaVersion: "12.2",
      // What runs its networks (docs/engine.md): this host's onnxruntime has no GPU provider installed.
      executionProvider: "cpu",
      processes: [
        { pid: 21877, name: "/opt/conda/envs/xai/bin/python", memoryMiB: 40110, gpuIndex: 0 },
        { pid: 30411, name: "python train.py --lr 0.1", memoryMiB: 9000, gpuIndex: 2 },
        { pid: 30502, name: "/home/lab/run,eval/bin/worker", memoryMiB: 9214, gpuIndex: 2 },
      ],
    });
  });

  it("backs off while refused, resets after success", async () => {
    let status = 401;
    const app = await recordingApp(() => status);
    cleanups.push(app.close);
    const hb = client("multi-gpu", config(app.url, { intervalMs: 100, maxBackoffMs: 400 }));
    expect(await hb.beat()).toBe("refused");
    const d1 = hb.nextDelayMs();
    expect(await hb.beat()).toBe("refused");
    const d2 = hb.nextDelayMs();
    for (let i = 0; i < 5; i++) await hb.beat();
    const dMax = hb.nextDelayMs();
    expect(d1).toBeGreaterThanOrEqual(90);
    expect(d1).toBeLessThanOrEqual(110);
    expect(d2).toBeGreaterThanOrEqual(180);
    expect(d2).toBeLessThanOrEqual(220);
    expect(dMax).toBeGreaterThanOrEqual(360);
    expect(dMax).toBeLessThanOrEqual(440);
    status = 200;
    expect(await hb.beat()).toBe("ok");
    expect(hb.nextDelayMs()).toBeLessThanOrEqual(110);
  });

  it("survives an app that is down and reports it as a failure", async () => {
    const port = await freePort(); // nothing listens there
    const hb = client("multi-gpu", config(`http://127.0.0.1:${port}`));
    expect(await hb.beat()).toBe("failed");
    expect(await hb.beat()).toBe("failed");
    // Never accepted yet: it asks again within the interval (40 ms here, ±10 %).
    expect(hb.nextDelayMs()).toBeGreaterThanOrEqual(36);
  });

  it("asks an app that is not listening yet again within a second or two until its first beat is accepted", async () => {
    const port = await freePort(); // the app of `make start`, still starting
    const hb = client("multi-gpu", config(`http://127.0.0.1:${port}`, { intervalMs: 15_000, maxBackoffMs: 60_000 }));
    expect(await hb.beat()).toBe("failed");
    expect(hb.nextDelayMs()).toBeLessThanOrEqual(1100);
    expect(await hb.beat()).toBe("failed");
    expect(hb.nextDelayMs()).toBeLessThanOrEqual(2200);
    for (let i = 0; i < 6; i++) await hb.beat();
    // Never past the interval while starting.
    expect(hb.nextDelayMs()).toBeLessThanOrEqual(16_500);
  });

  it("a GPU-less host advertises gpuIndex -1, free worker slots and its RAM", async () => {
    setWorkerSlotsProvider(() => 3);
    const app = await recordingApp(() => 200);
    cleanups.push(app.close);
    const hb = client("driver-failed", config(app.url));
    expect(await hb.beat()).toBe("ok");
    expect(app.posts[0].body).toMatchObject({
      gpuIndex: -1,
      freeCompute: 3,
      totalMemoryMiB: Math.round(os.totalmem() / 1048576),
      driverVersion: "",
      cudaVersion: "",
      processes: [],
    });
  });

  it("falls back to free memory when utilization is unknown", () => {
    const g = { name: null, driverVersion: null, fanPercent: null, temperatureC: null, performanceState: null, powerW: null };
    expect(
      bestGpu([
        { ...g, index: 0, utilizationPercent: null, memoryUsedMiB: 750, memoryTotalMiB: 1000 },
        { ...g, index: 1, utilizationPercent: null, memoryUsedMiB: 250, memoryTotalMiB: 1000 },
        { ...g, index: 2, utilizationPercent: null, memoryUsedMiB: null, memoryTotalMiB: null },
      ]),
    ).toEqual({ index: 1, freeCompute: 75 });
    expect(bestGpu([])).toBeNull();
  });

  it("is configured only with all three of APP_URL, SIDECAR_NAME, SIDECAR_PASSWORD", () => {
    expect(heartbeatConfigFromEnv(50051, {})).toBeNull();
    expect(heartbeatConfigFromEnv(50051, { APP_URL: "http://app", SIDECAR_NAME: "a" })).toBeNull();
    const cfg = heartbeatConfigFromEnv(50051, { APP_URL: "http://app/", SIDECAR_NAME: "a", SIDECAR_PASSWORD: "p" })!;
    expect(cfg).toMatchObject({ appUrl: "http://app", grpcAddress: `${os.hostname()}:50051`, intervalMs: 15000 });
    expect(
      heartbeatConfigFromEnv(1, {
        APP_URL: "http://app",
        SIDECAR_NAME: "a",
        SIDECAR_PASSWORD: "p",
        SIDECAR_ADVERTISE_ADDRESS: "10.0.0.5:6000",
        HEARTBEAT_INTERVAL_MS: "500",
      }),
    ).toMatchObject({ grpcAddress: "10.0.0.5:6000", intervalMs: 500 });
  });
});
