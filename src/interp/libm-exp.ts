/**
 * exp(x) as glibc (2.28 and later) computes it for double: Szabolcs Nagy's method from
 * Arm's optimized-routines (sysdeps/ieee754/dbl-64/e_exp.c), written anew here. V8's
 * Math.exp (FDLIBM's) rounds differently from it on about one input in ten, so a C
 * program that prints exp() with %.17g printed other digits than its native build.
 *
 * Method: x = k·ln2/128 + r with |r| ≤ ln2/256 (k by rounding x·128/ln2 with the 1.5·2^52
 * shift trick, r by subtracting k·ln2/128 in two parts); exp(x) = 2^(k/128)·exp(r) where
 * 2^(j/128) = H[j]·(1 + T[j]) for j = k mod 128 (H the double nearest 2^(j/128), T its
 * relative tail), the exponent k div 128 added to H's bits directly; exp(r) − 1 is a
 * degree-5 polynomial, evaluated in glibc's order (without fma: glibc picks an fma build
 * where the CPU has one, which rounds differently on rare inputs). Results near overflow
 * and in the subnormal range are scaled in two steps, rounding once, as glibc does.
 * The table is computed here at first use from 2^(1/128) to 200 bits (BigInt).
 */

const N = 128;
const INV_LN2_N = 1.4426950408889634 * N; // 0x1.71547652b82fep0 · N
const NEG_LN2_HI_N = -0.005415212348111709; // −0x1.62e42fefa0000p-8: its trailing bits are zero, so k·hi is exact
const NEG_LN2_LO_N = -1.2864023111638346e-14; // −0x1.cf79abc9e3b3ap-47
const SHIFT = 6755399441055744; // 0x1.8p52
// exp(r) − 1 − r ≈ r²·(C2 + r·C3) + r⁴·(C4 + r·C5) on |r| ≤ ln2/256 (glibc's minimax coefficients)
const C2 = 0.49999999999996786; // 0x1.ffffffffffdbdp-2
const C3 = 0.16666666666665886; // 0x1.555555555543cp-3
const C4 = 0.0416666808410674; // 0x1.55555cf172b91p-5
const C5 = 0.008333335853059549; // 0x1.1111167a4d017p-7

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

let TAIL: Float64Array | null = null; // T[j]
let HIGH: Int32Array | null = null; // high word of H[j]
let LOW: Uint32Array | null = null; // low word of H[j]

/** floor(2^(1/128) · 2^P) by Newton's method on y^128 = 2^(1 + 128·P). */
function root128(P: bigint): bigint {
  const target = 1n << (1n + 128n * P);
  let y = (1n << P) + (1n << (P - 7n)); // above the root: Newton decreases monotonically to it
  for (;;) {
    const y127 = y ** 127n;
    const next = (127n * y + target / y127) / 128n;
    if (next >= y) return y;
    y = next;
  }
}

function buildTable(): void {
  const P = 200n;
  const r = root128(P);
  const one = 1n << P;
  TAIL = new Float64Array(N);
  HIGH = new Int32Array(N);
  LOW = new Uint32Array(N);
  let x = one; // 2^(j/128) · 2^P
  for (let j = 0; j < N; j++) {
    // H = x / 2^P rounded to 53 bits (x in [2^P, 2^(P+1)): the exponent is 0)
    const shift = P - 52n;
    const q = x >> shift;
    const rem = x - (q << shift);
    const half = 1n << (shift - 1n);
    const m = rem > half || (rem === half && (q & 1n) === 1n) ? q + 1n : q; // 53-bit mantissa, 2^52 ≤ m ≤ 2^53
    const H = Number(m) / 2 ** 52;
    f64[0] = H;
    HIGH[j] = u32[1] | 0;
    LOW[j] = u32[0];
    // T = (2^(j/128) − H) / H
    TAIL[j] = Number(x - (m << shift)) / 2 ** Number(P) / H;
    x = (x * r) >> P;
  }
}

function fromWords(hi: number, lo: number): number {
  u32[1] = hi;
  u32[0] = lo;
  return f64[0];
}

export function expGlibc(x: number): number {
  if (TAIL === null) buildTable();
  f64[0] = x;
  let abstop = (u32[1] >>> 20) & 0x7ff;
  if ((abstop - 0x3c9) >>> 0 >= 0x408 - 0x3c9) {
    if ((abstop - 0x3c9) >>> 0 >= 0x80000000) return 1 + x; // |x| < 2^-54 (and 0)
    if (abstop >= 0x409) {
      // |x| ≥ 1024
      if (x === -Infinity) return 0;
      if (abstop >= 0x7ff) return 1 + x; // +inf, NaN
      return x < 0 ? 0 : Infinity;
    }
    abstop = 0; // large |x|: the result may overflow or be subnormal
  }
  const z = INV_LN2_N * x;
  let kd = z + SHIFT;
  f64[0] = kd;
  const k = u32[0] | 0; // the low bits of kd are k (two's complement)
  kd -= SHIFT;
  const r = x + kd * NEG_LN2_HI_N + kd * NEG_LN2_LO_N;
  const j = k & (N - 1);
  const tail = TAIL![j];
  const hi = (HIGH![j] + ((k >> 7) << 20)) | 0; // 2^(k div 128) added to H's exponent (it may wrap: see specialCase)
  const lo = LOW![j];
  const r2 = r * r;
  const tmp = tail + r + r2 * (C2 + r * C3) + r2 * r2 * (C4 + r * C5);
  if (abstop === 0) return specialCase(tmp, hi, lo, k);
  const scale = fromWords(hi, lo);
  return scale + scale * tmp;
}

/** scale·(1 + tmp) where scale's exponent may be out of range (k > 0: overflow side; k < 0: subnormal side). */
function specialCase(tmp: number, hi: number, lo: number, k: number): number {
  if (k > 0) {
    const scale = fromWords((hi - (1009 << 20)) | 0, lo);
    return 2 ** 1009 * (scale + scale * tmp);
  }
  const scale = fromWords((hi + (1022 << 20)) | 0, lo);
  let y = scale + scale * tmp;
  if (y < 1) {
    // round to the subnormal's precision once: add 1, round, subtract
    let low = scale - y + scale * tmp;
    const h = 1 + y;
    low = 1 - h + y + low;
    y = h + low - 1;
    if (y === 0) y = 0;
  }
  return 2 ** -1022 * y;
}
