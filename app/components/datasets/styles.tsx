// The dataset screens' few layout rules, shipped as a <style> element so these components
// stay self-contained (the shared app.css belongs to the foundation). Thumbnails are never
// shown wider than THUMB_DISPLAY_PX (they are rendered at twice that, app/lib/rules/datasets.ts),
// and nothing here is wider than a 390 px phone (tests/e2e/classification.e2e.ts checks it).
import { THUMB_DISPLAY_PX } from "~/lib/rules/datasets.ts";
import { InlineStyle } from "~/components/InlineStyle.tsx";

export const DATASET_CSS = `
.ds-grid { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 1rem; }
@media (max-width: 800px) { .ds-grid { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
.ds-tile { position: relative; border: 2px solid var(--mr-border); border-radius: 10px; background: #fff; padding: .5rem; display: flex; flex-direction: column; align-items: center; gap: .35rem; }
.ds-tile.picked { border-color: #dc2626; }
.ds-tile img { width: 100%; max-width: ${THUMB_DISPLAY_PX}px; aspect-ratio: 1 / 1; object-fit: contain; image-rendering: pixelated; background: #f3f4f6; border-radius: 6px; }
.ds-tile .ds-caption { font-size: .8rem; color: var(--mr-muted); text-align: center; word-break: break-all; }
.ds-tile .ds-check { position: absolute; top: .5rem; left: .5rem; width: 1.3rem; height: 1.3rem; }
.ds-pager { display: flex; gap: .35rem; justify-content: center; margin: 1.25rem 0 .5rem; }
.ds-pager-item { min-width: 2.2rem; padding: .4rem .6rem; text-align: center; border-radius: 6px; border: 1px solid var(--mr-border); text-decoration: none; color: var(--mr-ink); background: #fff; }
.ds-pager-item.current { background: var(--mr-accent); color: #fff; border-color: var(--mr-accent); }
.ds-pager-item.disabled { color: #cbd5e1; }
.ds-previews { display: grid; gap: 1rem; }
.ds-preview { display: grid; grid-template-columns: 1fr auto; gap: 1rem; align-items: center; }
.ds-preview-pics { display: grid; grid-template-columns: repeat(3, 96px); gap: .5rem; }
.ds-preview-pics img, .ds-preview-pics .ds-empty { width: 96px; height: 96px; object-fit: contain; image-rendering: pixelated; background: #f3f4f6; border-radius: 6px; }
.ds-empty { display: grid; place-items: center; color: var(--mr-muted); font-size: .75rem; text-align: center; padding: .25rem; }
.ds-toolbar { display: flex; gap: .6rem; flex-wrap: wrap; align-items: center; margin-bottom: 1rem; }
.ds-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); gap: 1.25rem; }
.ds-card h3 { margin: 0 0 .75rem; }
.ds-samples { display: grid; grid-template-columns: repeat(3, 1fr); gap: .5rem; margin-bottom: .75rem; }
.ds-samples a, .ds-samples .ds-empty { display: block; aspect-ratio: 1 / 1; background: #f3f4f6; border-radius: 6px; overflow: hidden; }
.ds-samples img { width: 100%; height: 100%; object-fit: contain; image-rendering: pixelated; }
.ds-viewer { text-align: center; }
.ds-viewer img { max-width: min(480px, 90vw); width: 100%; image-rendering: pixelated; background: #f3f4f6; border-radius: 8px; }
.ds-steps { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1.25rem; }
.ds-result-images { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 1rem; }
.ds-result-images figure { margin: 0; text-align: center; }
.ds-result-images img { width: 100%; image-rendering: pixelated; border-radius: 8px; background: #f3f4f6; }
.ds-busy { display: inline-flex; align-items: center; gap: .5rem; color: var(--mr-accent); }
.ds-toolbar select, .ds-toolbar input, .ds-steps select { max-width: 100%; min-width: 0; }
.ds-toolbar .field { min-width: min(260px, 100%); max-width: 100%; }
.result-source h3 { margin: 1.25rem 0 .5rem; font-size: 1rem; }
@media (max-width: 560px) {
  .card:has(.ds-previews), .ds-steps .card { padding: 1rem; }
  .ds-preview { grid-template-columns: minmax(0, 1fr); }
  .ds-preview-pics { grid-template-columns: repeat(3, minmax(0, 96px)); }
  .ds-preview-pics img, .ds-preview-pics .ds-empty { width: 100%; height: auto; aspect-ratio: 1 / 1; }
  .ds-steps .profile-grid { grid-template-columns: minmax(0, 1fr); }
  .ds-steps .tabs .tab, section > .tabs .tab { padding: .6rem .75rem; }
}
`;

export function DatasetStyles() {
  return <InlineStyle css={DATASET_CSS} />;
}
