// The Tree service's pure parts, without a sidecar: edits are checked against the tree (bounds,
// kinds, the last edit per node wins) and favour_class is the documented transposition; the tree
// layout never overlaps nodes of one level; the SVG escapes names and embeds one picture per
// internal node; the zip is the same bytes twice.
import { XMLValidator } from "fast-xml-parser";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { MAX_EDITS, TreeEditError, candidateId, checkEdits, favourClass, parseCandidateId, type EditableTree } from "../../sidecar/tree/edits.ts";
import { layoutTree, prototypesZip, treeSvg, type RenderGraph } from "../../sidecar/tree/render.ts";
import { distributionPng } from "../../sidecar/tree/renderImages.ts";

// A depth-2 tree: internal nodes 0..2, leaves 3..6.
const T: EditableTree = { numPrototypes: 3, numLeaves: 4, numClasses: 3, classNames: ["a", "b", "c"], trainSize: 100, latentShape: [4, 4] };

describe("edits", () => {
  it("candidate ids round-trip", () => {
    expect(candidateId({ sample: 12, row: 3, col: 0 })).toBe("train:12@3,0");
    expect(parseCandidateId("train:12@3,0")).toEqual({ sample: 12, row: 3, col: 0 });
    expect(parseCandidateId("test:12@3,0")).toBeNull();
    expect(parseCandidateId("train:12@3")).toBeNull();
  });

  it("keeps the last edit of a node and checks each against the tree", () => {
    const out = checkEdits(
      [
        { nodeId: "node-1", candidateId: "train:5@0,0", favourClass: -1 },
        { nodeId: "node-4", favourClass: 2 },
        { nodeId: "node-1", candidateId: "train:7@3,3", favourClass: -1 },
      ],
      T,
    );
    expect(out).toEqual([
      { node: 4, kind: "favour", cls: 2 },
      { node: 1, kind: "prototype", patch: { sample: 7, row: 3, col: 3 } },
    ]);
    const bad = (e: object, re: RegExp) => expect(() => checkEdits([e], T)).toThrow(re);
    bad({ nodeId: "node-7", favourClass: 0 }, /not a node of this tree/);
    bad({ nodeId: "x", favourClass: 0 }, /not a node/);
    bad({ nodeId: "node-1", candidateId: "train:100@0,0", favourClass: -1 }, /outside/);
    bad({ nodeId: "node-1", candidateId: "train:1@4,0", favourClass: -1 }, /outside/);
    bad({ nodeId: "node-1", favourClass: 1 }, /internal node/);
    bad({ nodeId: "node-1", candidateId: "nope", favourClass: -1 }, /not a candidate id/);
    bad({ nodeId: "node-3", candidateId: "train:1@0,0", favourClass: -1 }, /leaf/);
    bad({ nodeId: "node-3", favourClass: 3 }, /favour_class must be/);
    expect(() =>
      checkEdits(
        Array.from({ length: MAX_EDITS + 1 }, () => ({ nodeId: "node-3", favourClass: 0 })),
        T,
      ),
    ).toThrow(TreeEditError);
    expect(
      checkEdits(
        Array.from({ length: MAX_EDITS }, () => ({ nodeId: "node-3", favourClass: 0 })),
        T,
      ),
    ).toHaveLength(1);
  });

  it("favour_class swaps the top class's logit with the favoured one's, and breaks a tie by ln 2", () => {
    const row = Float32Array.from([2, 0.5, -1]);
    favourClass(row, 2);
    expect(Array.from(row)).toEqual([-1, 0.5, 2]);
    const flat = new Float32Array(3);
    favourClass(flat, 1);
    expect(flat[1]).toBeCloseTo(Math.LN2, 6);
    expect(flat[0]).toBe(0);
    const top = Float32Array.from([1, 3, 2]);
    favourClass(top, 1);
    expect(Array.from(top)).toEqual([1, 3, 2]);
  });
});

function png(v: number): Buffer {
  const p = new PNG({ width: 2, height: 2 });
  p.data.fill(v);
  return PNG.sync.write(p);
}

const graph: RenderGraph = {
  treeId: "platform:t",
  title: 'A <tree> & "quotes"',
  root: "node-0",
  classNames: ["a<b", "c", "d"],
  nodes: [
    { id: "node-0", name: "Node 0", kind: "internal", children: ["node-1", "node-2"], imagePng: png(10), distribution: [], depth: 0, edited: false },
    { id: "node-1", name: "Node 1", kind: "internal", children: ["node-3", "node-4"], imagePng: png(200), distribution: [], depth: 1, edited: true },
    { id: "node-2", name: "Leaf 2", kind: "leaf", children: [], distribution: [0.1, 0.2, 0.7], depth: 1, edited: false },
    { id: "node-3", name: "Leaf 3", kind: "leaf", children: [], distribution: [0.8, 0.1, 0.1], depth: 2, edited: false },
    { id: "node-4", name: "Leaf 4", kind: "leaf", children: [], distribution: [0.3, 0.4, 0.3], depth: 2, edited: false },
  ],
};

describe("rendering", () => {
  it("lays out leaves left to right and parents between their children", () => {
    const { placed } = layoutTree(graph);
    const x = (id: string) => placed.get(id)!.x;
    expect(x("node-3")).toBeLessThan(x("node-4"));
    expect(x("node-4")).toBeLessThan(x("node-2"));
    expect(x("node-1")).toBeCloseTo((x("node-3") + x("node-4")) / 2, 6);
    expect(x("node-0")).toBeCloseTo((x("node-1") + x("node-2")) / 2, 6);
    expect(placed.get("node-3")!.y).toBeGreaterThan(placed.get("node-1")!.y);
  });

  it("writes well-formed SVG with escaped names and one picture per internal node", () => {
    const svg = treeSvg(graph);
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain("A &lt;tree&gt; &amp; &quot;quotes&quot;");
    expect(svg).toContain(">a&lt;b<");
    expect(svg.match(/<image /g)).toHaveLength(2);
    expect(svg).toContain("#f97316");
  });

  it("zips one PNG per internal node, the same bytes twice", async () => {
    const [a, b] = [await prototypesZip(graph), await prototypesZip(graph)];
    expect(a.equals(b)).toBe(true);
    const text = a.toString("latin1");
    expect(text).toContain("prototypes/node-0.png");
    expect(text).toContain("prototypes/node-1.png");
    expect(text).not.toContain("prototypes/node-2.png");
  });

  it("draws a leaf's distribution as a PNG bar chart", () => {
    const img = PNG.sync.read(distributionPng([0.2, 0.8]));
    expect(img.width).toBeGreaterThanOrEqual(160);
    expect(img.height).toBe(64);
  });
});
