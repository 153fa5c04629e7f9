// Starts the real platform for a test file: a fresh database (SQLite file or a throwaway
// MariaDB database), migrations and seeds, a real sidecar process and the built web app.
import { TEST_CALL_KEY } from "./callKey.ts";
import { spawn, type ChildProcess } from "node:child_process";
import { runOk } from "./command.ts";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CAPTCHA = "test";
export const ADMIN_CODE = "let-me-admin";
export const ADMIN = { username: "root-admin", password: "admin-password-1" };
export const MARIADB_ROOT = process.env.MARIADB_ROOT_URL ?? "mysql://root@127.0.0.1:3306";

/**
 * A loopback port for a server a test starts a moment later. Drawn below Linux's ephemeral range
 * (32768–60999), not by listen(0): a port from that range can be taken by any outgoing
 * connection (to MariaDB, Redis, another test's sidecar) before the server binds it, which once
 * failed a CI run with EADDRINUSE. Checked free by binding it; another draw if it is not.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + crypto.randomInt(12_000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(false));
      srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
    });
    if (free) return port;
    if (attempt >= 50) throw new Error("no free loopback port between 20000 and 32000");
  }
}

/** A database for one test file; `drop` removes it. */
export async function createTestDatabase(kind = process.env.TEST_DB ?? "sqlite"): Promise<{ url: string; drop(): Promise<void> }> {
  const tag = `${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
  if (kind === "sqlite") {
    const dir = path.join(ROOT, "var/test");
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `metarank_${tag}.sqlite`);
    return {
      url: `sqlite:${file}`,
      async drop() {
        for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
      },
    };
  }
  if (kind === "mariadb" || kind === "mysql") {
    const mysql = await import("mysql2/promise");
    const name = `metarank_test_${tag}`;
    const conn = await mysql.createConnection(MARIADB_ROOT);
    await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await conn.end();
    return {
      url: `${MARIADB_ROOT}/${name}`,
      async drop() {
        const c = await mysql.createConnection(MARIADB_ROOT);
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await c.end();
      },
    };
  }
  throw new Error(`TEST_DB must be sqlite or mariadb, got ${kind}`);
}

async function waitFor(check: () => Promise<boolean>, what: string, proc: ChildProcess, log: () => string, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`${what} exited early (${proc.exitCode}):\n${log()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what} did not start in ${ms} ms:\n${log()}`);
}

export interface Stack {
  baseUrl: string;
  dbUrl: string;
  sidecarAddress: string;
  env: NodeJS.ProcessEnv;
  logs(): string;
  /** The web app's process id (tests read its memory from /proc). */
  webPid(): number | undefined;
  /** Stops the web app only (the sidecar and database stay), e.g. to test a restart. */
  restartWeb(): Promise<void>;
  /**
   * Another web app (server.ts) on a port of its own over the same database, sidecar, secret and
   * Redis, as a second host would run it; `env` adds to or overrides the stack's (stopped with it).
   */
  startWeb(env?: Record<string, string | undefined>): Promise<{ baseUrl: string; pid: number | undefined; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

export interface StackOptions {
  env?: Record<string, string | undefined>;
  /** Start the sidecar process (default true). */
  sidecar?: boolean;
  db?: string;
  /** WEB_PROCESSES of the web app (server/cluster.ts); default 1, so webPid() is the one process that serves. */
  webProcesses?: number;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const db = await createTestDatabase(opts.db);
  const [webPort, sidecarPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    SIDECARS: `127.0.0.1:${sidecarPort}`,
    METRICS_PORT: "0",
    CAPTCHA_FIXED_ANSWER: CAPTCHA,
    ADMIN_REGISTER_CODE: ADMIN_CODE,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    SIDECAR_WORKERS: "1",
    // Both processes: the sidecar expects it on every call, the app presents it (SIDECARS targets).
    SIDECAR_CALL_KEY: TEST_CALL_KEY,
    LOG_LEVEL: "warn",
    // The platform's crack-detection run would compete with every test for the one sidecar
    // worker: off unless a test asks for it (tests/integration/inspection.test.ts).
    SEED_INSPECTION_RUN: "0",
    SEED_INSPECTION_PICTURES: "8",
    // One web process unless a test asks for more: a group of them per test file would double
    // every stack's memory and start-up on the 2-core CI machine (server/cluster.ts).
    WEB_PROCESSES: String(opts.webProcesses ?? 1),
    ...opts.env,
    // Always the harness's own: a PORT or SIDECAR_PORT inherited from the caller (make
    // exports them for `make start`) must not send two stacks to the same port.
    DATABASE_URL: db.url,
    PORT: String(webPort),
    SIDECAR_PORT: String(sidecarPort),
  };
  let log = "";
  const procs: ChildProcess[] = [];
  const launch = (script: string, extraEnv: Record<string, string | undefined> = {}) => {
    const p = spawn(process.execPath, ["--import", "tsx", script], { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
    p.stdout!.on("data", (d) => (log += d));
    p.stderr!.on("data", (d) => (log += d));
    procs.push(p);
    return p;
  };
  const kill = (p: ChildProcess) =>
    new Promise<void>((res) => {
      // A process ended by a signal has exitCode null and signalCode set: it will never exit again.
      if (p.exitCode !== null || p.signalCode !== null) return res();
      p.once("exit", () => res());
      p.kill("SIGTERM");
      setTimeout(() => p.kill("SIGKILL"), 3000).unref();
    });
  const baseUrl = `http://127.0.0.1:${webPort}`;
  let web: ChildProcess;
  // A group of web processes answers as soon as its first one listens: it is up when its primary
  // says all of them listen (server/cluster.ts), so a test or bench meets every process.
  const groupListening = (port: string) => new RegExp(`listening on http://localhost:${port}","port":${port},"processes"`);
  const webUp = (url = baseUrl, proc = web, processes = env.WEB_PROCESSES) =>
    waitFor(
      async () => (await fetch(`${url}/healthz`)).ok && (Number(processes) <= 1 || groupListening(new URL(url).port).test(log)),
      "web app",
      proc,
      () => log,
    );
  try {
    // The sidecar needs nothing from the database, so it starts while the database is migrated
    // and seeded: its start (tfjs, checkpoints) is off the critical path of every test file.
    let sidecarUp: Promise<void> = Promise.resolve();
    if (opts.sidecar !== false) {
      const sc = launch("sidecar/main.ts");
      sidecarUp = waitFor(
        () =>
          new Promise<boolean>((res) => {
            const s = net.connect(sidecarPort, "127.0.0.1", () => (s.end(), res(true)));
            s.on("error", () => res(false));
          }),
        "sidecar",
        sc,
        () => log,
        // It shares the CPU with the migration and the seeding meanwhile.
        120_000,
      );
      // Awaited below; a failure meanwhile must not surface as an unhandled rejection.
      sidecarUp.catch(() => undefined);
    }
    await runOk(process.execPath, ["--import", "tsx", "seeds/seed.ts", "--migrate"], { cwd: ROOT, env });
    await sidecarUp;
    web = launch("server.ts");
    await webUp();
  } catch (err) {
    // A stack that failed to start must not leave processes or a database behind.
    await Promise.all(procs.map(kill));
    await db.drop();
    throw err;
  }
  return {
    baseUrl,
    dbUrl: db.url,
    sidecarAddress: `127.0.0.1:${sidecarPort}`,
    env,
    logs: () => log,
    webPid: () => web.pid,
    async restartWeb() {
      await kill(web);
      web = launch("server.ts");
      await webUp();
    },
    async startWeb(extraEnv = {}) {
      const port = await freePort();
      const p = launch("server.ts", { ...extraEnv, PORT: String(port) });
      const url = `http://127.0.0.1:${port}`;
      await webUp(url, p, extraEnv.WEB_PROCESSES ?? env.WEB_PROCESSES);
      return { baseUrl: url, pid: p.pid, stop: () => kill(p) };
    },
    async stop() {
      await Promise.all(procs.map(kill));
      await db.drop();
    },
  };
}
