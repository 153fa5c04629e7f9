// Registration + heartbeat: a sidecar started with the credentials of a server entry an
// admin created tells the app where it can be reached and how busy it is. The app counts
// a sidecar online while its last heartbeat is < 60 s old, so this loop must never die:
// refusals (401) and network errors are logged and retried with backoff.
import os from "node:os";
import { engineProvider } from "../engine/runtime.ts";
import { logger } from "../log.ts";
import type { SidecarService } from "../services.ts";
import { readGpuProcesses, type GpuProcess, type GpuStats } from "../telemetry/nvidiaSmi.ts";
import { sharedSampler, type TelemetrySampler } from "../telemetry/sampler.ts";

export const HEARTBEAT_PATH = "/api/sidecars/heartbeat";
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 15_000;
/** Backoff never waits longer than this, so a sidecar is back online ≤ ~1 min after the app is. */
export const DEFAULT_MAX_BACKOFF_MS = 60_000;

/** The JSON body POSTed to `${APP_URL}/api/sidecars/heartbeat`. */
export interface HeartbeatBody {
  name: string;
  password: string;
  /** host:port the app dials for gRPC. */
  grpcAddress: string;
  /** The key the app must present on every gRPC call (sidecar/grpc/callAuth.ts); new at each start. */
  callKey: string;
  /** Index of the GPU with the most free compute; -1 on a host without a usable GPU. */
  gpuIndex: number;
  /**
   * How much work the sidecar can take (the failure panel's "maximum available compute", docs/product.md "Demo pages").
   * GPU host: 100 − utilization % of that GPU (0–100; with utilization unknown, its free
   * memory as a % of total; with both unknown, 0).
   * CPU host (gpuIndex −1): free worker slots.
   */
  freeCompute: number;
  /** Sum of the GPUs' memory totals in MiB; on a CPU host, the machine's RAM in MiB. */
  totalMemoryMiB: number;
  /** "" = unknown. */
  driverVersion: string;
  /** "" = unknown. */
  cudaVersion: string;
  /** What runs the networks: the onnxruntime execution provider, or "tfjs" (docs/engine.md). */
  executionProvider: string;
  processes: { pid: number; name: string; memoryMiB: number | null; gpuIndex: number }[];
}

/** Free compute of one GPU in percent, null when nothing about its load is known. */
export function gpuFreeCompute(g: GpuStats): number | null {
  if (g.utilizationPercent !== null) return Math.max(0, Math.min(100, 100 - g.utilizationPercent));
  if (g.memoryUsedMiB !== null && g.memoryTotalMiB !== null && g.memoryTotalMiB > 0) {
    return Math.max(0, Math.min(100, Math.round((100 * (g.memoryTotalMiB - g.memoryUsedMiB)) / g.memoryTotalMiB)));
  }
  return null;
}

/** The GPU to advertise: most free compute, ties broken by most free memory, then lowest index. */
export function bestGpu(gpus: GpuStats[]): { index: number; freeCompute: number } | null {
  let best: { index: number; freeCompute: number; freeMem: number } | null = null;
  for (const g of gpus) {
    const free = gpuFreeCompute(g) ?? 0;
    const freeMem = g.memoryTotalMiB !== null && g.memoryUsedMiB !== null ? g.memoryTotalMiB - g.memoryUsedMiB : -1;
    if (!best || free > best.freeCompute || (free === best.freeCompute && freeMem > best.freeMem)) {
      best = { index: g.index, freeCompute: free, freeMem };
    }
  }
  return best && { index: best.index, freeCompute: best.freeCompute };
}

/**
 * Free CPU worker slots. The inference worker pool can report exact numbers through
 * setWorkerSlotsProvider; until it does, busy slots are estimated from the 1-minute load
 * average against SIDECAR_WORKERS (default: the core count).
 */
let workerSlotsProvider: (() => number) | null = null;
export function setWorkerSlotsProvider(fn: (() => number) | null): void {
  workerSlotsProvider = fn;
}
export function freeWorkerSlots(env: Record<string, string | undefined> = process.env): number {
  if (workerSlotsProvider) return Math.max(0, Math.floor(workerSlotsProvider()));
  const slots = Number(env.SIDECAR_WORKERS) || os.availableParallelism();
  return Math.max(0, slots - Math.round(os.loadavg()[0]));
}

export interface HeartbeatConfig {
  appUrl: string;
  name: string;
  password: string;
  grpcAddress: string;
  callKey: string;
  intervalMs: number;
  maxBackoffMs: number;
  /** Per-request limit, so a hung app cannot stall the loop. */
  requestTimeoutMs: number;
}

/** Reads the heartbeat settings; null (with the reason logged) when registration is off. */
export function heartbeatConfigFromEnv(port: number, env: Record<string, string | undefined> = process.env, callKey = ""): HeartbeatConfig | null {
  const required = ["APP_URL", "SIDECAR_NAME", "SIDECAR_PASSWORD"] as const;
  const missing = required.filter((k) => !env[k]);
  if (missing.length === required.length) {
    logger.info("APP_URL, SIDECAR_NAME and SIDECAR_PASSWORD not set: not registering with an app");
    return null;
  }
  if (missing.length > 0) {
    logger.error({ missing }, "sidecar registration needs APP_URL, SIDECAR_NAME and SIDECAR_PASSWORD; not registering");
    return null;
  }
  const intervalMs = Number(env.HEARTBEAT_INTERVAL_MS) || DEFAULT_HEARTBEAT_INTERVAL_MS;
  return {
    appUrl: env.APP_URL!.replace(/\/+$/, ""),
    name: env.SIDECAR_NAME!,
    password: env.SIDECAR_PASSWORD!,
    grpcAddress: env.SIDECAR_ADVERTISE_ADDRESS || `${os.hostname()}:${port}`,
    callKey,
    intervalMs,
    maxBackoffMs: Math.max(intervalMs, Number(env.HEARTBEAT_MAX_BACKOFF_MS) || DEFAULT_MAX_BACKOFF_MS),
    requestTimeoutMs: Math.max(1000, Math.min(10_000, intervalMs)),
  };
}

