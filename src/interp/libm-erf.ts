/**
 * erf and erfc for the interpreter, by the method of FDLIBM's s_erf.c (Sun, 1993) as glibc
 * 2.36 builds it for x86-64 double (sysdeps/ieee754/dbl-64/s_erf.c, with N. Shimizu's
 * pipelined polynomial evaluation, whose rounding order we follow). Written anew here;
 * the coefficients are the published minimax ones.
 *
 * Method, by |x|:
 *   [0, 0.84375)     erf = x + x·R(x²), R = P/Q rational (erfc = 1 − erf, or
 *                    0.5 − (x·R + (x − 0.5)) above 1/4, to keep bits)
 *   [0.84375, 1.25)  erf = ±(c + P1(s)/Q1(s)), s = |x| − 1, c = erf(1) to 24 bits
 *   [1.25, 28)       erfc = exp(−z² − 0.5625)·exp((z − x)(z + x) + R/S) / x, with z
 *                    = x with its low 32 bits cleared (so z² is exact), R/S rational in
 *                    1/x², two sets of coefficients split at 1/0.35
 *   beyond           ±1 and 0/2 (rounded as 1 − tiny, tiny², 2 − tiny)
 * Invariants: erf(−x) = −erf(x), erfc(−x) = 2 − erfc(x); NaN in, NaN out; erf(±0) = ±0.
 * The exponentials are glibc's exp method (libm-exp.ts), so most results are glibc's bits.
 */

import { expGlibc } from './libm-exp.js';

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** The high 32 bits of x's representation, as a signed integer (sign, exponent, top of mantissa). */
function high(x: number): number {
  f64[0] = x;
  return u32[1] | 0;
}
/** x with the low 32 bits of its representation cleared. */
function clearLow(x: number): number {
  f64[0] = x;
  u32[0] = 0;
  return f64[0];
}

const TINY = 1e-300;
const ERX = 8.45062911510467529297e-1; // erf(1) rounded to single precision
const EFX = 1.28379167095512586316e-1; // 2/sqrt(pi) − 1
// erf on [0, 0.84375): R(z) = P(z)/Q(z), z = x²
const PP = [1.28379167095512558561e-1, -3.2504210724700149937e-1, -2.84817495755985104766e-2, -5.77027029648944159157e-3, -2.37630166566501626084e-5];
const QQ = [0, 3.97917223959155352819e-1, 6.50222499887672944485e-2, 5.08130628187576562776e-3, 1.32494738004321644526e-4, -3.9602282787753681232e-6];
// erf on [0.84375, 1.25): P1(s)/Q1(s)
const PA = [-2.36211856075265944077e-3, 4.14856118683748331666e-1, -3.72207876035701323847e-1, 3.18346619901161753674e-1, -1.10894694282396677476e-1, 3.54783043256182359371e-2, -2.166375594868790843e-3];
const QA = [0, 1.06420880400844228286e-1, 5.40397917702171048937e-1, 7.18286544141962662868e-2, 1.26171219808761642112e-1, 1.36370839120290507362e-2, 1.1984499846799107417e-2];
// erfc on [1.25, 1/0.35): R1(s)/S1(s), s = 1/x²
const RA = [-9.86494403484714822705e-3, -6.93858572707181764372e-1, -1.05586262253232909814e1, -6.23753324503260060396e1, -1.62396669462573470355e2, -1.84605092906711035994e2, -8.12874355063065934246e1, -9.81432934416914548592];
const SA = [0, 1.96512716674392571292e1, 1.376577541435190426e2, 4.34565877475229228821e2, 6.45387271733267880336e2, 4.29008140027567833386e2, 1.08635005541779435134e2, 6.57024977031928170135, -6.04244152148580987438e-2];
// erfc on [1/0.35, 28): R2(s)/S2(s)
const RB = [-9.86494292470009928597e-3, -7.99283237680523006574e-1, -1.77579549177547519889e1, -1.60636384855821916062e2, -6.37566443368389627722e2, -1.02509513161107724954e3, -4.83519191608651397019e2];
const SB = [0, 3.03380607434824582924e1, 3.25792512996573918826e2, 1.53672958608443695994e3, 3.19985821950859553908e3, 2.55305040643316442583e3, 4.74528541206955367215e2, -2.24409524465858183362e1];

/** R(x²)/Q(x²) for |x| < 0.84375, evaluated in pairs (the pipelined order). */
function smallRatio(x: number): number {
  const z = x * x;
  const r1 = PP[0] + z * PP[1];
  const z2 = z * z;
  const r2 = PP[2] + z * PP[3];
  const z4 = z2 * z2;
  const s1 = 1 + z * QQ[1];
  const s2 = QQ[2] + z * QQ[3];
  const s3 = QQ[4] + z * QQ[5];
  const r = r1 + z2 * r2 + z4 * PP[4];
  const s = s1 + z2 * s2 + z4 * s3;
  return r / s;
}

