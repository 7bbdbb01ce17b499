/**
 * Algorithms behind the interpreter's libc table (split from libc.ts), as glibc does them
 * (x86-64, C locale): rand as glibc's random_r TYPE_3 additive feedback generator, the
 * ctype tables in glibc's bit layout (indexable from −128 to 255), qsort as a stable merge
 * sort like glibc 2.36's msort calling back into the program, strtol/strtod and the
 * comparison functions.
 */
import type { Machine } from './machine.js';
import { AK, ID_UNIT, TWO32 } from './memory.js';
import { BytesSource, isSpace, parseCFloat, scanFloatText, scanInteger } from './scanf.js';
import { SITE, num, i32, size, wide } from './libc-args.js';

// ---- rand: glibc random_r TYPE_3 ---------------------------------------------------------------

export interface RandState {
  r: Int32Array;
  f: number;
  b: number;
}
export function seedRand(seed: number): RandState {
  const r = new Int32Array(34);
  let s = seed >>> 0;
  if (s === 0) s = 1;
  r[0] = s | 0;
  let word = s | 0;
  for (let i = 1; i < 31; i++) {
    // word = 16807 * word % 2147483647 computed as glibc does (Schrage)
    const hi = Math.trunc(word / 127773);
    const lo = word % 127773;
    word = 16807 * lo - 2836 * hi;
    if (word < 0) word += 2147483647;
    r[i] = word;
  }
  const st: RandState = { r: new Int32Array(31), f: 3, b: 0 };
  st.r.set(r.subarray(0, 31));
  for (let i = 0; i < 310; i++) nextRand(st);
  return st;
}
export function nextRand(st: RandState): number {
  const r = st.r;
  const v = (r[st.f] + r[st.b]) | 0;
  r[st.f] = v;
  const out = v >>> 1;
  st.f = (st.f + 1) % 31;
  st.b = (st.b + 1) % 31;
  return out;
}
export function randState(S: Machine): RandState {
  let st = S.lib.rand as RandState | undefined;
  if (st === undefined) S.lib.rand = st = seedRand(1);
  return st;
}

// ---- ctype tables (glibc's little-endian bit layout) -----------------------------------------

export const CT_UPPER = 0x100, CT_LOWER = 0x200, CT_ALPHA = 0x400, CT_DIGIT = 0x800, CT_XDIGIT = 0x1000, CT_SPACE = 0x2000,
  CT_PRINT = 0x4000, CT_GRAPH = 0x8000, CT_BLANK = 0x1, CT_CNTRL = 0x2, CT_PUNCT = 0x4, CT_ALNUM = 0x8;

export function ctypeBits(c: number): number {
  if (c < 0 || c > 127) return 0;
  let b = 0;
  const up = c >= 65 && c <= 90;
  const lo = c >= 97 && c <= 122;
  const dig = c >= 48 && c <= 57;
  if (up) b |= CT_UPPER;
  if (lo) b |= CT_LOWER;
  if (up || lo) b |= CT_ALPHA;
  if (dig) b |= CT_DIGIT;
  if (dig || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)) b |= CT_XDIGIT;
  if (c === 32 || (c >= 9 && c <= 13)) b |= CT_SPACE;
  if (c >= 32 && c < 127) b |= CT_PRINT;
  if (c > 32 && c < 127) b |= CT_GRAPH;
  if (c === 32 || c === 9) b |= CT_BLANK;
  if (c < 32 || c === 127) b |= CT_CNTRL;
  if (c > 32 && c < 127 && !up && !lo && !dig) b |= CT_PUNCT;
  if (up || lo || dig) b |= CT_ALNUM;
  return b;
}

/** A pointer to a pointer into a table indexable from −128 to 255 (glibc's __ctype_*_loc). */
export function ctypeLoc(S: Machine, key: string, elemSize: number, fill: (c: number) => number): number {
  let p = S.lib[key] as number | undefined;
  if (p !== undefined) return p;
  const M = S.mem;
  const tid = M.allocOwned(384 * elemSize, AK.ConstGlobal, key);
  const dv = M.dv[tid];
  for (let c = -128; c < 256; c++) {
    const v = fill(c < -1 ? c + 256 : c);
    if (elemSize === 2) dv.setUint16((c + 128) * 2, v, true);
    else dv.setInt32((c + 128) * 4, v, true);
  }
  const holder = M.allocOwned(8, AK.ConstGlobal, key + '.ptr');
  const tp = tid * ID_UNIT + 128 * elemSize;
  M.dv[holder].setUint32(0, tp >>> 0, true);
  M.dv[holder].setUint32(4, Math.floor(tp / TWO32), true);
  p = holder * ID_UNIT;
  S.lib[key] = p;
  return p;
}

