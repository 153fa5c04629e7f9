// The tree-edit view's layout (app/components/tree/layout.ts: depth spacing multiplier 10 or 20 by
// view, vertical spacing 105 per widest level, zoom 0.1–3), checked on trees small enough to place
// by hand.
import { describe, expect, it } from "vitest";
import { clampZoom, depthSpacing, layoutTree, type LayoutNodeIn } from "../../app/components/tree/layout.ts";

// Depth 2, complete: root n0 → n1, n2 → leaves l3..l6.
const complete: LayoutNodeIn[] = [
  { id: "n0", kind: "internal", children: ["n1", "n2"] },
  { id: "n1", kind: "internal", children: ["l3", "l4"] },
  { id: "n2", kind: "internal", children: ["l5", "l6"] },
  ...["l3", "l4", "l5", "l6"].map((id) => ({ id, kind: "leaf", children: [] })),
];

const at = (l: ReturnType<typeof layoutTree>, id: string) => l.nodes.find((n) => n.id === id)!;

describe("layoutTree", () => {
  it("full view: 10 × 10 px per depth, the widest level (4 leaves) 4 × 105 px high, parents midway", () => {
    const l = layoutTree(complete, "n0", "full");
    expect(l.widest).toBe(4);
    expect(l.height).toBe(420);
    expect(l.width).toBe(200);
    expect(["l3", "l4", "l5", "l6"].map((id) => at(l, id).y)).toEqual([52.5, 157.5, 262.5, 367.5]);
    expect(at(l, "l3").x).toBe(200);
    expect(at(l, "n1")).toMatchObject({ x: 100, y: 105, depth: 1 });
    expect(at(l, "n2").y).toBe(315);
    expect(at(l, "n0")).toMatchObject({ x: 0, y: 210, depth: 0 });
    expect(l.edges).toHaveLength(6);
  });

  it("prototypes view: leaves left out, 20 × 10 px per depth, the widest level has 2 nodes", () => {
    const l = layoutTree(complete, "n0", "prototypes");
    expect(l.nodes.map((n) => n.id).sort()).toEqual(["n0", "n1", "n2"]);
    expect(l.widest).toBe(2);
    expect(l.height).toBe(210);
    expect(at(l, "n1")).toMatchObject({ x: 200, y: 52.5 });
    expect(at(l, "n2")).toMatchObject({ x: 200, y: 157.5 });
    expect(at(l, "n0").y).toBe(105);
    expect(l.edges.map((e) => e.id).sort()).toEqual(["n0->n1", "n0->n2"]);
  });

  it("a pruned (unbalanced) tree: the shown outer nodes share the height in depth-first order", () => {
    const pruned: LayoutNodeIn[] = [
      { id: "n0", kind: "internal", children: ["l1", "n2"] },
      { id: "l1", kind: "leaf", children: [] },
      { id: "n2", kind: "internal", children: ["l3", "l4"] },
      { id: "l3", kind: "leaf", children: [] },
      { id: "l4", kind: "leaf", children: [] },
    ];
    const l = layoutTree(pruned, "n0", "full");
    expect(l.widest).toBe(2);
    expect(l.height).toBe(210);
    expect(["l1", "l3", "l4"].map((id) => at(l, id).y)).toEqual([35, 105, 175]);
    expect(at(l, "n2").y).toBe(140);
    expect(at(l, "n0").y).toBe(87.5);
  });

  it("survives bad input: unknown root, a leaf root in the prototypes view, a cycle", () => {
    expect(layoutTree(complete, "nope", "full").nodes).toEqual([]);
    expect(layoutTree([{ id: "l", kind: "leaf", children: [] }], "l", "prototypes").nodes).toEqual([]);
    const cyclic: LayoutNodeIn[] = [
      { id: "a", kind: "internal", children: ["b"] },
      { id: "b", kind: "internal", children: ["a"] },
    ];
    expect(layoutTree(cyclic, "a", "full").nodes.map((n) => n.id)).toEqual(["a", "b"]);
  });

  it("spacing and zoom limits of the tree view", () => {
    expect(depthSpacing("full")).toBe(100);
    expect(depthSpacing("prototypes")).toBe(200);
    expect(clampZoom(0.01)).toBe(0.1);
    expect(clampZoom(10)).toBe(3);
    expect(clampZoom(1.5)).toBe(1.5);
    expect(clampZoom(Number.NaN)).toBe(1);
  });
});
