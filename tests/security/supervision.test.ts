// A platform that heals (docs/architecture.md "Supervision"): `make start`'s sidecar runs under
// scripts/superviseSidecar.ts, which restarts it after kill -9 with a back-off and says so in the
// log; SIGTERM stops it cleanly (the gRPC server closed, the worker pools destroyed: exit status
// 0, not a segmentation fault); a port already taken stops `make serve` with a message naming it,
// for the web port and the sidecar port, and a sidecar that cannot bind is not restarted.
// Nothing here touches a database, so it runs in the SQLite pass only.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import * as grpc from "@grpc/grpc-js";
import { afterAll, describe, expect, it } from "vitest";
import { metarankV1 } from "../../proto/contract.ts";
import { TEST_CALL_KEY } from "../support/callKey.ts";
import { ROOT, freePort } from "../support/stack.ts";

const procs: ChildProcess[] = [];
const servers: net.Server[] = [];
afterAll(() => {
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) process.kill(-p.pid!, "SIGKILL");
  for (const s of servers) s.close();
});

/** A process in its own group (so the test can end it with all its children), its output collected. */
function launch(cmd: string, args: string[], env: Record<string, string>): { proc: ChildProcess; out: () => string; exited: Promise<number | null> } {
  let out = "";
  const proc = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  procs.push(proc);
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((res) => proc.on("exit", (code) => res(code)));
  return { proc, out: () => out, exited };
}

