/**
 * lgamma (with the sign of Γ, as lgamma_r/signgam give it) and tgamma for the interpreter,
 * by the methods glibc 2.36 uses for x86-64 double; written anew here, the coefficients
 * are the published ones.
 *
 * lgamma — FDLIBM's e_lgamma_r.c (Sun, 1993):
 *   x < 2     reduced to a minimax fit on one of three intervals (around 1, around the
 *             minimum 1.4616…, around 2), −log(x) added below 0.9
 *   [2, 8)    lgamma(2 + s) rational in s, then log of the product (y+2)…(y+i−1)
 *   [8, 2^58) (x − 0.5)(log x − 1) + w(1/x), w a polynomial in 1/x²
 *   beyond    x·(log x − 1)
 *   x < 0     reflection: log(π / |x·sin(πx)|) − lgamma(−x), sign = sign of sin(πx)
 *             (glibc 2.36 uses a more precise table method, lgamma_neg.c, for
 *             −28 < x < −2; this reflection agrees with it to a few ulp except next to
 *             the zeros of lgamma there, where the absolute error stays ~1e-16)
 *   poles     0 and negative integers give +inf (sign −1 for −0)
 * tgamma — glibc's e_gamma_r.c (Drepper, Myers): exp(lgamma) near 1, a product of
 *   shifted arguments to bring x to [1.5, 2.5) or up to 12, then Stirling's series with
 *   the power computed as mant^x·2^(e·x) in double-double (mul_split, Dekker), and for
 *   x < 0 the reflection π / (x·sin(πx)·Γ(−x)) in double-double. Poles and −inf give
 *   NaN, ±0 give ±inf, overflow beyond 171.6…, underflow below −184.
 * exp is glibc's method (libm-exp.ts); log, pow, sin, cos are V8's, not glibc's: the results
 * agree with glibc to within a few ulp, bit for bit on the special values.
 */

import { expGlibc } from './libm-exp.js';
import { RT } from './runtime.js';

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

function words(x: number): [number, number] {
  f64[0] = x;
  return [u32[1] | 0, u32[0]];
}

const PI = 3.14159265358979311600e0;
const TWO52 = 4.503599627370496e15;
// lgamma around 2: y = 2 − x
const A = [
  7.72156649015328655494e-2, 3.22467033424113591611e-1, 6.73523010531292681824e-2, 2.05808084325167332806e-2, 7.38555086081402883957e-3, 2.89051383673415629091e-3,
  1.19270763183362067845e-3, 5.10069792153511336608e-4, 2.20862790713908385557e-4, 1.08011567247583939954e-4, 2.52144565451257326939e-5, 4.4864094961891516015e-5,
];
// around the minimum tc: lgamma(tc + y) = tf + y²·poly
const TC = 1.46163214496836224576e0;
const TF = -1.21486290535849611461e-1;
const TT = -3.63867699703950536541e-18; // −(tail of tf)
const T = [
  4.83836122723810047042e-1, -1.47587722994593911752e-1, 6.46249402391333854778e-2, -3.27885410759859649565e-2, 1.79706750811820387126e-2, -1.0314224129834143745e-2,
  6.10053870246291332635e-3, -3.6845201678113825676e-3, 2.2596478090061247225e-3, -1.40346469989232843813e-3, 8.81081882437654011382e-4, -5.38595305356740546715e-4,
  3.15632070903625950361e-4, -3.12754168375120860518e-4, 3.35529192635519073543e-4,
];
// around 1: y = x − 1, rational U/V
const U = [-7.72156649015328655494e-2, 6.32827064025093366517e-1, 1.45492250137234768737e0, 9.77717527963372745603e-1, 2.28963728064692451092e-1, 1.33810918536787660377e-2];
const V = [1, 2.45597793713041134822e0, 2.12848976379893395361e0, 7.69285150456672783825e-1, 1.04222645593369134254e-1, 3.2170924228242391181e-3];
// [2, 8): lgamma(2 + y) = y/2 + S(y)/R(y)
const S = [-7.72156649015328655494e-2, 2.14982415960608852501e-1, 3.25778796408930981787e-1, 1.46350472652464452805e-1, 2.6642270303363860956e-2, 1.84028451407337715652e-3, 3.19475326584100867617e-5];
const R = [1, 1.39200533467621045958e0, 7.21935547567138069525e-1, 1.71933865632803078993e-1, 1.86459191715652901344e-2, 7.77942496381893596434e-4, 7.32668430744625636189e-6];
// x ≥ 8: w(z), z = 1/x
const W = [4.18938533204672725052e-1, 8.33333333333329678849e-2, -2.7777777772877553647e-3, 7.936505586430195585e-4, -5.95187557450339963135e-4, 8.36339918996282139126e-4, -1.63092934096575273989e-3];

