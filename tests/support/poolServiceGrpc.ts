// The gRPC tests of the pool-backed demo services (Segmentation, MultiLabel; written once for both
// test files): one real sidecar for the file (startTestSidecar, one pool worker), a call with a
// deadline and an expected INVALID_ARGUMENT (grpcCalls, for any service's test), and the refusals
// both services make the same way before a worker is taken (sidecar/inference/requestInput.ts: the
// model id, an oversized or undecodable picture) or on it (a picture of the wrong size).
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, expect } from "vitest";
import { encodePng } from "../../sidecar/data/png.ts";
import { startTestSidecar, type TestSidecar } from "./sidecar.ts";

type AnyClient = grpc.Client & Record<string, (...args: unknown[]) => unknown>;

export interface GrpcCalls {
  /** Calls `method` and resolves with its reply. */
  call<Res = any>(method: string, request: unknown): Promise<Res>;
  /** Calls `method`, expects INVALID_ARGUMENT and resolves with its message. */
  invalid(method: string, request: unknown): Promise<string>;
}

/**
 * `call` and `invalid` on the client `client()` returns when called (the sidecar starts in a hook),
 * each call with a deadline of `deadlineMs`. Any test of a sidecar service can use it.
 */
export function grpcCalls(client: () => grpc.Client, deadlineMs = 90_000): GrpcCalls {
  const call = <Res>(method: string, request: unknown) =>
    new Promise<Res>((resolve, reject) => {
      (client() as AnyClient)[method](request, { deadline: new Date(Date.now() + deadlineMs) }, (err: grpc.ServiceError | null, res: Res) =>
        err ? reject(err) : resolve(res),
      );
    });
  const invalid = async (method: string, request: unknown): Promise<string> => {
    const err = (await call(method, request).then(
      () => null,
      (e) => e,
    )) as grpc.ServiceError | null;
    expect(err, `${method} should have failed`).not.toBeNull();
    expect(err!.code).toBe(grpc.status.INVALID_ARGUMENT);
    return err!.details;
  };
  return { call, invalid };
}

/**
 * Starts a sidecar for the test file (beforeAll) serving `Service`, stops it afterwards (afterAll).
 * `env` adds variables (e.g. a longer time limit per evaluation).
 */
export function usePoolServiceSidecar(Service: Parameters<typeof startTestSidecar>[0], env: Record<string, string> = {}): GrpcCalls {
  let sidecar: TestSidecar<AnyClient> | undefined;
  beforeAll(async () => {
    sidecar = await startTestSidecar<AnyClient>(Service, { env });
  });
  afterAll(() => sidecar?.stop());
  return grpcCalls(() => sidecar!.client);
}

/**
 * The refusals of a model's first call (`method`, e.g. "Segment") that both services share, each
 * with a message saying what to change: an unknown model names the ones there are (`kind`: the
 * service's word for its models, `model`: one that is installed), a picture of the wrong size
 * names the model's, one over 2 MiB the limit, and bytes that are no picture the formats taken.
 */
export async function expectSharedRefusals(grpcs: GrpcCalls, method: string, model: string, kind: string, png: Buffer): Promise<void> {
  expect(await grpcs.invalid(method, { modelId: "nope", imagePng: png })).toMatch(new RegExp(`unknown ${kind} model "nope"; available: .*${model}`));
  const big = encodePng({ height: 40, width: 40, channels: 3, data: new Float32Array(40 * 40 * 3) });
  expect(await grpcs.invalid(method, { modelId: model, imagePng: big })).toMatch(/40×40 pixels but model .* takes 32×32/);
  expect(await grpcs.invalid(method, { modelId: model, imagePng: Buffer.alloc(3 * 1024 * 1024, 1) })).toMatch(/at most 2097152 are accepted/);
  expect(await grpcs.invalid(method, { modelId: model, imagePng: Buffer.from("not an image") })).toMatch(/neither PNG nor JPEG/);
}
