import { describe, expect, it } from "vitest";
import { RingBuffer, TelemetrySampler, type TelemetrySample } from "../../sidecar/telemetry/sampler.ts";
import type { GpuReading } from "../../sidecar/telemetry/nvidiaSmi.ts";
import { fakeSmi, waitFor } from "./helpers.ts";

describe("RingBuffer", () => {
  it("keeps the newest `capacity` items, oldest first", () => {
    const r = new RingBuffer<number>(3);
    expect(r.toArray()).toEqual([]);
    expect(r.last()).toBeUndefined();
    for (let i = 1; i <= 5; i++) r.push(i);
    expect(r.toArray()).toEqual([3, 4, 5]);
    expect(r.size).toBe(3);
    expect(r.last()).toBe(5);
  });
  it("rejects a useless capacity", () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
  });
});

describe("TelemetrySampler", () => {
  it("keeps one hour of samples, sized from the interval, filtered by time", async () => {
    let now = 1_000_000;
    let n = 0;
    const read = async (): Promise<GpuReading> => ({
      ok: true,
      gpus: [
        {
          index: 0,
          name: "G",
          driverVersion: "1",
          memoryUsedMiB: n++,
          memoryTotalMiB: 100,
          utilizationPercent: 1,
          fanPercent: null,
          temperatureC: 1,
          performanceState: 0,
          powerW: 1,
        },
      ],
    });
    const s = new TelemetrySampler({ intervalMs: 60_000, read, readCuda: async () => "12.2", now: () => now });
    // 60 samples per hour + 1: take 100 a minute apart.
    for (let i = 0; i < 100; i++) {
      await s.sampleNow();
      now += 60_000;
    }
    now -= 60_000; // "now" = the last sample's time
    const h = s.history();
    expect(h.length).toBe(61);
    expect(h[0].timestampMs).toBe(now - 3_600_000);
    expect(h.at(-1)!.timestampMs).toBe(now);
    expect(h.map((x) => x.gpus[0].memoryUsedMiB)).toEqual(Array.from({ length: 61 }, (_, i) => 39 + i));
    expect(s.history(now - 120_000).length).toBe(3);
    // A gap (e.g. a hung nvidia-smi) ages samples out by time even before the ring is full.
    now += 30 * 60_000;
    expect(s.history().length).toBe(31);
  });

  it("notifies subscribers of each sample until they unsubscribe, on its own timer", async () => {
    const s = new TelemetrySampler({ intervalMs: 30, smi: fakeSmi("multi-gpu") });
    const seen: TelemetrySample[] = [];
    const off = s.subscribe((x) => seen.push(x));
    s.start();
    s.start(); // idempotent: still one loop
    await waitFor("3 samples", () => seen.length >= 3);
    off();
    const count = seen.length;
    await new Promise((r) => setTimeout(r, 150));
    s.stop();
    expect(seen.length).toBe(count);
    expect(seen[0].gpus).toHaveLength(4);
    expect(seen[0].noGpuReason).toBeNull();
    for (let i = 1; i < seen.length; i++) expect(seen[i].timestampMs).toBeGreaterThanOrEqual(seen[i - 1].timestampMs);
    expect(s.history().length).toBeGreaterThanOrEqual(count);
  });

  it("records a GPU-less host as samples with a reason, and keeps sampling", async () => {
    const s = new TelemetrySampler({ intervalMs: 1000, smi: fakeSmi("driver-failed") });
    const a = await s.sampleNow();
    const b = await s.sampleNow();
    expect(a.gpus).toEqual([]);
    expect(a.noGpuReason).toMatch(/couldn't communicate with the NVIDIA driver/);
    expect(b.noGpuReason).toBe(a.noGpuReason);
    expect(s.history()).toHaveLength(2);
    expect(await s.cudaVersion()).toBeNull();
  });

  it("shares one nvidia-smi run between concurrent callers and caches the CUDA version per driver", async () => {
    let reads = 0;
    let cudaReads = 0;
    const s = new TelemetrySampler({
      read: async () => {
        reads++;
        await new Promise((r) => setTimeout(r, 20));
        return { ok: true, gpus: [] };
      },
      readCuda: async () => (cudaReads++, "12.4"),
    });
    const [a, b] = await Promise.all([s.sampleNow(), s.sampleNow()]);
    expect(a).toBe(b);
    expect(reads).toBe(1);
    expect(await s.cudaVersion()).toBe("12.4");
    expect(await s.cudaVersion()).toBe("12.4");
    expect(cudaReads).toBe(1);
  });

  it("a throwing subscriber does not stop the others", async () => {
    const s = new TelemetrySampler({ read: async () => ({ ok: false, reason: "x" }) });
    const got: number[] = [];
    s.subscribe(() => {
      throw new Error("boom");
    });
    s.subscribe((x) => got.push(x.timestampMs));
    await s.sampleNow();
    expect(got).toHaveLength(1);
  });
});
