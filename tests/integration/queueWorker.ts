// A stand-in app process for the queue restart test: it uses the app's queue module on real
// Redis exactly as the web app does. MODE=crash takes the job, reports progress and hangs
// until the test kills it (SIGKILL: no clean shutdown); MODE=work finishes whatever it finds.
import { createJobQueue } from "../../app/.server/queue.server.ts";
import { SidecarUnavailableError } from "../../app/.server/sidecar.server.ts";

const queue = createJobQueue({
  redisUrl: process.env.REDIS_URL!,
  prefix: process.env.QUEUE_PREFIX!,
  backoffMs: 100,
  lockDurationMs: 1000,
  stalledIntervalMs: 500,
});

if (process.env.MODE === "crash") {
  queue.registerJobHandler("evaluation", async (job) => {
    await job.progress(30);
    console.log(`STARTED ${job.id}`);
    return new Promise(() => {}); // never finishes: the process dies mid-job
  });
} else {
  let failedOnce = false;
  queue.registerJobHandler("evaluation", async (job) => {
    // The first run in this process meets a sidecar that is down: retried with backoff.
    if (!failedOnce) {
      failedOnce = true;
      throw new SidecarUnavailableError();
    }
    await job.progress(100);
    return { finishedBy: process.pid, user: job.user, payload: job.payload, attempt: job.attempt };
  });
  console.log("READY");
}
