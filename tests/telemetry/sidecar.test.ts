// The real sidecar process (tsx sidecar/main.ts) with the fake nvidia-smi first on PATH:
// Telemetry over gRPC, /metrics over HTTP, heartbeats to a stand-in app.
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath as healthProtoPath } from "grpc-health-check";
import { metarankV1 } from "../../proto/contract.ts";
import { FAKE_SMI_DIR, REPO_ROOT, freePort, recordingApp, waitFor } from "./helpers.ts";
import { TEST_CALL_KEY, presentKey } from "../support/callKey.ts";

interface Sidecar {
  proc: ChildProcess;
  port: number;
  metricsPort: number;
  logs: any[];
  stop(): Promise<number | null>;
}

async function startSidecar(env: Record<string, string | undefined>): Promise<Sidecar> {
  const port = await freePort();
  const metricsPort = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${FAKE_SMI_DIR}${path.delimiter}${process.env.PATH}`,
    SIDECAR_PORT: String(port),
    SIDECAR_HOST: "127.0.0.1",
    SIDECAR_CALL_KEY: TEST_CALL_KEY,
    METRICS_PORT: String(metricsPort),
    TELEMETRY_INTERVAL_MS: "150",
    LOG_LEVEL: "info",
  };
  for (const k of ["NVIDIA_SMI", "APP_URL", "SIDECAR_NAME", "SIDECAR_PASSWORD", "SIDECAR_ADVERTISE_ADDRESS"]) delete childEnv[k];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  // tsx as a loader inside one process, not the tsx command: the command is a second process
  // that relays SIGTERM and, when the child has not acknowledged it within 30 ms (a loaded CI
  // machine), kills it and exits 143 itself, which is not the sidecar's shutdown being tested.
  const proc = spawn(process.execPath, ["--import", "tsx", "sidecar/main.ts"], { cwd: REPO_ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  const logs: any[] = [];
  let buf = "";
  proc.stdout!.on("data", (chunk) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try {
        logs.push(JSON.parse(line));
      } catch {
        logs.push({ msg: line });
      }
    }
  });
  let stderr = "";
  proc.stderr!.on("data", (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  await Promise.race([
    waitFor("the sidecar to listen", () => logs.some((l) => l.msg === "sidecar listening"), 90_000),
    exited.then((code) => {
      throw new Error(`sidecar exited (${code}) before listening:\n${stderr}\n${JSON.stringify(logs)}`);
    }),
  ]);
  return {
    proc,
    port,
    metricsPort,
    logs,
    async stop() {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      return exited;
    },
  };
}

function telemetryClient(port: number): any {
  const Telemetry = metarankV1("metarank/v1/telemetry.proto").Telemetry;
  return new Telemetry(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { interceptors: [presentKey()] });
}

function unary<T>(client: any, method: string, req: object): Promise<T> {
  return new Promise((resolve, reject) => client[method](req, { deadline: Date.now() + 15_000 }, (err: unknown, res: T) => (err ? reject(err) : resolve(res))));
}

describe("sidecar on a host with four GPUs", () => {
  let sidecar: Sidecar;
  let app: Awaited<ReturnType<typeof recordingApp>>;
  let client: any;

  beforeAll(async () => {
    app = await recordingApp((n) => (n === 1 ? 401 : 200));
    sidecar = await startSidecar({
      FAKE_NVIDIA_SMI_SCENARIO: "multi-gpu",
      APP_URL: app.url,
      SIDECAR_NAME: "gpu-box-1",
      SIDECAR_PASSWORD: "pw-never-logged",
      HEARTBEAT_INTERVAL_MS: "200",
    });
    client = telemetryClient(sidecar.port);
  });
  afterAll(async () => {
    client?.close();
    const code = await sidecar?.stop();
    await app?.close();
    expect(code).toBe(0); // a clean shutdown on SIGTERM
  });

  it("serves a Snapshot with host info, GPUs, processes and history; unknown stays unset", async () => {
    // Let the 150 ms sampler build up some history (polled: a loaded CI host may be slow to spawn nvidia-smi).
    let snap: any;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      snap = await unary(client, "Snapshot", {});
      if (snap.history.length >= 2) break;
    }
    expect(snap.hostname).toBe(os.hostname());
    expect(snap.driverVersion).toBe("535.161.08");
    expect(snap.cudaVersion).toBe("12.2");
    expect(snap.noGpuReason).toBe("");
    expect(snap.intervalMs).toBe(150);
    expect(snap.totalMemoryMib).toBe(2 * 81920 + 2 * 24576);
    expect(snap.gpus).toHaveLength(4);
    expect(snap.gpus[0]).toMatchObject({
      index: 0,
      name: "NVIDIA A100-SXM4-80GB",
      memoryUsedMib: 40123,
      memoryTotalMib: 81920,
      memoryFreeMib: 81920 - 40123,
      utilizationPercent: 87,
      temperatureC: 61,
      performanceState: 0,
      powerW: 312.45,
    });
    // "[N/A]" fan: absent after decoding, while GPU 1's real 0 % utilization is present.
    expect(snap.gpus[0].fanPercent).toBeUndefined();
    expect(snap.gpus[1].utilizationPercent).toBe(0);
    expect(snap.gpus[2].fanPercent).toBe(78);
    // toMatchObject: with proto-loader's `oneofs: true`, a set proto3 optional also
    // decodes with its synthetic oneof marker ("_memoryMib": "memoryMib").
    expect(snap.processes).toMatchObject([
      { pid: 21877, name: "/opt/conda/envs/xai/bin/python", memoryMib: 40110, gpuIndex: 0, gpuUuid: "GPU-8f6d1b1a-3c2e-4a9b-9d41-0c6f2e7b5a10" },
      { pid: 30411, name: "python train.py --lr 0.1", memoryMib: 9000, gpuIndex: 2, gpuUuid: "GPU-aa11bb22-cc33-4dd4-8ee5-ff6677889900" },
      { pid: 30502, name: "/home/lab/run,eval/bin/worker", memoryMib: 9214, gpuIndex: 2, gpuUuid: "GPU-aa11bb22-cc33-4dd4-8ee5-ff6677889900" },
    ]);
    expect(snap.history.length).toBeGreaterThanOrEqual(2);
    const ts = snap.history.map((h: any) => h.timestampMs);
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
    expect(ts.at(-1)).toBe(snap.sampledAtMs);
    expect(Math.abs(Date.now() - snap.sampledAtMs)).toBeLessThan(60_000);
    expect(snap.history[0].gpus).toHaveLength(4);

    const later: any = await unary(client, "Snapshot", { sinceMs: snap.sampledAtMs });
    expect(later.history.every((h: any) => h.timestampMs >= snap.sampledAtMs)).toBe(true);
  });

  it("streams samples as they are taken", async () => {
    const samples: any[] = [];
    const call = client.Stream({ includeLatest: false });
    await new Promise<void>((resolve, reject) => {
      call.on("data", (s: any) => {
        samples.push(s);
        if (samples.length === 3) resolve();
      });
      call.on("error", (e: grpc.ServiceError) => (e.code === grpc.status.CANCELLED ? resolve() : reject(e)));
      setTimeout(() => reject(new Error(`only ${samples.length} samples in 15 s`)), 15_000);
    });
    call.cancel();
    expect(samples.length).toBeGreaterThanOrEqual(2);
    for (const s of samples) {
      expect(s.noGpuReason).toBe("");
      expect(s.gpus.map((g: any) => g.index)).toEqual([0, 1, 2, 3]);
      expect(s.gpus[3]).toMatchObject({ utilizationPercent: 12, fanPercent: 30, performanceState: 8 });
    }
    expect(samples[1].timestampMs).toBeGreaterThan(samples[0].timestampMs);
  });

  it("lists GPU processes", async () => {
    const res: any = await unary(client, "ListProcesses", {});
    expect(res.error).toBe("");
    expect(res.processes.map((p: any) => [p.pid, p.gpuIndex])).toEqual([
      [21877, 0],
      [30411, 2],
      [30502, 2],
    ]);
  });

  it("serves /metrics", async () => {
    const text = await (await fetch(`http://127.0.0.1:${sidecar.metricsPort}/metrics`)).text();
    expect(text).toContain("# TYPE DCGM_FI_DEV_GPU_UTIL gauge");
    expect(text).toMatch(
      new RegExp(`DCGM_FI_DEV_GPU_UTIL\\{gpu="2",device="nvidia2",modelName="NVIDIA GeForce RTX 3090",Hostname="${os.hostname()}"\\} 100\\n`),
    );
    expect(text).not.toMatch(/DCGM_FI_DEV_FAN_SPEED\{gpu="0"/);
  });

  it("heartbeats to the app, logs the 401 without the password and keeps going", async () => {
    await waitFor("heartbeats after the 401", () => app.posts.length >= 3);
    expect(app.posts.every((p) => p.path === "/api/sidecars/heartbeat")).toBe(true);
    expect(app.posts[0].body).toMatchObject({
      name: "gpu-box-1",
      password: "pw-never-logged",
      grpcAddress: `${os.hostname()}:${sidecar.port}`,
      gpuIndex: 1,
      freeCompute: 100,
      totalMemoryMiB: 2 * 81920 + 2 * 24576,
      driverVersion: "535.161.08",
      cudaVersion: "12.2",
    });
    expect(app.posts[0].body.processes).toHaveLength(3);
    const refused = sidecar.logs.find((l) => l.status === 401);
    expect(refused?.level).toBe(50); // pino "error"
    expect(refused?.msg).toMatch(/refused the sidecar's credentials/);
    expect(sidecar.logs.some((l) => l.msg === "registered with the app")).toBe(true);
    expect(JSON.stringify(sidecar.logs)).not.toContain("pw-never-logged");
    expect(sidecar.proc.exitCode).toBeNull();
  });
});

