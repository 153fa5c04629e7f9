// IEEE 754 half-precision conversion (Node 20 has no Float16Array). Checkpoints store
// weights as float16 to halve their size in the repository; inference precision of
// ~3 significant digits is far below what changes a prediction.
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float32 → float16 bits, rounding to nearest. */
export function toHalf(value: number): number {
  f32[0] = value;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    if ((mant >>> (shift - 1)) & 1) h += 1;
    return sign | h;
  }
  // A carry out of the mantissa correctly bumps the exponent.
  return (sign | (e << 10) | (mant >>> 13)) + ((mant >>> 12) & 1);
}

export function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

/** The values a float16 checkpoint will hold (what training evaluates before writing). */
export function roundToHalf(data: Float32Array): Float32Array {
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = fromHalf(toHalf(data[i]));
  return out;
}