/** sin(πx) for negative non-integral x (or 0 for integers), without forming π·x for big x. */
function sinPi(x: number): number {
  const ix = words(x)[0] & 0x7fffffff;
  if (ix < 0x3fd00000) return Math.sin(PI * x);
  let y = -x;
  let n: number;
  const z = Math.floor(y);
  if (z !== y) {
    y *= 0.5;
    y = 2 * (y - Math.floor(y)); // |x| mod 2
    n = Math.trunc(y * 4);
  } else {
    if (ix >= 0x43400000) {
      y = 0;
      n = 0; // huge: even
    } else {
      const zz = ix < 0x43300000 ? y + TWO52 : y;
      n = words(zz)[1] & 1;
      y = n;
      n <<= 2;
    }
  }
  switch (n) {
    case 0:
      y = Math.sin(PI * y);
      break;
    case 1:
    case 2:
      y = Math.cos(PI * (0.5 - y));
      break;
    case 3:
    case 4:
      y = Math.sin(PI * (1 - y));
      break;
    case 5:
    case 6:
      y = -Math.cos(PI * (y - 1.5));
      break;
    default:
      y = Math.sin(PI * (y - 2));
  }
  return -y;
}

/** [log|Γ(x)|, sign of Γ(x)] (lgamma_r). */
export function lgammaR(x: number): [number, number] {
  const [hx, lx] = words(x);
  let sign = 1;
  const ix = hx & 0x7fffffff;
  if (ix >= 0x7ff00000) return [x * x, sign]; // inf → +inf, NaN
  if ((ix | lx) === 0) return [1 / Math.abs(x), hx < 0 ? -1 : 1];
  if (ix < 0x3b900000) {
    // |x| < 2^-70: −log|x|
    return hx < 0 ? [-Math.log(-x), -1] : [-Math.log(x), 1];
  }
  let nadj = 0;
  if (hx < 0) {
    if (ix >= 0x43300000) return [Infinity, 1]; // |x| ≥ 2^52: a negative integer
    const t = sinPi(x);
    if (t === 0) return [Infinity, 1]; // negative integer
    nadj = Math.log(PI / Math.abs(t * x));
    if (t < 0) sign = -1;
    x = -x;
  }
  let r: number;
  const ax = x;
  const aix = words(ax)[0] & 0x7fffffff;
  if (((aix - 0x3ff00000) | lx) === 0 || ((aix - 0x40000000) | lx) === 0) r = 0; // 1 and 2
  else if (aix < 0x40000000) r = lgammaBelow2(ax, aix);
  else if (aix < 0x40200000) {
    // [2, 8)
    const i = Math.trunc(ax);
    const y = ax - i;
    const p = y * (S[0] + y * (S[1] + y * (S[2] + y * (S[3] + y * (S[4] + y * (S[5] + y * S[6]))))));
    const q = R[0] + y * (R[1] + y * (R[2] + y * (R[3] + y * (R[4] + y * (R[5] + y * R[6])))));
    r = 0.5 * y + p / q;
    let z = 1;
    for (let k = i - 1; k >= 2; k--) z *= y + k; // (y+6)(y+5)…(y+2), in that order
    if (i >= 3) r += Math.log(z);
  } else if (aix < 0x43900000) {
    // [8, 2^58)
    const t = Math.log(ax);
    const z = 1 / ax;
    const y = z * z;
    const w = W[0] + z * (W[1] + y * (W[2] + y * (W[3] + y * (W[4] + y * (W[5] + y * W[6])))));
    r = (ax - 0.5) * (t - 1) + w;
  } else r = ax * (Math.log(ax) - 1);
  if (hx < 0) r = nadj - r;
  return [r, sign];
}

