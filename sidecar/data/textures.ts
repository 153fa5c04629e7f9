// Procedural textures for the concept page (docs/concepts.md). The 47 slots are the 47
// categories of the Describable Textures Dataset (DTD); where a few lines of geometry make a
// category recognisable at 32×32 pixels, a generator draws it, and the other slots stay empty
// ("no examples on this server") until an operator or a user supplies pictures.
//
// A texture is a pattern: a function of the pixel position giving a blend between two colours
// (0 = first, 1 = second), with its scale, orientation and phase drawn from a seeded Rng. The
// same pattern fills a whole concept image or the object of a textured-shapes scene
// (texturedShapes.ts), which is what lets the platform build a model whose classes depend on a
// texture and check that TCAV finds it.
import { Rng, mixSeed } from "./prng.ts";
import { hsv, luma, type Rgb } from "./scenes.ts";

/** The DTD's 47 categories, in its alphabetical order: the concept page's 47 slots. */
export const DTD_CATEGORIES = [
  "banded",
  "blotchy",
  "braided",
  "bubbly",
  "bumpy",
  "chequered",
  "cobwebbed",
  "cracked",
  "crosshatched",
  "crystalline",
  "dotted",
  "fibrous",
  "flecked",
  "freckled",
  "frilly",
  "gauzy",
  "grid",
  "grooved",
  "honeycombed",
  "interlaced",
  "knitted",
  "lacelike",
  "lined",
  "marbled",
  "matted",
  "meshed",
  "paisley",
  "perforated",
  "pitted",
  "pleated",
  "polka-dotted",
  "porous",
  "potholed",
  "scaly",
  "smeared",
  "spiralled",
  "sprinkled",
  "stained",
  "stratified",
  "striped",
  "studded",
  "swirly",
  "veined",
  "waffled",
  "woven",
  "wrinkled",
  "zigzagged",
] as const;
export type TextureName = (typeof DTD_CATEGORIES)[number];

/** Blend factor in [0, 1] at pixel (x, y). */
export type Pattern = (x: number, y: number) => number;

const frac = (v: number) => v - Math.floor(v);
/** 1 on the first `width` share of each period of a periodic coordinate (stripes, lines), else 0. */
const band = (t: number, width: number) => (frac(t) < width ? 1 : 0);
const tri = (t: number) => Math.abs(2 * frac(t) - 1);

function rotated(rng: Rng) {
  const a = rng.uniform(0, Math.PI);
  const c = Math.cos(a),
    s = Math.sin(a);
  return { u: (x: number, y: number) => x * c + y * s, v: (x: number, y: number) => -x * s + y * c };
}

/** Points on a jittered lattice (dots, bubbles, pores): returns a distance-to-nearest function. */
function scattered(rng: Rng, count: number, size: number) {
  const pts = Array.from({ length: count }, () => [rng.uniform(-2, size + 2), rng.uniform(-2, size + 2), rng.uniform(0.6, 1.4)]);
  return (x: number, y: number) => {
    let best = Infinity,
      scale = 1;
    for (const [px, py, s] of pts) {
      const d = Math.hypot(x - px, y - py);
      if (d < best) {
        best = d;
        scale = s;
      }
    }
    return { d: best, scale };
  };
}

/** Random-walk polylines drawn into a coverage map (cracks, veins). */
function walks(rng: Rng, size: number, count: number, branch: number, width: number): Pattern {
  const cover = new Float32Array(size * size);
  const draw = (x: number, y: number, a: number, steps: number, depth: number) => {
    for (let s = 0; s < steps; s++) {
      a += rng.uniform(-0.45, 0.45);
      x += Math.cos(a);
      y += Math.sin(a);
      for (let yy = Math.floor(y - width); yy <= y + width; yy++)
        for (let xx = Math.floor(x - width); xx <= x + width; xx++)
          if (xx >= 0 && yy >= 0 && xx < size && yy < size && Math.hypot(xx + 0.5 - x, yy + 0.5 - y) <= width) cover[yy * size + xx] = 1;
      if (depth < 2 && rng.float() < branch) draw(x, y, a + rng.pick([-1, 1]) * rng.uniform(0.6, 1.2), Math.floor(steps / 2), depth + 1);
    }
  };
  for (let k = 0; k < count; k++) draw(rng.uniform(0, size), rng.uniform(0, size), rng.uniform(0, 2 * Math.PI), rng.int(size, 2 * size), 0);
  return (x, y) => (x >= 0 && y >= 0 && x < size && y < size ? cover[Math.floor(y) * size + Math.floor(x)] : 0);
}

