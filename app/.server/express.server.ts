// Express routes that live beside Remix (not pages): exported by the build's entry module and
// mounted by server.ts before the Remix handler.
import type { Express, NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createBullBoard } from "@bull-board/api";
import { BullAdapter } from "@bull-board/api/bullAdapter";
import { ExpressAdapter } from "@bull-board/express";
import { EXPRESS_ERRORS, sendError } from "../../server/errorPage.ts";
import { getUser } from "./session.server.ts";
import { KNOWN_JOB_KINDS, jobQueue } from "./queue.server.ts";

export const QUEUE_BOARD_PATH = "/admin/queues";

/**
 * Admins only, decided by the same server-side session as the Remix pages. Anonymous visitors
 * get 403 too (not a login redirect): the board is an API-driven app whose XHRs cannot follow one.
 */
export async function requireAdminExpress(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
  try {
    const request = new Request(`http://local${req.originalUrl}`, { headers: { Cookie: req.headers.cookie ?? "" } });
    const user = await getUser(request);
    if (user?.isAdmin) return next();
    sendError(req, res, 403, EXPRESS_ERRORS.adminsOnly);
  } catch (err) {
    next(err);
  }
}

/** Mounts bull-board; the queue must exist (startRuntime() ran). */
export async function mountExpressRoutes(app: Express): Promise<void> {
  const queue = jobQueue();
  // Without Redis there is no bull-board: /admin/queues is then a page of the app that says why
  // (app/routes/admin/queues.tsx), inside the layout.
  if (queue.backend === "memory") return;
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  // Create the known kinds' queues now so the board lists them before the first job.
  for (const kind of KNOWN_JOB_KINDS) await queue.getJob(kind, "0").catch(() => null);
  const board = createBullBoard({ queues: queue.bullQueues().map((q) => new BullAdapter(q)), serverAdapter });
  queue.onQueueCreated((q) => board.addQueue(new BullAdapter(q)));
  app.use(QUEUE_BOARD_PATH, requireAdminExpress, serverAdapter.getRouter());
}
