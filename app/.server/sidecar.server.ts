// The one way the web app reaches sidecars: gRPC clients built from proto/, with deadlines.
// Addresses come from SIDECARS (comma-separated host:port); self-registered sidecars are
// preferred when the server registry has online ones (see pickSidecar).
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

const PROTO_ROOT = path.resolve(process.cwd(), "proto");
const packages = new Map<string, any>();
const clients = new Map<string, grpc.Client>();

function metarankV1(file: string): any {
  let pkg = packages.get(file);
  if (!pkg) {
    const def = protoLoader.loadSync(file, { keepCase: false, longs: Number, enums: String, defaults: true, oneofs: true, includeDirs: [PROTO_ROOT] });
    pkg = (grpc.loadPackageDefinition(def) as any).metarank.v1;
    packages.set(file, pkg);
  }
  return pkg;
}

export function configuredSidecars(): string[] {
  const list = process.env.SIDECARS ?? `127.0.0.1:${process.env.SIDECAR_PORT ?? 50051}`;
  return list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Hook for the server registry: returns the address to use, least loaded first. */
let chooser: () => Promise<string | null> = async () => configuredSidecars()[0] ?? null;
export function setSidecarChooser(fn: () => Promise<string | null>) {
  chooser = fn;
}

export class SidecarUnavailableError extends Error {
  constructor(message = "No compute server is online right now. Please try again later.") {
    super(message);
  }
}

export async function pickSidecar(): Promise<string> {
  const address = await chooser();
  if (!address) throw new SidecarUnavailableError();
  return address;
}

function client(file: string, service: string, address: string): any {
  const key = `${file}|${service}|${address}`;
  let c = clients.get(key);
  if (!c) {
    const Ctor = metarankV1(file)[service];
    c = new Ctor(address, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": 64 * 1024 * 1024,
      "grpc.max_send_message_length": 64 * 1024 * 1024,
    });
    clients.set(key, c!);
  }
  return c;
}

/** A gRPC failure translated for people: the sidecar's message for INVALID_ARGUMENT, a generic one otherwise. */
export class SidecarCallError extends Error {
  constructor(
    message: string,
    readonly code: grpc.status,
    readonly details: string,
  ) {
    super(message);
  }
}

/**
 * Calls one unary RPC with a deadline. INVALID_ARGUMENT and FAILED_PRECONDITION keep the
 * sidecar's own message (it is written for people); anything else becomes "unavailable".
 */
export async function callSidecar<Res = any>(
  file: string,
  service: string,
  method: string,
  request: unknown,
  opts: { deadlineMs?: number; address?: string } = {},
): Promise<Res> {
  const address = opts.address ?? (await pickSidecar());
  const c = client(file, service, address);
  const deadline = new Date(Date.now() + (opts.deadlineMs ?? 10_000));
  return new Promise<Res>((resolve, reject) => {
    c[method](request, { deadline }, (err: grpc.ServiceError | null, res: Res) => {
      if (!err) return resolve(res);
      const human = err.code === grpc.status.INVALID_ARGUMENT || err.code === grpc.status.FAILED_PRECONDITION || err.code === grpc.status.NOT_FOUND;
      reject(new SidecarCallError(human ? err.details : "The compute server did not answer. Please try again later.", err.code, err.details));
    });
  });
}

/** Opens a server-stream RPC (telemetry); the caller cancels it. */
export async function streamSidecar(
  file: string,
  service: string,
  method: string,
  request: unknown,
  address?: string,
): Promise<grpc.ClientReadableStream<any>> {
  const c = client(file, service, address ?? (await pickSidecar()));
  return c[method](request);
}
