// The interpretable models of Lime and KernelShap, reproducing what Captum calls in
// scikit-learn: Lasso (Lime's default SkLearnLasso) and LinearRegression (KernelShap's
// SkLearnLinearRegression), both with an intercept and per-sample weights.
//
// scikit-learn's weighted Lasso minimises
//     1/2 · Σ_i w_i (y_i − b − x_i·β)² / Σ_i w_i  +  α ‖β‖₁
// (it rescales the weights to sum to n, so α is per average sample). The intercept is
// removed by weighted centring, and β is found by cyclic coordinate descent with soft
// thresholding, as sklearn's enet_coordinate_descent does.

export interface LinearFit {
  coef: Float64Array;
  intercept: number;
}

interface Centred {
  /** Column-major √w-scaled centred features: xs[j][i]. */
  xs: Float64Array[];
  ys: Float64Array;
  xMean: Float64Array;
  yMean: number;
  /** Σ w_i after normalising to mean 1 (= n). */
  n: number;
}

function centre(X: ArrayLike<number>[], y: ArrayLike<number>, w: ArrayLike<number>): Centred {
  const n = y.length;
  const p = n > 0 ? X[0].length : 0;
  let wsum = 0;
  for (let i = 0; i < n; i++) wsum += w[i];
  if (!(wsum > 0)) throw new RangeError("sample weights must have a positive sum");
  const sw = new Float64Array(n);
  for (let i = 0; i < n; i++) sw[i] = (w[i] * n) / wsum;
  const xMean = new Float64Array(p);
  let yMean = 0;
  for (let i = 0; i < n; i++) {
    yMean += sw[i] * y[i];
    for (let j = 0; j < p; j++) xMean[j] += sw[i] * X[i][j];
  }
  yMean /= n;
  for (let j = 0; j < p; j++) xMean[j] /= n;
  const xs = Array.from({ length: p }, () => new Float64Array(n));
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = Math.sqrt(sw[i]);
    ys[i] = r * (y[i] - yMean);
    for (let j = 0; j < p; j++) xs[j][i] = r * (X[i][j] - xMean[j]);
  }
  return { xs, ys, xMean, yMean, n };
}

export function lasso(X: ArrayLike<number>[], y: ArrayLike<number>, w: ArrayLike<number>, alpha: number, { maxIter = 10000, tol = 1e-10 } = {}): LinearFit {
  const { xs, ys, xMean, yMean, n } = centre(X, y, w);
  const p = xs.length;
  const beta = new Float64Array(p);
  const resid = Float64Array.from(ys);
  const norms = xs.map((col) => col.reduce((s, v) => s + v * v, 0));
  const l1 = alpha * n;
  for (let iter = 0; iter < maxIter; iter++) {
    let maxStep = 0;
    let maxBeta = 0;
    for (let j = 0; j < p; j++) {
      if (norms[j] === 0) continue;
      const col = xs[j];
      const old = beta[j];
      let rho = 0;
      for (let i = 0; i < n; i++) rho += col[i] * (resid[i] + col[i] * old);
      const next = (Math.sign(rho) * Math.max(Math.abs(rho) - l1, 0)) / norms[j];
      if (next !== old) {
        const d = next - old;
        for (let i = 0; i < n; i++) resid[i] -= d * col[i];
        beta[j] = next;
      }
      maxStep = Math.max(maxStep, Math.abs(next - old));
      maxBeta = Math.max(maxBeta, Math.abs(next));
    }
    if (maxBeta === 0 || maxStep / maxBeta < tol) break;
  }
  let intercept = yMean;
  for (let j = 0; j < p; j++) intercept -= xMean[j] * beta[j];
  return { coef: beta, intercept };
}

/**
 * Weighted least squares with intercept (sklearn LinearRegression with sample_weight).
 * Solved through the normal equations in float64; a vanishing ridge term keeps
 * rank-deficient systems (fewer samples than features, duplicated columns) solvable and
 * tends to the minimum-norm solution that sklearn's lstsq returns.
 */
export function linearRegression(X: ArrayLike<number>[], y: ArrayLike<number>, w: ArrayLike<number>): LinearFit {
  const { xs, ys, xMean, yMean } = centre(X, y, w);
  const p = xs.length;
  const A = Array.from({ length: p }, () => new Float64Array(p + 1));
  let trace = 0;
  for (let a = 0; a < p; a++) {
    for (let b = a; b < p; b++) {
      let s = 0;
      for (let i = 0; i < ys.length; i++) s += xs[a][i] * xs[b][i];
      A[a][b] = s;
      A[b][a] = s;
    }
    let r = 0;
    for (let i = 0; i < ys.length; i++) r += xs[a][i] * ys[i];
    A[a][p] = r;
    trace += A[a][a];
  }
  const ridge = (trace / Math.max(1, p)) * 1e-10 + 1e-300;
  for (let a = 0; a < p; a++) A[a][a] += ridge;
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < p; col++) {
    let piv = col;
    for (let r = col + 1; r < p; r++) if (Math.abs(A[r][col]) > Math.abs(A[piv][col])) piv = r;
    [A[col], A[piv]] = [A[piv], A[col]];
    const d = A[col][col];
    if (d === 0) continue;
    for (let r = 0; r < p; r++) {
      if (r === col) continue;
      const f = A[r][col] / d;
      if (f === 0) continue;
      for (let k = col; k <= p; k++) A[r][k] -= f * A[col][k];
    }
  }
  const beta = new Float64Array(p);
  for (let a = 0; a < p; a++) beta[a] = A[a][a] === 0 ? 0 : A[a][p] / A[a][a];
  let intercept = yMean;
  for (let j = 0; j < p; j++) intercept -= xMean[j] * beta[j];
  return { coef: beta, intercept };
}
