// Every call to the sidecar carries its call key (docs/grpc.md "Authentication"): metadata
// `authorization: Bearer <key>`, checked by a server interceptor before any handler runs. The app
// is the only normal caller; it learns a registering sidecar's key from the heartbeat
// (password-authenticated), or an operator gives both sides SIDECAR_CALL_KEY. The standard health
// service stays open, so load balancers and probes need no key.
import crypto from "node:crypto";
import * as grpc from "@grpc/grpc-js";

export const CALL_KEY_MIN = 16;
export const CALL_KEY_MAX = 256;
const EXEMPT_PREFIX = "/grpc.health.v1.Health/";

export class CallKeyConfigError extends Error {}

/**
 * The key of this sidecar process: SIDECAR_CALL_KEY when set (16–256 printable ASCII
 * characters, for sidecars the app reaches through SIDECARS without a heartbeat), otherwise a
 * random key made at start, which only the app learns (through the heartbeat).
 */
export function resolveCallKey(env: Record<string, string | undefined> = process.env): { key: string; configured: boolean } {
  const given = env.SIDECAR_CALL_KEY;
  if (given === undefined || given === "") return { key: crypto.randomBytes(32).toString("base64url"), configured: false };
  if (given.length < CALL_KEY_MIN || given.length > CALL_KEY_MAX || !/^[\x21-\x7e]+$/.test(given)) {
    throw new CallKeyConfigError(`SIDECAR_CALL_KEY must be ${CALL_KEY_MIN}–${CALL_KEY_MAX} printable ASCII characters without spaces`);
  }
  return { key: given, configured: true };
}

/** Constant-time comparison of two keys of any lengths (digests have equal lengths). */
export function sameKey(a: string, b: string): boolean {
  const da = crypto.createHash("sha256").update(a).digest();
  const db = crypto.createHash("sha256").update(b).digest();
  return crypto.timingSafeEqual(da, db) && a.length === b.length;
}

/** The presented key of a call's metadata, or null. */
export function presentedKey(metadata: grpc.Metadata): string | null {
  const values = metadata.get("authorization");
  if (values.length !== 1 || typeof values[0] !== "string") return null;
  const m = /^Bearer ([\x21-\x7e]{1,512})$/.exec(values[0]);
  return m ? m[1] : null;
}

/**
 * A server interceptor that answers UNAUTHENTICATED before the handler sees anything unless the
 * call presents `key`. `onRefused` is told the method and peer (for the log; never the key).
 */
export function callAuthInterceptor(key: string, onRefused?: (info: { method: string; peer: string }) => void): grpc.ServerInterceptor {
  return (method, call) => {
    if (method.path.startsWith(EXEMPT_PREFIX)) return new grpc.ServerInterceptingCall(call);
    const listener = new grpc.ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        const presented = presentedKey(metadata);
        if (presented !== null && sameKey(presented, key)) return next(metadata);
        onRefused?.({ method: method.path, peer: call.getPeer() });
        call.sendStatus({ code: grpc.status.UNAUTHENTICATED, details: "This sidecar accepts calls from its platform only (missing or wrong call key)." });
      })
      .build();
    const responder = new grpc.ResponderBuilder().withStart((next) => next(listener)).build();
    return new grpc.ServerInterceptingCall(call, responder);
  };
}
