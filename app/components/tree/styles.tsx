// The tree pages' few layout rules, shipped as a <style> element like the dataset screens'
// (app/components/datasets/styles.tsx): pool thumbnails 6 a row (as on every demo page), 3 on
// phones. A pool caption is a class name, not a file name: it breaks between words where it can
// (the datasets' break-all cut "Pullover" into "Pullov|er" in the six narrow columns).
import { InlineStyle } from "~/components/InlineStyle.tsx";

export const TREE_CSS = `
.tree-layout { display: grid; grid-template-columns: minmax(260px, 1fr) 2fr; gap: 1rem; align-items: start; }
@media (max-width: 900px) { .tree-layout { grid-template-columns: 1fr; } }
.tree-main { display: flex; flex-direction: column; gap: 1rem; min-width: 0; }
.tree-pool, .tree-node-list { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: repeat(6, minmax(0, 1fr)); gap: .4rem; }
@media (max-width: 600px) { .tree-pool, .tree-node-list { grid-template-columns: repeat(3, minmax(0, 1fr)); } }
.tree-pool .ds-tile, .tree-node-list .ds-tile { padding: .2rem; }
.tree-pool .ds-caption { font-size: .68rem; line-height: 1.2; word-break: normal; overflow-wrap: anywhere; }
.tree-pool img, .tree-node-list img { width: 100%; aspect-ratio: 1 / 1; object-fit: contain; image-rendering: pixelated; }
.tree-chosen img { image-rendering: pixelated; border: 2px solid #dc2626; border-radius: 6px; }
.tree-facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
.tree-facts dt { font-weight: 600; }
.tree-facts dd { margin: 0; }
.tree-drawing { margin: 0; border: 1px solid var(--mr-border); border-radius: 8px; background: #fff; padding: .5rem; }
.tree-drawing img { display: block; width: 100%; height: auto; }
.tree-drawing figcaption { font-size: .85rem; margin-top: .35rem; }
.tree-drawing-wide > a { display: block; overflow-x: auto; }
.tree-drawing-wide img { width: auto; max-width: none; height: 360px; }
.tree-path { padding-left: 1.2rem; }
.tree-path li { margin-bottom: 1rem; }
.tree-path img { max-width: 160px; }
.tree-candidates { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(120px, 1fr)); gap: .5rem; }
.tree-candidates label { display: flex; flex-direction: column; align-items: center; gap: .25rem; border: 1px solid var(--mr-border); border-radius: 6px; padding: .35rem; cursor: pointer; font-size: .8rem; }
.tree-candidates img { width: 80px; height: 80px; object-fit: contain; image-rendering: pixelated; }
.tree-dialog { border: 2px solid var(--mr-accent, #6366f1); }
.tree-flow-node { display: flex; flex-direction: column; align-items: center; gap: 2px; }
.tree-flow-node img { image-rendering: pixelated; }
.tree-steps { display: flex; flex-direction: column; gap: 1rem; }
`;

export function TreeStyles() {
  return <InlineStyle css={TREE_CSS} />;
}
