// The tree pages' tree-edit view (docs/tree-service.md "Edits"): show the full tree / only the
// prototype nodes (default), back to the main view, confirm changes; the rank-ordered candidate
// pickers of a node (Tree.Candidates, most similar first); the pending edits with undo; "adjust
// whole tree" and "save as model". With JavaScript the tree is react-flow (./TreeFlow.tsx); the
// list of prototype nodes below it is the form path that works without (pick node → pick candidate
// → confirm changes).
import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import { Button } from "primereact/button";
import { useTranslation } from "react-i18next";
import type { CandidateView, TreeGraphView } from "~/.server/trees.server.ts";
import { FieldError } from "~/components/FieldError.tsx";
import { useHydrated } from "~/lib/useHydrated.ts";
import { useNodeName } from "./nodeName.ts";
import { TreeFlow } from "./TreeFlow.tsx";
import { treeHref, type TreeParams } from "./urls.ts";

export interface PendingEdit {
  nodeId: string;
  candidateId: string;
  favourClass: number;
}

/** The edit view's two ways of showing the tree: the view, its URL parameter ("" is the default) and its words. */
const VIEWS = [
  ["full", "full", "trees:showFull"],
  ["prototypes", "", "trees:showPrototypes"],
] as const;

export function TreeEditView({
  route,
  keep,
  graph,
  view,
  node,
  candidates,
  edits,
  errors,
  jobRunning,
}: {
  route: string;
  keep: TreeParams;
  graph: TreeGraphView;
  view: "full" | "prototypes";
  node: string;
  candidates: CandidateView[];
  edits: PendingEdit[];
  errors?: { node?: string; candidate?: string; form?: string };
  jobRunning: boolean;
}) {
  const { t } = useTranslation("trees");
  const nodeName = useNodeName();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const nav = useNavigation();
  const busy = nav.state !== "idle";
  const here: TreeParams = { ...keep, edit: "1", view: view === "full" ? "full" : "" };
  const internal = graph.nodes.filter((n) => n.kind === "internal");
  const picked = graph.nodes.find((n) => n.id === node);
  return (
    <div className="card tree-dialog" role="region" aria-labelledby="tree-edit-title" id="tree-edit" data-testid="tree-edit">
      <h2 id="tree-edit-title" style={{ marginTop: 0 }}>
        {t("editTitle")}
      </h2>
      <div className="ds-toolbar" style={{ gap: ".5rem", flexWrap: "wrap" }}>
        {VIEWS.map(([shown, param, label]) => (
          <Link
            key={shown}
            className={`p-button p-button-sm${view === shown ? "" : " p-button-outlined"}`}
            to={treeHref(route, { ...here, view: param, node }, "tree-edit")}
            aria-current={view === shown ? "true" : undefined}
          >
            {t(label)}
          </Link>
        ))}
        <Link className="p-button p-button-sm p-button-secondary" to={treeHref(route, keep, "results")} data-testid="back-to-main">
          {t("backToMain")}
        </Link>
      </div>
      {hydrated ? (
        <TreeFlow
          graph={graph}
          view={view}
          selected={node}
          onPick={(id) => navigate(treeHref(route, { ...here, node: id }, "candidates"), { preventScrollReset: true })}
        />
      ) : null}
      <h3>{t("prototypeNodes")}</h3>
      <ul className="tree-node-list" data-testid="node-list">
        {internal.map((n) => (
          <li key={n.id} className={`ds-tile${n.id === node ? " picked" : ""}`} data-node={n.id} data-edited={n.edited ? "1" : undefined}>
            <Link to={treeHref(route, { ...here, node: n.id }, "candidates")} aria-label={t("pickNode", { node: nodeName(n.name) })}>
              {n.image ? <img src={n.image} alt={t("prototypeAlt", { node: nodeName(n.name) })} /> : <span>{nodeName(n.name)}</span>}
            </Link>
            <span className="ds-caption">
              {nodeName(n.name)}
              {n.edited ? ` · ${t("edited")}` : ""}
            </span>
          </li>
        ))}
      </ul>
      {view === "full" ? (
        <p className="muted" data-testid="leaf-summary">
          {t("leafSummary", { count: graph.nodes.length - internal.length })}
        </p>
      ) : null}
      <FieldError id="node-error" message={errors?.node} />
      {picked ? (
        <CandidatePicker picked={picked} keep={keep} candidates={candidates} error={errors?.candidate} busy={busy} />
      ) : (
        <p className="muted">{t("pickNodeHint")}</p>
      )}
      <PendingEdits keep={keep} graph={graph} edits={edits} />
      <FieldError id="form-error" message={errors?.form} />
      <div className="ds-toolbar" style={{ gap: ".5rem", flexWrap: "wrap" }}>
        <Form method="post">
          <input type="hidden" name="intent" value="adjust" />
          <KeptFields keep={keep} />
          <Button type="submit" label={t("adjustTree")} icon="pi pi-sync" disabled={!edits.length || jobRunning || busy} />
        </Form>
        <Link className="p-button p-button-outlined" to={treeHref(route, { ...keep, save: "1" }, "save")} data-testid="open-save">
          {t("saveAs")}
        </Link>
        {edits.length ? (
          <Form method="post">
            <input type="hidden" name="intent" value="clearEdits" />
            <KeptFields keep={keep} />
            <Button type="submit" label={t("clearEdits")} severity="secondary" outlined />
          </Form>
        ) : null}
      </div>
    </div>
  );
}

