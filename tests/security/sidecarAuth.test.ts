// The sidecar answers only its platform (docs/grpc.md "Authentication"): every service refuses a
// caller without the call key or with a wrong one, the app's own calls go through (a fixed sidecar
// with SIDECAR_CALL_KEY, and a registered one whose per-start key the heartbeat delivered), health
// probes need no key, the sidecar and its metrics listen on loopback unless told otherwise, and a
// bad SIDECAR_CALL_KEY stops the start.
import { spawn } from "node:child_process";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath as healthProtoPath } from "grpc-health-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { adminClient, userClient } from "../support/accounts.ts";
import { TEST_CALL_KEY, presentKey } from "../support/callKey.ts";
import { ROOT, freePort, startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
const LOCAL_PASSWORD = "local-sidecar-pass-1";

beforeAll(async () => {
  stack = await startStack({
    // Info level, so a started evaluation would show in the log (it says "evaluation started").
    env: { SEED_FASHION_MNIST_PICTURES: "0", SEED_SCENES_PICTURES: "10", LOG_LEVEL: "info", LOCAL_SIDECAR_PASSWORD: LOCAL_PASSWORD },
  });
});
afterAll(async () => {
  await stack?.stop();
});

const SERVICES = {
  inference: () => metarankV1("metarank/v1/inference.proto").Inference,
  telemetry: () => metarankV1("metarank/v1/telemetry.proto").Telemetry,
  metascore: () => metarankV1("metarank/v1/metascore.proto").Metascore,
  evaluation: () => metarankV1("metarank/v1/evaluation.proto").Evaluation,
  kits: () => metarankV1("metarank/v1/kit.proto").Kits,
};

/** Calls one method (unary, or the first message of a stream) and returns the status code. */
function statusOf(
  service: keyof typeof SERVICES,
  method: string,
  request: object,
  interceptors: grpc.Interceptor[],
  address = stack.sidecarAddress,
): Promise<number> {
  const Ctor = SERVICES[service]() as unknown as new (a: string, c: grpc.ChannelCredentials, o: object) => grpc.Client & Record<string, Function>;
  const client = new Ctor(address, grpc.credentials.createInsecure(), { interceptors });
  const deadline = new Date(Date.now() + 20_000);
  return new Promise((resolve) => {
    const done = (code: number) => {
      client.close();
      resolve(code);
    };
    const def = (Ctor as unknown as { service: Record<string, { responseStream: boolean }> }).service[method];
    if (def.responseStream) {
      const call = client[method](request, { deadline });
      call.on("data", () => (call.cancel(), done(0)));
      call.on("error", (e: grpc.ServiceError) => done(e.code === grpc.status.CANCELLED ? 0 : e.code));
      call.on("end", () => done(0));
    } else client[method](request, { deadline }, (e: grpc.ServiceError | null) => done(e ? e.code : 0));
  });
}

// Every service, with calls an attacker made: list models, read telemetry, start an evaluation run, explain.
const CALLS: Array<[keyof typeof SERVICES, string, object]> = [
  ["inference", "ListModels", {}],
  ["inference", "ReportGpu", {}],
  ["inference", "Explain", { modelId: "resnet-fashion-mnist", algorithm: "Saliency", image: Buffer.alloc(16) }],
  ["telemetry", "Snapshot", { sinceMs: 0 }],
  ["telemetry", "Stream", {}],
  ["metascore", "RankBoard", {}],
  ["evaluation", "ListSuites", {}],
  ["evaluation", "Run", { suiteId: "metarank-local", method: "Saliency", limit: 1 }],
  ["evaluation", "RunMaps", { suiteId: "metarank-local", methodName: "x", maps: [] }],
  ["kits", "Describe", { suiteId: "metarank-local" }],
  ["kits", "Build", { suiteId: "metarank-local" }],
];

describe("a caller without the platform's call key", () => {
  for (const [service, method, request] of CALLS) {
    it(`gets UNAUTHENTICATED from ${service}.${method}, with no key and with a wrong one`, async () => {
      expect(await statusOf(service, method, request, [])).toBe(grpc.status.UNAUTHENTICATED);
      expect(await statusOf(service, method, request, [presentKey("not-the-key-0123456789")])).toBe(grpc.status.UNAUTHENTICATED);
    });
  }
  it("was refused before any work started: the sidecar logged each refusal and ran no evaluation", async () => {
    const refusalLines = () =>
      stack
        .logs()
        .split("\n")
        .filter((l) => l.includes("call refused: missing or wrong call key"));
    // The sidecar's log reaches the test through a pipe: wait for the last calls' lines.
    await until(`${2 * CALLS.length} refusals in the log`, async () => refusalLines().length >= 2 * CALLS.length, undefined, 10_000);
    const refusals = refusalLines();
    for (const [service, method] of CALLS) {
      const rpcPath = (SERVICES[service]() as unknown as { service: Record<string, { path: string }> }).service[method].path;
      expect(refusals.filter((l) => l.includes(`"method":"${rpcPath}"`)).length, rpcPath).toBe(2);
    }
    expect(refusals.join("\n")).not.toContain("not-the-key"); // the presented key is never logged
    expect(stack.logs()).toContain("sidecar listening"); // info lines are logged, so a started run would show
    expect(stack.logs()).not.toMatch(/"evaluation (started|finished)"/);
  });
  it("leaves the standard health service open to probes", async () => {
    const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(healthProtoPath, { enums: String })) as unknown as {
      grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
    };
    const client = new pkg.grpc.health.v1.Health(stack.sidecarAddress, grpc.credentials.createInsecure()) as grpc.Client & Record<string, Function>;
    try {
      for (const service of ["", "metarank.v1.Inference", "metarank.v1.Evaluation"]) {
        const reply = await new Promise<{ status: string }>((res, rej) =>
          client.Check({ service }, (e: Error | null, r: { status: string }) => (e ? rej(e) : res(r))),
        );
        expect(reply.status, service).toBe("SERVING");
      }
    } finally {
      client.close();
    }
  });
});

