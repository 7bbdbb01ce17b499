/**
 * Helpers that generated code calls by name (every key of RT is a local of each compiled
 * function): hybrid wide-integer arithmetic, conversions, aggregate and vector values,
 * floating-point functions with C semantics, and intrinsic bodies too big to inline.
 * Small, monomorphic functions, so V8 inlines the hot ones.
 */
import { Type, TypeKind } from '../ir/types.js';
import { Fault } from './errors.js';
import type { Frame, Machine } from './machine.js';
import type { Memory } from './memory.js';
import { bitcastValue, readRaw, writeRaw, numberToHalf, halfToNumber, numberToBfloat, bfloatToNumber } from './typed-memory.js';
import * as W from './wide.js';
import { expGlibc as expC } from './libm-exp.js';
import type { Wide } from './wide.js';

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);
const f64 = new Float64Array(1);
const u32x2 = new Uint32Array(f64.buffer);
const i32x2 = new Int32Array(f64.buffer);

function f2i(x: number): number {
  f32[0] = x;
  return i32[0];
}
function i2f(x: number): number {
  i32[0] = x;
  return f32[0];
}
function d2l(x: number): Wide {
  f64[0] = x;
  const r = i32x2[1] * 4294967296 + u32x2[0];
  if (r <= W.MAX_SAFE && r >= -W.MAX_SAFE) return r;
  return (BigInt(i32x2[1]) << 32n) | BigInt(u32x2[0]);
}
function l2d(x: Wide): number {
  if (typeof x === 'number') {
    u32x2[0] = x >>> 0;
    i32x2[1] = Math.floor(x / 4294967296);
  } else {
    const u = BigInt.asUintN(64, x);
    u32x2[0] = Number(u & 0xffffffffn);
    u32x2[1] = Number(u >> 32n);
  }
  return f64[0];
}

/** inttoptr from a wide integer: pointers are non-negative numbers. */
function i2p(a: Wide, bits: number): number {
  if (typeof a === 'number') return a >= 0 ? a : a + 2 ** bits;
  return Number(BigInt.asUintN(bits, a));
}
function idxN(a: Wide): number {
  return Number(a);
}

function loadT(M: Memory, p: number, t: Type, size: number, site: number): unknown {
  const o = M.check(p, size, false, 'load', site);
  return readRaw(M.rdv, o, t);
}
function storeT(M: Memory, p: number, v: unknown, t: Type, size: number, site: number): void {
  const o = M.check(p, size, true, 'store', site);
  writeRaw(M.rdv, o, v, t);
}

function ins1(a: unknown[], i: number, v: unknown): unknown[] {
  const c = a.slice();
  c[i] = v;
  return c;
}
function insPath(a: unknown[], path: number[], v: unknown): unknown[] {
  const root = a.slice();
  let cur = root;
  for (let k = 0; k < path.length - 1; k++) {
    const next = (cur[path[k]] as unknown[]).slice();
    cur[path[k]] = next;
    cur = next;
  }
  cur[path[path.length - 1]] = v;
  return root;
}
function elemOr0(v: unknown[], i: Wide): unknown {
  const x = v[Number(i)];
  return x === undefined ? 0 : x;
}
function insElem(v: unknown[], x: unknown, i: Wide): unknown[] {
  const c = v.slice();
  const k = Number(i);
  if (k >= 0 && k < c.length) c[k] = x;
  return c;
}

