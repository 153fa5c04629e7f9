// The one way the web app reaches sidecars (docs/grpc.md): typed unary and server-streaming
// calls over the contract generated from proto/, each with a deadline and an AbortSignal, and
// one classification of failures every feature uses:
//   user      — the sidecar refused the input or cannot serve it now; its message is for people
//   retryable — the sidecar did not answer (down, overloaded, deadline); a queue job tries again
//   internal  — anything else; logged, people see a generic message
// Targets (address + call key) come from the server registry's chooser (online sidecars, least
// loaded first) with SIDECARS (comma-separated host:port, key SIDECAR_CALL_KEY) as the fallback.
// Every call presents the target's key as `authorization: Bearer <key>` (docs/grpc.md).
import * as grpc from "@grpc/grpc-js";
import type { MethodDefinition } from "@grpc/proto-loader";
import { metarankV1 } from "../../proto/contract.ts";
import { logger } from "./logger.server.ts";

/** The contract's services, loaded on first use. */
let contract: ReturnType<typeof loadContract> | null = null;
function loadContract() {
  return {
    inference: metarankV1("metarank/v1/inference.proto").Inference.service,
    inspection: metarankV1("metarank/v1/inspection.proto").Inspection.service,
    concepts: metarankV1("metarank/v1/concepts.proto").Concepts.service,
    metascore: metarankV1("metarank/v1/metascore.proto").Metascore.service,
    evaluation: metarankV1("metarank/v1/evaluation.proto").Evaluation.service,
    telemetry: metarankV1("metarank/v1/telemetry.proto").Telemetry.service,
    vqa: metarankV1("metarank/v1/vqa.proto").QuestionAnswering.service,
    kits: metarankV1("metarank/v1/kit.proto").Kits.service,
    segmentation: metarankV1("metarank/v1/segmentation.proto").Segmentation.service,
    multiLabel: metarankV1("metarank/v1/multilabel.proto").MultiLabel.service,
    tree: metarankV1("metarank/v1/tree.proto").Tree.service,
    sebow: metarankV1("metarank/v1/sebow.proto").SeBoW.service,
  };
}
/** `rpc().inference.Explain` etc.: the method definitions the calls below take. */
export function rpc() {
  return (contract ??= loadContract());
}

export function configuredSidecars(): string[] {
  const list = process.env.SIDECARS ?? `127.0.0.1:${process.env.SIDECAR_PORT ?? 50051}`;
  return list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Where a call goes and the key that sidecar expects (null: none known; the sidecar will refuse). */
export interface SidecarTarget {
  address: string;
  callKey: string | null;
}

/** The key of statically configured sidecars (SIDECARS), shared with them through their environment. */
export function configuredCallKey(): string | null {
  return process.env.SIDECAR_CALL_KEY || null;
}

/** Hook for the server registry (startRuntime installs it): the target to use, least loaded first. */
let chooser: () => Promise<SidecarTarget | null> = async () => {
  const address = configuredSidecars()[0];
  return address ? { address, callKey: configuredCallKey() } : null;
};
/** Hook for the server registry: the key of a sidecar known only by its address (a run's recorded sidecar). */
let keyResolver: (address: string) => Promise<string | null> = async () => configuredCallKey();
export function setSidecarChooser(fn: () => Promise<SidecarTarget | null>, resolveKey?: (address: string) => Promise<string | null>) {
  chooser = fn;
  if (resolveKey) keyResolver = resolveKey;
}

export type SidecarErrorKind = "user" | "retryable" | "internal";

export const SIDECAR_DOWN_MESSAGE = "The compute server did not answer. Please try again later.";

/** A failed sidecar call: `message` is what a person may be shown; `details` is the sidecar's own text. */
export class SidecarCallError extends Error {
  constructor(
    message: string,
    readonly code: grpc.status,
    readonly details: string,
    readonly kind: SidecarErrorKind = classifyStatus(code),
  ) {
    super(message);
  }
}

/** No sidecar is online (or configured) to take the call. */
export class SidecarUnavailableError extends SidecarCallError {
  constructor(message = "No compute server is online right now. Please try again later.") {
    super(message, grpc.status.UNAVAILABLE, message, "retryable");
  }
}

const USER_CODES = new Set([grpc.status.INVALID_ARGUMENT, grpc.status.FAILED_PRECONDITION, grpc.status.NOT_FOUND, grpc.status.OUT_OF_RANGE]);
// RESOURCE_EXHAUSTED: the sidecar is busy (full queue, run limit); the same call later will fit.
const RETRYABLE_CODES = new Set([
  grpc.status.UNAVAILABLE,
  grpc.status.DEADLINE_EXCEEDED,
  grpc.status.ABORTED,
  grpc.status.CANCELLED,
  grpc.status.UNKNOWN,
  grpc.status.RESOURCE_EXHAUSTED,
]);

export function classifyStatus(code: grpc.status): SidecarErrorKind {
  if (USER_CODES.has(code)) return "user";
  if (RETRYABLE_CODES.has(code)) return "retryable";
  return "internal";
}

/** The error a failed call becomes: the sidecar's words for `user` failures, a generic message otherwise. */
export function toSidecarError(err: grpc.ServiceError, what: string, address: string): SidecarCallError {
  const kind = classifyStatus(err.code);
  if (err.code === grpc.status.UNAUTHENTICATED)
    logger("sidecar").error({ rpc: what, address }, "the sidecar refused the platform's call key: restart it, or check SIDECAR_CALL_KEY on both sides");
  if (kind !== "user") logger("sidecar").warn({ rpc: what, address, code: grpc.status[err.code], details: err.details }, "sidecar call failed");
  return new SidecarCallError(kind === "user" || err.code === grpc.status.RESOURCE_EXHAUSTED ? err.details : SIDECAR_DOWN_MESSAGE, err.code, err.details, kind);
}

export async function pickSidecar(): Promise<SidecarTarget> {
  const target = await chooser();
  if (!target) throw new SidecarUnavailableError();
  return target;
}

async function resolveTarget(given: string | SidecarTarget | undefined): Promise<SidecarTarget> {
  if (given === undefined) return pickSidecar();
  if (typeof given !== "string") return given;
  return { address: given, callKey: await keyResolver(given) };
}

function callMetadata(target: SidecarTarget): grpc.Metadata {
  const md = new grpc.Metadata();
  if (target.callKey) md.set("authorization", `Bearer ${target.callKey}`);
  return md;
}

const channels = new Map<string, grpc.Client>();
function channel(address: string): grpc.Client {
  let c = channels.get(address);
  if (!c) {
    c = new grpc.Client(address, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": 64 * 1024 * 1024,
      // 256 MiB: Evaluation.RunMaps sends a whole suite's uploaded .npy maps in one request.
      "grpc.max_send_message_length": 256 * 1024 * 1024,
    });
    channels.set(address, c);
  }
  return c;
}

