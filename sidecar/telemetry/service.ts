// gRPC service metarank.v1.Telemetry (proto/metarank/v1/telemetry.proto), backed by the
// shared sampler. Also owns the sampler's loop and the /metrics endpoint's lifetime.
import os from "node:os";
import type http from "node:http";
import * as grpc from "@grpc/grpc-js";
import { grpcError, metarankV1 } from "../../proto/contract.ts";
import { logger } from "../log.ts";
import type { SidecarService } from "../services.ts";
import { readGpuProcesses, type GpuProcess, type GpuStats, type SmiOptions } from "./nvidiaSmi.ts";
import { sharedSampler, type TelemetrySample, type TelemetrySampler } from "./sampler.ts";
import { startMetricsServer } from "./metrics.ts";
import type { GpuProcess as GpuProcessMsg } from "../../proto/generated/metarank/v1/GpuProcess.ts";
import type { GpuStats as GpuStatsMsg } from "../../proto/generated/metarank/v1/GpuStats.ts";
import type { TelemetryHandlers } from "../../proto/generated/metarank/v1/Telemetry.ts";
import type { TelemetrySample as TelemetrySampleMsg } from "../../proto/generated/metarank/v1/TelemetrySample.ts";

/** Proto shape: unknown (null) fields are left out so they stay unset on the wire. */
export function gpuToProto(g: GpuStats): GpuStatsMsg {
  const msg: GpuStatsMsg = { index: g.index };
  const set = <K extends keyof GpuStatsMsg>(key: K, v: GpuStatsMsg[K] | null) => {
    if (v !== null) msg[key] = v;
  };
  set("name", g.name);
  set("driverVersion", g.driverVersion);
  set("memoryUsedMib", g.memoryUsedMiB);
  set("memoryTotalMib", g.memoryTotalMiB);
  set("memoryFreeMib", g.memoryUsedMiB !== null && g.memoryTotalMiB !== null ? g.memoryTotalMiB - g.memoryUsedMiB : null);
  set("utilizationPercent", g.utilizationPercent);
  set("fanPercent", g.fanPercent);
  set("temperatureC", g.temperatureC);
  set("performanceState", g.performanceState);
  set("powerW", g.powerW);
  return msg;
}

export function sampleToProto(s: TelemetrySample): TelemetrySampleMsg {
  return { timestampMs: s.timestampMs, gpus: s.gpus.map(gpuToProto), noGpuReason: s.noGpuReason ?? "" };
}

export function processToProto(p: GpuProcess): GpuProcessMsg {
  const msg: GpuProcessMsg = { pid: p.pid, name: p.name, gpuIndex: p.gpuIndex ?? -1, gpuUuid: p.gpuUuid };
  if (p.memoryMiB !== null) msg.memoryMib = p.memoryMiB;
  return msg;
}

/** Processes, or why they could not be listed; a GPU-less host has none to list. */
async function listProcesses(sample: TelemetrySample, smi?: SmiOptions) {
  if (sample.noGpuReason) return { processes: [] as GpuProcess[], error: sample.noGpuReason };
  const r = await readGpuProcesses(smi);
  return r.ok ? { processes: r.processes, error: "" } : { processes: [] as GpuProcess[], error: r.reason };
}

export function telemetryHandlers(sampler: TelemetrySampler, smi?: SmiOptions): TelemetryHandlers {
  return {
    async Snapshot(call, cb) {
      try {
        const latest = await sampler.current();
        const [cudaVersion, procs] = await Promise.all([sampler.cudaVersion(), listProcesses(latest, smi)]);
        const sinceMs = Number(call.request?.sinceMs) || 0;
        cb(null, {
          hostname: os.hostname(),
          driverVersion: latest.gpus.find((g) => g.driverVersion)?.driverVersion ?? "",
          cudaVersion: cudaVersion ?? "",
          noGpuReason: latest.noGpuReason ?? "",
          gpus: latest.gpus.map(gpuToProto),
          sampledAtMs: latest.timestampMs,
          processes: procs.processes.map(processToProto),
          processesError: procs.error,
          // A sample may land while processes are listed; keep history consistent with sampledAtMs.
          history: sampler
            .history(sinceMs)
            .filter((h) => h.timestampMs <= latest.timestampMs)
            .map(sampleToProto),
          intervalMs: sampler.intervalMs,
          totalMemoryMib: latest.gpus.reduce((sum, g) => sum + (g.memoryTotalMiB ?? 0), 0),
        });
      } catch (err) {
        logger.error({ err }, "Telemetry.Snapshot failed");
        cb(grpcError(grpc.status.INTERNAL, "telemetry snapshot failed"));
      }
    },

    Stream(call) {
      const send = (s: TelemetrySample) => {
        if (!call.cancelled && call.writable) call.write(sampleToProto(s));
      };
      const unsubscribe = sampler.subscribe(send);
      const end = () => unsubscribe();
      call.on("cancelled", end);
      call.on("close", end);
      call.on("error", end);
      if (call.request?.includeLatest) {
        const latest = sampler.latest();
        if (latest) send(latest);
      }
    },

    async ListProcesses(_call, cb) {
      try {
        const procs = await listProcesses(await sampler.current(), smi);
        cb(null, { processes: procs.processes.map(processToProto), error: procs.error });
      } catch (err) {
        logger.error({ err }, "Telemetry.ListProcesses failed");
        cb(grpcError(grpc.status.INTERNAL, "listing GPU processes failed"));
      }
    },
  };
}

let metricsServer: http.Server | null = null;

export const telemetryService: SidecarService = {
  name: "metarank.v1.Telemetry",
  register(server) {
    server.addService(metarankV1("metarank/v1/telemetry.proto").Telemetry.service, telemetryHandlers(sharedSampler()));
  },
  async start({ port }) {
    const sampler = sharedSampler();
    sampler.start();
    metricsServer = await startMetricsServer(sampler, port);
  },
  stop() {
    sharedSampler().stop();
    metricsServer?.close();
    metricsServer = null;
  },
};