function lgammaBelow2(x: number, ix: number): number {
  let r: number;
  let y: number;
  let i: number;
  if (ix <= 0x3feccccc) {
    // x < 0.9: lgamma(x) = lgamma(x + 1) − log(x)
    r = -Math.log(x);
    if (ix >= 0x3fe76944) [y, i] = [1 - x, 0];
    else if (ix >= 0x3fcda661) [y, i] = [x - (TC - 1), 1];
    else [y, i] = [x, 2];
  } else {
    r = 0;
    if (ix >= 0x3ffbb4c3) [y, i] = [2 - x, 0]; // [1.7316, 2)
    else if (ix >= 0x3ff3b4c4) [y, i] = [x - TC, 1]; // [1.23, 1.73)
    else [y, i] = [x - 1, 2];
  }
  if (i === 0) {
    const z = y * y;
    const p1 = A[0] + z * (A[2] + z * (A[4] + z * (A[6] + z * (A[8] + z * A[10]))));
    const p2 = z * (A[1] + z * (A[3] + z * (A[5] + z * (A[7] + z * (A[9] + z * A[11])))));
    const p = y * p1 + p2;
    r += p - 0.5 * y;
  } else if (i === 1) {
    const z = y * y;
    const w = z * y;
    const p1 = T[0] + w * (T[3] + w * (T[6] + w * (T[9] + w * T[12])));
    const p2 = T[1] + w * (T[4] + w * (T[7] + w * (T[10] + w * T[13])));
    const p3 = T[2] + w * (T[5] + w * (T[8] + w * (T[11] + w * T[14])));
    const p = z * p1 - (TT - w * (p2 + y * p3));
    r += TF + p;
  } else {
    const p1 = y * (U[0] + y * (U[1] + y * (U[2] + y * (U[3] + y * (U[4] + y * U[5])))));
    const p2 = V[0] + y * (V[1] + y * (V[2] + y * (V[3] + y * (V[4] + y * V[5]))));
    r += -0.5 * y + p1 / p2;
  }
  return r;
}

// ---- tgamma ------------------------------------------------------------------------------

/** a·b exactly as hi + lo (Dekker's product: no fma in JavaScript, same result). */
function mulSplit(a: number, b: number): [number, number] {
  const hi = a * b;
  const C = 134217729; // 2^27 + 1
  let a1 = a * C;
  let b1 = b * C;
  a1 = a - a1 + a1;
  b1 = b - b1 + b1;
  const a2 = a - a1;
  const b2 = b - b1;
  return [hi, a1 * b1 - hi + a1 * b2 + a2 * b1 + a2 * b2];
}
function fastTwoSum(a: number, b: number): [number, number] {
  const hi = a + b;
  return [hi, b - (hi - a)];
}
function mulExpansion(h1: number, l1: number, h2: number, l2: number): [number, number] {
  const [hi, lo] = mulSplit(h1, h2);
  const [h, e] = fastTwoSum(hi, h1 * l2 + h2 * l1);
  return [h, lo + e];
}
function divExpansion(h1: number, l1: number, h2: number, l2: number): [number, number] {
  let hi = h1 / h2;
  const [a, b] = mulSplit(hi, h2);
  let lo = (h1 - a - b) / h2;
  const [h, e] = fastTwoSum(hi, (l1 * h2 - l2 * h1) / (h2 * h2));
  hi = h;
  lo += e;
  return fastTwoSum(hi, lo);
}

/** x(x+1)…(x+n−1) as ret·(1 + eps), x_eps the error of x (glibc's __gamma_product). */
function gammaProduct(x: number, xEps: number, n: number): [number, number] {
  let ret = x;
  let eps = xEps / x;
  for (let i = 1; i < n; i++) {
    eps += xEps / (x + i);
    const [h, lo] = mulSplit(ret, x + i);
    ret = h;
    eps += lo / ret;
  }
  return [ret, eps];
}

// B_2k / (2k(2k−1)), the coefficients of x^−(2k−1) in the exponent of Stirling's series
const STIRLING = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360];

