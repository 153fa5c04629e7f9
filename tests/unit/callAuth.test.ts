// The sidecar's call-key interceptor on a real grpc-js server (in process): the right key
// passes, a missing or wrong one is UNAUTHENTICATED before the handler runs, health stays open.
// The app's client (app/.server/sidecar.server.ts) against it: it presents the target's key on
// unary and streaming calls, and a refused key is an internal failure, not the user's.
import * as grpc from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SIDECAR_DOWN_MESSAGE,
  SidecarCallError,
  type CallOptions,
  classifyStatus,
  rpc,
  serverStream,
  setSidecarChooser,
  unary,
} from "../../app/.server/sidecar.server.ts";
import { metarankV1 } from "../../proto/contract.ts";
import { CallKeyConfigError, callAuthInterceptor, presentedKey, resolveCallKey, sameKey } from "../../sidecar/grpc/callAuth.ts";
import { presentKey } from "../support/callKey.ts";

const KEY = "unit-test-key-0123456789";
const echo: grpc.ServiceDefinition = {
  Echo: {
    path: "/test.Echo/Echo",
    requestStream: false,
    responseStream: false,
    requestSerialize: (v: Buffer) => v,
    requestDeserialize: (b: Buffer) => b,
    responseSerialize: (v: Buffer) => v,
    responseDeserialize: (b: Buffer) => b,
  },
};

let server: grpc.Server;
let address = "";
let handled = 0;
const refused: string[] = [];

beforeAll(async () => {
  server = new grpc.Server({ interceptors: [callAuthInterceptor(KEY, (i) => refused.push(i.method))] });
  server.addService(echo, {
    Echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => {
      handled++;
      cb(null, call.request);
    },
  });
  new HealthImplementation({ "": "SERVING" }).addToServer(server);
  // A stand-in Telemetry service, for the app's typed client below.
  server.addService(metarankV1("metarank/v1/telemetry.proto").Telemetry.service, {
    Snapshot: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<object>) => {
      handled++;
      cb(null, { driverVersion: "535" });
    },
    Stream: (call: grpc.ServerWritableStream<unknown, object>) => {
      handled++;
      call.write({ timestampMs: 1 });
      call.end();
    },
  });
  const port = await new Promise<number>((res, rej) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
  );
  address = `127.0.0.1:${port}`;
});
afterAll(() => server.forceShutdown());

function call(interceptors: grpc.Interceptor[] = []): Promise<{ code: number; reply?: string }> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), { interceptors });
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      "/test.Echo/Echo",
      (v: Buffer) => v,
      (b: Buffer) => b,
      Buffer.from("ping"),
      (err, res) => {
        client.close();
        resolve(err ? { code: err.code } : { code: 0, reply: res!.toString() });
      },
    );
  });
}

describe("call key interceptor", () => {
  it("lets the right key through to the handler", async () => {
    expect(await call([presentKey(KEY)])).toEqual({ code: 0, reply: "ping" });
  });
  it("refuses a missing, wrong, longer or shorter key before the handler runs", async () => {
    const before = handled;
    for (const interceptors of [[], [presentKey("wrong-key-0123456789abc")], [presentKey(KEY + "x")], [presentKey(KEY.slice(0, -1))]]) {
      expect((await call(interceptors)).code).toBe(grpc.status.UNAUTHENTICATED);
    }
    expect(handled).toBe(before);
    expect(refused.filter((m) => m === "/test.Echo/Echo")).toHaveLength(4);
  });
  it("leaves the health service open", async () => {
    const client = new grpc.Client(address, grpc.credentials.createInsecure());
    const code = await new Promise<number>((resolve) =>
      client.makeUnaryRequest(
        "/grpc.health.v1.Health/Check",
        (v: Buffer) => v,
        (b: Buffer) => b,
        Buffer.alloc(0),
        (err) => resolve(err ? err.code : 0),
      ),
    );
    client.close();
    expect(code).toBe(0);
  });
});

describe("keys", () => {
  it("compares in constant time whatever the lengths", () => {
    expect(sameKey("abc", "abc")).toBe(true);
    expect(sameKey("abc", "abd")).toBe(false);
    expect(sameKey("abc", "abcd")).toBe(false);
    expect(sameKey("", "x".repeat(1000))).toBe(false);
  });
  it("reads only a single well-formed Bearer value", () => {
    const md = new grpc.Metadata();
    expect(presentedKey(md)).toBeNull();
    md.set("authorization", "Bearer abc");
    expect(presentedKey(md)).toBe("abc");
    md.set("authorization", "Basic abc");
    expect(presentedKey(md)).toBeNull();
    md.set("authorization", "Bearer a b");
    expect(presentedKey(md)).toBeNull();
  });
  it("makes a fresh random key per start, or takes a valid SIDECAR_CALL_KEY", () => {
    const a = resolveCallKey({});
    const b = resolveCallKey({});
    expect(a.configured).toBe(false);
    expect(a.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.key).not.toBe(b.key);
    expect(resolveCallKey({ SIDECAR_CALL_KEY: KEY })).toEqual({ key: KEY, configured: true });
    for (const bad of ["short", "x".repeat(257), "has space in the middle", "tab\tinside-0123456789"]) {
      expect(() => resolveCallKey({ SIDECAR_CALL_KEY: bad })).toThrow(CallKeyConfigError);
    }
  });
});

describe("the app's client", () => {
  const snapshot = (address: CallOptions["address"]) => unary(rpc().telemetry.Snapshot, { sinceMs: 0 }, { address, deadlineMs: 5000 });
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e,
    );

  it("presents the target's key on unary and streaming calls", async () => {
    expect(await snapshot({ address, callKey: KEY })).toMatchObject({ driverVersion: "535" });
    const got: unknown[] = [];
    await serverStream(rpc().telemetry.Stream, {}, (m) => got.push(m), { address: { address, callKey: KEY }, deadlineMs: 5000 });
    expect(got).toHaveLength(1);
  });

  it("finds the key of a sidecar named by address, and the chooser's target's key", async () => {
    setSidecarChooser(
      async () => ({ address, callKey: KEY }),
      async (a) => (a === address ? KEY : null),
    );
    expect(await snapshot(address)).toMatchObject({ driverVersion: "535" });
    expect(await unary(rpc().telemetry.Snapshot, { sinceMs: 0 }, { deadlineMs: 5000 })).toMatchObject({ driverVersion: "535" });
  });

  it("turns a refused key into an internal failure with the generic message, before the handler runs", async () => {
    const before = handled;
    for (const callKey of ["wrong-key-0123456789abc", null]) {
      const err = await refusal(snapshot({ address, callKey }));
      expect(err).toBeInstanceOf(SidecarCallError);
      expect(err).toMatchObject({ code: grpc.status.UNAUTHENTICATED, kind: "internal", message: SIDECAR_DOWN_MESSAGE });
    }
    const streamErr = await refusal(serverStream(rpc().telemetry.Stream, {}, () => {}, { address: { address, callKey: "wrong-key-0123456789abc" } }));
    expect(streamErr).toMatchObject({ code: grpc.status.UNAUTHENTICATED, kind: "internal" });
    expect(handled).toBe(before);
    expect(classifyStatus(grpc.status.UNAUTHENTICATED)).toBe("internal");
  });
});
