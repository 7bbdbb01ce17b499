/**
 * Integers wider than 32 bits (i33 … i128, i64 above all) as "hybrid" JS values.
 *
 * Representation (canonical, so `===` is equality and `<` is signed order, even across
 * the two kinds, since JS compares numbers with bigints exactly):
 *  - a JS number when the signed value is a safe integer (|v| ≤ 2^53 − 1), never −0;
 *  - otherwise a bigint, normalised with BigInt.asIntN(bits).
 * The common case (sign-extended indices, sizes, counters) stays on the number path; each
 * helper tries exact double arithmetic first (exact whenever the rounded result is still a
 * safe integer, since rounding is monotone) and falls back to bigint arithmetic.
 *
 * Helpers named `…64` are for i64; `…W(…, bits)` are the generic slow forms for other widths.
 */

export type Wide = number | bigint;

export const MAX_SAFE = 9007199254740991;
const MAX_SAFE_N = 9007199254740991n;
const TWO32 = 4294967296;

/** Canonical form of a bigint already known to be in the signed range of `bits`. */
export function canonBig(x: bigint): Wide {
  return x >= -MAX_SAFE_N && x <= MAX_SAFE_N ? Number(x) : x;
}
export function wrap64(x: bigint): Wide {
  return canonBig(BigInt.asIntN(64, x));
}
export function wrapW(x: bigint, bits: number): Wide {
  return canonBig(BigInt.asIntN(bits, x));
}
export function big(a: Wide): bigint {
  return typeof a === 'bigint' ? a : BigInt(a);
}
/** The unsigned reading of an i`bits` value, as a bigint. */
export function ubig(a: Wide, bits: number): bigint {
  return BigInt.asUintN(bits, typeof a === 'bigint' ? a : BigInt(a));
}
/** Canonicalises any JS integer (number possibly unsafe, or bigint) into i`bits`. */
export function canonAny(a: Wide, bits: number): Wide {
  if (typeof a === 'number') {
    if (a <= MAX_SAFE && a >= -MAX_SAFE && bits >= 54) return a + 0;
    return wrapW(BigInt(Math.trunc(a)), bits);
  }
  return wrapW(a, bits);
}

// ---- i64 ---------------------------------------------------------------------------------

export function add64(a: Wide, b: Wide): Wide {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
  }
  return wrap64(big(a) + big(b));
}
export function sub64(a: Wide, b: Wide): Wide {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
  }
  return wrap64(big(a) - big(b));
}
export function mul64(a: Wide, b: Wide): Wide {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r + 0; // + 0 turns −0 into 0
  }
  return wrap64(big(a) * big(b));
}
/** Callers check b ≠ 0. Math.trunc(a / b) is exact for safe integers (|a| < 2^53 keeps the quotient away from integer boundaries by more than half an ulp). */
export function sdiv64(a: Wide, b: Wide): Wide {
  if (typeof a === 'number' && typeof b === 'number') return Math.trunc(a / b) + 0;
  return wrap64(big(a) / big(b));
}
export function srem64(a: Wide, b: Wide): Wide {
  if (typeof a === 'number' && typeof b === 'number') return (a % b) + 0;
  return wrap64(big(a) % big(b));
}
export function udiv64(a: Wide, b: Wide): Wide {
  if (typeof a === 'number' && typeof b === 'number' && a >= 0 && b > 0) return Math.floor(a / b);
  return wrap64(ubig(a, 64) / ubig(b, 64));
}
export function urem64(a: Wide, b: Wide): Wide {
  if (typeof a === 'number' && typeof b === 'number' && a >= 0 && b > 0) return a % b;
  return wrap64(ubig(a, 64) % ubig(b, 64));
}

const POW2 = new Float64Array(65);
for (let i = 0; i <= 64; i++) POW2[i] = 2 ** i;

export function shl64(a: Wide, b: Wide): Wide {
  const s = Number(b) & 63;
  if (typeof a === 'number') {
    const r = a * POW2[s];
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
  }
  return wrap64(big(a) << BigInt(s));
}
export function ashr64(a: Wide, b: Wide): Wide {
  const s = Number(b) & 63;
  if (typeof a === 'number') return Math.floor(a / POW2[s]);
  return canonBig(a >> BigInt(s));
}
export function lshr64(a: Wide, b: Wide): Wide {
  const s = Number(b) & 63;
  if (typeof a === 'number' && a >= 0) return Math.floor(a / POW2[s]);
  return wrap64(BigInt.asUintN(64, big(a)) >> BigInt(s));
}