export type HeartbeatOutcome = "ok" | "refused" | "failed";

export class HeartbeatClient {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private failures = 0;
  private lastOutcome: HeartbeatOutcome | null = null;
  private everAccepted = false;

  constructor(
    private readonly cfg: HeartbeatConfig,
    private readonly sampler: TelemetrySampler,
    private readonly listProcesses: () => Promise<GpuProcess[]> = async () => {
      const r = await readGpuProcesses();
      return r.ok ? r.processes : [];
    },
  ) {}

  async buildBody(): Promise<HeartbeatBody> {
    const sample = await this.sampler.current();
    const best = sample.noGpuReason ? null : bestGpu(sample.gpus);
    const [cudaVersion, processes] = best ? await Promise.all([this.sampler.cudaVersion(), this.listProcesses()]) : [null, [] as GpuProcess[]];
    return {
      name: this.cfg.name,
      password: this.cfg.password,
      grpcAddress: this.cfg.grpcAddress,
      callKey: this.cfg.callKey,
      gpuIndex: best ? best.index : -1,
      freeCompute: best ? best.freeCompute : freeWorkerSlots(),
      totalMemoryMiB: best ? sample.gpus.reduce((sum, g) => sum + (g.memoryTotalMiB ?? 0), 0) : Math.round(os.totalmem() / (1024 * 1024)),
      driverVersion: sample.gpus.find((g) => g.driverVersion)?.driverVersion ?? "",
      cudaVersion: cudaVersion ?? "",
      executionProvider: engineProvider(),
      processes: processes.map((p) => ({ pid: p.pid, name: p.name, memoryMiB: p.memoryMiB, gpuIndex: p.gpuIndex ?? -1 })),
    };
  }

  /** Sends one heartbeat; never throws. */
  async beat(): Promise<HeartbeatOutcome> {
    const url = `${this.cfg.appUrl}${HEARTBEAT_PATH}`;
    const log = { app: url, name: this.cfg.name }; // never the password or the call key
    let outcome: HeartbeatOutcome;
    try {
      const body = await this.buildBody();
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.cfg.requestTimeoutMs),
      });
      const text = await res.text().catch(() => "");
      if (res.status === 401) {
        outcome = "refused";
        logger.error(
          { ...log, status: 401 },
          "app refused the sidecar's credentials: SIDECAR_NAME/SIDECAR_PASSWORD do not match a server entry in /admin; retrying",
        );
      } else if (!res.ok) {
        outcome = "failed";
        logger.warn({ ...log, status: res.status, body: text.slice(0, 200) }, "heartbeat not accepted; retrying");
      } else {
        outcome = "ok";
        if (this.lastOutcome !== "ok") logger.info({ ...log, grpcAddress: body.grpcAddress }, "registered with the app");
      }
    } catch (err) {
      outcome = "failed";
      const e = err as Error & { cause?: { code?: string } };
      logger.warn({ ...log, error: e.cause?.code ?? e.name, message: e.message }, "heartbeat could not reach the app; retrying");
    }
    this.failures = outcome === "ok" ? 0 : this.failures + 1;
    this.lastOutcome = outcome;
    if (outcome === "ok") this.everAccepted = true;
    return outcome;
  }

  /** Delay before the next beat: the interval, doubling per consecutive failure, capped, ±10 % jitter. */
  nextDelayMs(): number {
    // Before the first accepted beat, an app that is not listening yet (`make start` starts both
    // processes at once) is asked again after 1 s, 2 s, 4 s… up to the interval: the sidecar is
    // online in the app seconds after start, and the jobs waiting for a compute server go on.
    const starting = !this.everAccepted && this.lastOutcome === "failed";
    const first = starting ? Math.min(1000, this.cfg.intervalMs) : this.cfg.intervalMs;
    const cap = starting ? this.cfg.intervalMs : this.cfg.maxBackoffMs;
    const base = this.failures === 0 ? this.cfg.intervalMs : Math.min(cap, first * 2 ** Math.min(this.failures - 1, 16));
    // Jitter spreads many sidecars out after an app restart instead of all beating at once.
    return Math.round(base * (0.9 + Math.random() * 0.2));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const loop = async () => {
      await this.beat();
      if (this.running) this.timer = setTimeout(loop, this.nextDelayMs());
    };
    void loop();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

let client: HeartbeatClient | null = null;

/** Only background work: the app endpoint is HTTP, there is no gRPC service to register. */
export const registryService: SidecarService = {
  name: "metarank.v1.Registry",
  register() {},
  start({ port, callKey }) {
    const cfg = heartbeatConfigFromEnv(port, process.env, callKey);
    if (!cfg) return;
    const sampler = sharedSampler();
    // Heartbeats read the sampler's latest sample; start it here too in case the
    // Telemetry service is not served (start() is idempotent).
    sampler.start();
    client = new HeartbeatClient(cfg, sampler);
    client.start();
  },
  stop() {
    client?.stop();
    client = null;
  },
};