async function until<T>(what: string, fn: () => T | false | null | undefined, ms = 60_000, output?: () => string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    // The supervisor's and the sidecar's own lines say why (a bind refused, a start that failed).
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${output ? `; their output ended:\n${output().slice(-3000)}` : ""}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Listens on the port as another program would. */
async function occupy(port: number, host?: string): Promise<void> {
  const s = net.createServer();
  servers.push(s);
  await new Promise<void>((res) => s.listen({ port, host }, () => res()));
}

const lines = (out: string) =>
  out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const listeningPids = (out: string) =>
  lines(out)
    .filter((l) => l.msg === "sidecar listening")
    .map((l) => Number(l.pid));

function predict(address: string): Promise<string> {
  const Ctor = metarankV1("metarank/v1/inference.proto").Inference as unknown as new (
    a: string,
    c: grpc.ChannelCredentials,
  ) => grpc.Client & {
    Predict: (req: object, md: grpc.Metadata, opts: object, cb: (e: grpc.ServiceError | null, r?: { predictedLabel: string }) => void) => void;
  };
  const client = new Ctor(address, grpc.credentials.createInsecure());
  const md = new grpc.Metadata();
  md.set("authorization", `Bearer ${TEST_CALL_KEY}`);
  const png = fs.readFileSync(`${ROOT}/tests/fixtures/data/samples/fashion-mnist-0.png`);
  return new Promise((resolve, reject) =>
    client.Predict({ modelId: "resnet-fashion-mnist", imagePng: png }, md, { deadline: new Date(Date.now() + 60_000) }, (e, r) => {
      client.close();
      if (e) reject(e);
      else resolve(r!.predictedLabel);
    }),
  );
}

const sidecarEnv = (port: number) => ({
  SIDECAR_PORT: String(port),
  SIDECAR_CALL_KEY: TEST_CALL_KEY,
  METRICS_PORT: "0",
  SIDECAR_WORKERS: "1",
  LOG_LEVEL: "info",
});

describe.skipIf(process.env.TEST_DB === "mariadb")("supervision of make start's sidecar", () => {
  it("restarts a sidecar killed with kill -9, logs it, and stops cleanly on SIGTERM with its worker pool up", async () => {
    const port = await freePort();
    const sup = launch(process.execPath, ["--import", "tsx", "scripts/superviseSidecar.ts"], sidecarEnv(port));
    const [first] = await until("the sidecar", () => listeningPids(sup.out()).length === 1 && listeningPids(sup.out()), 60_000, sup.out);
    const killedAt = performance.now();
    process.kill(first, "SIGKILL");
    const [, second] = await until("the restarted sidecar", () => listeningPids(sup.out()).length === 2 && listeningPids(sup.out()), 60_000, sup.out);
    const restartMs = performance.now() - killedAt;
    expect(second).not.toBe(first);
    expect(sup.out()).toMatch(/the sidecar exited \(SIGKILL\); restarting it in 1\.0 s/);
    // The supervisor says so once its own probe sees the port: after the sidecar's own line.
    await until("the supervisor's restart line", () => sup.out().includes("sidecar restarted and listening"));
    console.log(`kill -9 → sidecar listening again in ${Math.round(restartMs)} ms`);
    // The restarted sidecar serves, and its worker pool (a tfjs wasm runtime per thread) is up.
    expect(await predict(`127.0.0.1:${port}`)).toBe("Ankle boot");

    const stoppedAt = performance.now();
    process.kill(sup.proc.pid!, "SIGTERM");
    // The sidecar's own status decides the supervisor's: 0 only when the child exited 0 (a
    // segmentation fault is a signal, so status 1).
    expect(await sup.exited).toBe(0);
    console.log(`SIGTERM → stopped in ${Math.round(performance.now() - stoppedAt)} ms`);
    expect(sup.out()).toContain("sidecar stopped");
    expect(sup.out()).not.toMatch(/Segmentation fault|SIGSEGV/);
    const refused = await new Promise<boolean>((res) =>
      net
        .connect(port, "127.0.0.1")
        .on("connect", () => res(false))
        .on("error", () => res(true)),
    );
    expect(refused).toBe(true);
  }, 120_000);

  it("does not restart a sidecar whose port is taken: it says so and the supervisor exits 1", async () => {
    const port = await freePort();
    await occupy(port, "127.0.0.1");
    const sup = launch(process.execPath, ["--import", "tsx", "scripts/superviseSidecar.ts"], sidecarEnv(port));
    expect(await sup.exited).toBe(1);
    expect(sup.out()).toContain(`port ${port} on 127.0.0.1 is already in use by another process`);
    expect(sup.out()).toContain("not restarting it");
  }, 60_000);

  it("make serve stops the web app when the sidecar cannot start, and SIGTERM stops it without a segmentation fault", async () => {
    const [web, sidecar] = [await freePort(), await freePort()];
    // A throwaway database: the web app only starts here, it never serves.
    const scratch = `${ROOT}/var/test/supervision_${process.pid}`;
    const env = {
      DATABASE_URL: `sqlite:${scratch}.sqlite`,
      UPLOAD_DIR: `${scratch}/uploads`,
      EVALUATION_DIR: `${scratch}/evaluations`,
      TREE_TASK_DIR: `${scratch}/tasks`,
      LOG_LEVEL: "info",
      METRICS_PORT: "0",
    };
    const args = ["-s", "-o", "build", "-o", "build/.built", "serve", `PORT=${web}`, `SIDECAR_PORT=${sidecar}`];
    try {
      // An invalid call key: the sidecar's first start fails, so the supervisor gives up and make stops the rest.
      const failing = launch("make", args, { ...env, SIDECAR_CALL_KEY: "short" });
      const code = await Promise.race([failing.exited, new Promise<"hung">((r) => setTimeout(() => r("hung"), 40_000))]);
      expect(code, failing.out()).toBe(2);
      expect(failing.out()).toContain("make start: the sidecar stopped (status 1); stopping the rest");
      const webUp = await new Promise<boolean>((res) =>
        net
          .connect(web, "127.0.0.1")
          .on("connect", () => res(true))
          .on("error", () => res(false)),
      );
      expect(webUp).toBe(false);

      // SIGTERM to make's process group (as a service manager or Ctrl-C sends it): the recipe's
      // shell stops its jobs and exits; `trap 'kill 0'` made bash signal itself until it segfaulted.
      const serving = launch("make", args, { ...env, SIDECAR_CALL_KEY: TEST_CALL_KEY });
      await until("the sidecar", () => listeningPids(serving.out()).length === 1, 60_000);
      process.kill(-serving.proc.pid!, "SIGTERM");
      await serving.exited;
      // make itself ends with the signal; its recipe's jobs finish stopping just after.
      await until("the sidecar to stop", () => serving.out().includes("sidecar supervisor stopped"), 30_000);
      expect(serving.out()).not.toMatch(/Segmentation fault/);
      expect(serving.out()).toContain("sidecar stopped");
      const left = await new Promise<boolean>((res) =>
        net
          .connect(sidecar, "127.0.0.1")
          .on("connect", () => res(true))
          .on("error", () => res(false)),
      );
      expect(left).toBe(false);
    } finally {
      fs.rmSync(`${scratch}.sqlite`, { force: true });
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);

  it("make serve stops with a clear message when the web port or the sidecar port is taken", async () => {
    for (const which of ["PORT", "SIDECAR_PORT"] as const) {
      const [web, sidecar] = [await freePort(), await freePort()];
      await occupy(which === "PORT" ? web : sidecar, which === "PORT" ? undefined : "127.0.0.1");
      // `-o build`: the build is shared and not this test's business; serve's recipe is.
      const make = launch("make", ["-s", "-o", "build", "-o", "build/.built", "serve", `PORT=${web}`, `SIDECAR_PORT=${sidecar}`], {});
      const timeout = setTimeout(() => process.kill(-make.proc.pid!, "SIGKILL"), 30_000);
      const code = await make.exited;
      clearTimeout(timeout);
      expect(code, make.out()).not.toBe(0);
      expect(code, "stopped by the check, not by the timeout").not.toBeNull();
      expect(make.out()).toContain(
        which === "PORT" ? `port ${web} (the web app, PORT) is already in use` : `127.0.0.1:${sidecar} (the sidecar (gRPC), SIDECAR_PORT) is already in use`,
      );
    }
  }, 90_000);
});
