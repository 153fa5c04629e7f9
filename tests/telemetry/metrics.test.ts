import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { renderMetrics, startMetricsServer } from "../../sidecar/telemetry/metrics.ts";
import { TelemetrySampler } from "../../sidecar/telemetry/sampler.ts";
import { fakeSmi, freePort } from "./helpers.ts";

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** Series lines only ("name{labels} value"), keyed by name. */
function series(text: string) {
  return text
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const m = /^([A-Za-z_:][A-Za-z0-9_:]*)\{(.*)\} (\S+)$/.exec(l);
      if (!m) throw new Error(`not a Prometheus sample line: ${l}`);
      const labels = Object.fromEntries([...m[2].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
      return { name: m[1], labels, value: Number(m[3]) };
    });
}

describe("/metrics", () => {
  it("serves DCGM-style gauges from the latest sample, with HELP and TYPE", async () => {
    const sampler = new TelemetrySampler({ smi: fakeSmi("multi-gpu") });
    await sampler.sampleNow();
    const port = await freePort();
    const server = await startMetricsServer(sampler, 1, { METRICS_PORT: String(port), METRICS_HOST: "127.0.0.1" });
    expect(server).not.toBeNull();
    servers.push(server!);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of [
      "DCGM_FI_DEV_FB_USED",
      "DCGM_FI_DEV_FB_FREE",
      "DCGM_FI_DEV_FB_TOTAL",
      "DCGM_FI_DEV_GPU_UTIL",
      "DCGM_FI_DEV_FAN_SPEED",
      "DCGM_FI_DEV_GPU_TEMP",
      "DCGM_FI_DEV_POWER_USAGE",
      "DCGM_FI_DEV_PSTATE",
    ]) {
      expect(text).toContain(`# HELP ${name} `);
      expect(text).toContain(`# TYPE ${name} gauge`);
    }
    const s = series(text);
    const get = (name: string, gpu: string) => s.find((x) => x.name === name && x.labels.gpu === gpu);
    expect(get("DCGM_FI_DEV_FB_USED", "0")).toMatchObject({ value: 40123, labels: { modelName: "NVIDIA A100-SXM4-80GB" } });
    expect(get("DCGM_FI_DEV_FB_USED", "0")!.labels.Hostname).toBeTruthy();
    expect(get("DCGM_FI_DEV_FB_FREE", "0")!.value).toBe(81920 - 40123);
    expect(get("DCGM_FI_DEV_GPU_UTIL", "2")!.value).toBe(100);
    expect(get("DCGM_FI_DEV_POWER_USAGE", "3")!.value).toBe(21.49);
    expect(get("DCGM_FI_DEV_PSTATE", "3")!.value).toBe(8);
    expect(get("DCGM_FI_DEV_FAN_SPEED", "2")!.value).toBe(78);
    // The A100s report fan "[N/A]": no series at all, not a 0.
    expect(get("DCGM_FI_DEV_FAN_SPEED", "0")).toBeUndefined();
    expect(s.filter((x) => x.name === "DCGM_FI_DEV_GPU_TEMP")).toHaveLength(4);
    expect(s.find((x) => x.name === "metarank_sidecar_gpu_available")!.value).toBe(1);

    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
  });

  it("omits unknown values instead of writing 0", async () => {
    {
      const sampler = new TelemetrySampler({ smi: fakeSmi("na-fields") });
      const s = series(renderMetrics(await sampler.sampleNow(), "h"));
      const gpu0 = s.filter((x) => x.labels.gpu === "0").map((x) => x.name);
      expect(gpu0.sort()).toEqual(["DCGM_FI_DEV_FB_TOTAL", "DCGM_FI_DEV_GPU_TEMP"]);
      const gpu1 = s.filter((x) => x.labels.gpu === "1");
      expect(gpu1.find((x) => x.name === "DCGM_FI_DEV_GPU_UTIL")!.value).toBe(0); // a real 0 stays
      expect(gpu1.find((x) => x.name === "DCGM_FI_DEV_GPU_TEMP")).toBeUndefined();
    }
  });

  it("reports a GPU-less host with the availability gauge only", async () => {
    const sampler = new TelemetrySampler({ smi: fakeSmi("driver-failed") });
    const s = series(renderMetrics(await sampler.sampleNow(), "h"));
    expect(s.map((x) => [x.name, x.value])).toEqual([
      ["metarank_sidecar_gpu_available", 0],
      ["metarank_sidecar_telemetry_sample_timestamp_seconds", expect.any(Number)],
    ]);
    expect(renderMetrics(undefined)).toContain("# TYPE DCGM_FI_DEV_GPU_UTIL gauge");
  });

  it("escapes label values", () => {
    const text = renderMetrics(
      {
        timestampMs: 0,
        noGpuReason: null,
        gpus: [
          {
            index: 0,
            name: 'a"b\\c',
            driverVersion: null,
            memoryUsedMiB: 1,
            memoryTotalMiB: null,
            utilizationPercent: null,
            fanPercent: null,
            temperatureC: null,
            performanceState: null,
            powerW: null,
          },
        ],
      },
      "h",
    );
    expect(text).toContain('DCGM_FI_DEV_FB_USED{gpu="0",device="nvidia0",modelName="a\\"b\\\\c",Hostname="h"} 1');
  });

  it("is disabled by METRICS_PORT=0 and survives a port in use", async () => {
    const sampler = new TelemetrySampler({ smi: fakeSmi("multi-gpu") });
    expect(await startMetricsServer(sampler, 1, { METRICS_PORT: "0" })).toBeNull();
    const port = await freePort();
    const first = await startMetricsServer(sampler, 1, { METRICS_PORT: String(port), METRICS_HOST: "127.0.0.1" });
    servers.push(first!);
    expect(await startMetricsServer(sampler, 1, { METRICS_PORT: String(port), METRICS_HOST: "127.0.0.1" })).toBeNull();
  });

  it("listens on loopback unless METRICS_HOST opens it; SIDECAR_HOST (the gRPC port) does not", async () => {
    const sampler = new TelemetrySampler({ smi: fakeSmi("multi-gpu") });
    const address = async (env: Record<string, string>) => {
      const server = await startMetricsServer(sampler, 1, { METRICS_PORT: String(await freePort()), ...env });
      servers.push(server!);
      return (server!.address() as AddressInfo).address;
    };
    expect(await address({})).toBe("127.0.0.1");
    expect(await address({ SIDECAR_HOST: "0.0.0.0" })).toBe("127.0.0.1");
    expect(await address({ SIDECAR_HOST: "0.0.0.0", METRICS_HOST: "0.0.0.0" })).toBe("0.0.0.0");
  });
});
