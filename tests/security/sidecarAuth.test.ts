// The sidecar answers only its platform (issue 11 "The sidecar"): every service refuses a caller
// without the call key or with a wrong one, the app's own calls go through, the sidecar and its
// metrics listen on loopback unless told otherwise, and a bad SIDECAR_CALL_KEY stops the start.
import { spawn } from "node:child_process";
import net from "node:net";
import os from "node:os";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { userClient } from "../support/accounts.ts";
import { TEST_CALL_KEY, presentKey } from "../support/callKey.ts";
import { ROOT, freePort, startStack, type Stack } from "../support/stack.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ env: { SEED_FASHION_MNIST_PICTURES: "0", SEED_SCENES_PICTURES: "10" } });
});
afterAll(async () => {
  await stack?.stop();
});

const SERVICES = {
  inference: () => metarankV1("metarank/v1/inference.proto").Inference,
  telemetry: () => metarankV1("metarank/v1/telemetry.proto").Telemetry,
  metascore: () => metarankV1("metarank/v1/metascore.proto").Metascore,
  evaluation: () => metarankV1("metarank/v1/evaluation.proto").Evaluation,
};

/** Calls one method (unary, or the first message of a stream) and returns the status code. */
function statusOf(service: keyof typeof SERVICES, method: string, request: object, interceptors: grpc.Interceptor[]): Promise<number> {
  const Ctor = SERVICES[service]() as unknown as new (a: string, c: grpc.ChannelCredentials, o: object) => grpc.Client & Record<string, Function>;
  const client = new Ctor(stack.sidecarAddress, grpc.credentials.createInsecure(), { interceptors });
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
];

describe("a caller without the platform's call key", () => {
  for (const [service, method, request] of CALLS) {
    it(`gets UNAUTHENTICATED from ${service}.${method}, with no key and with a wrong one`, async () => {
      expect(await statusOf(service, method, request, [])).toBe(grpc.status.UNAUTHENTICATED);
      expect(await statusOf(service, method, request, [presentKey("not-the-key-0123456789")])).toBe(grpc.status.UNAUTHENTICATED);
    });
  }
  it("was refused before any work started: the sidecar logged each refusal and ran no evaluation", () => {
    expect(stack.logs()).toContain("call refused: missing or wrong call key");
    expect(stack.logs()).not.toMatch(/evaluation (started|progress)/i);
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

/** Starts a bare sidecar with `env` and resolves with its exit code (or null once it is listening) and output. */
function bareSidecar(env: Record<string, string | undefined>, port: number): Promise<{ code: number | null; out: string; stop(): Promise<void> }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, SIDECAR_PORT: String(port), METRICS_PORT: "0", SIDECAR_WORKERS: "1", LOG_LEVEL: "info" };
  for (const k of ["SIDECAR_HOST", "APP_URL", "SIDECAR_NAME", "SIDECAR_PASSWORD", "SIDECAR_CALL_KEY", "METRICS_HOST"]) delete childEnv[k];
  Object.assign(childEnv, env);
  const proc = spawn(process.execPath, ["--import", "tsx", "sidecar/main.ts"], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const stop = () =>
    new Promise<void>((res) => {
      if (proc.exitCode !== null) return res();
      proc.once("exit", () => res());
      proc.kill("SIGKILL");
    });
  return new Promise((resolve) => {
    proc.once("exit", (code) => resolve({ code, out, stop }));
    const poll = setInterval(() => {
      if (out.includes("sidecar listening")) {
        clearInterval(poll);
        resolve({ code: null, out, stop });
      }
    }, 100);
    proc.once("exit", () => clearInterval(poll));
  });
}

describe("start-up", () => {
  it("refuses an invalid SIDECAR_CALL_KEY: exit 1 with the reason", async () => {
    const r = await bareSidecar({ SIDECAR_CALL_KEY: "short" }, await freePort());
    expect(r.code).toBe(1);
    expect(r.out).toContain("SIDECAR_CALL_KEY must be 16–256 printable ASCII characters");
  });
  it("listens on loopback only by default", async () => {
    const port = await freePort();
    const r = await bareSidecar({}, port);
    try {
      expect(r.code).toBeNull();
      expect(r.out).toContain('"host":"127.0.0.1"');
      const connects = (host: string) =>
        new Promise<boolean>((res) => {
          const s = net.connect(port, host, () => (s.end(), res(true)));
          s.on("error", () => res(false));
        });
      expect(await connects("127.0.0.1")).toBe(true);
      // Every other address of this machine is refused.
      const others = Object.values(os.networkInterfaces())
        .flat()
        .filter((i) => i && !i.internal && i.family === "IPv4")
        .map((i) => i!.address);
      for (const host of others) expect(await connects(host), host).toBe(false);
    } finally {
      await r.stop();
    }
  });
});
