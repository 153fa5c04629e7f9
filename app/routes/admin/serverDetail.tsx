// /server_detail/{server_id} — one compute server: name, last login, driver and CUDA versions
// ('unknown' when absent) and six charts of its first GPU from the sidecar's Telemetry.Snapshot
// history. With JavaScript the data reloads every 10 s while the page is open (and stops when it is
// left); without it, the charts are server-rendered and a refresh link reloads them.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import reactVisCss from "react-vis/dist/style.css?url";
import { requireAdmin } from "~/.server/session.server.ts";
import { fetchServerTelemetry, formatDateTime, getServer, isOnline } from "~/.server/servers.server.ts";
import { ServerCharts, hoursMinutes } from "~/components/ServerCharts.tsx";
import { Notice } from "~/components/FieldError.tsx";
import { usePeriodicRevalidation } from "~/lib/usePeriodicRevalidation.ts";
import { SERVER_MSG } from "~/lib/rules/servers.ts";
import { utcOffsetLabel } from "~/lib/timeZone.ts";
import { useTranslation } from "react-i18next";
import { matchesLanguage, resourceText } from "~/lib/pageTitle.ts";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: reactVisCss }];
export const handle = { i18n: "admin" };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: `${data?.server.username ?? "—"} — ${resourceText(matchesLanguage(matches), "admin:detail.title")} — Meta-Rank` },
];

/** The detail page polls every 10 s. */
export const REFRESH_MS = 10_000;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = Number(params.server_id);
  const server = Number.isInteger(id) && id > 0 ? await getServer(id) : null;
  if (!server) throw new Response(SERVER_MSG.noSuchServer, { status: 404, statusText: "Not Found" });
  const telemetry = await fetchServerTelemetry(server);
  const now = new Date();
  return {
    server: {
      id: server.id,
      username: server.username,
      lastLogin: formatDateTime(server.lastLogin),
      online: isOnline(server.lastLogin),
      grpcAddress: server.grpcAddress,
      executionProvider: server.executionProvider,
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
  const { t } = useTranslation("admin");
  // The clock, the last sample and the charts' time axes are the app server's local time.
  const zone = utcOffsetLabel(utcOffsetMinutes);
  return (
    <section className="card">
      <p>
        <Link to="/admin/manage_server">← {t("tabs.servers")}</Link>
      </p>
      <h1 data-testid="server-name">{server.username}</h1>
      <dl className="profile-grid" style={{ marginBottom: "1.25rem" }}>
        <dt>{t("servers.colState")}</dt>
        <dd data-testid="server-state">{server.online ? t("online") : t("offline")}</dd>
        <dt>{t("servers.colLastLogin")}</dt>
        <dd data-testid="server-last-login">{server.lastLogin ?? t("never")}</dd>
        <dt>{t("detail.driver")}</dt>
        <dd data-testid="driver-version">{driverVersion ?? t("unknown")}</dd>
        <dt>{t("detail.cuda")}</dt>
        <dd data-testid="cuda-version">{cudaVersion ?? t("unknown")}</dd>
        <dt>{t("detail.provider")}</dt>
        <dd data-testid="execution-provider">{server.executionProvider ?? t("unknown")}</dd>
        {telemetry.ok && telemetry.gpuName ? (
          <>
            <dt>{t("detail.firstGpu")}</dt>
            <dd data-testid="gpu-name">{telemetry.gpuName}</dd>
          </>
        ) : null}
      </dl>
      <p className="muted">
        {t("detail.updated")} <span data-testid="loaded-at">{clock(loadedAt)}</span>
        {telemetry.ok ? (
          <>
            {" "}
            · {t("detail.lastSample")} <span data-testid="sampled-at">{clock(telemetry.sampledAt)}</span>
          </>
        ) : null}{" "}
        <span data-testid="time-zone">{`(${zone})`}</span> · {t("detail.refreshes", { seconds: REFRESH_MS / 1000 })} ·{" "}
        <a href={`/server_detail/${server.id}`} data-testid="refresh-link">
          {t("detail.refreshNow")}
        </a>
      </p>
      {!telemetry.ok ? <Notice kind="warn">{telemetry.reason}</Notice> : null}
      {telemetry.ok && telemetry.noGpuReason ? <Notice kind="info">{t("detail.noGpu", { reason: telemetry.noGpuReason })}</Notice> : null}
      <p className="muted" data-testid="chart-time-zone">
        {t("detail.timeAxis", { zone })}
      </p>
      <ServerCharts points={telemetry.ok ? telemetry.samples : []} utcOffsetMinutes={utcOffsetMinutes} />
    </section>
  );
}
