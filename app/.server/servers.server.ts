// Compute servers: the admin's entries, the sidecars' heartbeats, online state, and the
// chooser that sends work to the least loaded online sidecar.
import { Op } from "sequelize";
import { Server, type ServerProcess } from "./db.server.ts";
import { hashPassword, verifyPassword } from "./password.server.ts";
import { SidecarUnavailableError, configuredCallKey, rpc, setSidecarChooser, unary, type SidecarTarget } from "./sidecar.server.ts";
import type { GpuStats__Output } from "../../proto/generated/metarank/v1/GpuStats.ts";
import type { TelemetrySnapshot__Output } from "../../proto/generated/metarank/v1/TelemetrySnapshot.ts";
import { attemptSucceeded, beginAttempt, heartbeatKeys } from "./throttle.server.ts";
import { SERVER_MSG, validateNewServer, type ServerFormErrors } from "../lib/rules/servers.ts";
import { localZoneOf } from "../lib/timeZone.ts";

/** The host part of a registered host:port (IPv6 in brackets), as request addresses are written. */
const hostOf = (address: string) => plainAddress(address.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1"));
/** IPv4 addresses as Node reports them on dual-stack sockets ("::ffff:1.2.3.4") compare as "1.2.3.4". */
const plainAddress = (ip: string) => ip.replace(/^::ffff:/, "");
import { logger } from "./logger.server.ts";

export const log = logger("servers");

// The forms' rules and messages (docs/product.md "Administration and servers") live in app/lib/rules/servers.ts (shared with the page).
export { SERVER_MSG, validateNewServer, type ServerFormErrors } from "../lib/rules/servers.ts";

/** Online = last heartbeat younger than this (60 s: docs/product.md "Administration and servers"). Tests shorten it through the env. */
export function onlineThresholdMs(env: Record<string, string | undefined> = process.env): number {
  const v = Number(env.SERVER_ONLINE_THRESHOLD_MS);
  return Number.isFinite(v) && v > 0 ? v : 60_000;
}

export function isOnline(lastLogin: Date | null | undefined, now = Date.now(), thresholdMs = onlineThresholdMs()): boolean {
  return !!lastLogin && now - lastLogin.getTime() < thresholdMs;
}

/** The 10 greens the process chips cycle through. */
export const PROCESS_GREENS = ["#1b5e20", "#2e7d32", "#388e3c", "#43a047", "#4caf50", "#66bb6a", "#81c784", "#00695c", "#00897b", "#26a69a"] as const;
export const processColour = (i: number) => PROCESS_GREENS[((i % PROCESS_GREENS.length) + PROCESS_GREENS.length) % PROCESS_GREENS.length];

const pad = (n: number) => String(n).padStart(2, "0");
/** "YYYY-MM-DD HH:mm:ss UTC+08:00": the app server's local time, saying its zone; formatted here so server and browser render the same text. */
export function formatDateTime(d: Date | null | undefined): string | null {
  if (!d) return null;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${localZoneOf(d)}`;
}

export interface ServerRow {
  id: number;
  username: string;
  online: boolean;
  /** Formatted last heartbeat, null = never. */
  lastLogin: string | null;
  totalMemoryMiB: number | null;
  gpuIndex: number | null;
  freeCompute: number | null;
  processes: (ServerProcess & { colour: string })[];
  link: string;
}

export function toServerRow(s: Server, now = Date.now()): ServerRow {
  return {
    id: s.id,
    username: s.username,
    online: isOnline(s.lastLogin, now),
    lastLogin: formatDateTime(s.lastLogin),
    totalMemoryMiB: s.totalMemoryMiB === null || s.totalMemoryMiB === undefined ? null : Number(s.totalMemoryMiB),
    gpuIndex: s.gpuIndex ?? null,
    freeCompute: s.freeCompute ?? null,
    processes: s.processes.map((p, i) => ({ ...p, colour: processColour(i) })),
    link: `/server_detail/${s.id}`,
  };
}

export async function listServers(): Promise<ServerRow[]> {
  const now = Date.now();
  return (await Server.findAll({ order: [["id", "ASC"]] })).map((s) => toServerRow(s, now));
}

export type CreateResult = { ok: true; id: number } | { ok: false; errors: ServerFormErrors; message?: string };

export async function createServer(input: { username: string; password: string; password2: string }): Promise<CreateResult> {
  const errors = validateNewServer(input);
  if (Object.keys(errors).length) return { ok: false, errors };
  const username = input.username.trim();
  try {
    // A taken name is a failure, not an overwrite: the running sidecar keeps its credentials.
    if (await Server.findOne({ where: { username } })) return { ok: false, errors: {}, message: SERVER_MSG.createFailed };
    const s = await Server.create({ username, passwordHash: await hashPassword(input.password), processesJson: "[]" });
    log.info({ server: username, id: s.id }, "server entry created");
    return { ok: true, id: s.id };
  } catch (err) {
    log.error({ err, server: username }, "server entry could not be created");
    return { ok: false, errors: {}, message: SERVER_MSG.createFailed };
  }
}

/** Deletes the listed entries; false when any id is not a server (nothing is deleted then). */
export async function deleteServers(ids: number[]): Promise<boolean> {
  const unique = [...new Set(ids)].filter((n) => Number.isInteger(n) && n > 0);
  if (!unique.length || unique.length !== ids.length) return false;
  try {
    const found = await Server.count({ where: { id: unique } });
    if (found !== unique.length) return false;
    await Server.destroy({ where: { id: unique } });
    log.info({ ids: unique }, "server entries deleted");
    return true;
  } catch (err) {
    log.error({ err, ids: unique }, "server entries could not be deleted");
    return false;
  }
}

export async function getServer(id: number): Promise<Server | null> {
  return Number.isInteger(id) && id > 0 ? Server.findByPk(id) : null;
}

// ---- heartbeats -------------------------------------------------------------------------

/** The body sidecar/registry/heartbeat.ts POSTs (HeartbeatBody there; the two meet only here). */
export interface Heartbeat {
  name: string;
  password: string;
  grpcAddress: string;
  /** The key the sidecar expects on calls (null from a sidecar too old to send one). */
  callKey: string | null;
  gpuIndex: number;
  freeCompute: number;
  totalMemoryMiB: number;
  driverVersion: string;
  cudaVersion: string;
  executionProvider: string;
  processes: ServerProcess[];
}

const str = (v: unknown, max: number) => (typeof v === "string" ? v.slice(0, max) : "");
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Checks the shape; null when the body cannot be a heartbeat. */
export function parseHeartbeat(body: unknown): Heartbeat | null {
  if (!body || typeof body !== "object") return null;
  const b = body as Record<string, unknown>;
  if (typeof b.name !== "string" || typeof b.password !== "string" || typeof b.grpcAddress !== "string") return null;
  // host:port, nothing else: the app dials it.
  if (!/^[A-Za-z0-9._\-[\]:]{1,250}:\d{1,5}$/.test(b.grpcAddress)) return null;
  // Printable ASCII, as the sidecar makes it (sidecar/grpc/callAuth.ts); it goes into call metadata.
  if (b.callKey !== undefined && (typeof b.callKey !== "string" || !/^[\x21-\x7e]{16,256}$/.test(b.callKey))) return null;
  const processes = Array.isArray(b.processes)
    ? b.processes.slice(0, 256).flatMap((item: unknown) => {
        const p = item && typeof item === "object" ? (item as Record<string, unknown>) : null;
        const pid = num(p?.pid);
        return p && pid !== null ? [{ pid, name: str(p.name, 255), memoryMiB: num(p.memoryMiB), gpuIndex: num(p.gpuIndex) ?? -1 }] : [];
      })
    : [];
  return {
    name: b.name,
    password: b.password,
    grpcAddress: b.grpcAddress,
    callKey: typeof b.callKey === "string" ? b.callKey : null,
    gpuIndex: num(b.gpuIndex) ?? -1,
    freeCompute: num(b.freeCompute) ?? 0,
    totalMemoryMiB: Math.max(0, Math.round(num(b.totalMemoryMiB) ?? 0)),
    driverVersion: str(b.driverVersion, 64),
    cudaVersion: str(b.cudaVersion, 64),
    executionProvider: str(b.executionProvider, 64),
    processes,
  };
}

export type HeartbeatResult = "ok" | "invalid" | "refused" | "throttled";

/** Authenticates a heartbeat by name + password and records what the sidecar reported. */
export async function recordHeartbeat(body: unknown, from: string): Promise<HeartbeatResult> {
  const hb = parseHeartbeat(body);
  if (!hb) {
    log.warn({ from }, "malformed heartbeat refused");
    return "invalid";
  }
  // Guessing server passwords is throttled per server entry and address, and per address over all
  // entries. Guesses from elsewhere lock only their own keys; and the registered sidecar's own
  // address is still checked while locked, so nobody can knock the real sidecar offline.
  const keys = heartbeatKeys(hb.name, from);
  const server = await Server.findOne({ where: { username: hb.name } });
  const registeredHere = Boolean(server?.grpcAddress) && hostOf(server!.grpcAddress!) === plainAddress(from);
  const wait = await beginAttempt(keys);
  if (wait > 0 && !registeredHere) {
    log.warn({ from, server: hb.name, retryInSeconds: wait }, "heartbeat refused: too many wrong passwords from this address");
    return "throttled";
  }
  // Verify against a real hash even for unknown names, so timing does not tell which names exist.
  const ok = server ? await verifyPassword(server.passwordHash, hb.password) : (await verifyPassword(await dummyHash(), hb.password), false);
  if (!server || !ok) {
    log.warn({ from, server: hb.name, reason: server ? "wrong password" : "unknown server" }, "heartbeat refused: wrong credentials");
    return wait > 0 ? "throttled" : "refused";
  }
  await attemptSucceeded(keys);
  const wasOnline = isOnline(server.lastLogin);
  await server.update({
    grpcAddress: hb.grpcAddress,
    callKey: hb.callKey,
    gpuIndex: hb.gpuIndex,
    freeCompute: hb.freeCompute,
    totalMemoryMiB: hb.totalMemoryMiB,
    driverVersion: hb.driverVersion || null,
    cudaVersion: hb.cudaVersion || null,
    executionProvider: hb.executionProvider || null,
    processesJson: JSON.stringify(hb.processes),
    lastLogin: new Date(),
  });
  if (!wasOnline) log.info({ server: hb.name, grpcAddress: hb.grpcAddress, from }, "server came online");
  return "ok";
}

let dummy: Promise<string> | null = null;
const dummyHash = () => (dummy ??= hashPassword("not-a-server-password"));

// ---- choosing a sidecar ---------------------------------------------------------------

/** Online sidecars, least loaded first: GPU hosts before CPU hosts, then most free compute, then freshest heartbeat. */
export async function onlineSidecars(
  now = Date.now(),
): Promise<{ id: number; username: string; grpcAddress: string; callKey: string | null; gpuIndex: number; freeCompute: number }[]> {
  const rows = await Server.findAll({ where: { lastLogin: { [Op.gt]: new Date(now - onlineThresholdMs()) }, grpcAddress: { [Op.ne]: null } } });
  return rows
    .sort(
      (a, b) =>
        Number((b.gpuIndex ?? -1) >= 0) - Number((a.gpuIndex ?? -1) >= 0) ||
        (b.freeCompute ?? 0) - (a.freeCompute ?? 0) ||
        (b.lastLogin?.getTime() ?? 0) - (a.lastLogin?.getTime() ?? 0),
    )
    .map((s) => ({
      id: s.id,
      username: s.username,
      grpcAddress: s.grpcAddress!,
      callKey: s.callKey ?? null,
      gpuIndex: s.gpuIndex ?? -1,
      freeCompute: s.freeCompute ?? 0,
    }));
}

export const NO_SERVER_ONLINE = "No compute server is online right now, so this cannot run. Please try again later or ask an administrator to start one.";

/**
 * Registered online sidecars first; without any, the SIDECARS list an operator configured
 * (sidecars that do not register themselves). Neither: a clear error instead of a hang.
 */
export async function chooseSidecar(): Promise<SidecarTarget> {
  const online = await onlineSidecars().catch((err) => {
    log.error({ err }, "server registry could not be read; using SIDECARS");
    return [];
  });
  if (online.length) return { address: online[0].grpcAddress, callKey: online[0].callKey };
  const configured = (process.env.SIDECARS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (configured.length) return { address: configured[0], callKey: configuredCallKey() };
  throw new SidecarUnavailableError(NO_SERVER_ONLINE);
}

/**
 * The key for a sidecar known by its address (an evaluation run's recorded sidecar): the latest
 * heartbeat's key of the entry registered there, else the configured SIDECAR_CALL_KEY.
 */
export async function callKeyForAddress(address: string): Promise<string | null> {
  const row = await Server.findOne({ where: { grpcAddress: address, callKey: { [Op.ne]: null } }, order: [["lastLogin", "DESC"]] }).catch(() => null);
  return row?.callKey ?? configuredCallKey();
}

/** Installs the chooser into this module instance of sidecar.server.ts (idempotent). */
export function installSidecarChooser(): void {
  setSidecarChooser(chooseSidecar, callKeyForAddress);
}

// ---- telemetry for the detail page ----------------------------------------------------

/** A reply as tests may write it: every field optional, nested ones too. */
type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly (infer U)[] ? DeepPartial<U>[] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** One point of the six charts: the first GPU at one sample time; null = unknown. */
export interface ChartSample {
  t: number;
  memoryMiB: number | null;
  utilization: number | null;
  fan: number | null;
  temperature: number | null;
  perf: number | null;
  power: number | null;
}

export type ServerTelemetry =
  | {
      ok: true;
      driverVersion: string | null;
      cudaVersion: string | null;
      gpuName: string | null;
      noGpuReason: string | null;
      sampledAt: number;
      samples: ChartSample[];
    }
  | { ok: false; reason: string };

const opt = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The first GPU (lowest index) of one sample, as chart values. */
export function firstGpuPoint(t: number, gpus: readonly Partial<GpuStats__Output>[] | undefined): ChartSample {
  const g = [...(gpus ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0))[0];
  return {
    t,
    memoryMiB: opt(g?.memoryUsedMib),
    utilization: opt(g?.utilizationPercent),
    fan: opt(g?.fanPercent),
    temperature: opt(g?.temperatureC),
    perf: opt(g?.performanceState),
    power: opt(g?.powerW),
  };
}

/** Turns a Telemetry.Snapshot reply (proto-loader object, camelCase, unset optionals absent) into chart data. */
export function telemetryFromSnapshot(snap: DeepPartial<TelemetrySnapshot__Output>): Extract<ServerTelemetry, { ok: true }> {
  const history = snap.history ?? [];
  const samples = history.filter((h) => !h.noGpuReason && h.gpus?.length).map((h) => firstGpuPoint(Number(h.timestampMs), h.gpus));
  const firstGpu = [...(snap.gpus ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0))[0];
  return {
    ok: true,
    driverVersion: snap?.driverVersion || null,
    cudaVersion: snap?.cudaVersion || null,
    gpuName: firstGpu?.name ?? null,
    noGpuReason: snap?.noGpuReason || null,
    sampledAt: Number(snap?.sampledAtMs) || Date.now(),
    samples,
  };
}

/** Asks the server's own sidecar (the address it registered) for its snapshot and last hour. */
export async function fetchServerTelemetry(server: Server): Promise<ServerTelemetry> {
  if (!server.grpcAddress) return { ok: false, reason: SERVER_MSG.neverReported };
  if (!isOnline(server.lastLogin)) return { ok: false, reason: SERVER_MSG.offline };
  try {
    const snap = await unary(
      rpc().telemetry.Snapshot,
      { sinceMs: 0 },
      { address: { address: server.grpcAddress, callKey: server.callKey ?? configuredCallKey() }, deadlineMs: 4000 },
    );
    return telemetryFromSnapshot(snap);
  } catch (err) {
    log.warn({ err: (err as Error).message, server: server.username, grpcAddress: server.grpcAddress }, "telemetry snapshot failed");
    return { ok: false, reason: SERVER_MSG.noAnswer };
  }
}
