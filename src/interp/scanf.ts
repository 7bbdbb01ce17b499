/**
 * scanf family (C11 §7.21.6.2 as glibc implements it): whitespace directives, literal
 * matching, %d %i %u %o %x %X %c %s %[…] %f %e %g %a %p %n with `*`, widths and length
 * modifiers. Integers convert like strtol/strtoul (saturating), then are truncated to the
 * destination width, as glibc does.
 */
import { allocSize } from '../ir/layout.js';
import { x86fp80Type } from '../ir/types.js';
import type { Memory } from './memory.js';
import { writeRaw } from './typed-memory.js';

/** A byte source with one byte of lookahead. */
export interface ScanSource {
  peek(): number;
  get(): number;
  /** Bytes consumed so far. */
  readonly consumed: number;
}

export class BytesSource implements ScanSource {
  private readonly start: number;
  constructor(
    private readonly data: Uint8Array,
    public pos = 0,
  ) {
    this.start = pos;
  }
  peek(): number {
    return this.pos < this.data.length ? this.data[this.pos] : -1;
  }
  get(): number {
    return this.pos < this.data.length ? this.data[this.pos++] : -1;
  }
  get consumed(): number {
    return this.pos - this.start;
  }
}

export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function digitVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return c - 87;
  if (c >= 65 && c <= 90) return c - 55;
  return 99;
}

/** Reads an integer as strtol would (base 0 = auto). Returns null on matching failure. */
export function scanInteger(src: ScanSource, base: number, width: number): { neg: boolean; mag: bigint } | null {
  let left = width > 0 ? width : Infinity;
  let neg = false;
  let c = src.peek();
  if ((c === 43 || c === 45) && left > 0) {
    neg = c === 45;
    src.get();
    left--;
    c = src.peek();
  }
  let any = false;
  if ((base === 0 || base === 16) && c === 48 && left > 0) {
    src.get();
    left--;
    any = true;
    c = src.peek();
    if ((c === 120 || c === 88) && left > 0) {
      src.get();
      left--;
      base = 16;
      any = false;
      c = src.peek();
      if (digitVal(c) >= 16) return { neg, mag: 0n }; // "0x" then no digit: glibc reads the 0
    } else if (base === 0) base = 8;
  }
  if (base === 0) base = 10;
  let mag = 0n;
  const B = BigInt(base);
  while (left > 0 && digitVal(c) < base) {
    mag = mag * B + BigInt(digitVal(c));
    src.get();
    left--;
    any = true;
    c = src.peek();
  }
  return any ? { neg, mag } : null;
}

/** Reads the longest prefix that is a floating-point number (strtod syntax). Null on failure. */
export function scanFloatText(src: ScanSource, width: number): string | null {
  let left = width > 0 ? width : Infinity;
  let s = '';
  const take = (): void => {
    s += String.fromCharCode(src.get());
    left--;
  };
  let c = src.peek();
  if ((c === 43 || c === 45) && left > 0) {
    take();
    c = src.peek();
  }
  const lower = (x: number): number => (x >= 65 && x <= 90 ? x + 32 : x);
  // inf / infinity / nan
  if (lower(c) === 105 || lower(c) === 110) {
    const word = lower(c) === 105 ? 'infinity' : 'nan';
    let k = 0;
    while (k < word.length && left > 0 && lower(src.peek()) === word.charCodeAt(k)) {
      take();
      k++;
    }
    if (word === 'nan' && k === 3) return s;
    if (word === 'infinity' && (k === 3 || k === 8)) return s;
    return null;
  }
  let digits = 0;
  let hex = false;
  if (c === 48 && left > 0) {
    take();
    digits++;
    c = src.peek();
    if ((c === 120 || c === 88) && left > 0) {
      take();
      hex = true;
      digits = 0;
      c = src.peek();
    }
  }
  const isDig = (x: number): boolean => (hex ? digitVal(x) < 16 : x >= 48 && x <= 57);
  while (left > 0 && isDig(src.peek())) {
    take();
    digits++;
  }
  if (left > 0 && src.peek() === 46) {
    take();
    while (left > 0 && isDig(src.peek())) {
      take();
      digits++;
    }
  }
  if (digits === 0) return hex ? s : null;
  c = src.peek();
  if (left > 0 && ((hex && (c === 112 || c === 80)) || (!hex && (c === 101 || c === 69)))) {
    // exponent: only consumed when digits follow (glibc pushes back at most one char, so a
    // dangling "e" is consumed; we mimic the common, non-pathological behaviour)
    take();
    c = src.peek();
    if ((c === 43 || c === 45) && left > 0) {
      take();
      c = src.peek();
    }
    while (left > 0 && src.peek() >= 48 && src.peek() <= 57) take();
  }
  return s;
}

