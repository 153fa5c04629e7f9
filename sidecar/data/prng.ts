// Seeded pseudo-random numbers so generated datasets and weight initialisations are
// reproducible bit for bit on every machine (Math.random cannot be seeded).

/** mulberry32: 32-bit state, good enough statistical quality for image synthesis. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mix several integers into one seed (splitmix-style), so image i of split s gets its own stream. */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

export class Rng {
  private next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** Uniform in [0, 1). */
  float(): number {
    return this.next();
  }
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  /** Fisher–Yates permutation of 0..n-1. */
  permutation(n: number): Int32Array {
    const p = new Int32Array(n);
    for (let i = 0; i < n; i++) p[i] = i;
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }
}

/** The stream of the sampling attribution methods: uniforms, integers below `n`, standard normals. */
export interface SamplingRng {
  uniform(): number;
  normal(): number;
  /** An integer in [0, n). */
  int(n: number): number;
}

/**
 * The sampling attribution methods' stream (LIME, KernelSHAP, GradientSHAP and NoiseTunnel in
 * sidecar/inference/attribution/; "the same seed gives the same attribution"): mulberry32 from
 * the seed mixed with 0x9e3779b9, with Box–Muller normals drawn in pairs. It is this exact sequence
 * that the suites' baseline results (seeds/suites/) were computed with, so it keeps its own
 * normals rather than Rng's (one normal a pair).
 */
export function samplingRng(seed: number): SamplingRng {
  const uniform = mulberry32((Math.floor(seed) >>> 0) ^ 0x9e3779b9);
  let spare: number | null = null;
  return {
    uniform,
    int: (n) => Math.min(n - 1, Math.floor(uniform() * n)),
    normal: () => {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return s;
      }
      let u = 0;
      while (u <= Number.MIN_VALUE) u = uniform();
      const v = uniform();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
  };
}
