// POST /api/sidecars/heartbeat — a sidecar registering itself and reporting its load
// (sidecar/registry/heartbeat.ts sends it every 15 s). Answers 200 {ok:true} or 401.
import type { ActionFunctionArgs } from "@remix-run/node";
import { recordHeartbeat } from "~/.server/servers.server.ts";

// Sidecars talk JSON, not HTML: plain Responses so no page or redirect ever answers them.
const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ ok: false, error: "POST a heartbeat" }, 405);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return json({ ok: false, error: "the body must be JSON" }, 400);
  }
  const outcome = await recordHeartbeat(body, String(context?.ip ?? "unknown"));
  if (outcome === "invalid") return json({ ok: false, error: "not a heartbeat: name, password and grpcAddress (host:port) are required" }, 400);
  if (outcome === "throttled") return json({ ok: false, error: "too many wrong passwords from this address; try again in a few minutes" }, 429);
  if (outcome === "refused") return json({ ok: false, error: "invalid credentials" }, 401);
  return json({ ok: true });
}

export function loader() {
  return json({ ok: false, error: "POST a heartbeat" }, 405);
}
