// The server management table (seed 000 §3 Server): name (links to its detail page), online
// state, last login, total memory, GPU processes in cycling greens, and delete controls that
// belong to the surrounding <Form> (no JavaScript needed).
export interface ServerTableRow {
  id: number;
  username: string;
  online: boolean;
  lastLogin: string | null;
  totalMemoryMiB: number | null;
  processes: { pid: number; name: string; memoryMiB: number | null; gpuIndex: number; colour: string }[];
  link: string;
}

const memory = (mib: number | null) => (mib === null ? "unknown" : mib >= 1024 ? `${(mib / 1024).toFixed(1)} GiB` : `${mib} MiB`);

export function ServerTable({ servers }: { servers: ServerTableRow[] }) {
  if (!servers.length) return <p data-testid="no-servers">No servers yet. Create one, then start a sidecar with its name and password.</p>;
  return (
    <div className="p-datatable p-component p-datatable-sm">
      <table className="p-datatable-table" style={{ width: "100%", borderCollapse: "collapse" }} data-testid="server-table">
        <thead className="p-datatable-thead">
          <tr>
            <th style={{ width: "2.5rem" }}>
              <span className="sr-only">Select</span>
            </th>
            <th>Name</th>
            <th>State</th>
            <th>Last login</th>
            <th>Total memory</th>
            <th>GPU processes</th>
            <th />
          </tr>
        </thead>
        <tbody className="p-datatable-tbody">
          {servers.map((s) => (
            <tr key={s.id} data-testid={`server-${s.username}`} data-online={s.online ? "true" : "false"}>
              <td>
                <input type="checkbox" name="server_ids" value={s.id} aria-label={`Select ${s.username}`} />
              </td>
              <td>
                <a href={s.link}>{s.username}</a>
              </td>
              <td>
                <span className={`p-tag ${s.online ? "p-tag-success" : "p-tag-secondary"}`} data-testid="online-state">
                  {s.online ? "online" : "offline"}
                </span>
              </td>
              <td>{s.lastLogin ?? "never"}</td>
              <td>{memory(s.totalMemoryMiB)}</td>
              <td>
                {s.processes.length ? (
                  <div style={{ display: "flex", flexWrap: "wrap", gap: ".3rem" }}>
                    {s.processes.map((p) => (
                      <span
                        key={`${p.gpuIndex}-${p.pid}`}
                        className="gpu-process"
                        data-colour={p.colour}
                        title={p.name}
                        style={{ background: p.colour, color: "#fff", borderRadius: "999px", padding: ".15rem .6rem", fontSize: ".8rem", whiteSpace: "nowrap" }}
                      >
                        GPU {p.gpuIndex >= 0 ? p.gpuIndex : "?"} · {p.pid} · {p.name.split("/").pop()} ·{" "}
                        {p.memoryMiB === null ? "unknown" : `${p.memoryMiB} MiB`}
                      </span>
                    ))}
                  </div>
                ) : (
                  <span className="muted">none</span>
                )}
              </td>
              <td>
                <button
                  type="submit"
                  name="only"
                  value={s.id}
                  className="p-button p-button-danger p-button-text p-button-sm"
                  aria-label={`Delete ${s.username}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
