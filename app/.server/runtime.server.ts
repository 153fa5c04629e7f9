// Start-up of the web app's long-lived parts, in one explicit place: the logger, the job
// queue, the sidecar chooser and the job handlers. server.ts calls startRuntime() (through
// the build's entry module) before it listens; no module sets any of this up on import
// (docs/architecture.md, "Start-up").
import type { Logger } from "pino";
import { sequelize } from "./db.server.ts";
import { registerEvaluationJobs } from "./evaluations.server.ts";
import { registerInspectionJobs } from "./inspection.server.ts";
import { rootLogger } from "./logger.server.ts";
import type { ProcessGroup } from "../../server/appEntry.ts";
import { answerQueueCalls, closeAppQueue, createAppQueue, type JobQueue } from "./queue.server.ts";
import { watchPublicContent } from "./publicPages.server.ts";
import { installSidecarChooser } from "./servers.server.ts";
import { processGroup, startShared, stopShared } from "./shared.server.ts";
import { registerTreeJobs } from "./trees.server.ts";
import { registerTreeTaskJobs } from "./treeTasks.server.ts";
import { startPartSweeps, stopPartSweeps } from "./staleUploads.server.ts";
import { incomingDir } from "./uploads.server.ts";

export interface Runtime {
  logger: Logger;
  queue: JobQueue;
}

let started: Promise<Runtime> | null = null;

/**
 * `group`: the web processes of this machine when there are several (server/cluster.ts). What
 * must happen once per machine — recovering jobs a stopped process left, running the in-process
 * queue's jobs, sweeping unfinished uploads — happens in its leader only; the others queue jobs
 * through it (or through Redis) and share the content version (docs/architecture.md "Several web
 * processes").
 */
export function startRuntime(group?: ProcessGroup): Promise<Runtime> {
  return (started ??= (async () => {
    const logger = rootLogger();
    if (process.env.CAPTCHA_FIXED_ANSWER) {
      if (process.env.NODE_ENV === "production") logger.warn("CAPTCHA_FIXED_ANSWER is set but NODE_ENV=production: it is ignored, captchas stay random");
      else logger.warn("CAPTCHA_FIXED_ANSWER is set: every captcha has that answer (tests only)");
    }
    await startShared(group);
    const leads = processGroup().leader;
    // Uploads a killed process left half-written (docs/security.md "Files").
    if (leads) await startPartSweeps(incomingDir());
    const queue = createAppQueue(processGroup());
    installSidecarChooser();
    await watchPublicContent(sequelize);
    if (leads) {
      await registerEvaluationJobs(queue);
      await registerInspectionJobs(queue);
      registerTreeJobs(queue);
      await registerTreeTaskJobs(queue);
      processGroup().serveLeader(answerQueueCalls(queue));
    }
    logger.info({ queue: queue.backend, process: processGroup().index, processes: processGroup().size }, "runtime started");
    return { logger, queue };
  })());
}

export async function stopRuntime(): Promise<void> {
  if (!started) return;
  started = null;
  stopPartSweeps();
  await closeAppQueue();
  await stopShared();
}
