// /server_detail/{server_id} — one compute server (seed 000 §2 screen 8): name, last login,
// driver and CUDA versions ('unknown' when absent) and six charts of its first GPU from the
// sidecar's Telemetry.Snapshot history. With JavaScript the data reloads every 10 s while
// the page is open (and stops when it is left); without it, the charts are server-rendered
// and a refresh link reloads them.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import reactVisCss from "react-vis/dist/style.css?url";
import { requireAdmin } from "~/.server/session.server.ts";
import { fetchServerTelemetry, formatDateTime, getServer, isOnline } from "~/.server/servers.server.ts";
import { ServerCharts, hoursMinutes } from "~/components/ServerCharts.tsx";
import { Notice } from "~/components/FieldError.tsx";
import { usePeriodicRevalidation } from "~/lib/usePeriodicRevalidation.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: reactVisCss }];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.server.username ?? "Server"} — Server Detail — Meta-Rank` }];

/** Seed §9: the detail page polls every 10 s. */
export const REFRESH_MS = 10_000;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = Number(params.server_id);
  const server = Number.isInteger(id) && id > 0 ? await getServer(id) : null;
  if (!server) throw new Response("There is no such server.", { status: 404, statusText: "Not Found" });
  const telemetry = await fetchServerTelemetry(server);
  const now = new Date();
  return {
    server: {
      id: server.id,
      username: server.username,
      lastLogin: formatDateTime(server.lastLogin),
      online: isOnline(server.lastLogin),
      grpcAddress: server.grpcAddress,
    },
    // The sidecar's snapshot is current; the last heartbeat's values stand in while it is away.
    driverVersion: (telemetry.ok && telemetry.driverVersion) || server.driverVersion || null,
    cudaVersion: (telemetry.ok && telemetry.cudaVersion) || server.cudaVersion || null,
    telemetry,
    utcOffsetMinutes: -now.getTimezoneOffset(),
    loadedAt: now.getTime(),
  };
}

export default function ServerDetail() {
  const { server, driverVersion, cudaVersion, telemetry, utcOffsetMinutes, loadedAt } = useLoaderData<typeof loader>();
  usePeriodicRevalidation(REFRESH_MS);
  const clock = (t: number) => {
    const d = new Date(t + utcOffsetMinutes * 60_000);
    return `${hoursMinutes(t, utcOffsetMinutes)}:${String(d.getUTCSeconds()).padStart(2, "0")}`;
  };
  return (
    <section className="card">
      <p>
        <Link to="/admin/manage_server">← Server management</Link>
      </p>
      <h1 data-testid="server-name">{server.username}</h1>
      <dl className="profile-grid" style={{ marginBottom: "1.25rem" }}>
        <dt>State</dt>
        <dd data-testid="server-state">{server.online ? "online" : "offline"}</dd>
        <dt>Last login</dt>
        <dd data-testid="server-last-login">{server.lastLogin ?? "never"}</dd>
        <dt>Driver version</dt>
        <dd data-testid="driver-version">{driverVersion ?? "unknown"}</dd>
        <dt>CUDA version</dt>
        <dd data-testid="cuda-version">{cudaVersion ?? "unknown"}</dd>
        {telemetry.ok && telemetry.gpuName ? (
          <>
            <dt>First GPU</dt>
            <dd data-testid="gpu-name">{telemetry.gpuName}</dd>
          </>
        ) : null}
      </dl>
      <p className="muted">
        Updated <span data-testid="loaded-at">{clock(loadedAt)}</span>
        {telemetry.ok ? (
          <>
            {" "}
            · last sample <span data-testid="sampled-at">{clock(telemetry.sampledAt)}</span>
          </>
        ) : null}{" "}
        · refreshes every {REFRESH_MS / 1000} s ·{" "}
        <a href={`/server_detail/${server.id}`} data-testid="refresh-link">
          Refresh now
        </a>
      </p>
      {!telemetry.ok ? <Notice kind="warn">{telemetry.reason}</Notice> : null}
      {telemetry.ok && telemetry.noGpuReason ? <Notice kind="info">No GPU on this server: {telemetry.noGpuReason}</Notice> : null}
      <ServerCharts points={telemetry.ok ? telemetry.samples : []} utcOffsetMinutes={utcOffsetMinutes} />
    </section>
  );
}