describe.each([
  ["a failing driver", { FAKE_NVIDIA_SMI_SCENARIO: "driver-failed" }, /couldn't communicate with the NVIDIA driver/],
  ["no nvidia-smi at all", { NVIDIA_SMI: "/nonexistent/nvidia-smi" }, /nvidia-smi not found/],
])("sidecar on a host with %s", (_label, env, reason) => {
  let sidecar: Sidecar;
  let app: Awaited<ReturnType<typeof recordingApp>>;
  beforeAll(async () => {
    app = await recordingApp(() => 200);
    sidecar = await startSidecar({ ...env, APP_URL: app.url, SIDECAR_NAME: "cpu-box", SIDECAR_PASSWORD: "x", HEARTBEAT_INTERVAL_MS: "200" });
  });
  afterAll(async () => {
    await sidecar?.stop();
    await app?.close();
  });

  it("reports no GPU with the reason and keeps serving", async () => {
    const client = telemetryClient(sidecar.port);
    try {
      const snap: any = await unary(client, "Snapshot", {});
      expect(snap.noGpuReason).toMatch(reason);
      expect(snap.gpus).toEqual([]);
      expect(snap.driverVersion).toBe("");
      expect(snap.cudaVersion).toBe("");
      // toMatchObject: with proto-loader's `oneofs: true`, a set proto3 optional also
      // decodes with its synthetic oneof marker ("_memoryMib": "memoryMib").
      expect(snap.processes).toMatchObject([]);
      const procs: any = await unary(client, "ListProcesses", {});
      expect(procs.error).toMatch(reason);

      const samples: any[] = [];
      const call = client.Stream({ includeLatest: true });
      await new Promise<void>((resolve, reject) => {
        call.on("data", (s: any) => samples.push(s) >= 2 && resolve());
        call.on("error", () => resolve());
        setTimeout(() => reject(new Error("no samples")), 15_000);
      });
      call.cancel();
      expect(samples[1].noGpuReason).toMatch(reason);

      const healthPkg = grpc.loadPackageDefinition(protoLoader.loadSync(healthProtoPath, { enums: String })) as unknown as {
        grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
      };
      const health = healthPkg.grpc.health.v1.Health;
      const hc = new health(`127.0.0.1:${sidecar.port}`, grpc.credentials.createInsecure());
      const status: any = await unary(hc, "Check", { service: "metarank.v1.Telemetry" });
      hc.close();
      expect(status.status).toBe("SERVING");
    } finally {
      client.close();
    }
    const text = await (await fetch(`http://127.0.0.1:${sidecar.metricsPort}/metrics`)).text();
    expect(text).toMatch(/metarank_sidecar_gpu_available\{Hostname="[^"]*"\} 0/);
    expect(text).not.toMatch(/^DCGM_/m);

    await waitFor("a heartbeat", () => app.posts[0]);
    expect(app.posts[0].body).toMatchObject({ gpuIndex: -1, driverVersion: "", cudaVersion: "", processes: [], executionProvider: "cpu" });
    expect(app.posts[0].body.freeCompute).toBeGreaterThanOrEqual(0);
  });
});