function roundHalf(x: number): number {
  return halfToNumber(numberToHalf(x));
}
function roundBfloat(x: number): number {
  return bfloatToNumber(numberToBfloat(x));
}
function exp2(x: number): number {
  return Math.pow(2, x);
}
function exp10(x: number): number {
  return Math.pow(10, x);
}
function fmod(a: number, b: number): number {
  return a % b;
}
/** C round(): halfway cases away from zero. */
function roundC(x: number): number {
  const t = Math.trunc(x);
  return Math.abs(x - t) >= 0.5 ? t + Math.sign(x) : t;
}
/** rint/nearbyint/roundeven in the default rounding mode: halfway cases to even. */
function rintC(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 4503599627370496) return x;
  const r = Math.round(x);
  if (r - x === 0.5 && r % 2 !== 0) return r - 1;
  if (r === 0) return x < 0 || Object.is(x, -0) ? -0 : 0;
  return r;
}
function fminC(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return Math.min(a, b);
}
function fmaxC(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return Math.max(a, b);
}
function copysign(a: number, b: number): number {
  f64[0] = b;
  const neg = (u32x2[1] & 0x80000000) !== 0;
  const m = Math.abs(a);
  return neg ? -m : m;
}
function ldexp(x: number, n: number): number {
  n = Math.max(-2200, Math.min(2200, n));
  while (n > 1000) {
    x *= 2 ** 1000;
    n -= 1000;
  }
  while (n < -1000) {
    x *= 2 ** -1000;
    n += 1000;
  }
  return x * 2 ** n;
}
function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  let e = Math.max(-1073, Math.floor(Math.log2(Math.abs(x))) + 1);
  let m = ldexp(x, -e);
  while (Math.abs(m) < 0.5) {
    m *= 2;
    e--;
  }
  while (Math.abs(m) >= 1) {
    m /= 2;
    e++;
  }
  return [m, e];
}

/** The llvm.is.fpclass bit of x (NaNs count as quiet). */
function fpclass(x: number): number {
  if (x !== x) return 2;
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  if (a === Infinity) return neg ? 4 : 512;
  if (a === 0) return neg ? 32 : 64;
  if (a < 2.2250738585072014e-308) return neg ? 16 : 128;
  return neg ? 8 : 256;
}

/** lround/llround (long is 64-bit). */
function lroundC(x: number): Wide {
  return W.fptosi64(roundC(x));
}
function lrintC(x: number): Wide {
  return W.fptosi64(rintC(x));
}
function fdimC(a: number, b: number): number {
  return a > b ? a - b : a !== a || b !== b ? NaN : 0;
}

/** Exact fused multiply-add (a·b + c rounded once), through bigint arithmetic. */
function fmaD(a: number, b: number, c: number): number {
  // NaN operands propagate in operand order, as x86's mulsd/addsd do in glibc's fma
  if (a !== a) return a;
  if (b !== b) return b;
  if (c !== c) return c;
  // a·b is exact (finite) even when the rounded product overflows: an infinite c wins
  if (Number.isFinite(a) && Number.isFinite(b) && !Number.isFinite(c)) return c;
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c) || a === 0 || b === 0) return a * b + c;
  const p = a * b;
  if (!Number.isFinite(p)) return p + c;
  const [ma, ea] = split(a);
  const [mb, eb] = split(b);
  let m = ma * mb;
  let e = ea + eb;
  if (c !== 0) {
    const [mc, ec] = split(c);
    if (ec >= e) m += mc << BigInt(ec - e);
    else {
      m = (m << BigInt(e - ec)) + mc;
      e = ec;
    }
  }
  if (m === 0n) return p + c; // exact zero: let IEEE pick the sign
  return bigTimesPow2(m, e);
}
function split(x: number): [bigint, number] {
  f64[0] = x;
  const hi = u32x2[1];
  const bexp = (hi >>> 20) & 0x7ff;
  let m = BigInt(hi & 0xfffff) * 4294967296n + BigInt(u32x2[0]);
  let e: number;
  if (bexp === 0) e = -1074;
  else {
    m += 1n << 52n;
    e = bexp - 1075;
  }
  return [hi & 0x80000000 ? -m : m, e];
}
/** m·2^e rounded to the nearest double (ties to even). */
function bigTimesPow2(m: bigint, e: number): number {
  const neg = m < 0n;
  let a = neg ? -m : m;
  const len = a.toString(2).length;
  // keep 53 significant bits (fewer when the result is subnormal)
  let keep = 53;
  const topExp = e + len - 1;
  if (topExp < -1022) keep = Math.max(0, 53 - (-1022 - topExp));
  if (len > keep) {
    const shift = BigInt(len - keep);
    const q = a >> shift;
    const r = a - (q << shift);
    const half = 1n << (shift - 1n);
    a = r > half || (r === half && (q & 1n) === 1n) ? q + 1n : q;
    e += len - keep;
  }
  const v = Number(a) * 2 ** Math.trunc(e / 2) * 2 ** (e - Math.trunc(e / 2));
  return neg ? -v : v;
}