/** Low-frequency noise as a sum of a few random plane waves, in about [-1, 1]. */
function waves(rng: Rng, n: number, freq: [number, number]) {
  const ws = Array.from({ length: n }, () => {
    const a = rng.uniform(0, 2 * Math.PI),
      f = rng.uniform(freq[0], freq[1]);
    return { fx: Math.cos(a) * f, fy: Math.sin(a) * f, ph: rng.uniform(0, 2 * Math.PI) };
  });
  return (x: number, y: number) => ws.reduce((s, w) => s + Math.sin(w.fx * x + w.fy * y + w.ph), 0) / Math.sqrt(n);
}

type Generator = (rng: Rng, size: number) => Pattern;

/** The categories this server can draw. Each is a few lines of geometry; docs/concepts.md lists them. */
const GENERATORS: Partial<Record<TextureName, Generator>> = {
  banded(rng) {
    const { u } = rotated(rng);
    const p = rng.uniform(9, 14);
    return (x, y) => band(u(x, y) / p, 0.5);
  },
  blotchy(rng) {
    const n = waves(rng, 4, [0.15, 0.35]);
    return (x, y) => (n(x, y) > 0.35 ? 1 : 0);
  },
  bubbly(rng, size) {
    const near = scattered(rng, 9, size);
    const r = rng.uniform(3, 4.5);
    return (x, y) => {
      const { d, scale } = near(x, y);
      return Math.abs(d - r * scale) < 0.8 ? 1 : 0;
    };
  },
  chequered(rng) {
    const { u, v } = rotated(rng);
    const p = rng.uniform(3.5, 6);
    return (x, y) => (Math.floor(u(x, y) / p) + Math.floor(v(x, y) / p)) & 1;
  },
  cracked(rng, size) {
    return walks(rng, size, rng.int(3, 5), 0.04, 0.6);
  },
  crosshatched(rng) {
    const a = rng.uniform(0, Math.PI);
    const b = a + Math.PI / 2 + rng.uniform(-0.3, 0.3);
    const p = rng.uniform(3, 4.5);
    return (x, y) => Math.max(band((x * Math.cos(a) + y * Math.sin(a)) / p, 0.3), band((x * Math.cos(b) + y * Math.sin(b)) / p, 0.3));
  },
  dotted(rng, size) {
    const near = scattered(rng, Math.round(size * size * 0.045), size);
    return (x, y) => (near(x, y).d < 0.9 ? 1 : 0);
  },
  freckled(rng, size) {
    const near = scattered(rng, Math.round(size * size * 0.025), size);
    return (x, y) => {
      const { d, scale } = near(x, y);
      return d < 0.8 * scale ? 1 : 0;
    };
  },
  grid(rng) {
    const { u, v } = rotated(rng);
    const p = rng.uniform(5, 8);
    return (x, y) => Math.max(band(u(x, y) / p, 0.2), band(v(x, y) / p, 0.2));
  },
  honeycombed(rng) {
    const s = rng.uniform(3.5, 5);
    const { u, v } = rotated(rng);
    return (x, y) => {
      // Distance to the nearest hexagon centre against the second nearest: near the middle = an edge.
      const qx = u(x, y) / s,
        qy = v(x, y) / s;
      let d1 = Infinity,
        d2 = Infinity;
      const row = Math.round(qy / 0.866);
      for (let j = row - 1; j <= row + 1; j++)
        for (let i = Math.round(qx) - 1; i <= Math.round(qx) + 1; i++) {
          const cx = i + (j & 1 ? 0.5 : 0),
            cy = j * 0.866;
          const d = Math.hypot(qx - cx, qy - cy);
          if (d < d1) {
            d2 = d1;
            d1 = d;
          } else if (d < d2) d2 = d;
        }
      return d2 - d1 < 0.18 ? 1 : 0;
    };
  },
  lined(rng) {
    const { u } = rotated(rng);
    const p = rng.uniform(4, 6);
    return (x, y) => band(u(x, y) / p, 0.22);
  },
  marbled(rng) {
    const n = waves(rng, 5, [0.08, 0.25]);
    const { u } = rotated(rng);
    const p = rng.uniform(6, 10);
    return (x, y) => (Math.abs(Math.sin(u(x, y) / p + 2.5 * n(x, y))) < 0.22 ? 1 : 0);
  },
  perforated(rng) {
    const { u, v } = rotated(rng);
    const p = rng.uniform(4, 5.5);
    return (x, y) => (Math.hypot(frac(u(x, y) / p) - 0.5, frac(v(x, y) / p) - 0.5) * p < 0.9 ? 1 : 0);
  },
  pleated(rng) {
    const { u } = rotated(rng);
    const p = rng.uniform(5, 8);
    return (x, y) => frac(u(x, y) / p);
  },
  "polka-dotted"(rng) {
    const { u, v } = rotated(rng);
    const p = rng.uniform(7, 9);
    const r = rng.uniform(1.8, 2.4);
    return (x, y) => {
      const row = Math.floor(v(x, y) / p);
      const shift = row & 1 ? 0.5 : 0;
      return Math.hypot(frac(u(x, y) / p + shift) - 0.5, frac(v(x, y) / p) - 0.5) * p < r ? 1 : 0;
    };
  },
  porous(rng, size) {
    const near = scattered(rng, Math.round(size * size * 0.05), size);
    const n = waves(rng, 3, [0.5, 1]);
    return (x, y) => {
      const { d, scale } = near(x, y);
      return d < 0.5 + 0.7 * scale + 0.3 * n(x, y) ? 1 : 0;
    };
  },
  scaly(rng) {
    const p = rng.uniform(5, 7);
    return (x, y) => {
      // Rows of overlapping half-discs: the outline of the lower disc of each cell.
      const j = Math.floor(y / (p / 2));
      const shift = j & 1 ? p / 2 : 0;
      const cx = Math.floor((x + shift) / p) * p + p / 2 - shift;
      const cy = j * (p / 2);
      return Math.abs(Math.hypot(x - cx, y - cy) - p / 2) < 0.7 ? 1 : 0;
    };
  },
  spiralled(rng, size) {
    const cx = rng.uniform(0.3, 0.7) * size,
      cy = rng.uniform(0.3, 0.7) * size;
    const p = rng.uniform(3.5, 5);
    const dir = rng.pick([-1, 1]);
    return (x, y) => band((Math.hypot(x - cx, y - cy) + (dir * p * Math.atan2(y - cy, x - cx)) / (2 * Math.PI)) / p, 0.5);
  },
  sprinkled(rng, size) {
    const near = scattered(rng, Math.round(size * size * 0.04), size);
    const a = rng.uniform(0, Math.PI);
    return (x, y) => {
      const { d, scale } = near(x, y);
      // Short strokes: elongate the dot along a jittered direction per point.
      return d < 1.1 && Math.abs(Math.sin(Math.atan2(y, x) * 7 * scale + a)) > 0.2 ? 1 : 0;
    };
  },
  stratified(rng) {
    const p = rng.uniform(4, 7);
    const n = waves(rng, 3, [0.1, 0.25]);
    return (x, y) => band((y + 2.5 * n(x, y) + 0.3 * Math.sin(x * 0.7)) / p, 0.45);
  },
  striped(rng) {
    const { u } = rotated(rng);
    const p = rng.uniform(4, 6.5);
    return (x, y) => band(u(x, y) / p, 0.5);
  },
  swirly(rng, size) {
    const n = waves(rng, 3, [0.1, 0.2]);
    const cx = rng.uniform(0, size),
      cy = rng.uniform(0, size);
    return (x, y) => band((Math.atan2(y - cy, x - cx) * 3 + Math.hypot(x - cx, y - cy) * 0.35 + 2 * n(x, y)) / Math.PI, 0.4);
  },
  veined(rng, size) {
    return walks(rng, size, rng.int(2, 3), 0.15, 0.45);
  },
  waffled(rng) {
    const p = rng.uniform(6, 8);
    const { u, v } = rotated(rng);
    // Raised square cells: a thick grid with the cell floors shaded.
    return (x, y) => {
      const a = frac(u(x, y) / p),
        b = frac(v(x, y) / p);
      return a < 0.3 || b < 0.3 ? 1 : 0.25 * (a + b);
    };
  },
  woven(rng) {
    const p = rng.uniform(6, 8);
    const thread = p / 3;
    return (x, y) => {
      // Basket weave: blocks alternate between horizontal and vertical threads.
      const horizontal = (Math.floor(x / p) + Math.floor(y / p)) & 1;
      const t = horizontal ? y / thread : x / thread;
      return band(t, 0.7) * (0.6 + 0.4 * tri((horizontal ? x : y) / p));
    };
  },
  zigzagged(rng) {
    const { u, v } = rotated(rng);
    const p = rng.uniform(4, 6),
      q = rng.uniform(4, 7),
      amp = rng.uniform(2.5, 4);
    return (x, y) => band((v(x, y) + amp * tri(u(x, y) / q)) / p, 0.5);
  },
};