/** Splits a safe integer into (hi: int32 in [−2^21, 2^21), lo: uint32). */
function hiOf(a: number): number {
  return Math.floor(a / TWO32);
}
function joinHiLo(hi: number, lo: number): Wide {
  const r = hi * TWO32 + (lo >>> 0);
  if (r >= -MAX_SAFE) return r;
  return BigInt(hi) * 4294967296n + BigInt(lo >>> 0);
}
export function and64(a: Wide, b: Wide): Wide {
  if (typeof a === 'number' && typeof b === 'number') {
    if ((a | 0) === a && (b | 0) === b) return a & b;
    return joinHiLo(hiOf(a) & hiOf(b), a & b);
  }
  return canonBig(big(a) & big(b));
}
export function or64(a: Wide, b: Wide): Wide {
  if (typeof a === 'number' && typeof b === 'number') {
    if ((a | 0) === a && (b | 0) === b) return a | b;
    return joinHiLo(hiOf(a) | hiOf(b), a | b);
  }
  return canonBig(big(a) | big(b));
}
export function xor64(a: Wide, b: Wide): Wide {
  if (typeof a === 'number' && typeof b === 'number') {
    if ((a | 0) === a && (b | 0) === b) return a ^ b;
    return joinHiLo(hiOf(a) ^ hiOf(b), a ^ b);
  }
  return canonBig(big(a) ^ big(b));
}

/** Unsigned less-than for any width: a negative value reads as a large unsigned one. */
export function ult(a: Wide, b: Wide): boolean {
  return a >= 0 === b >= 0 ? a < b : a >= 0;
}

/** trunc to i32 (then narrower widths shift the result). */
export function trunc32(a: Wide): number {
  return typeof a === 'number' ? a | 0 : Number(BigInt.asIntN(32, a));
}

// ---- generic widths (slow path, rare: i128 arithmetic, i33 … i63 from instcombine) ---------

export function binW(op: number, a: Wide, b: Wide, bits: number): Wide {
  const x = big(a);
  const y = big(b);
  switch (op) {
    case 0: return wrapW(x + y, bits);
    case 1: return wrapW(x - y, bits);
    case 2: return wrapW(x * y, bits);
    case 3: return wrapW(x / y, bits); // sdiv
    case 4: return wrapW(BigInt.asUintN(bits, x) / BigInt.asUintN(bits, y), bits); // udiv
    case 5: return wrapW(x % y, bits); // srem
    case 6: return wrapW(BigInt.asUintN(bits, x) % BigInt.asUintN(bits, y), bits); // urem
    case 7: return wrapW(x << BigInt(Number(y) % bits), bits); // shl
    case 8: return wrapW(BigInt.asUintN(bits, x) >> BigInt(Number(y) % bits), bits); // lshr
    case 9: return wrapW(x >> BigInt(Number(y) % bits), bits); // ashr
    case 10: return wrapW(x & y, bits);
    case 11: return wrapW(x | y, bits);
    default: return wrapW(x ^ y, bits);
  }
}
export const BIN_ADD = 0, BIN_SUB = 1, BIN_MUL = 2, BIN_SDIV = 3, BIN_UDIV = 4, BIN_SREM = 5, BIN_UREM = 6,
  BIN_SHL = 7, BIN_LSHR = 8, BIN_ASHR = 9, BIN_AND = 10, BIN_OR = 11, BIN_XOR = 12;

/** zext of an i`from` value (from > 32) to a wider type. */
export function zextW(a: Wide, from: number): Wide {
  if (typeof a === 'number' && a >= 0) return a;
  return canonBig(BigInt.asUintN(from, big(a)));
}
/** trunc of a wide value to i`to` (to > 32). */
export function truncW(a: Wide, to: number): Wide {
  if (typeof a === 'number') {
    if (to >= 54) return a;
    const lim = 2 ** (to - 1);
    if (a >= -lim && a < lim) return a;
  }
  return wrapW(big(a), to);
}