function cttz32(a: number, bits: number): number {
  if (a === 0) return bits;
  return 31 - Math.clz32(a & -a);
}
function bswap16(a: number): number {
  return ((((a & 0xff) << 8) | ((a >> 8) & 0xff)) << 16) >> 16;
}
function bswap32(a: number): number {
  return ((a & 0xff) << 24) | ((a & 0xff00) << 8) | ((a >>> 8) & 0xff00) | (a >>> 24);
}
function bitrevW(a: Wide, bits: number): Wide {
  let x = W.ubig(a, bits);
  let r = 0n;
  for (let i = 0; i < bits; i++) {
    r = (r << 1n) | (x & 1n);
    x >>= 1n;
  }
  return bits <= 32 ? Number(BigInt.asIntN(bits, r)) : W.wrapW(r, bits);
}
function narrow(bits: number, x: bigint): Wide {
  if (bits === 1) return Number(BigInt.asUintN(1, x));
  return bits <= 32 ? Number(BigInt.asIntN(bits, x)) : W.wrapW(x, bits);
}
function fshl(a: Wide, b: Wide, c: Wide, bits: number): Wide {
  if (bits <= 32 && typeof a === 'number' && typeof b === 'number' && typeof c === 'number') {
    const s = (bits === 32 ? c >>> 0 : c & (2 ** bits - 1)) % bits;
    if (s === 0) return a;
    const ua = bits === 32 ? a >>> 0 : a & (2 ** bits - 1);
    const ub = bits === 32 ? b >>> 0 : b & (2 ** bits - 1);
    const r = (ua << s) | (ub >>> (bits - s));
    return bits === 32 ? r | 0 : (r << (32 - bits)) >> (32 - bits);
  }
  const s = BigInt(Number(W.ubig(c, bits) % BigInt(bits)));
  const x = (W.ubig(a, bits) << BigInt(bits)) | W.ubig(b, bits);
  return narrow(bits, (x << s) >> BigInt(bits));
}
function fshr(a: Wide, b: Wide, c: Wide, bits: number): Wide {
  if (bits <= 32 && typeof a === 'number' && typeof b === 'number' && typeof c === 'number') {
    const s = (bits === 32 ? c >>> 0 : c & (2 ** bits - 1)) % bits;
    if (s === 0) return b;
    const ua = bits === 32 ? a >>> 0 : a & (2 ** bits - 1);
    const ub = bits === 32 ? b >>> 0 : b & (2 ** bits - 1);
    const r = (ub >>> s) | (ua << (bits - s));
    return bits === 32 ? r | 0 : (r << (32 - bits)) >> (32 - bits);
  }
  const s = BigInt(Number(W.ubig(c, bits) % BigInt(bits)));
  const x = (W.ubig(a, bits) << BigInt(bits)) | W.ubig(b, bits);
  return narrow(bits, x >> s);
}

/** {s,u}{add,sub,mul}.with.overflow: [result, overflowed]. k: 0 sadd 1 uadd 2 ssub 3 usub 4 smul 5 umul. */
function withOverflow(k: number, a: Wide, b: Wide, bits: number): [Wide, number] {
  const signed = (k & 1) === 0;
  const x = signed ? W.big(a) : W.ubig(a, bits);
  const y = signed ? W.big(b) : W.ubig(b, bits);
  const r = k < 2 ? x + y : k < 4 ? x - y : x * y;
  const fits = signed ? BigInt.asIntN(bits, r) === r : BigInt.asUintN(bits, r) === r;
  return [narrow(bits, r), fits ? 0 : 1];
}
/** Saturating arithmetic. k: 0 sadd 1 uadd 2 ssub 3 usub 4 sshl 5 ushl. */
function saturate(k: number, a: Wide, b: Wide, bits: number): Wide {
  const signed = (k & 1) === 0;
  const x = signed ? W.big(a) : W.ubig(a, bits);
  const y = k >= 4 ? W.ubig(b, bits) : signed ? W.big(b) : W.ubig(b, bits);
  const r = k < 2 ? x + y : k < 4 ? x - y : x << y;
  const lo = signed ? -(1n << BigInt(bits - 1)) : 0n;
  const hi = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  const c = r < lo ? lo : r > hi ? hi : r;
  return narrow(bits, c);
}

