// The interactive tree of the tree-edit view (nodes with name, src and children; depth spacing 10
// or 20 by view, vertical spacing 105 per widest level, zoom 0.1 to 3) drawn with
// react-flow-renderer 10. Loaded in the browser only, after hydration, like the glTF viewer
// (app/components/DamViewer.tsx): react-flow measures the DOM. Clicking an internal node opens its
// candidate picker, the same address the server-rendered list links to, so the editor and the form
// path are one flow. The positions come from ./layout.ts.
import { useEffect, useMemo, useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import type { TreeGraphView } from "~/.server/trees.server.ts";
import { TREE_VIEW } from "~/lib/rules/trees.ts";
import { layoutTree, type TreeView } from "./layout.ts";
import { useNodeName } from "./nodeName.ts";

type FlowModule = typeof import("react-flow-renderer");

export function TreeFlow({ graph, view, selected, onPick }: { graph: TreeGraphView; view: TreeView; selected: string; onPick: (nodeId: string) => void }) {
  const { t } = useTranslation("trees");
  const nodeName = useNodeName();
  const [flow, setFlow] = useState<FlowModule | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import("react-flow-renderer").then(
      (m) => live && setFlow(m),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  const laid = useMemo(() => layoutTree(graph.nodes, graph.root, view), [graph, view]);
  const byId = useMemo(() => new Map(graph.nodes.map((n) => [n.id, n])), [graph]);
  if (failed) return <p className="muted">{t("editorUnavailable")}</p>;
  if (!flow) return <p className="muted">{t("editorLoading")}</p>;
  const ReactFlow = flow.default as unknown as ComponentType<Record<string, unknown>>;
  const { Controls, Background } = flow;
  const nodes = laid.nodes.map((p) => {
    const n = byId.get(p.id)!;
    const leaf = n.kind === "leaf";
    return {
      id: p.id,
      position: { x: p.x, y: p.y },
      sourcePosition: "right",
      targetPosition: "left",
      selectable: !leaf,
      data: {
        label: (
          <div className="tree-flow-node" data-node={n.id}>
            {n.image ? <img src={n.image} alt="" width={48} height={48} /> : null}
            <div>{leaf && n.top ? `${nodeName(n.name)}: ${n.top}` : nodeName(n.name)}</div>
          </div>
        ),
      },
      style: {
        width: 72,
        padding: 4,
        fontSize: 10,
        border: `2px solid ${p.id === selected ? "#dc2626" : n.edited ? "#6366f1" : "#9ca3af"}`,
        background: leaf ? "#f9fafb" : "#fff",
        cursor: leaf ? "default" : "pointer",
      },
    };
  });
  return (
    <div style={{ height: 520, border: "1px solid var(--mr-border)", borderRadius: 8 }} data-testid="tree-flow">
      <ReactFlow
        nodes={nodes}
        edges={laid.edges}
        minZoom={TREE_VIEW.minZoom}
        maxZoom={TREE_VIEW.maxZoom}
        fitView
        nodesDraggable={false}
        nodesConnectable={false}
        onNodeClick={(_: unknown, node: { id: string }) => {
          if (byId.get(node.id)?.kind === "internal") onPick(node.id);
        }}
      >
        <Controls showInteractive={false} />
        <Background gap={16} />
      </ReactFlow>
    </div>
  );
}