/** Γ(x) for 0 < x < 184 as [r, e]: Γ(x) = r·2^e (e keeps the intermediates finite). */
function gammaPositive(x: number): [number, number] {
  if (x < 0.5) return [expGlibc(lgammaR(x + 1)[0]) / x, 0];
  if (x <= 1.5) return [expGlibc(lgammaR(x)[0]), 0];
  if (x < 6.5) {
    const n = Math.ceil(x - 1.5);
    const xAdj = x - n;
    const [prod, eps] = gammaProduct(xAdj, 0, n);
    return [expGlibc(lgammaR(xAdj)[0]) * prod * (1 + eps), 0];
  }
  let eps = 0;
  let xEps = 0;
  let xAdj = x;
  let prod = 1;
  if (x < 12) {
    const n = Math.ceil(12 - x);
    xAdj = x + n;
    xEps = x - (xAdj - n);
    [prod, eps] = gammaProduct(xAdj - n, xEps, n);
  }
  // Γ(xAdj + xEps)/(prod·(1 + eps)) by Stirling: xAdj^xAdj with a power of two split off
  const xInt = roundHalfAway(xAdj);
  const xFrac = xAdj - xInt;
  let [mant, log2] = RT.frexp(xAdj); // xAdj = mant·2^log2, mant in [0.5, 1)
  if (mant < Math.SQRT1_2) {
    log2--;
    mant *= 2;
  }
  const exp2Adj = log2 * xInt;
  let [h1, l1] = mulSplit(Math.pow(mant, xAdj), 2 ** (log2 * xFrac));
  const [h2, l2] = mulSplit(expGlibc(-xAdj), Math.sqrt((2 * Math.PI) / xAdj));
  [h1, l1] = mulExpansion(h1, l1, h2, l2);
  [h1, l1] = divExpansion(h1, l1, prod, prod * eps);
  let expAdj = xEps * Math.log(xAdj);
  let bsum = STIRLING[STIRLING.length - 1];
  const x2 = xAdj * xAdj;
  for (let i = STIRLING.length - 2; i >= 0; i--) bsum = bsum / x2 + STIRLING[i];
  expAdj += bsum / xAdj;
  l1 += h1 * Math.expm1(expAdj);
  return [h1 + l1, exp2Adj];
}

function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** r·2^e without overflowing or flushing early (scalbn). */
function scalbn(r: number, e: number): number {
  while (e > 1000) {
    r *= 2 ** 1000;
    e -= 1000;
  }
  while (e < -1000) {
    r *= 2 ** -1000;
    e += 1000;
    if (r === 0) return r;
  }
  if (e < -1022) {
    // one rounding at the end, as scalbn: scale to just above the subnormals first
    return r * 2 ** (e + 1022) * 2 ** -1022;
  }
  return r * 2 ** e;
}

export function tgamma(x: number): number {
  const [hx, lx] = words(x);
  if (((hx & 0x7fffffff) | lx) === 0) return 1 / x; // ±0 → ±inf
  if (hx < 0 && hx >>> 0 < 0xfff00000 && Math.round(x) === x) return NaN; // negative integer
  if (hx >>> 0 === 0xfff00000 && lx === 0) return NaN; // −inf
  if ((hx & 0x7ff00000) === 0x7ff00000) return x + x; // +inf, NaN
  if (x >= 172) return Infinity;
  if (x > 0) {
    // Γ(n) = (n−1)! exactly for n ≤ 12, as glibc gives it there (from 13 on its Stirling
    // path may be an ulp off, and so may ours through V8's pow/exp: (int)tgamma(8) must be 5040)
    if (x <= 12 && Math.trunc(x) === x) {
      let f = 1;
      for (let k = 2; k < x; k++) f *= k;
      return f;
    }
    const [r, e] = gammaPositive(x);
    return scalbn(r, e);
  }
  if (x >= -Number.EPSILON / 4) return 1 / x;
  const tx = Math.trunc(x);
  const sign = tx === 2 * Math.trunc(tx / 2) ? -1 : 1;
  if (x <= -184) return sign * 0;
  let frac = tx - x;
  if (frac > 0.5) frac = 1 - frac;
  const sinpix = frac <= 0.25 ? Math.sin(Math.PI * frac) : Math.cos(Math.PI * (0.5 - frac));
  const [g, e] = gammaPositive(-x);
  let [h1, l1] = mulSplit(sinpix, g);
  const [h2, l2a] = mulSplit(h1, x);
  const l2 = l2a + l1 * x;
  [h1, l1] = divExpansion(3.141592653589793, 1.2246467991473532e-16, h2, l2);
  const ret = scalbn(-h1, -e);
  return sign < 0 ? -ret : ret;
}
