// A user's pending changes to a ProtoTree (proto/metarank/v1/tree.proto TreeEdit): checked
// against the tree they name, then applied to a copy of its prototypes and leaf logits. Edits are
// stateless (the app sends the whole list with every call), so this module only validates and
// computes; nothing here is stored.
//
// Two kinds of edit:
//  - prototype replacement (internal node, candidate_id): the node's prototype becomes exactly the
//    latent patch the candidate names (z = add-on(backbone(x)) of that training image at that grid
//    cell), as ProtoTree's projection does for the patch nearest to the learnt prototype
//    (project.py); the node's picture becomes that patch's crop.
//  - favour_class (leaf, class c): the leaf's logits of its current top class and of c are swapped,
//    so c becomes the leaf's prediction with the probability the top class had, and the top class
//    takes c's old probability; every other class keeps its probability. This is the smallest change
//    of the distribution (a transposition) that makes the leaf predict c without inventing a
//    confidence the data never gave it (on a tie, see favourClass). Such a leaf is held fixed when AdjustTree re-fits the others
//    (sidecar/tree/predict.ts adjustTree): the user's decision, not the data, sets it.
// When one node has several edits, the last one wins (the app appends; a later pick replaces an
// earlier one).

/** At most this many edits per call (the contract's bound; a depth-10 tree has 2047 nodes). */
export const MAX_EDITS = 256;

/** The request names a node, candidate or class the tree does not have. Named like the pool's input errors so the worker's answer maps to INVALID_ARGUMENT. */
export class TreeEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InferenceInputError";
  }
}

export interface EditInput {
  nodeId?: string | null;
  candidateId?: string | null;
  favourClass?: number | null;
}

/** A training patch: image `sample` of the train split, latent grid cell (row, col). */
export interface PatchRef {
  sample: number;
  row: number;
  col: number;
}

export type CheckedEdit = { node: number; kind: "prototype"; patch: PatchRef } | { node: number; kind: "favour"; cls: number };

/** The facts of a tree that edits are checked against. */
export interface EditableTree {
  numPrototypes: number;
  numLeaves: number;
  numClasses: number;
  classNames: string[];
  /** Size of the dataset's train split (candidate images). */
  trainSize: number;
  latentShape: [number, number];
}

/** Candidate ids are `train:<index>@<row>,<col>`: a training image and a latent grid cell. */
export function candidateId(p: PatchRef): string {
  return `train:${p.sample}@${p.row},${p.col}`;
}

export function parseCandidateId(id: string): PatchRef | null {
  const m = /^train:(\d{1,9})@(\d{1,4}),(\d{1,4})$/.exec(id);
  return m ? { sample: Number(m[1]), row: Number(m[2]), col: Number(m[3]) } : null;
}

/** Node ids on the wire are `node-<heap index>` (sidecar/tree/protoTree.ts nodeId). */
export function parseNode(id: string, t: EditableTree): number {
  const m = /^node-(\d{1,5})$/.exec(id);
  const h = m ? Number(m[1]) : -1;
  if (!(h >= 0 && h < t.numPrototypes + t.numLeaves))
    throw new TreeEditError(`node "${id.slice(0, 40)}" is not a node of this tree (node-0 … node-${t.numPrototypes + t.numLeaves - 1})`);
  return h;
}

/** Checks every edit and returns them in order with the last edit per node kept; throws TreeEditError naming the first bad one. */
export function checkEdits(edits: EditInput[] | null | undefined, t: EditableTree): CheckedEdit[] {
  const list = edits ?? [];
  if (list.length > MAX_EDITS) throw new TreeEditError(`${list.length} edits were sent; at most ${MAX_EDITS} are accepted`);
  const byNode = new Map<number, CheckedEdit>();
  list.forEach((e, i) => {
    const at = `edit ${i + 1}`;
    const node = parseNode(String(e.nodeId ?? ""), t);
    const cand = String(e.candidateId ?? "");
    const fav = e.favourClass === null || e.favourClass === undefined ? -1 : Number(e.favourClass);
    const internal = node < t.numPrototypes;
    if (internal) {
      if (fav !== -1) throw new TreeEditError(`${at}: node-${node} is an internal node; favour_class applies to leaves only (send -1)`);
      const patch = parseCandidateId(cand);
      if (!patch) throw new TreeEditError(`${at}: candidate_id "${cand.slice(0, 40)}" is not a candidate id (train:<image>@<row>,<col>, from Candidates)`);
      const [h, w] = t.latentShape;
      if (patch.sample >= t.trainSize || patch.row >= h || patch.col >= w)
        throw new TreeEditError(`${at}: candidate ${cand} is outside this tree's training images (0…${t.trainSize - 1}) or latent grid (${h}×${w})`);
      byNode.delete(node);
      byNode.set(node, { node, kind: "prototype", patch });
    } else {
      if (cand) throw new TreeEditError(`${at}: node-${node} is a leaf; a leaf has no prototype to replace (send favour_class instead)`);
      if (!Number.isInteger(fav) || fav < 0 || fav >= t.numClasses)
        throw new TreeEditError(`${at}: favour_class must be a class of this tree from 0 to ${t.numClasses - 1}; got ${e.favourClass}`);
      byNode.delete(node);
      byNode.set(node, { node, kind: "favour", cls: fav });
    }
  });
  return [...byNode.values()];
}

/** favour_class on one leaf's logits row, in place: swap the top class's logit with the favoured class's (see the header). */
export function favourClass(row: Float32Array, cls: number): void {
  let top = 0;
  for (let j = 1; j < row.length; j++) if (row[j] > row[top]) top = j;
  if (top !== cls) {
    const v = row[top];
    row[top] = row[cls];
    row[cls] = v;
  }
  // A tie (e.g. an untouched leaf of all-equal logits) would leave the first class on top: then
  // the favoured class is raised to twice the probability of the next (logit + ln 2).
  let other = -Infinity;
  for (let j = 0; j < row.length; j++) if (j !== cls) other = Math.max(other, row[j]);
  if (row[cls] <= other) row[cls] = other + Math.LN2;
}