// ---- float conversions ----------------------------------------------------------------------

const TWO63 = 9223372036854775808;
const MIN64 = -9223372036854775808n;

/** fptosi to i64, as x86's cvttsd2si (out of range and NaN give INT64_MIN). */
export function fptosi64(x: number): Wide {
  if (x > -TWO63 - 1025 && x < TWO63) {
    const t = Math.trunc(x);
    if (t <= MAX_SAFE && t >= -MAX_SAFE) return t + 0;
    return BigInt(t);
  }
  return MIN64;
}
/** fptoui to i64 (values in [2^63, 2^64) wrap to negative canonical values). */
export function fptoui64(x: number): Wide {
  if (x >= TWO63 && x < 18446744073709551616) return canonBig(BigInt(Math.trunc(x)) - 18446744073709551616n);
  return fptosi64(x);
}
/** fptosi/fptoui to widths above 64 (NaN and out of range give the minimum value). */
export function fptoiW(x: number, bits: number, signed: boolean): Wide {
  const lim = 2 ** (signed ? bits - 1 : bits);
  if (x > (signed ? -lim - 1 : -1) && x < lim && x === x) return wrapW(BigInt(Math.trunc(x)), bits);
  return wrapW(-(1n << BigInt(bits - 1)), bits);
}
/** fptosi/fptoui to i32 and narrower (before narrowing), as x86 does. */
export function fptosi32(x: number): number {
  return x > -2147483649 && x < 2147483648 ? x | 0 : -2147483648;
}
export function fptoui32(x: number): number {
  if (x > -1 && x < 4294967296) return x >>> 0 | 0;
  const w = fptosi64(x);
  return trunc32(w);
}
/** sitofp from a wide value to double. */
export function sitofpD(a: Wide): number {
  return typeof a === 'number' ? a : Number(a);
}
/** uitofp from i`bits` (> 32) to double. */
export function uitofpD(a: Wide, bits: number): number {
  if (typeof a === 'number' && a >= 0) return a;
  return Number(ubig(a, bits));
}
/** Rounds a bigint to the nearest float (ties to even) without double rounding. */
export function bigToF32(x: bigint): number {
  const neg = x < 0n;
  const m = neg ? -x : x;
  const len = m.toString(2).length;
  if (len <= 24) return Math.fround(neg ? -Number(m) : Number(m));
  const shift = BigInt(len - 24);
  const q = m >> shift;
  const rem = m - (q << shift);
  const half = 1n << (shift - 1n);
  let r = q;
  if (rem > half || (rem === half && (q & 1n) === 1n)) r = q + 1n;
  const v = Number(r) * 2 ** (len - 24);
  return Math.fround(neg ? -v : v);
}
export function sitofpF(a: Wide): number {
  if (typeof a === 'number') {
    if (a <= 16777216 && a >= -16777216) return Math.fround(a);
    return bigToF32(BigInt(a));
  }
  return bigToF32(a);
}
export function uitofpF(a: Wide, bits: number): number {
  if (typeof a === 'number' && a >= 0) return sitofpF(a);
  return bigToF32(ubig(a, bits));
}

// ---- bit operations --------------------------------------------------------------------------

export function ctpopW(a: Wide, bits: number): number {
  let x = ubig(a, bits);
  let n = 0;
  while (x !== 0n) {
    n += popcount32(Number(x & 0xffffffffn));
    x >>= 32n;
  }
  return n;
}
export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
export function ctlzW(a: Wide, bits: number): number {
  const x = ubig(a, bits);
  if (x === 0n) return bits;
  return bits - x.toString(2).length;
}
export function cttzW(a: Wide, bits: number): number {
  let x = ubig(a, bits);
  if (x === 0n) return bits;
  let n = 0;
  while ((x & 0xffffffffn) === 0n) {
    x >>= 32n;
    n += 32;
  }
  const lo = Number(x & 0xffffffffn);
  return n + (31 - Math.clz32(lo & -lo));
}
export function bswapW(a: Wide, bits: number): Wide {
  let x = ubig(a, bits);
  let r = 0n;
  for (let i = 0; i < bits / 8; i++) {
    r = (r << 8n) | (x & 0xffn);
    x >>= 8n;
  }
  return wrapW(r, bits);
}
