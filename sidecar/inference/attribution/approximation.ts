// Integral approximation rules of IntegratedGradients, as Captum's
// attr/_utils/approximation_methods.py: each rule gives the points α ∈ [0, 1] at which
// the gradient is taken and the weight (step size) of each point.
export const RIEMANN_METHODS = ["riemann_left", "riemann_right", "riemann_middle", "riemann_trapezoid"] as const;
export const APPROXIMATION_METHODS = [...RIEMANN_METHODS, "gausslegendre"] as const;
export type ApproximationMethod = (typeof APPROXIMATION_METHODS)[number];

export interface Quadrature {
  stepSizes: number[];
  alphas: number[];
}

/** np.linspace(start, stop, n). */
function linspace(start: number, stop: number, n: number): number[] {
  if (n === 1) return [start];
  const step = (stop - start) / (n - 1);
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? stop : start + i * step));
}

export function riemann(method: (typeof RIEMANN_METHODS)[number], n: number): Quadrature {
  if (!(n > 1)) throw new RangeError("The number of steps has to be larger than one");
  const stepSizes = new Array<number>(n).fill(1 / n);
  if (method === "riemann_trapezoid") {
    stepSizes[0] /= 2;
    stepSizes[n - 1] /= 2;
  }
  let alphas: number[];
  switch (method) {
    case "riemann_trapezoid":
      alphas = linspace(0, 1, n);
      break;
    case "riemann_left":
      alphas = linspace(0, 1 - 1 / n, n);
      break;
    case "riemann_middle":
      alphas = linspace(1 / (2 * n), 1 - 1 / (2 * n), n);
      break;
    case "riemann_right":
      alphas = linspace(1 / n, 1, n);
      break;
  }
  return { stepSizes, alphas };
}

/** [P_{n−1}(x), P_n(x)] by the three-term recurrence (P_0 = 1, P_1 = x; for n < 2 the loop does not run). */
function legendrePair(n: number, x: number): [number, number] {
  let p0 = 1;
  let p1 = x;
  for (let k = 2; k <= n; k++) {
    const p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  return [p0, p1];
}

/**
 * Gauss–Legendre nodes and weights on [-1, 1] (numpy.polynomial.legendre.leggauss),
 * by Newton's method on P_n from the Tricomi initial guesses, returned in ascending
 * node order like numpy.
 */
export function leggauss(n: number): { nodes: number[]; weights: number[] } {
  const nodes = new Array<number>(n);
  const weights = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    let x = Math.cos((Math.PI * (i + 0.75)) / (n + 0.5));
    let dp = 0;
    for (let iter = 0; iter < 100; iter++) {
      const [p0, p1] = legendrePair(n, x);
      const pn = n === 0 ? 1 : p1;
      const pnm1 = n === 1 ? 1 : p0;
      dp = (n * (x * pn - pnm1)) / (x * x - 1);
      const dx = pn / dp;
      x -= dx;
      if (Math.abs(dx) < 1e-16) break;
    }
    // Recompute the derivative at the converged node for the weight.
    const [p0, p1] = legendrePair(n, x);
    dp = n === 1 ? 1 : (n * (x * p1 - p0)) / (x * x - 1);
    nodes[n - 1 - i] = x;
    weights[n - 1 - i] = 2 / ((1 - x * x) * dp * dp);
  }
  return { nodes, weights };
}

export function gaussLegendre(n: number): Quadrature {
  if (!(n > 0)) throw new RangeError("The number of steps has to be larger than zero");
  const { nodes, weights } = leggauss(n);
  // Rescale from [-1, 1] (total weight 2) to [0, 1] (total weight 1).
  return { stepSizes: weights.map((w) => 0.5 * w), alphas: nodes.map((x) => 0.5 * (1 + x)) };
}

export function approximationParameters(method: string, n: number): Quadrature {
  if (method === "gausslegendre") return gaussLegendre(n);
  if ((RIEMANN_METHODS as readonly string[]).includes(method)) {
    return riemann(method as (typeof RIEMANN_METHODS)[number], n);
  }
  throw new RangeError(`Invalid integral approximation method name: ${method}`);
}
