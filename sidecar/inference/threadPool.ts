// What the sidecar's piscina pools share (the inference pool, pool.ts; the evaluation pool,
// evaluation/pool.ts; docs/architecture.md "Compute bounds"): a fixed number of threads, each
// running one job at a time (a tfjs runtime on wasm is single-threaded) and kept up for good (its
// runtime and what it has loaded are the point); threads started to replace a terminated or
// crashed one are counted; a thread that fails to start does not take the process down (its jobs
// fail instead); a test hook that ends a thread as a crash would, and a close that runs once.
import { Piscina } from "piscina";

export abstract class FixedThreadPool<Req, Reply> {
  readonly size: number;
  /** Threads started to replace one that was terminated or crashed. */
  restarts = 0;
  protected readonly piscina: Piscina<Req, Reply>;
  protected closed = false;
  private created = 0;

  /** `maxQueue`: jobs piscina itself lets wait (none given: piscina's default). */
  constructor(size: number, filename: string, workerData: unknown, maxQueue?: number) {
    this.size = size;
    this.piscina = new Piscina({
      filename,
      minThreads: size,
      maxThreads: size,
      concurrentTasksPerWorker: 1,
      ...(maxQueue === undefined ? {} : { maxQueue }),
      idleTimeout: Number.MAX_SAFE_INTEGER,
      workerData,
    });
    this.piscina.on("workerCreate", () => {
      // Every thread after the first `size` replaces one that was terminated or crashed.
      if (++this.created > this.size) this.restarts++;
    });
    this.piscina.on("error", () => {});
  }

  /** Test hook: end one thread abruptly, as a crash would. */
  async killWorker(index = 0): Promise<void> {
    await this.piscina.threads[index]?.terminate();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscina.destroy();
  }
}
