// The call key test sidecars are started with (SIDECAR_CALL_KEY) and a client interceptor that
// presents it, as the app does (app/.server/sidecar.server.ts, docs/grpc.md "Authentication").
import * as grpc from "@grpc/grpc-js";

export const TEST_CALL_KEY = "test-call-key-0123456789abcdef";

/** Client option: `new Client(address, insecure, { interceptors: [presentKey()] })`. */
export function presentKey(key = TEST_CALL_KEY): grpc.Interceptor {
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set("authorization", `Bearer ${key}`);
        next(metadata, listener);
      },
    });
}
