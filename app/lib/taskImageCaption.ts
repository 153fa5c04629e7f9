// The captions of a training task's pictures come from the sidecar in English
// (sidecar/tree/trainProtoTree.ts: one sentence per kind of picture). The page says them in its
// own language: each known sentence is read back into its values and written with the page's
// tasks:images.* text; anything else (a newer sidecar's new sentence) is shown as sent.
import type { TFunction } from "i18next";

const PATTERNS: Array<{ re: RegExp; key: string; names: string[] }> = [
  {
    re: /^prototype of node (.+): patch \((\d+), (\d+)\) of training image (\d+) \((.*)\)$/,
    key: "images.prototypeCaption",
    names: ["node", "row", "col", "sample", "label"],
  },
  {
    re: /^test image (\d+) \((.*)\): the tree routes it to leaf (.+) and predicts (.*)$/,
    key: "images.sampleCaption",
    names: ["sample", "label", "leaf", "predicted"],
  },
];

export function taskImageCaption(t: TFunction, caption: string): string {
  for (const p of PATTERNS) {
    const m = p.re.exec(caption);
    if (m) return t(p.key, Object.fromEntries(p.names.map((n, i) => [n, m[i + 1]])));
  }
  return caption;
}