export interface CallOptions {
  /** Milliseconds until the call gives up (DEADLINE_EXCEEDED); the sidecar stops the job then too. */
  deadlineMs?: number;
  /** A fixed sidecar instead of the chooser's pick: a target, or an address whose key the registry knows. */
  address?: string | SidecarTarget;
  /** Cancels the call (the sidecar sees CANCELLED and frees its worker). */
  signal?: AbortSignal;
}

/** One unary call. */
export async function unary<Req, ResIn, ReqOut, Res>(
  method: MethodDefinition<Req, ResIn, ReqOut, Res>,
  request: NoInfer<Req>,
  opts: CallOptions = {},
): Promise<Res> {
  const target = await resolveTarget(opts.address);
  const address = target.address;
  const deadline = new Date(Date.now() + (opts.deadlineMs ?? 10_000));
  return new Promise<Res>((resolve, reject) => {
    const call = channel(address).makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      request,
      callMetadata(target),
      { deadline },
      (err, res) => {
        opts.signal?.removeEventListener("abort", cancel);
        if (err) reject(toSidecarError(err, method.path, address));
        else if (res === undefined) reject(new SidecarCallError(SIDECAR_DOWN_MESSAGE, grpc.status.INTERNAL, "empty reply", "internal"));
        else resolve(res);
      },
    );
    const cancel = () => call.cancel();
    if (opts.signal?.aborted) cancel();
    else opts.signal?.addEventListener("abort", cancel, { once: true });
  });
}

/**
 * One server-streaming call: `onMessage` gets each message; resolves when the stream ends,
 * rejects with a SidecarCallError when it fails or is cancelled through `signal`.
 */
export async function serverStream<Req, ResIn, ReqOut, Res>(
  method: MethodDefinition<Req, ResIn, ReqOut, Res>,
  request: NoInfer<Req>,
  onMessage: (message: Res) => void,
  opts: CallOptions = {},
): Promise<void> {
  const target = await resolveTarget(opts.address);
  const address = target.address;
  const deadline = opts.deadlineMs ? new Date(Date.now() + opts.deadlineMs) : Infinity;
  return new Promise<void>((resolve, reject) => {
    const call = channel(address).makeServerStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, request, callMetadata(target), {
      deadline,
    });
    const cancel = () => call.cancel();
    call.on("data", (m: Res) => {
      try {
        onMessage(m);
      } catch (err) {
        call.cancel();
        reject(err);
      }
    });
    call.on("error", (err: grpc.ServiceError) => {
      opts.signal?.removeEventListener("abort", cancel);
      reject(toSidecarError(err, method.path, address));
    });
    call.on("end", () => {
      opts.signal?.removeEventListener("abort", cancel);
      resolve();
    });
    if (opts.signal?.aborted) cancel();
    else opts.signal?.addEventListener("abort", cancel, { once: true });
  });
}
