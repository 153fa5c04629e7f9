// Reads GPU state by running nvidia-smi, the one tool every NVIDIA driver install ships.
// Everything here degrades to "unknown" (null) rather than 0: a fan that reports
// "[N/A]" is not a stopped fan, and charts/metrics must be able to tell the two apart.
import { execFile } from "node:child_process";

/** One GPU as nvidia-smi reports it; null = nvidia-smi did not know the value. */
export interface GpuStats {
  index: number;
  name: string | null;
  driverVersion: string | null;
  memoryUsedMiB: number | null;
  memoryTotalMiB: number | null;
  utilizationPercent: number | null;
  fanPercent: number | null;
  temperatureC: number | null;
  /** Performance state number: 0 for "P0" (maximum performance) … 12 for "P12" (idle). */
  performanceState: number | null;
  powerW: number | null;
}

/** A process holding GPU memory (the management view's "GPU processes"). */
export interface GpuProcess {
  pid: number;
  name: string;
  memoryMiB: number | null;
  /** Index of the GPU the process runs on; null when its UUID could not be matched. */
  gpuIndex: number | null;
  gpuUuid: string;
}

export type GpuReading = { ok: true; gpus: GpuStats[] } | { ok: false; reason: string };
export type ProcessReading = { ok: true; processes: GpuProcess[] } | { ok: false; reason: string };

export interface SmiOptions {
  /** Executable to run; defaults to $NVIDIA_SMI, else "nvidia-smi" looked up on PATH. */
  binary?: string;
  /** Kill nvidia-smi after this long; a wedged driver can make it hang for minutes. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export const GPU_QUERY_FIELDS = [
  "index",
  "name",
  "driver_version",
  "memory.used",
  "memory.total",
  "utilization.gpu",
  "fan.speed",
  "temperature.gpu",
  "pstate",
  "power.draw",
] as const;

const DEFAULT_TIMEOUT_MS = 10_000;

function resolveOptions(opts: SmiOptions = {}) {
  const env = opts.env ?? process.env;
  return {
    binary: opts.binary ?? (env.NVIDIA_SMI || "nvidia-smi"),
    timeoutMs: opts.timeoutMs ?? (Number(env.NVIDIA_SMI_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS),
    env,
  };
}

type RunResult = { ok: true; stdout: string } | { ok: false; reason: string };

/** Runs nvidia-smi and turns every way it can fail into a sentence an operator can act on. */
export function runNvidiaSmi(args: string[], opts?: SmiOptions): Promise<RunResult> {
  const { binary, timeoutMs, env } = resolveOptions(opts);
  return new Promise((resolve) => {
    execFile(binary, args, { timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 4 * 1024 * 1024, env, windowsHide: true }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, stdout: String(stdout) });
      const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null; code?: unknown };
      if (e.code === "ENOENT") {
        const where = binary.includes("/") ? `${binary} does not exist` : `${binary} is not on PATH`;
        return resolve({ ok: false, reason: `nvidia-smi not found (${where}): no NVIDIA driver on this host` });
      }
      if (e.code === "EACCES") return resolve({ ok: false, reason: `nvidia-smi (${binary}) is not executable` });
      if (e.killed || e.signal) {
        return resolve({ ok: false, reason: `nvidia-smi did not answer within ${timeoutMs} ms` });
      }
      // nvidia-smi prints its failure ("NVIDIA-SMI has failed because it couldn't
      // communicate with the NVIDIA driver…", "No devices were found") on stdout.
      const text = `${String(stdout)}\n${String(stderr)}`.trim();
      const firstLine = text
        .split(/\r?\n/)
        .find((l) => l.trim() !== "")
        ?.trim();
      const code = typeof e.code === "number" ? ` (exit ${e.code})` : "";
      resolve({ ok: false, reason: firstLine ? `nvidia-smi failed${code}: ${firstLine}` : `nvidia-smi failed${code}` });
    });
  });
}

/**
 * One CSV cell → its text, or null when nvidia-smi did not know it. nvidia-smi writes
 * unknowns in brackets ("[N/A]", "[Not Supported]", "[Unknown Error]", "[GPU is lost]"),
 * sometimes bare "N/A"; a short row or an empty cell is just as unknown.
 */
export function cellText(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const s = raw.trim();
  if (s === "" || /^\[.*\]$/.test(s) || /^n\/?a$/i.test(s)) return null;
  return s;
}

/** A numeric cell; tolerates units left in place (e.g. "69.85 W") in case nounits was ignored. */
export function cellNumber(raw: string | undefined): number | null {
  const s = cellText(raw);
  if (s === null) return null;
  const m = /^[-+]?\d+(\.\d+)?/.exec(s);
  if (!m) return null;
  const n = Number(m[0]);
  return Number.isFinite(n) ? n : null;
}

function cellPstate(raw: string | undefined): number | null {
  const s = cellText(raw);
  if (s === null) return null;
  const m = /^P(\d+)$/i.exec(s);
  return m ? Number(m[1]) : null;
}

