// The sidecar's call-key interceptor on a real grpc-js server (in process): the right key
// passes, a missing or wrong one is UNAUTHENTICATED before the handler runs, health stays open.
import * as grpc from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
