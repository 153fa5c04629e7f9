// Runs a command without blocking the test's event loop, for commands that take more than a moment
// while the test's own stack is running.
//
// Why not spawnSync: the stack's web app and sidecar write their logs into pipes this process reads
// (tests/support/stack.ts), and the test's HTTP client keeps idle connections open. A synchronous
// child that runs for minutes leaves both unserved: a full pipe stalls the servers' writes, and a
// connection the server closed meanwhile is only noticed when the next request goes out on it
// (fetch failed, "other side closed", in the fresh-clone CI run of 3fd04ed after the kit example).
import { spawn } from "node:child_process";

export interface CommandResult {
  /** The exit code, or null when the command was killed (timeout). */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runCommand(file: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"], timeout: opts.timeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** runCommand for a command that must succeed: its stdout, or an error holding what it printed. */
export async function runOk(file: string, args: string[], opts: Parameters<typeof runCommand>[2] = {}): Promise<string> {
  const r = await runCommand(file, args, opts);
  if (r.status !== 0) throw new Error(`${file} ${args.join(" ").slice(0, 200)} exited ${r.status ?? r.signal}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}