describe("the platform itself", () => {
  it("reaches the sidecar with its key (the same calls succeed with it)", async () => {
    expect(await statusOf("inference", "ListModels", {}, [presentKey(TEST_CALL_KEY)])).toBe(0);
    expect(await statusOf("telemetry", "Snapshot", { sinceMs: 0 }, [presentKey(TEST_CALL_KEY)])).toBe(0);
  });
  it("serves pages that call the sidecar: the classification demo lists the sidecar's models", async () => {
    const alice = await userClient(stack.baseUrl, "alice");
    // The generated scenes: present on every machine (Fashion-MNIST needs its Debian package).
    const step1 = await alice.html("/UserImgclassification?type=name&q=scenes");
    const dataset = Number(step1.match(/data-dataset-id="(\d+)"/)![1]);
    const step2 = await alice.html(`/UserImgclassification?dataset=${dataset}`);
    expect(step2).toContain("resnet-scenes");
  });
});

interface BareSidecar {
  /** The exit code, or null while it runs (it got as far as "sidecar listening"). */
  code: number | null;
  log(): string;
  waitFor(text: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a sidecar with `env` (none of the stack's settings) and resolves once it listens or has exited. */
function bareSidecar(env: Record<string, string | undefined>, port: number): Promise<BareSidecar> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, SIDECAR_PORT: String(port), METRICS_PORT: "0", SIDECAR_WORKERS: "1", LOG_LEVEL: "info" };
  for (const k of ["SIDECAR_HOST", "APP_URL", "SIDECAR_NAME", "SIDECAR_PASSWORD", "SIDECAR_CALL_KEY", "METRICS_HOST", "NVIDIA_SMI"]) delete childEnv[k];
  Object.assign(childEnv, env);
  const proc = spawn(process.execPath, ["--import", "tsx", "sidecar/main.ts"], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const handle = (code: number | null): BareSidecar => ({
    code,
    log: () => out,
    waitFor: async (text) => {
      await until(
        `"${text}" in the sidecar's log`,
        async () => out.includes(text),
        () => out,
      );
    },
    stop: () =>
      new Promise<void>((res) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return res();
        proc.once("exit", () => res());
        proc.kill("SIGKILL");
      }),
  });
  return new Promise((resolve) => {
    // "close": after the exit and the last of its output.
    proc.once("close", (code) => resolve(handle(code)));
    const poll = setInterval(() => {
      if (out.includes("sidecar listening")) {
        clearInterval(poll);
        resolve(handle(null));
      }
    }, 100);
    proc.once("exit", () => clearInterval(poll));
  });
}

async function until<T>(what: string, fn: () => Promise<T | false | null | undefined>, log = () => stack.logs(), ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${log().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const connects = (host: string, port: number) =>
  new Promise<boolean>((res) => {
    const s = net.connect(port, host, () => (s.end(), res(true)));
    s.on("error", () => res(false));
  });
/** This machine's other IPv4 addresses (empty where it has none). */
const otherAddresses = () =>
  Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal && i.family === "IPv4")
    .map((i) => i!.address);

describe("a registered sidecar", () => {
  it("sends its per-start key in the password-authenticated heartbeat; the app stores it and calls with it", async () => {
    const port = await freePort();
    const sc = await bareSidecar(
      {
        APP_URL: stack.baseUrl,
        SIDECAR_NAME: "local",
        SIDECAR_PASSWORD: LOCAL_PASSWORD,
        SIDECAR_ADVERTISE_ADDRESS: `127.0.0.1:${port}`,
        HEARTBEAT_INTERVAL_MS: "500",
        TELEMETRY_INTERVAL_MS: "500",
        // A fake nvidia-smi: the detail page's GPU name can only come from the sidecar's Telemetry.Snapshot.
        PATH: `${path.join(ROOT, "tests/fixtures/nvidia-smi/bin")}${path.delimiter}${process.env.PATH}`,
        FAKE_NVIDIA_SMI_SCENARIO: "multi-gpu",
      },
      port,
    );
    try {
      expect(sc.code).toBeNull();
      process.env.DATABASE_URL = stack.dbUrl;
      const servers = await import("../../app/.server/servers.server.ts");
      const row = await until("the heartbeat", async () => (await servers.onlineSidecars()).find((s) => s.grpcAddress === `127.0.0.1:${port}`));
      // Stored on the entry (servers.call_key): a fresh 256-bit key, not the stack's configured one.
      expect(row.callKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(row.callKey).not.toBe(TEST_CALL_KEY);
      expect(await servers.callKeyForAddress(`127.0.0.1:${port}`)).toBe(row.callKey);
      // Never written to either log.
      expect(sc.log()).not.toContain(row.callKey!);
      expect(stack.logs()).not.toContain(row.callKey!);
      // That key opens this sidecar; the stack's does not.
      const address = `127.0.0.1:${port}`;
      expect(await statusOf("inference", "ListModels", {}, [presentKey(row.callKey!)], address)).toBe(0);
      expect(await statusOf("inference", "ListModels", {}, [presentKey(TEST_CALL_KEY)], address)).toBe(grpc.status.UNAUTHENTICATED);
      // The app's own call with it: the detail page shows the sidecar's telemetry.
      const admin = await adminClient(stack.baseUrl);
      const detail = await until("telemetry on the detail page", async () => {
        const h = await admin.html(`/server_detail/${row.id}`);
        return h.includes('data-testid="gpu-name">NVIDIA A100-SXM4-80GB<') && h;
      });
      expect(detail).toMatch(/data-testid="server-state">online</);
      expect(stack.logs()).not.toContain("the sidecar refused the platform's call key");
    } finally {
      await sc.stop();
    }
  });
});

describe("start-up", () => {
  it("refuses an invalid SIDECAR_CALL_KEY: exit 1 with the reason", async () => {
    const r = await bareSidecar({ SIDECAR_CALL_KEY: "short" }, await freePort());
    expect(r.code).toBe(1);
    expect(r.log()).toContain("SIDECAR_CALL_KEY must be 16–256 printable ASCII characters");
  });
  it("listens on loopback only by default, its metrics port too", async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const r = await bareSidecar({ METRICS_PORT: String(metricsPort) }, port);
    try {
      expect(r.code).toBeNull();
      expect(r.log()).toContain('"host":"127.0.0.1"');
      await r.waitFor("Prometheus metrics at /metrics");
      expect(await connects("127.0.0.1", port)).toBe(true);
      expect(await connects("127.0.0.1", metricsPort)).toBe(true);
      // Every other address of this machine is refused.
      for (const host of otherAddresses()) {
        expect(await connects(host, port), host).toBe(false);
        expect(await connects(host, metricsPort), host).toBe(false);
      }
    } finally {
      await r.stop();
    }
  });
  it("opens gRPC with SIDECAR_HOST, but not the metrics port (METRICS_HOST only)", async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const r = await bareSidecar({ SIDECAR_HOST: "0.0.0.0", METRICS_PORT: String(metricsPort) }, port);
    try {
      expect(r.code).toBeNull();
      await r.waitFor("Prometheus metrics at /metrics");
      for (const host of otherAddresses()) {
        expect(await connects(host, port), host).toBe(true);
        expect(await connects(host, metricsPort), host).toBe(false);
      }
      // Open, but still only for callers with the key.
      for (const host of otherAddresses()) {
        expect(await statusOf("inference", "ListModels", {}, [], `${host}:${port}`)).toBe(grpc.status.UNAUTHENTICATED);
      }
    } finally {
      await r.stop();
    }
  });
});