function splitRow(line: string): string[] {
  return line.split(",").map((c) => c.trim());
}

/** Parses `--query-gpu=<GPU_QUERY_FIELDS> --format=csv,noheader,nounits` output. */
export function parseGpuCsv(stdout: string): GpuStats[] {
  const gpus: GpuStats[] = [];
  const n = GPU_QUERY_FIELDS.length;
  for (const line of stdout.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    let cells = splitRow(line);
    // A model name containing a comma would shift every later column; the name is the
    // only free-text field, so fold the surplus cells back into it.
    if (cells.length > n) {
      const extra = cells.length - n;
      cells = [cells[0], cells.slice(1, 2 + extra).join(", "), ...cells.slice(2 + extra)];
    }
    const index = cellNumber(cells[0]);
    if (index === null || !Number.isInteger(index)) continue; // not a data row
    gpus.push({
      index,
      name: cellText(cells[1]),
      driverVersion: cellText(cells[2]),
      memoryUsedMiB: cellNumber(cells[3]),
      memoryTotalMiB: cellNumber(cells[4]),
      utilizationPercent: cellNumber(cells[5]),
      fanPercent: cellNumber(cells[6]),
      temperatureC: cellNumber(cells[7]),
      performanceState: cellPstate(cells[8]),
      powerW: cellNumber(cells[9]),
    });
  }
  return gpus;
}

/** Parses `--query-gpu=index,uuid --format=csv,noheader,nounits` into uuid → index. */
export function parseUuidCsv(stdout: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of stdout.split(/\r?\n/)) {
    const cells = splitRow(line);
    const index = cellNumber(cells[0]);
    const uuid = cellText(cells[1]);
    if (index !== null && uuid) map.set(uuid, index);
  }
  return map;
}

/** Parses `--query-compute-apps=gpu_uuid,pid,process_name,used_memory --format=csv,noheader,nounits`. */
export function parseComputeAppsCsv(stdout: string, uuidToIndex: Map<string, number>): GpuProcess[] {
  const processes: GpuProcess[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    // "No running processes found" and similar notices are not rows.
    const first = line.indexOf(",");
    const second = first < 0 ? -1 : line.indexOf(",", first + 1);
    const last = line.lastIndexOf(",");
    if (first < 0 || second < 0 || last <= second) continue;
    const uuid = line.slice(0, first).trim();
    const pid = cellNumber(line.slice(first + 1, second));
    // Process names are paths and may contain commas: everything between pid and the
    // last column is the name.
    const name = line.slice(second + 1, last).trim();
    if (pid === null || !Number.isInteger(pid)) continue;
    processes.push({
      pid,
      name: cellText(name) ?? "",
      memoryMiB: cellNumber(line.slice(last + 1)),
      gpuIndex: uuidToIndex.get(uuid) ?? null,
      gpuUuid: uuid,
    });
  }
  return processes;
}

/** "CUDA Version: 12.4" in the plain header, "CUDA Version : 12.4" in `nvidia-smi -q`. */
export function parseCudaVersion(text: string): string | null {
  const m = /CUDA Version\s*:\s*([0-9]+(?:\.[0-9]+)*)/i.exec(text);
  return m ? m[1] : null;
}

/** Current state of every GPU, or why there is none to read. */
export async function readGpus(opts?: SmiOptions): Promise<GpuReading> {
  const res = await runNvidiaSmi([`--query-gpu=${GPU_QUERY_FIELDS.join(",")}`, "--format=csv,noheader,nounits"], opts);
  if (!res.ok) return res;
  const gpus = parseGpuCsv(res.stdout);
  if (gpus.length === 0) return { ok: false, reason: "nvidia-smi reported no GPUs" };
  return { ok: true, gpus };
}

/**
 * The CUDA version the driver supports, as nvidia-smi itself reports it: the plain
 * `nvidia-smi` header first, `nvidia-smi -q` when the header lacks it (older drivers).
 * null = unknown.
 */
export async function readCudaVersion(opts?: SmiOptions): Promise<string | null> {
  const header = await runNvidiaSmi([], opts);
  if (header.ok) {
    const v = parseCudaVersion(header.stdout);
    if (v) return v;
  }
  const query = await runNvidiaSmi(["-q"], opts);
  return query.ok ? parseCudaVersion(query.stdout) : null;
}

/** Processes using the GPUs, each tied to its GPU index. */
export async function readGpuProcesses(opts?: SmiOptions): Promise<ProcessReading> {
  const apps = await runNvidiaSmi(["--query-compute-apps=gpu_uuid,pid,process_name,used_memory", "--format=csv,noheader,nounits"], opts);
  if (!apps.ok) return apps;
  const uuids = await runNvidiaSmi(["--query-gpu=index,uuid", "--format=csv,noheader,nounits"], opts);
  // Without the uuid map the processes are still worth listing; their GPU is just unknown.
  const map = uuids.ok ? parseUuidCsv(uuids.stdout) : new Map<string, number>();
  return { ok: true, processes: parseComputeAppsCsv(apps.stdout, map) };
}