function reduce(kind: string, v: unknown[], bits: number, isF32: boolean): unknown {
  if (bits === 0) {
    // floating max/min
    let acc = v[0] as number;
    for (let i = 1; i < v.length; i++) {
      const x = v[i] as number;
      acc = kind === 'fmax' ? fmaxC(acc, x) : kind === 'fmin' ? fminC(acc, x) : kind === 'fmaximum' ? Math.max(acc, x) : Math.min(acc, x);
    }
    return isF32 ? Math.fround(acc) : acc;
  }
  const unsigned = kind === 'umax' || kind === 'umin';
  let acc = unsigned ? W.ubig(v[0] as Wide, bits) : W.big(v[0] as Wide);
  for (let i = 1; i < v.length; i++) {
    const x = unsigned ? W.ubig(v[i] as Wide, bits) : W.big(v[i] as Wide);
    switch (kind) {
      case 'add': acc += x; break;
      case 'mul': acc *= x; break;
      case 'and': acc &= x; break;
      case 'or': acc |= x; break;
      case 'xor': acc ^= x; break;
      case 'smax': case 'umax': if (x > acc) acc = x; break;
      default: if (x < acc) acc = x; break;
    }
  }
  return narrow(bits, acc);
}
function reduceF(kind: string, start: number, v: number[], isF32: boolean): number {
  let acc = start;
  for (let i = 0; i < v.length; i++) {
    acc = kind === 'fadd' ? acc + v[i] : acc * v[i];
    if (isF32) acc = Math.fround(acc);
  }
  return acc;
}

function ptrmask(p: number, m: Wide): number {
  const r = W.and64(p, m);
  return typeof r === 'number' ? r : Number(BigInt.asUintN(64, r));
}

/**
 * va_start: lays the variadic arguments out in an 8-byte-slot overflow area (an alloca of
 * the current frame) and points the x86-64 va_list at it with the register areas marked
 * exhausted, so clang's inline va_arg code reads them in order.
 */
function vaStart(S: Machine, fr: Frame, ap: number, nFixed: number, site: number): void {
  const M = S.mem;
  const args = fr.a;
  const n = Math.max(0, countArgs(fr) - nFixed);
  const area = M.alloca(Math.max(8, n * 8), site);
  for (let k = 0; k < n; k++) {
    const v = args[nFixed + k];
    const code = fr.va !== null ? fr.va[k] : typeof v === 'number' && !Number.isInteger(v) ? 2 : 1;
    const p = area + k * 8;
    switch (code) {
      case 0:
      case 1:
        M.st64(p, v as Wide, site);
        break;
      case 2:
        M.stf64(p, v as number, site);
        break;
      case 3:
        M.stp(p, v as number, site);
        break;
      default:
        M.st64(p, 0, site);
    }
  }
  M.st32(ap, 48, site);
  M.st32(ap + 4, 176, site);
  M.stp(ap + 8, area, site);
  M.stp(ap + 16, 0, site);
}
function countArgs(fr: Frame): number {
  return fr.va !== null ? fr.va.length + (fr.info !== null ? fr.info.fn.fnType.params.length : 0) : fr.info !== null ? fr.info.fn.fnType.params.length : 0;
}

/** llvm.load.relative: base + the 32-bit offset at base+off (exact through recorded relocations). */
function loadRelative(S: Machine, base: number, off: Wide, site: number): number {
  const addr = base + Number(off);
  const r = S.relocs.get(addr);
  if (r !== undefined) return base + r;
  return base + S.mem.ld32(addr, site);
}

