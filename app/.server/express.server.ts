// Express routes that live beside Remix (not pages): mounted by server.ts before the Remix handler.
import type { Express } from "express";

export async function mountExtras(_app: Express): Promise<void> {
  // bull-board (/admin/queues) is mounted here by the queue module.
}
