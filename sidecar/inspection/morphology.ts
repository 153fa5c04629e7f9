// Binary-image operations the crack measurements rest on (docs/crack-detection.md): 8-connected
// components, the exact Euclidean distance transform (Felzenszwalb & Huttenlocher, "Distance
// Transforms of Sampled Functions", 2012) and Zhang–Suen thinning (CACM 27(3), 1984).
// Masks are Uint8Array, 1 = foreground, row-major.

/** 8-connected components: a label per pixel (0 = background, 1..count) and each component's size. */
export function connectedComponents(mask: Uint8Array, width: number, height: number): { labels: Int32Array; sizes: number[] } {
  const labels = new Int32Array(mask.length);
  const sizes: number[] = [0];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start]) continue;
    const label = sizes.length;
    let size = 0;
    labels[start] = label;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      size++;
      const px = p % width,
        py = (p - px) / width;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const x = px + dx,
            y = py + dy;
          if (x < 0 || y < 0 || x >= width || y >= height) continue;
          const q = y * width + x;
          if (mask[q] && !labels[q]) {
            labels[q] = label;
            stack.push(q);
          }
        }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}

/**
 * 1-D squared distance transform of f (the lower envelope of the parabolas rooted at each
 * sample), written into d. Foreground samples hold a large finite value, never Infinity, so
 * the intersection formula stays finite; the padding guarantees a background sample per line.
 */
function edt1d(f: Float64Array, n: number, d: Float64Array, v: Int32Array, z: Float64Array) {
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q++) {
    let s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    while (s <= z[k]) {
      k--;
      s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    d[q] = (q - v[k]) ** 2 + f[v[k]];
  }
}

const FAR = 1e20;

/**
 * Exact Euclidean distance from every foreground pixel's centre to the nearest background
 * pixel's centre (0 on background). A foreground pixel next to background is at distance 1.
 * Pixels beyond the image border count as background, so a crack running off the photo
 * is not measured as wider at the edge.
 */
export function distanceTransform(mask: Uint8Array, width: number, height: number): Float32Array {
  // Pad by one background pixel all round (the outside is background).
  const W = width + 2,
    H = height + 2;
  const grid = new Float64Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const inside = x > 0 && y > 0 && x <= width && y <= height && mask[(y - 1) * width + (x - 1)];
      grid[y * W + x] = inside ? FAR : 0;
    }
  const n = Math.max(W, H);
  const f = new Float64Array(n),
    d = new Float64Array(n),
    v = new Int32Array(n),
    z = new Float64Array(n + 1);
  for (let x = 0; x < W; x++) {
    for (let y = 0; y < H; y++) f[y] = grid[y * W + x];
    edt1d(f, H, d, v, z);
    for (let y = 0; y < H; y++) grid[y * W + x] = d[y];
  }
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) f[x] = grid[y * W + x];
    edt1d(f, W, d, v, z);
    for (let x = 0; x < W; x++) grid[y * W + x] = d[x];
  }
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[y * width + x] = Math.sqrt(grid[(y + 1) * W + (x + 1)]);
  return out;
}

/**
 * Zhang–Suen thinning: peels boundary pixels in two alternating sub-iterations until nothing
 * changes, leaving a one-pixel-wide, 8-connected centre line that keeps the shape's topology.
 */
export function thin(mask: Uint8Array, width: number, height: number): Uint8Array {
  const img = mask.slice();
  const remove: number[] = [];
  let changed = true;
  while (changed) {
    changed = false;
    for (let pass = 0; pass < 2; pass++) {
      remove.length = 0;
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const i = y * width + x;
          if (!img[i]) continue;
          const at = (dx: number, dy: number) => {
            const xx = x + dx,
              yy = y + dy;
            return xx >= 0 && yy >= 0 && xx < width && yy < height ? img[yy * width + xx] : 0;
          };
          // Neighbours P2..P9 clockwise from north.
          const p = [at(0, -1), at(1, -1), at(1, 0), at(1, 1), at(0, 1), at(-1, 1), at(-1, 0), at(-1, -1)];
          const b = p.reduce((s, q) => s + q, 0);
          if (b < 2 || b > 6) continue;
          let a = 0;
          for (let k = 0; k < 8; k++) if (!p[k] && p[(k + 1) % 8]) a++;
          if (a !== 1) continue;
          const [p2, , p4, , p6, , p8] = p;
          if (pass === 0 ? p2 * p4 * p6 || p4 * p6 * p8 : p2 * p4 * p8 || p2 * p6 * p8) continue;
          remove.push(i);
        }
      for (const i of remove) img[i] = 0;
      if (remove.length) changed = true;
    }
  }
  return img;
}

/** Binary dilation by a (2r+1)² square. */
export function dilate(mask: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      for (let dy = -r; dy <= r; dy++)
        for (let dx = -r; dx <= r; dx++) {
          const xx = x + dx,
            yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < width && yy < height) out[yy * width + xx] = 1;
        }
    }
  return out;
}