function atomicRMW(M: Memory, p: number, v: Wide, op: string, t: Type, site: number): unknown {
  const size = t.kind === TypeKind.Int ? (t.bits + 7) >> 3 : t.kind === TypeKind.Float ? 4 : 8;
  const old = loadT(M, p, t, size, site) as Wide;
  let nv: unknown;
  if (t.kind === TypeKind.Int) {
    const bits = t.bits;
    const x = W.big(old);
    const y = W.big(v);
    const ux = W.ubig(old, bits);
    const uy = W.ubig(v, bits);
    let r: bigint;
    switch (op) {
      case 'add': r = x + y; break;
      case 'sub': r = x - y; break;
      case 'and': r = x & y; break;
      case 'nand': r = ~(x & y); break;
      case 'or': r = x | y; break;
      case 'xor': r = x ^ y; break;
      case 'max': r = x > y ? x : y; break;
      case 'min': r = x < y ? x : y; break;
      case 'umax': r = ux > uy ? ux : uy; break;
      case 'umin': r = ux < uy ? ux : uy; break;
      case 'uinc_wrap': r = ux >= uy ? 0n : ux + 1n; break;
      case 'udec_wrap': r = ux === 0n || ux > uy ? uy : ux - 1n; break;
      default: r = y;
    }
    nv = narrow(bits, r);
  } else if (t.kind === TypeKind.Ptr) {
    nv = v;
  } else {
    const a = old as number;
    const b = v as number;
    const r = op === 'fadd' ? a + b : op === 'fsub' ? a - b : op === 'fmax' ? fmaxC(a, b) : op === 'fmin' ? fminC(a, b) : b;
    nv = t.kind === TypeKind.Float ? Math.fround(r) : r;
  }
  storeT(M, p, nv, t, size, site);
  return old;
}
function cmpXchg(M: Memory, p: number, cmp: unknown, nv: unknown, t: Type, site: number): [unknown, number] {
  const size = t.kind === TypeKind.Int ? (t.bits + 7) >> 3 : 8;
  const old = loadT(M, p, t, size, site);
  if (old === cmp) {
    storeT(M, p, nv, t, size, site);
    return [old, 1];
  }
  return [old, 0];
}

/** The callee's private copy of a byval argument. */
function byvalCopy(M: Memory, p: number, size: number): number {
  const q = M.alloca(size, -1);
  M.memcpy(q, p, size, -1, 'byval copy');
  return q;
}

function fault(msg: string, site: number): never {
  throw new Fault(msg, site);
}

export const RT = {
  add64: W.add64, sub64: W.sub64, mul64: W.mul64, sdiv64: W.sdiv64, udiv64: W.udiv64, srem64: W.srem64, urem64: W.urem64,
  shl64: W.shl64, lshr64: W.lshr64, ashr64: W.ashr64, and64: W.and64, or64: W.or64, xor64: W.xor64,
  ult: W.ult, trunc32: W.trunc32, truncW: W.truncW, zextW: W.zextW, binW: W.binW,
  fptosi64: W.fptosi64, fptoiW: W.fptoiW, fptoui64: W.fptoui64, fptosi32: W.fptosi32, fptoui32: W.fptoui32,
  sitofpD: W.sitofpD, sitofpF: W.sitofpF, uitofpD: W.uitofpD, uitofpF: W.uitofpF,
  popcount32: W.popcount32, ctpopW: W.ctpopW, ctlzW: W.ctlzW, cttzW: W.cttzW, bswapW: W.bswapW,
  f2i, i2f, d2l, l2d, i2p, idxN, loadT, storeT, ins1, insPath, elemOr0, insElem, bitcastValue,
  roundHalf, roundBfloat, expC, exp2, exp10, lroundC, lrintC, fdimC, fpclass, fmod, roundC, rintC, fminC, fmaxC, copysign, ldexp, frexp, fmaD,
  cttz32, bswap16, bswap32, bitrevW, fshl, fshr, withOverflow, saturate, reduce, reduceF, ptrmask,
  vaStart, loadRelative, atomicRMW, cmpXchg, fault, byvalCopy,
};
