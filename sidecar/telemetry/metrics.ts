// Prometheus text exposition of the sampled GPU state, so ops who already scrape NVIDIA's
// DCGM exporter get the same metric names and labels from the sidecar. Unknown values
// are omitted: a missing series reads as "no data" in Prometheus, 0 would read as a fact.
import http from "node:http";
import os from "node:os";
import type { TelemetrySampler, TelemetrySample } from "./sampler.ts";
import type { GpuStats } from "./nvidiaSmi.ts";
import { logger } from "../log.ts";

interface Gauge {
  name: string;
  help: string;
  value: (g: GpuStats) => number | null;
}

// Names and units follow dcgm-exporter's default counters (FB in MiB, power in W).
export const GPU_GAUGES: Gauge[] = [
  { name: "DCGM_FI_DEV_FB_USED", help: "Framebuffer memory used (in MiB).", value: (g) => g.memoryUsedMiB },
  {
    name: "DCGM_FI_DEV_FB_FREE",
    help: "Framebuffer memory free (in MiB).",
    value: (g) => (g.memoryUsedMiB !== null && g.memoryTotalMiB !== null ? g.memoryTotalMiB - g.memoryUsedMiB : null),
  },
  { name: "DCGM_FI_DEV_FB_TOTAL", help: "Framebuffer memory total (in MiB).", value: (g) => g.memoryTotalMiB },
  { name: "DCGM_FI_DEV_GPU_UTIL", help: "GPU utilization (in %).", value: (g) => g.utilizationPercent },
  { name: "DCGM_FI_DEV_FAN_SPEED", help: "Fan speed (in %).", value: (g) => g.fanPercent },
  { name: "DCGM_FI_DEV_GPU_TEMP", help: "GPU temperature (in C).", value: (g) => g.temperatureC },
  { name: "DCGM_FI_DEV_POWER_USAGE", help: "Power draw (in W).", value: (g) => g.powerW },
  {
    name: "DCGM_FI_DEV_PSTATE",
    help: "Performance state (n of Pn; 0 = maximum performance).",
    value: (g) => g.performanceState,
  },
];

function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function labels(pairs: Record<string, string>): string {
  return `{${Object.entries(pairs)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(",")}}`;
}

/** Renders one sample (or none yet) as Prometheus text format 0.0.4. */
export function renderMetrics(sample: TelemetrySample | undefined, hostname = os.hostname()): string {
  const out: string[] = [];
  for (const gauge of GPU_GAUGES) {
    out.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`);
    for (const g of sample?.gpus ?? []) {
      const v = gauge.value(g);
      if (v === null || !Number.isFinite(v)) continue;
      const l = labels({ gpu: String(g.index), device: `nvidia${g.index}`, modelName: g.name ?? "", Hostname: hostname });
      out.push(`${gauge.name}${l} ${v}`);
    }
  }
  // Sidecar-specific: lets an alert tell "no GPU series because the driver failed" from
  // "no GPU series because the scrape failed".
  out.push(
    "# HELP metarank_sidecar_gpu_available 1 when nvidia-smi answered with at least one GPU, 0 otherwise.",
    "# TYPE metarank_sidecar_gpu_available gauge",
  );
  if (sample) out.push(`metarank_sidecar_gpu_available${labels({ Hostname: hostname })} ${sample.noGpuReason ? 0 : 1}`);
  out.push(
    "# HELP metarank_sidecar_telemetry_sample_timestamp_seconds Unix time of the latest telemetry sample.",
    "# TYPE metarank_sidecar_telemetry_sample_timestamp_seconds gauge",
  );
  if (sample) {
    out.push(`metarank_sidecar_telemetry_sample_timestamp_seconds${labels({ Hostname: hostname })} ${sample.timestampMs / 1000}`);
  }
  return out.join("\n") + "\n";
}

export function createMetricsServer(sampler: TelemetrySampler): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found; metrics are at /metrics\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    const body = renderMetrics(sampler.latest());
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
    res.end(req.method === "HEAD" ? undefined : body);
  });
}

/**
 * Listens on METRICS_PORT (default: gRPC port + 1000; 0 disables). A port already in use
 * is logged, not fatal: the gRPC services matter more than the scrape endpoint.
 */
export async function startMetricsServer(
  sampler: TelemetrySampler,
  grpcPort: number,
  env: Record<string, string | undefined> = process.env,
): Promise<http.Server | null> {
  const raw = env.METRICS_PORT;
  const port = raw === undefined || raw === "" ? grpcPort + 1000 : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    logger.error({ METRICS_PORT: raw }, "METRICS_PORT is not a port number; /metrics disabled");
    return null;
  }
  if (port === 0) {
    logger.info("METRICS_PORT=0: /metrics disabled");
    return null;
  }
  // Loopback unless an operator opens it with METRICS_HOST: the page is unauthenticated, and the
  // telemetry it shows is for the platform and its Prometheus, not for anyone on the network.
  // SIDECAR_HOST does not open it: a GPU host opens its gRPC port (which checks the call key)
  // for the app, and that must not expose this one as a side effect.
  const host = env.METRICS_HOST || "127.0.0.1";
  const server = createMetricsServer(sampler);
  return new Promise((resolve) => {
    server.once("error", (err) => {
      logger.error({ err, port }, "could not start the /metrics endpoint; gRPC keeps serving");
      resolve(null);
    });
    server.listen(port, host, () => {
      logger.info({ port, host }, "Prometheus metrics at /metrics");
      resolve(server);
    });
  });
}
