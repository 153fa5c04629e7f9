// A real sidecar process for the gRPC tests (tsx sidecar/main.ts on a free loopback port, with
// the test call key) and a client of one of its services that presents that key. Every test that
// talks to the sidecar directly starts it here, so the start-up, the wait and the stop are one.
import { spawn } from "node:child_process";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { TEST_CALL_KEY, presentKey } from "./callKey.ts";
import { ROOT, freePort } from "./stack.ts";

/** A generated service client constructor (e.g. `metarankV1("metarank/v1/vqa.proto").QuestionAnswering`). */
type ServiceCtor = new (address: string, credentials: grpc.ChannelCredentials, options?: grpc.ClientOptions) => grpc.Client;

export interface TestSidecar<C extends grpc.Client> {
  client: C;
  /** host:port, for a second client (e.g. the health service). */
  address: string;
  /** Everything the process wrote so far, for failure messages. */
  output(): string;
  /** Closes the client and stops the process group; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts the sidecar and waits until `Service` answers. The defaults keep tests quick and alone:
 * one worker on the wasm backend, warnings only, and no APP_URL so it sends no heartbeats.
 * `env` adds or overrides variables; `client` adds client options (message sizes).
 */
export async function startTestSidecar<C extends grpc.Client = grpc.Client>(
  Service: ServiceCtor,
  opts: { env?: Record<string, string>; client?: grpc.ClientOptions; readyMs?: number } = {},
): Promise<TestSidecar<C>> {
  const port = await freePort();
  let output = "";
  const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["sidecar/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      SIDECAR_PORT: String(port),
      SIDECAR_HOST: "127.0.0.1",
      SIDECAR_CALL_KEY: TEST_CALL_KEY,
      LOG_LEVEL: "warn",
      SIDECAR_WORKERS: "1",
      TENSOR_BACKEND: "wasm",
      APP_URL: "",
      ...opts.env,
    },
    // Its own process group, so the tsx wrapper and its node child stop together.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const address = `127.0.0.1:${port}`;
  // The caller names the client's method types; the constructor only promises a grpc.Client.
  const client = new Service(address, grpc.credentials.createInsecure(), {
    ...opts.client,
    interceptors: [presentKey(), ...(opts.client?.interceptors ?? [])],
  }) as C;
  const stop = async () => {
    client.close();
    if (child.pid && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid, "SIGTERM");
      await exited;
    }
  };
  try {
    await new Promise<void>((resolve, reject) =>
      client.waitForReady(new Date(Date.now() + (opts.readyMs ?? 90_000)), (err?: Error) =>
        err ? reject(new Error(`sidecar did not start: ${err.message}\n${output}`)) : resolve(),
      ),
    );
  } catch (err) {
    // A sidecar that never answered must not outlive the test file.
    await stop();
    throw err;
  }
  return { client, address, output: () => output, stop };
}
