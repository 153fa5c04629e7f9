// gRPC service metarank.v1.Kits (proto/metarank/v1/kit.proto): builds a suite's kit
// (buildKit.ts), or one task's, and streams it to the web app, which caches it
// (app/.server/kits.server.ts).
// The zip is streamed as it is written, in messages of at most 1 MiB, waiting for the
// transport to drain so a slow client never makes the sidecar hold the whole kit.
import { once } from "node:events";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { grpcError, metarankV1 } from "../../proto/contract.ts";
import { logger } from "../log.ts";
import type { SidecarService } from "../services.ts";
import { SUITES_DIR } from "../inference/evaluation/suite.ts";
import { KitUnavailableError, kitStream, planKit, type KitPlan } from "./buildKit.ts";
import type { KitsHandlers } from "../../proto/generated/metarank/v1/Kits.ts";
import type { KitHeader } from "../../proto/generated/metarank/v1/KitHeader.ts";

/** Largest data message (the contract's promise to the app). */
export const KIT_CHUNK_BYTES = 1024 * 1024;
/** Small zip-writer chunks are gathered up to this before a message goes out. */
const GATHER_BYTES = 256 * 1024;
/** A suite id is a folder name under the suites folder, never a path. */
const SUITE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A task id as suites name them (e.g. scenes_vgg); the plan then checks it is one of the suite's. */
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const log = logger.child({ service: "kits" });

/**
 * The plan of a requested suite's kit (or of one of its tasks', with `task`), or the gRPC error to
 * answer (bad id, unknown suite or task, no data here).
 */
export function planFor(suiteId: unknown, task?: unknown): KitPlan {
  const id = String(suiteId ?? "").trim();
  if (!SUITE_ID.test(id) || id.includes(".."))
    throw grpcError(grpc.status.INVALID_ARGUMENT, "suite_id must be a suite id (letters, digits, '.', '_' or '-', at most 64), e.g. metarank-local");
  const taskId = String(task ?? "").trim();
  if (taskId && !TASK_ID.test(taskId))
    throw grpcError(grpc.status.INVALID_ARGUMENT, "task must be empty (the whole kit) or a task id of the suite (at most 64 characters), e.g. scenes_vgg");
  try {
    return planKit(path.join(process.env.EVALUATION_SUITES_DIR ?? SUITES_DIR, id), undefined, taskId || null);
  } catch (err) {
    if (err instanceof KitUnavailableError) throw grpcError(grpc.status.NOT_FOUND, err.message);
    if ((err as Error).name === "SuiteConfigError") throw grpcError(grpc.status.NOT_FOUND, `no suite "${id}" on this sidecar: ${(err as Error).message}`);
    throw err;
  }
}

const header = (plan: KitPlan): KitHeader => ({
  suiteId: plan.suite.id,
  key: plan.key,
  size: 0,
  tasks: plan.tasks.length,
  images: plan.images,
  task: plan.task ?? "",
});

function asServiceError(err: unknown): grpc.ServiceError {
  if (err && typeof (err as grpc.ServiceError).code === "number") return err as grpc.ServiceError;
  log.error({ err }, "kit build failed");
  return grpcError(grpc.status.INTERNAL, `the kit could not be built: ${(err as Error).message}`);
}

export function kitsHandlers(): KitsHandlers {
  return {
    Describe(call, cb) {
      try {
        cb(null, header(planFor(call.request?.suiteId, call.request?.task)));
      } catch (err) {
        cb(asServiceError(err));
      }
    },

    async Build(call) {
      const started = performance.now();
      let stream: ReturnType<typeof kitStream> | null = null;
      const stop = () => stream?.destroy();
      call.on("cancelled", stop);
      try {
        const plan = planFor(call.request?.suiteId, call.request?.task);
        stream = kitStream(plan);
        call.write({ header: header(plan) });
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        let total = 0;
        const flush = async () => {
          const all = Buffer.concat(pending);
          pending = [];
          pendingBytes = 0;
          for (let at = 0; at < all.length; at += KIT_CHUNK_BYTES) {
            if (call.cancelled) return;
            if (!call.write({ data: all.subarray(at, at + KIT_CHUNK_BYTES) })) await once(call, "drain");
          }
        };
        for await (const chunk of stream) {
          if (call.cancelled) break;
          const buf = chunk as Buffer;
          pending.push(buf);
          pendingBytes += buf.length;
          total += buf.length;
          if (pendingBytes >= GATHER_BYTES) await flush();
        }
        if (call.cancelled) return;
        await flush();
        log.info(
          {
            suite: plan.suite.id,
            task: plan.task ?? undefined,
            key: plan.key.slice(0, 20),
            bytes: total,
            seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
          },
          "kit streamed",
        );
        call.end();
      } catch (err) {
        stop();
        if (!call.cancelled) call.emit("error", asServiceError(err));
      } finally {
        call.off("cancelled", stop);
      }
    },
  };
}

export const kitsService: SidecarService = {
  name: "metarank.v1.Kits",
  register(server) {
    server.addService(metarankV1("metarank/v1/kit.proto").Kits.service, kitsHandlers());
  },
};
