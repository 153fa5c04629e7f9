import { useTranslation } from "react-i18next";
// The server management table (models/Server.ts): name (links to its detail page), online state,
// last login, total memory, GPU processes in cycling greens, and delete controls that belong to the
// surrounding <Form> (no JavaScript needed): they ask for the confirmation step.
export interface ServerTableRow {
  id: number;
  username: string;
  online: boolean;
  lastLogin: string | null;
  totalMemoryMiB: number | null;
  processes: { pid: number; name: string; memoryMiB: number | null; gpuIndex: number; colour: string }[];
  link: string;
}

const memory = (mib: number | null, unknown: string) => (mib === null ? unknown : mib >= 1024 ? `${(mib / 1024).toFixed(1)} GiB` : `${mib} MiB`);

/** `selected`: rows ticked when the page is drawn (the ones a deletion being confirmed names). */
export function ServerTable({ servers, selected = [] }: { servers: ServerTableRow[]; selected?: number[] }) {
  const { t } = useTranslation("admin");
  if (!servers.length) return <p data-testid="no-servers">{t("servers.none")}</p>;
  return (
    <div className="p-datatable p-component p-datatable-sm">
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a region that may scroll sideways must be reachable by keyboard (WCAG 2.1.1) */}
      <div className="p-datatable-wrapper" tabIndex={0} role="region" aria-label={t("servers.title")}>
        <table className="p-datatable-table" style={{ width: "100%", borderCollapse: "collapse" }} data-testid="server-table">
          <thead className="p-datatable-thead">
            <tr>
              <th style={{ width: "2.5rem" }}>
                <span className="sr-only">{t("servers.select")}</span>
              </th>
              <th>{t("servers.colName")}</th>
              <th>{t("servers.colState")}</th>
              <th>{t("servers.colLastLogin")}</th>
              <th>{t("servers.colMemory")}</th>
              <th>{t("servers.colProcesses")}</th>
              <th />
            </tr>
          </thead>
          <tbody className="p-datatable-tbody">
            {servers.map((s) => (
              <tr key={s.id} data-testid={`server-${s.username}`} data-online={s.online ? "true" : "false"}>
                <td>
                  <input
                    type="checkbox"
                    name="server_ids"
                    value={s.id}
                    defaultChecked={selected.includes(s.id)}
                    aria-label={t("servers.selectOne", { name: s.username })}
                  />
                </td>
                <td>
                  <a href={s.link}>{s.username}</a>
                </td>
                <td>
                  <span className={`p-tag ${s.online ? "p-tag-success" : "p-tag-secondary"}`} data-testid="online-state">
                    {s.online ? t("online") : t("offline")}
                  </span>
                </td>
                <td>{s.lastLogin ?? t("never")}</td>
                <td>{memory(s.totalMemoryMiB, t("unknown"))}</td>
                <td>
                  {s.processes.length ? (
                    <div style={{ display: "flex", flexWrap: "wrap", gap: ".3rem" }}>
                      {s.processes.map((p) => (
                        <span
                          key={`${p.gpuIndex}-${p.pid}`}
                          className="gpu-process"
                          data-colour={p.colour}
                          title={p.name}
                          style={{
                            background: p.colour,
                            color: "#fff",
                            borderRadius: "999px",
                            padding: ".15rem .6rem",
                            fontSize: ".8rem",
                            whiteSpace: "nowrap",
                          }}
                        >
                          GPU {p.gpuIndex >= 0 ? p.gpuIndex : "?"} · {p.pid} · {p.name.split("/").pop()} ·{" "}
                          {p.memoryMiB === null ? t("unknown") : `${p.memoryMiB} MiB`}
                        </span>
                      ))}
                    </div>
                  ) : (
                    <span className="muted">{t("servers.noProcesses")}</span>
                  )}
                </td>
                <td>
                  <button
                    type="submit"
                    name="only"
                    value={s.id}
                    className="p-button p-button-danger p-button-text p-button-sm"
                    aria-label={t("servers.deleteOne", { name: s.username })}
                  >
                    {t("servers.delete")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
