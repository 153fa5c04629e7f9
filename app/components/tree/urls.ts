// Addresses of the tree pages' states (app/.server/treePage.server.ts reads the same names):
// every step is a link or a form POST, so the pages work without JavaScript.
export type TreeParams = Partial<Record<"model" | "seed" | "sample" | "run" | "edit" | "view" | "node" | "modify" | "save" | "job" | "poll", string>>;

export function treeHref(route: string, params: TreeParams, hash = ""): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) p.set(k, v);
  const q = p.toString();
  return `${route}${q ? `?${q}` : ""}${hash ? `#${hash}` : ""}`;
}

/** A tree's download: /trees/<id>/svg|pdf|zip (app/routes/trees/download.ts). */
export const treeFile = (treeId: string, format: "svg" | "pdf" | "zip", full: boolean, download = false) =>
  `/trees/${encodeURIComponent(treeId)}/${format}${full || download ? "?" : ""}${[full ? "full=1" : "", download ? "download=1" : ""].filter(Boolean).join("&")}`;

export const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
