// The labelling screen's few layout rules, beside the dataset screens' (app/components/datasets/styles.tsx),
// shipped the same way so the components stay self-contained.
import { THUMB_DISPLAY_PX } from "~/lib/rules/datasets.ts";

export const LABELS_CSS = `
.lb-progress { display: flex; align-items: center; gap: .75rem; flex-wrap: wrap; margin: .25rem 0 1rem; }
.lb-progress progress { width: min(320px, 100%); height: 1rem; }
.lb-current { display: grid; grid-template-columns: minmax(0, ${2 * THUMB_DISPLAY_PX}px) minmax(0, 1fr); gap: 1.25rem; align-items: start; }
@media (max-width: 700px) { .lb-current { grid-template-columns: minmax(0, 1fr); } }
.lb-current img { width: 100%; aspect-ratio: 1 / 1; object-fit: contain; image-rendering: pixelated; background: #f3f4f6; border-radius: 8px; }
.lb-classes { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; }
.lb-classes button.lb-on { outline: 3px solid var(--mr-accent); }
.lb-key { display: inline-block; min-width: 1.2rem; padding: 0 .3rem; margin-right: .35rem; border: 1px solid currentColor; border-radius: 4px; font-size: .75rem; text-align: center; }
.lb-tile select { width: 100%; max-width: ${THUMB_DISPLAY_PX}px; }
.lb-tile a { display: block; width: 100%; text-align: center; }
.lb-usage { display: flex; flex-wrap: wrap; gap: .35rem .9rem; margin: .5rem 0 0; padding: 0; list-style: none; font-size: .85rem; }
.lb-table { width: 100%; border-collapse: collapse; }
.lb-table th, .lb-table td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--mr-border); }
.lb-shortcuts { margin: .25rem 0 0; padding-left: 1.1rem; font-size: .9rem; }
@media (max-width: 560px) {
  .card:has(.lb-table) { padding: 1rem; }
  .lb-table th, .lb-table td { padding: .4rem .25rem; }
}
`;

export function LabelStyles() {
  return <style dangerouslySetInnerHTML={{ __html: LABELS_CSS }} />;
}