/** The model and picture every edit form carries, so the action answers on the same tree and path. */
function KeptFields({ keep }: { keep: TreeParams }) {
  return (
    <>
      <input type="hidden" name="model" value={keep.model ?? ""} />
      <input type="hidden" name="sample" value={keep.sample ?? ""} />
    </>
  );
}

/** The picked node's candidates, most similar first, and the form that confirms one (the path without JavaScript). */
function CandidatePicker({
  picked,
  keep,
  candidates,
  error,
  busy,
}: {
  picked: TreeGraphView["nodes"][number];
  keep: TreeParams;
  candidates: CandidateView[];
  error?: string;
  busy: boolean;
}) {
  const { t } = useTranslation("trees");
  const nodeName = useNodeName();
  return (
    <Form method="post" id="candidates" aria-label={t("candidatesFor", { node: nodeName(picked.name) })} data-testid="candidates">
      <h3>{t("candidatesFor", { node: nodeName(picked.name) })}</h3>
      <input type="hidden" name="intent" value="replace" />
      <KeptFields keep={keep} />
      <input type="hidden" name="node" value={picked.id} />
      {candidates.length ? (
        <ol className="tree-candidates">
          {candidates.map((c, i) => (
            <li key={c.candidateId}>
              <label>
                <input type="radio" name="candidate" value={c.candidateId} defaultChecked={i === 0} />
                {c.src ? <img src={c.src} alt={t("candidateAlt", { rank: i + 1, label: c.labelName })} /> : null}
                <span>{t("candidateRank", { rank: i + 1, similarity: c.similarity.toFixed(3), label: c.labelName })}</span>
              </label>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">{t("noCandidates")}</p>
      )}
      <FieldError id="candidate-error" message={error} />
      <Button type="submit" label={t("confirmChanges")} icon="pi pi-check" disabled={!candidates.length || busy} />
    </Form>
  );
}

/** The pending edits, each with its undo form, or the line saying there are none. */
function PendingEdits({ keep, graph, edits }: { keep: TreeParams; graph: TreeGraphView; edits: PendingEdit[] }) {
  const { t } = useTranslation("trees");
  const nodeName = useNodeName();
  const nameOf = (id: string) => nodeName(graph.nodes.find((n) => n.id === id)?.name ?? id);
  return (
    <>
      <h3>{t("pendingEdits")}</h3>
      {edits.length ? (
        <ul data-testid="pending-edits">
          {edits.map((e) => (
            <li key={e.nodeId}>
              <Form method="post" style={{ display: "inline" }}>
                <input type="hidden" name="intent" value="removeEdit" />
                <KeptFields keep={keep} />
                <input type="hidden" name="node" value={e.nodeId} />
                {e.favourClass >= 0
                  ? t("editFavour", { node: nameOf(e.nodeId), class: graph.classNames[e.favourClass] ?? e.favourClass })
                  : t("editReplace", { node: nameOf(e.nodeId), candidate: e.candidateId })}{" "}
                <Button type="submit" label={t("undo")} link size="small" />
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted" data-testid="no-edits">
          {t("noPending")}
        </p>
      )}
    </>
  );
}
