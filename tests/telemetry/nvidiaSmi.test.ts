// The nvidia-smi reader, always through an executable (the fake on tests/fixtures) so the
// argument lists, exit codes and stdout handling are exercised, not just the CSV parser.
import { describe, expect, it } from "vitest";
import { readCudaVersion, readGpuProcesses, readGpus } from "../../sidecar/telemetry/nvidiaSmi.ts";
import { fakeSmi } from "./helpers.ts";

describe("readGpus through a fake nvidia-smi", () => {
  it("reads every field of several GPUs", async () => {
    const r = await readGpus(fakeSmi("multi-gpu"));
    if (!r.ok) throw new Error(r.reason);
    expect(r.gpus.map((g) => g.index)).toEqual([0, 1, 2, 3]);
    expect(r.gpus[0]).toEqual({
      index: 0,
      name: "NVIDIA A100-SXM4-80GB",
      driverVersion: "535.161.08",
      memoryUsedMiB: 40123,
      memoryTotalMiB: 81920,
      utilizationPercent: 87,
      fanPercent: null, // datacenter GPUs have no fan: "[N/A]", not 0
      temperatureC: 61,
      performanceState: 0,
      powerW: 312.45,
    });
    expect(r.gpus[2]).toMatchObject({ name: "NVIDIA GeForce RTX 3090", fanPercent: 78, performanceState: 2, powerW: 347.9 });
    expect(r.gpus[3]).toMatchObject({ utilizationPercent: 12, performanceState: 8 });
  });

  it("turns [N/A], [Not Supported], errors, empty and missing cells into null, and keeps real zeros", async () => {
    const r = await readGpus(fakeSmi("na-fields"));
    if (!r.ok) throw new Error(r.reason);
    expect(r.gpus).toHaveLength(2);
    expect(r.gpus[0]).toMatchObject({
      memoryUsedMiB: null,
      memoryTotalMiB: 11441,
      utilizationPercent: null,
      fanPercent: null,
      temperatureC: 38,
      performanceState: null,
      powerW: null,
    });
    // Row 2: "0" is a measurement, an empty cell and "[Unknown Error]" are not; the row is
    // one column short, so power is missing.
    expect(r.gpus[1]).toMatchObject({
      memoryUsedMiB: 0,
      utilizationPercent: 0,
      fanPercent: null,
      temperatureC: null,
      performanceState: 8,
      powerW: null,
    });
  });

  it("reports a driver that cannot be reached, with nvidia-smi's own words", async () => {
    const r = await readGpus(fakeSmi("driver-failed"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toContain("exit 9");
    expect(r.reason).toContain("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver");
  });

  it("reports a host with no devices", async () => {
    const r = await readGpus(fakeSmi("no-devices"));
    expect(r).toEqual({ ok: false, reason: "nvidia-smi failed (exit 6): No devices were found" });
  });

  it("reports a host without nvidia-smi", async () => {
    const r = await readGpus({ binary: "/nonexistent/bin/nvidia-smi" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/nvidia-smi not found/);
    const onPath = await readGpus({ env: { ...process.env, PATH: "/nonexistent", NVIDIA_SMI: "" } });
    expect(onPath.ok).toBe(false);
    if (!onPath.ok) expect(onPath.reason).toMatch(/not on PATH/);
  });

  it("gives up on an nvidia-smi that hangs", async () => {
    const started = Date.now();
    const r = await readGpus(fakeSmi("hang", { timeoutMs: 300 }));
    expect(r).toEqual({ ok: false, reason: "nvidia-smi did not answer within 300 ms" });
    expect(Date.now() - started).toBeLessThan(4000); // the fake sleeps 5 s
  });

  it("uses $NVIDIA_SMI when no binary is given", async () => {
    const r = await readGpus({ env: { ...fakeSmi("multi-gpu").env, NVIDIA_SMI: fakeSmi("x").binary } });
    expect(r.ok).toBe(true);
  });
});

describe("readCudaVersion", () => {
  it("reads the plain nvidia-smi header", async () => {
    expect(await readCudaVersion(fakeSmi("multi-gpu"))).toBe("12.2");
  });
  it("falls back to nvidia-smi -q when the header lacks it", async () => {
    expect(await readCudaVersion(fakeSmi("na-fields"))).toBe("11.4");
  });
  it("is unknown when the driver fails", async () => {
    expect(await readCudaVersion(fakeSmi("driver-failed"))).toBeNull();
  });
});

describe("readGpuProcesses", () => {
  it("maps processes to GPU indexes through their UUIDs, names with commas intact", async () => {
    const r = await readGpuProcesses(fakeSmi("multi-gpu"));
    if (!r.ok) throw new Error(r.reason);
    expect(r.processes.map(({ pid, name, memoryMiB, gpuIndex }) => ({ pid, name, memoryMiB, gpuIndex }))).toEqual([
      { pid: 21877, name: "/opt/conda/envs/xai/bin/python", memoryMiB: 40110, gpuIndex: 0 },
      { pid: 30411, name: "python train.py --lr 0.1", memoryMiB: 9000, gpuIndex: 2 },
      { pid: 30502, name: "/home/lab/run,eval/bin/worker", memoryMiB: 9214, gpuIndex: 2 },
    ]);
  });
  it("keeps unknown memory, hidden names and unmatched GPUs as unknown", async () => {
    const r = await readGpuProcesses(fakeSmi("na-fields"));
    if (!r.ok) throw new Error(r.reason);
    expect(r.processes).toEqual([
      { pid: 4242, name: "", memoryMiB: null, gpuIndex: 0, gpuUuid: "GPU-d4e5f6a7-0000-4000-8000-000000000000" },
      { pid: 5151, name: "/usr/bin/python3", memoryMiB: 310, gpuIndex: null, gpuUuid: "GPU-ffffffff-9999-4999-8999-999999999999" },
    ]);
  });
  it("fails with the driver's reason", async () => {
    const r = await readGpuProcesses(fakeSmi("driver-failed"));
    expect(r.ok).toBe(false);
  });
});
