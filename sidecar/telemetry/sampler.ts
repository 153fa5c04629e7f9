// Samples the GPUs on a fixed interval and keeps the last hour in memory, so the admin
// server-detail charts can be drawn from one Snapshot call without any database.
import { readCudaVersion, readGpus, type GpuReading, type GpuStats, type SmiOptions } from "./nvidiaSmi.ts";
import { logger } from "../log.ts";

export interface TelemetrySample {
  timestampMs: number;
  gpus: GpuStats[];
  /** Why there are no GPUs in this sample (no nvidia-smi, failed driver…); null when read. */
  noGpuReason: string | null;
}

export type SampleListener = (sample: TelemetrySample) => void;

export const RETENTION_MS = 60 * 60 * 1000;
export const DEFAULT_INTERVAL_MS = 5000;

/** Fixed-capacity ring buffer: O(1) push, the oldest entry is overwritten when full. */
export class RingBuffer<T> {
  private items: (T | undefined)[];
  private start = 0;
  private count = 0;
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity must be ≥ 1, got ${capacity}`);
    this.items = new Array(capacity);
  }
  push(item: T): void {
    const end = (this.start + this.count) % this.capacity;
    this.items[end] = item;
    if (this.count < this.capacity) this.count++;
    else this.start = (this.start + 1) % this.capacity;
  }
  get size(): number {
    return this.count;
  }
  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.capacity] as T);
    return out;
  }
  last(): T | undefined {
    return this.count === 0 ? undefined : this.items[(this.start + this.count - 1) % this.capacity];
  }
}

export interface SamplerOptions {
  intervalMs?: number;
  retentionMs?: number;
  smi?: SmiOptions;
  /** Injected in tests; defaults to running nvidia-smi. */
  read?: () => Promise<GpuReading>;
  readCuda?: () => Promise<string | null>;
  now?: () => number;
}

export class TelemetrySampler {
  readonly intervalMs: number;
  readonly retentionMs: number;
  private readonly ring: RingBuffer<TelemetrySample>;
  private readonly listeners = new Set<SampleListener>();
  private readonly read: () => Promise<GpuReading>;
  private readonly readCuda: () => Promise<string | null>;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private inFlight: Promise<TelemetrySample> | null = null;
  private cuda: { driver: string | null; version: string | null; readAt: number } | null = null;
  private lastReason: string | null | undefined = undefined;

  constructor(opts: SamplerOptions = {}) {
    this.intervalMs = Math.max(10, Math.floor(opts.intervalMs ?? DEFAULT_INTERVAL_MS));
    this.retentionMs = opts.retentionMs ?? RETENTION_MS;
    // One slot per interval in the retention window, plus one so a full hour is covered
    // end to end; samples older than the window are also filtered by time on read, since
    // a slow nvidia-smi stretches the real spacing.
    this.ring = new RingBuffer(Math.ceil(this.retentionMs / this.intervalMs) + 1);
    this.read = opts.read ?? (() => readGpus(opts.smi));
    this.readCuda = opts.readCuda ?? (() => readCudaVersion(opts.smi));
    this.now = opts.now ?? Date.now;
  }

  /** Takes a sample now (sharing one already under way) and records it. */
  sampleNow(): Promise<TelemetrySample> {
    if (!this.inFlight) {
      this.inFlight = this.takeSample().finally(() => {
        this.inFlight = null;
      });
    }
    return this.inFlight;
  }

  private async takeSample(): Promise<TelemetrySample> {
    const reading = await this.read();
    const sample: TelemetrySample = reading.ok
      ? { timestampMs: this.now(), gpus: reading.gpus, noGpuReason: null }
      : { timestampMs: this.now(), gpus: [], noGpuReason: reading.reason };
    if (sample.noGpuReason !== this.lastReason) {
      // Log transitions only: a GPU-less host would otherwise log every 5 s forever.
      if (sample.noGpuReason) logger.warn({ reason: sample.noGpuReason }, "no GPU: telemetry reports an empty host");
      else if (this.lastReason !== undefined) logger.info({ gpus: sample.gpus.length }, "GPUs readable again");
      this.lastReason = sample.noGpuReason;
    }
    this.ring.push(sample);
    for (const fn of this.listeners) {
      try {
        fn(sample);
      } catch (err) {
        logger.error({ err }, "telemetry subscriber failed");
      }
    }
    return sample;
  }

  /** Starts the periodic loop (idempotent); the first sample is taken at once. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const tick = async () => {
      try {
        await this.sampleNow();
      } catch (err) {
        logger.error({ err }, "telemetry sample failed");
      }
      // Chained timeouts, not setInterval: a slow nvidia-smi never stacks up calls.
      if (this.running) this.timer = setTimeout(tick, this.intervalMs);
    };
    void tick();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Samples of the retention window, oldest first. */
  history(sinceMs = 0): TelemetrySample[] {
    const cutoff = Math.max(sinceMs, this.now() - this.retentionMs);
    return this.ring.toArray().filter((s) => s.timestampMs >= cutoff);
  }

  latest(): TelemetrySample | undefined {
    return this.ring.last();
  }

  /** The latest sample, taking one first if none has been taken yet. */
  async current(): Promise<TelemetrySample> {
    return this.latest() ?? (await this.sampleNow());
  }

  subscribe(fn: SampleListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /**
   * CUDA version as nvidia-smi reports it. It only changes with the driver, so it is
   * read once per driver version instead of on every sample.
   */
  async cudaVersion(): Promise<string | null> {
    const sample = await this.current();
    if (sample.noGpuReason) return null;
    const driver = sample.gpus[0]?.driverVersion ?? null;
    // An unknown answer is retried after a minute, in case that read failed transiently.
    const stale = this.cuda?.version === null && this.now() - this.cuda.readAt > 60_000;
    if (!this.cuda || this.cuda.driver !== driver || stale) {
      this.cuda = { driver, version: await this.readCuda(), readAt: this.now() };
    }
    return this.cuda.version;
  }
}

let shared: TelemetrySampler | null = null;

/** The process-wide sampler that the gRPC service, /metrics and the heartbeat share. */
export function sharedSampler(): TelemetrySampler {
  shared ??= new TelemetrySampler({ intervalMs: Number(process.env.TELEMETRY_INTERVAL_MS) || DEFAULT_INTERVAL_MS });
  return shared;
}