/** Converts strtod-syntax text to a double (hex floats included). */
export function parseCFloat(s: string): number {
  let t = s.trim();
  let sign = 1;
  if (t[0] === '+' || t[0] === '-') {
    if (t[0] === '-') sign = -1;
    t = t.slice(1);
  }
  const tl = t.toLowerCase();
  if (tl.startsWith('inf')) return sign * Infinity;
  if (tl.startsWith('nan')) return NaN;
  if (tl.startsWith('0x')) {
    const m = /^0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([+-]?[0-9]+))?/.exec(tl);
    if (!m) return 0;
    const intPart = m[1] || '';
    const frac = m[2] || '';
    const exp = m[3] ? parseInt(m[3], 10) : 0;
    const all = (intPart + frac).replace(/^0+/, '');
    if (all === '') return sign * 0;
    // exact: mantissa as bigint, scaled by 2^(exp - 4·|frac|), rounded once
    const mant = BigInt('0x' + all);
    return sign * bigScale(mant, exp - 4 * frac.length);
  }
  const m = /^([0-9]*\.?[0-9]*(?:e[+-]?[0-9]+)?)/.exec(tl);
  const v = m && m[1] !== '' && m[1] !== '.' ? Number(m[1].endsWith('e') ? m[1].slice(0, -1) : m[1]) : 0;
  return sign * (Number.isNaN(v) ? 0 : v);
}

function bigScale(m: bigint, e: number): number {
  const len = m.toString(2).length;
  let keep = 53;
  const top = e + len - 1;
  if (top < -1022) keep = Math.max(0, 53 - (-1022 - top));
  if (len > keep) {
    const shift = BigInt(len - keep);
    const q = m >> shift;
    const r = m - (q << shift);
    const half = 1n << (shift - 1n);
    m = r > half || (r === half && (q & 1n) === 1n) ? q + 1n : q;
    e += len - keep;
  }
  if (e > 1100) return Infinity;
  return Number(m) * 2 ** Math.trunc(e / 2) * 2 ** (e - Math.trunc(e / 2));
}

/**
 * Runs a scanf format over src, storing through pointers from `nextPtr`.
 * Returns the number of assignments, or −1 (EOF) when input ended before the first conversion.
 */