/** P1(s)/Q1(s) for s = |x| − 1, 0.84375 ≤ |x| < 1.25. */
function nearOneRatio(ax: number): number {
  const s = ax - 1;
  const p1 = PA[0] + s * PA[1];
  const s2 = s * s;
  const q1 = 1 + s * QA[1];
  const s4 = s2 * s2;
  const p2 = PA[2] + s * PA[3];
  const s6 = s4 * s2;
  const q2 = QA[2] + s * QA[3];
  const p3 = PA[4] + s * PA[5];
  const q3 = QA[4] + s * QA[5];
  const p = p1 + s2 * p2 + s4 * p3 + s6 * PA[6];
  const q = q1 + s2 * q2 + s4 * q3 + s6 * QA[6];
  return p / q;
}

/** exp(−ax² − 0.5625 + R/S(1/ax²)) = erfc(ax)·ax for 1.25 ≤ ax < 28 (`below`: ax < 1/0.35). */
function tail(ax: number, below: boolean): number {
  const s = 1 / (ax * ax);
  let R: number;
  let S: number;
  if (below) {
    const r1 = RA[0] + s * RA[1];
    const s2 = s * s;
    const t1 = 1 + s * SA[1];
    const s4 = s2 * s2;
    const r2 = RA[2] + s * RA[3];
    const s6 = s4 * s2;
    const t2 = SA[2] + s * SA[3];
    const s8 = s4 * s4;
    const r3 = RA[4] + s * RA[5];
    const t3 = SA[4] + s * SA[5];
    const r4 = RA[6] + s * RA[7];
    const t4 = SA[6] + s * SA[7];
    R = r1 + s2 * r2 + s4 * r3 + s6 * r4;
    S = t1 + s2 * t2 + s4 * t3 + s6 * t4 + s8 * SA[8];
  } else {
    const r1 = RB[0] + s * RB[1];
    const s2 = s * s;
    const t1 = 1 + s * SB[1];
    const s4 = s2 * s2;
    const r2 = RB[2] + s * RB[3];
    const s6 = s4 * s2;
    const t2 = SB[2] + s * SB[3];
    const r3 = RB[4] + s * RB[5];
    const t3 = SB[4] + s * SB[5];
    const t4 = SB[6] + s * SB[7];
    R = r1 + s2 * r2 + s4 * r3 + s6 * RB[6];
    S = t1 + s2 * t2 + s4 * t3 + s6 * t4;
  }
  const z = clearLow(ax);
  return expGlibc(-z * z - 0.5625) * expGlibc((z - ax) * (z + ax) + R / S);
}

export function erf(x: number): number {
  const hx = high(x);
  const ix = hx & 0x7fffffff;
  if (ix >= 0x7ff00000) return (hx < 0 ? -1 : 1) + 1 / x; // NaN stays NaN, ±inf → ±1
  if (ix < 0x3feb0000) {
    if (ix < 0x3e300000) {
      // |x| < 2^-28: erf(x) ≈ x·2/sqrt(pi); scaled below the normal range so no bit is lost
      if (ix < 0x00800000) return 0.0625 * (16 * x + 16 * EFX * x);
      return x + EFX * x;
    }
    return x + x * smallRatio(x);
  }
  if (ix < 0x3ff40000) {
    const pq = nearOneRatio(Math.abs(x));
    return hx >= 0 ? ERX + pq : -ERX - pq;
  }
  if (ix >= 0x40180000) return hx >= 0 ? 1 - TINY : TINY - 1; // |x| ≥ 6
  const ax = Math.abs(x);
  const r = tail(ax, ix < 0x4006db6e);
  return hx >= 0 ? 1 - r / ax : r / ax - 1;
}

export function erfc(x: number): number {
  const hx = high(x);
  const ix = hx & 0x7fffffff;
  if (ix >= 0x7ff00000) return (hx < 0 ? 2 : 0) + 1 / x; // NaN stays NaN, +inf → 0, −inf → 2
  if (ix < 0x3feb0000) {
    if (ix < 0x3c700000) return 1 - x; // |x| < 2^-56
    const y = smallRatio(x);
    if (hx < 0x3fd00000) return 1 - (x + x * y); // x < 1/4 (negative x included)
    let r = x * y;
    r += x - 0.5;
    return 0.5 - r;
  }
  if (ix < 0x3ff40000) {
    const pq = nearOneRatio(Math.abs(x));
    if (hx >= 0) return 1 - ERX - pq;
    return 1 + (ERX + pq);
  }
  if (ix < 0x403c0000) {
    // |x| < 28
    if (hx < 0 && ix >= 0x40180000) return 2 - TINY; // x ≤ −6
    const ax = Math.abs(x);
    const r = tail(ax, ix < 0x4006db6d);
    return hx > 0 ? r / ax : 2 - r / ax;
  }
  return hx > 0 ? TINY * TINY : 2 - TINY;
}