/** The categories with a generator, in DTD order. */
export const GENERATED_TEXTURES = DTD_CATEGORIES.filter((c) => GENERATORS[c]);

export function canGenerate(name: string): name is TextureName {
  return Boolean(GENERATORS[name as TextureName]);
}

/** A pattern of the category drawn from rng (its scale, orientation and phase). */
export function texturePattern(name: TextureName, rng: Rng, size: number): Pattern {
  const g = GENERATORS[name];
  if (!g) throw new RangeError(`no generator for the texture "${name}"`);
  return g(rng, size);
}

/** Two colours far enough apart in brightness for a pattern to read at 32 pixels. */
export function contrastingColours(rng: Rng): [Rgb, Rgb] {
  const a = hsv(rng.float(), rng.uniform(0.2, 0.9), rng.uniform(0.15, 0.95));
  const la = luma(a);
  const b = hsv(rng.float(), rng.uniform(0.2, 0.9), la > 0.5 ? rng.uniform(0.02, la - 0.35) : rng.uniform(la + 0.35, 1));
  return [a, b];
}

/** Seed of the concept examples (a fixed seed: the same examples on every machine). */
export const CONCEPT_SEED = 20261125;

/**
 * Example image `index` of a texture concept: the pattern over the whole frame in two random
 * contrasting colours, plus sensor noise (H × W × 3 in [0, 1]).
 */
export function renderTextureImage(name: TextureName, index: number, size = 32): Float32Array {
  const rng = new Rng(mixSeed(CONCEPT_SEED, DTD_CATEGORIES.indexOf(name), index));
  const pattern = texturePattern(name, rng, size);
  const [a, b] = contrastingColours(rng);
  const px = new Float32Array(size * size * 3);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const t = pattern(x + 0.5, y + 0.5);
      for (let c = 0; c < 3; c++) px[(y * size + x) * 3 + c] = Math.min(1, Math.max(0, a[c] * (1 - t) + b[c] * t + 0.025 * rng.normal()));
    }
  return px;
}
