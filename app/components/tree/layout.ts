// The tree-edit view's layout (depth spacing multiplier 10 or 20 by view, vertical spacing 105 per
// widest level, zoom 0.1 to 3). Pure maths, no React, so it is unit-tested
// (tests/unit/treeLayout.test.ts) and used by both the react-flow editor and the server-rendered
// list. Written here rather than taken from a layout library (dagre, elkjs): the spacing rule is
// fixed (above), and a binary tree needs only this tidy pass.
import { TREE_VIEW } from "../../lib/rules/trees.ts";

export type TreeView = "full" | "prototypes";

export interface LayoutNodeIn {
  id: string;
  kind: string;
  children: string[];
}

export interface Placed {
  id: string;
  x: number;
  y: number;
  depth: number;
}

export interface TreeLayout {
  nodes: Placed[];
  edges: Array<{ id: string; source: string; target: string }>;
  width: number;
  height: number;
  widest: number;
}

/** Horizontal distance between two depths: the view's multiplier × 10 px (100 or 200 px). */
export const depthSpacing = (view: TreeView) => TREE_VIEW.depthMultiplier[view] * 10;

export const clampZoom = (z: number) => (Number.isFinite(z) ? Math.min(TREE_VIEW.maxZoom, Math.max(TREE_VIEW.minZoom, z)) : 1);

/**
 * Lays the tree out left to right: x = depth × depthSpacing(view); the view's outermost nodes
 * (leaves in the full view, the last prototype nodes in the prototypes view) share the height
 * 105 × (nodes on the widest level) evenly in depth-first order, and every other node sits
 * midway between its first and last shown child. The prototypes view leaves out leaves.
 */
export function layoutTree(nodes: LayoutNodeIn[], root: string, view: TreeView): TreeLayout {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const shown = (id: string) => {
    const n = byId.get(id);
    return Boolean(n) && (view === "full" || n!.kind !== "leaf");
  };
  if (!shown(root)) return { nodes: [], edges: [], width: 0, height: 0, widest: 0 };
  // Depth-first order, depths, and the outermost shown nodes; `seen` guards against a cycle in bad input.
  const depth = new Map<string, number>();
  const kids = new Map<string, string[]>();
  const outer: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string, d: number) => {
    if (seen.has(id)) return;
    seen.add(id);
    depth.set(id, d);
    const children = byId.get(id)!.children.filter((c) => shown(c) && !seen.has(c));
    kids.set(id, children);
    if (!children.length) outer.push(id);
    for (const c of children) visit(c, d + 1);
  };
  visit(root, 0);
  const perLevel = new Map<number, number>();
  for (const d of depth.values()) perLevel.set(d, (perLevel.get(d) ?? 0) + 1);
  const widest = Math.max(...perLevel.values());
  const height = TREE_VIEW.verticalSpacing * widest;
  const step = height / outer.length;
  const y = new Map<string, number>();
  outer.forEach((id, i) => y.set(id, (i + 0.5) * step));
  const place = (id: string): number => {
    const known = y.get(id);
    if (known !== undefined) return known;
    const c = kids.get(id)!;
    const ys = c.map(place);
    const v = (ys[0] + ys[ys.length - 1]) / 2;
    y.set(id, v);
    return v;
  };
  place(root);
  const dx = depthSpacing(view);
  const placed: Placed[] = [...depth.entries()].map(([id, d]) => ({ id, depth: d, x: d * dx, y: y.get(id)! }));
  const edges = [...kids.entries()].flatMap(([source, cs]) => cs.map((target) => ({ id: `${source}->${target}`, source, target })));
  const maxDepth = Math.max(...depth.values());
  return { nodes: placed, edges, width: maxDepth * dx, height, widest };
}