export function doScanf(fmt: string, src: ScanSource, M: Memory, nextPtr: () => number, site: number): number {
  let assigned = 0;
  let converted = false;
  let i = 0;
  const n = fmt.length;
  const eofFail = (): number => (!converted && assigned === 0 ? -1 : assigned);
  while (i < n) {
    const fc = fmt.charCodeAt(i);
    if (isSpace(fc)) {
      while (i < n && isSpace(fmt.charCodeAt(i))) i++;
      while (isSpace(src.peek())) src.get();
      continue;
    }
    if (fc !== 37) {
      const c = src.peek();
      if (c < 0) return eofFail();
      if (c !== fc) return assigned;
      src.get();
      i++;
      continue;
    }
    i++;
    if (fmt[i] === '%') {
      while (isSpace(src.peek())) src.get();
      const c = src.peek();
      if (c < 0) return eofFail();
      if (c !== 37) return assigned;
      src.get();
      i++;
      continue;
    }
    let suppress = false;
    if (fmt[i] === '*') {
      suppress = true;
      i++;
    }
    let width = 0;
    while (i < n && fmt.charCodeAt(i) >= 48 && fmt.charCodeAt(i) <= 57) width = width * 10 + (fmt.charCodeAt(i++) - 48);
    let len = '';
    while (i < n && 'hlLjztq'.includes(fmt[i])) len += fmt[i++];
    const conv = fmt[i++];
    if (conv === undefined) break;
    if (conv !== 'c' && conv !== '[' && conv !== 'n') {
      while (isSpace(src.peek())) src.get();
    }
    if (conv !== 'n' && src.peek() < 0) return eofFail();
    switch (conv) {
      case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'p': {
        const base = conv === 'd' || conv === 'u' ? 10 : conv === 'i' ? 0 : conv === 'o' ? 8 : 16;
        const r = scanInteger(src, base, width);
        if (r === null) return assigned;
        converted = true;
        if (suppress) break;
        const signed = conv === 'd' || conv === 'i';
        let v: bigint;
        if (signed) {
          v = r.neg ? -r.mag : r.mag;
          const lim = 1n << 63n;
          if (v >= lim) v = lim - 1n;
          if (v < -lim) v = -lim;
        } else {
          v = r.mag >= 1n << 64n ? (1n << 64n) - 1n : r.mag;
          if (r.neg) v = BigInt.asUintN(64, -v);
        }
        const p = nextPtr();
        const size = conv === 'p' ? 8 : len === 'hh' ? 1 : len === 'h' ? 2 : len === '' ? 4 : 8;
        const o = M.check(p, size, true, 'scanf writing', site);
        const dv = M.rdv;
        if (size === 1) dv.setInt8(o, Number(BigInt.asIntN(8, v)));
        else if (size === 2) dv.setInt16(o, Number(BigInt.asIntN(16, v)), true);
        else if (size === 4) dv.setInt32(o, Number(BigInt.asIntN(32, v)), true);
        else dv.setBigInt64(o, BigInt.asIntN(64, v), true);
        assigned++;
        break;
      }
      case 'f': case 'e': case 'g': case 'a': case 'E': case 'G': case 'F': case 'A': {
        const t = scanFloatText(src, width);
        if (t === null) return assigned;
        converted = true;
        if (suppress) break;
        const v = parseCFloat(t);
        const p = nextPtr();
        if (len === 'L') {
          const o = M.check(p, 16, true, 'scanf writing', site);
          writeRaw(M.rdv, o, v, x86fp80Type);
          void allocSize;
        } else if (len === 'l') {
          const o = M.check(p, 8, true, 'scanf writing', site);
          M.rdv.setFloat64(o, v, true);
        } else {
          const o = M.check(p, 4, true, 'scanf writing', site);
          M.rdv.setFloat32(o, v, true);
        }
        assigned++;
        break;
      }
      case 'c': {
        const w = width > 0 ? width : 1;
        const bytes: number[] = [];
        while (bytes.length < w && src.peek() >= 0) bytes.push(src.get());
        if (bytes.length === 0) return eofFail();
        converted = true;
        if (suppress) break;
        M.writeBytes(nextPtr(), Uint8Array.from(bytes), site, 'scanf writing');
        assigned++;
        break;
      }
      case 's': {
        const bytes: number[] = [];
        const w = width > 0 ? width : Infinity;
        while (bytes.length < w && src.peek() >= 0 && !isSpace(src.peek())) bytes.push(src.get());
        if (bytes.length === 0) return eofFail();
        converted = true;
        if (suppress) break;
        bytes.push(0);
        M.writeBytes(nextPtr(), Uint8Array.from(bytes), site, 'scanf writing');
        assigned++;
        break;
      }
      case '[': {
        let negate = false;
        if (fmt[i] === '^') {
          negate = true;
          i++;
        }
        const set = new Set<number>();
        let first = true;
        while (i < n && (fmt[i] !== ']' || first)) {
          const a = fmt.charCodeAt(i);
          if (fmt[i + 1] === '-' && i + 2 < n && fmt[i + 2] !== ']') {
            const b = fmt.charCodeAt(i + 2);
            for (let x = a; x <= b; x++) set.add(x);
            i += 3;
          } else {
            set.add(a);
            i++;
          }
          first = false;
        }
        i++; // ]
        const bytes: number[] = [];
        const w = width > 0 ? width : Infinity;
        while (bytes.length < w && src.peek() >= 0 && set.has(src.peek()) !== negate) bytes.push(src.get());
        if (bytes.length === 0) return src.peek() < 0 ? eofFail() : assigned;
        converted = true;
        if (suppress) break;
        bytes.push(0);
        M.writeBytes(nextPtr(), Uint8Array.from(bytes), site, 'scanf writing');
        assigned++;
        break;
      }
      case 'n': {
        if (suppress) break;
        const p = nextPtr();
        const size = len === 'hh' ? 1 : len === 'h' ? 2 : len === '' ? 4 : 8;
        const o = M.check(p, size, true, 'scanf writing', site);
        const v = src.consumed;
        if (size === 1) M.rdv.setInt8(o, v);
        else if (size === 2) M.rdv.setInt16(o, v, true);
        else if (size === 4) M.rdv.setInt32(o, v, true);
        else M.rdv.setBigInt64(o, BigInt(v), true);
        break;
      }
      default:
        return assigned;
    }
  }
  return assigned;
}
