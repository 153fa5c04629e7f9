// `make serve` runs this first: a port another process holds stops the start with a message that
// names the port, what needed it and how to choose another, instead of an app serving without
// its compute server. Each argument is NAME=PORT[@HOST]; the web app binds every interface (no
// host), the sidecar SIDECAR_HOST (default 127.0.0.1).
//   node --import tsx scripts/checkPorts.ts PORT=3000 SIDECAR_PORT=50051@127.0.0.1
import net from "node:net";

const WHAT: Record<string, string> = { PORT: "the web app", SIDECAR_PORT: "the sidecar (gRPC)" };

/** Resolves null when the port can be bound, else the error code (EADDRINUSE, EACCES, …). */
export function bindProblem(port: number, host?: string): Promise<string | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

let failed = false;
for (const arg of process.argv.slice(2)) {
  const m = /^([A-Z_]+)=(\d+)(?:@(.+))?$/.exec(arg);
  if (!m) {
    console.error(`checkPorts: expected NAME=PORT[@HOST], got ${arg}`);
    process.exit(2);
  }
  const [, name, portText, host] = m;
  const port = Number(portText);
  const problem = await bindProblem(port, host);
  if (!problem) continue;
  failed = true;
  const where = host ? `${host}:${port}` : `port ${port}`;
  console.error(
    problem === "EADDRINUSE"
      ? `make start: ${where} (${WHAT[name] ?? name}, ${name}) is already in use by another process. Stop that process (e.g. a make start still running: ss -ltnp 'sport = :${port}' shows it) or choose another port: make start ${name}=<port>.`
      : `make start: ${where} (${WHAT[name] ?? name}, ${name}) cannot be used: ${problem}. Choose another port: make start ${name}=<port>.`,
  );
}
process.exit(failed ? 1 : 0);