// ---- sorting ------------------------------------------------------------------------------------

export function callCmp(S: Machine, fp: number, a: number, b: number): number {
  const fi = S.fnIndexOf(fp, SITE);
  const saved = S.site;
  const r = i32(S.call(fi, [a, b]));
  S.site = saved;
  return r;
}

export function qsortImpl(S: Machine, a: unknown[]): unknown {
  const base = num(a[0]);
  const n = size(a[1]);
  const sz = size(a[2]);
  const cmp = num(a[3]);
  if (n <= 1 || sz <= 0) return undefined;
  const M = S.mem;
  M.check(base, n * sz, true, 'qsort', SITE);
  // sort element indices with a stable merge sort, comparing in place (elements do not move
  // until the end), then permute the bytes once
  let idx = new Int32Array(n);
  for (let k = 0; k < n; k++) idx[k] = k;
  let tmp = new Int32Array(n);
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (callCmp(S, cmp, base + idx[i] * sz, base + idx[j] * sz) <= 0) tmp[k++] = idx[i++];
        else tmp[k++] = idx[j++];
      }
      while (i < mid) tmp[k++] = idx[i++];
      while (j < hi) tmp[k++] = idx[j++];
    }
    const t = idx;
    idx = tmp;
    tmp = t;
  }
  const o = M.check(base, n * sz, true, 'qsort', SITE);
  const u = M.ru8;
  const copy = u.slice(o, o + n * sz);
  for (let k = 0; k < n; k++) u.set(copy.subarray(idx[k] * sz, idx[k] * sz + sz), o + k * sz);
  return undefined;
}

// ---- strings ------------------------------------------------------------------------------------

export function strtoint(S: Machine, a: unknown[], signed: boolean, bits: number): unknown {
  const p = num(a[0]);
  const endp = num(a[1] ?? 0);
  const base = i32(a[2] ?? 10);
  const M = S.mem;
  const len = M.strlen(p, SITE);
  const bytes = M.readBytes(p, len, SITE);
  const src = new BytesSource(bytes);
  while (isSpace(src.peek())) src.get();
  const r = scanInteger(src, base, 0);
  let v = 0n;
  let consumed = 0;
  if (r !== null) {
    consumed = src.pos;
    v = r.neg ? -r.mag : r.mag;
    if (signed) {
      const lim = 1n << BigInt(bits - 1);
      if (v >= lim) v = lim - 1n;
      if (v < -lim) v = -lim;
    } else {
      const lim = 1n << BigInt(bits);
      v = r.mag >= lim ? lim - 1n : r.neg ? BigInt.asUintN(bits, -r.mag) : r.mag;
    }
  }
  if (endp !== 0) M.stp(endp, p + consumed, SITE);
  const x = signed ? BigInt.asIntN(bits, v) : BigInt.asIntN(bits, v);
  return bits <= 32 ? Number(x) : wide(x);
}

export function strtod(S: Machine, a: unknown[]): number {
  const p = num(a[0]);
  const endp = num(a[1] ?? 0);
  const M = S.mem;
  const bytes = M.readBytes(p, M.strlen(p, SITE), SITE);
  const src = new BytesSource(bytes);
  while (isSpace(src.peek())) src.get();
  const t = scanFloatText(src, 0);
  if (endp !== 0) M.stp(endp, p + (t === null ? 0 : src.pos), SITE);
  return t === null ? 0 : parseCFloat(t);
}

export function memcmpImpl(S: Machine, a: unknown[]): number {
  const n = size(a[2]);
  if (n <= 0) return 0;
  const M = S.mem;
  const x = M.readBytes(num(a[0]), n, SITE, 'memcmp reading');
  const y = M.readBytes(num(a[1]), n, SITE, 'memcmp reading');
  for (let k = 0; k < n; k++) if (x[k] !== y[k]) return x[k] - y[k];
  return 0;
}

export function strcmpImpl(S: Machine, a: unknown[], limit: number): number {
  const M = S.mem;
  const p = num(a[0]);
  const q = num(a[1]);
  for (let k = 0; k < limit; k++) {
    const x = M.ldu8(p + k, SITE);
    const y = M.ldu8(q + k, SITE);
    if (x !== y) return x - y;
    if (x === 0) return 0;
  }
  return 0;
}
