/**
 * More of the C library for the interpreter, as glibc (x86-64, C locale) behaves: the
 * drand48 family, strtok/strtok_r and the span functions, case-insensitive comparison,
 * and getenv. Kept apart from libc.ts; libc.ts adds these to its table.
 *
 * drand48: the 48-bit linear congruential generator X' = (a·X + c) mod 2^48 with
 * a = 0x5DEECE66D, c = 0xB until lcong48 changes them (srand48 and seed48 restore them);
 * the state before any seeding is glibc's (X = 0). Each call steps X first,
 * then returns X / 2^48 (drand48, erand48), X >> 17 (lrand48, nrand48) or the signed
 * X >> 16 (mrand48, jrand48). The xsubi arrays are three unsigned shorts, low half first.
 *
 * getenv: a sandbox sees no host environment: every variable is unset (NULL), so the
 * program takes its default; setenv/unsetenv are accepted and remembered for the run.
 */
import type { ExternalFn, Machine } from './machine.js';
import { AK, ID_UNIT } from './memory.js';

const SITE = -1;

function num(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
}
function i32(v: unknown): number {
  return typeof v === 'number' ? v | 0 : typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : 0;
}
/** size_t argument as a JS number (huge sizes are effectively unbounded). */
function size(v: unknown): number {
  const n = num(v);
  return n < 0 ? Infinity : n;
}

// ---- drand48 ---------------------------------------------------------------------------------

const MASK48 = (1n << 48n) - 1n;
const A_DEFAULT = 0x5deece66dn;
const C_DEFAULT = 0xbn;

interface Rand48 {
  x: bigint;
  a: bigint;
  c: bigint;
}

function rand48(S: Machine): Rand48 {
  let st = S.lib.rand48 as Rand48 | undefined;
  if (st === undefined) S.lib.rand48 = st = { x: 0n, a: A_DEFAULT, c: C_DEFAULT };
  return st;
}

function step(st: Rand48, x: bigint): bigint {
  return (st.a * x + st.c) & MASK48;
}

function readX(S: Machine, p: number): bigint {
  const M = S.mem;
  return BigInt(M.ld16(p, SITE) & 0xffff) | (BigInt(M.ld16(p + 2, SITE) & 0xffff) << 16n) | (BigInt(M.ld16(p + 4, SITE) & 0xffff) << 32n);
}

function writeX(S: Machine, p: number, x: bigint): void {
  S.mem.st16(p, Number(x & 0xffffn), SITE);
  S.mem.st16(p + 2, Number((x >> 16n) & 0xffffn), SITE);
  S.mem.st16(p + 4, Number((x >> 32n) & 0xffffn), SITE);
}

/** Steps the internal state, or the caller's xsubi array when `p` is given. */
function next48(S: Machine, p: number | null): bigint {
  const st = rand48(S);
  if (p === null) return (st.x = step(st, st.x));
  const x = step(st, readX(S, p));
  writeX(S, p, x);
  return x;
}

const toDouble = (x: bigint): number => Number(x) / 281474976710656;
const toNonNeg = (x: bigint): number => Number(x >> 17n);
const toSigned = (x: bigint): number => Number(BigInt.asIntN(32, x >> 16n));

// ---- strings ---------------------------------------------------------------------------------

/** The bytes of the NUL-terminated string at p, as a set of byte values. */
function byteSet(S: Machine, p: number): Uint8Array {
  const set = new Uint8Array(256);
  const n = S.mem.strlen(p, SITE);
  const b = S.mem.readBytes(p, n, SITE);
  for (let k = 0; k < n; k++) set[b[k]] = 1;
  return set;
}

/** Length of the prefix of s made of bytes in (accept) or not in (reject) the set. */
function span(S: Machine, s: number, set: Uint8Array, inSet: boolean): number {
  const n = S.mem.strlen(s, SITE);
  const b = S.mem.readBytes(s, n, SITE);
  let k = 0;
  while (k < n && (set[b[k]] === 1) === inSet) k++;
  return k;
}

/** strtok_r on the string at s (0: continue from *save); returns the token or 0. */
function strtokImpl(S: Machine, s: number, delim: number, save: number): number {
  const M = S.mem;
  if (s === 0) s = M.ldp(save, SITE);
  if (s === 0) return 0;
  const set = byteSet(S, delim);
  s += span(S, s, set, true);
  if (M.ldu8(s, SITE) === 0) {
    M.stp(save, s, SITE);
    return 0;
  }
  const end = s + span(S, s, set, false);
  if (M.ldu8(end, SITE) === 0) M.stp(save, end, SITE);
  else {
    M.st8(end, 0, SITE);
    M.stp(save, end + 1, SITE);
  }
  return s;
}

const lower = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

function strcasecmpImpl(S: Machine, a: number, b: number, limit: number): number {
  const M = S.mem;
  for (let k = 0; k < limit; k++) {
    const x = lower(M.ldu8(a + k, SITE));
    const y = lower(M.ldu8(b + k, SITE));
    if (x !== y || x === 0) return x - y;
  }
  return 0;
}

function staticBuffer(S: Machine, key: string, n: number): number {
  let p = S.lib[key] as number | undefined;
  if (p === undefined) S.lib[key] = p = S.mem.allocOwned(n, AK.Global, key) * ID_UNIT;
  return p;
}

export const LIBC_MORE: Record<string, ExternalFn> = {
  drand48: (S) => toDouble(next48(S, null)),
  erand48: (S, a) => toDouble(next48(S, num(a[0]))),
  lrand48: (S) => toNonNeg(next48(S, null)),
  nrand48: (S, a) => toNonNeg(next48(S, num(a[0]))),
  mrand48: (S) => toSigned(next48(S, null)),
  jrand48: (S, a) => toSigned(next48(S, num(a[0]))),
  srand48: (S, a) => {
    const st = rand48(S);
    st.x = ((BigInt(num(a[0])) & 0xffffffffn) << 16n) | 0x330en;
    st.a = A_DEFAULT;
    st.c = C_DEFAULT;
    return undefined;
  },
  seed48: (S, a) => {
    const st = rand48(S);
    // the previous state goes to a static buffer whose address is returned
    const old = staticBuffer(S, 'seed48', 6);
    writeX(S, old, st.x);
    st.x = readX(S, num(a[0]));
    st.a = A_DEFAULT;
    st.c = C_DEFAULT;
    return old;
  },
  lcong48: (S, a) => {
    const st = rand48(S);
    const p = num(a[0]);
    st.x = readX(S, p);
    st.a = readX(S, p + 6);
    st.c = BigInt(S.mem.ld16(p + 12, SITE) & 0xffff);
    return undefined;
  },
  strtok: (S, a) => strtokImpl(S, num(a[0]), num(a[1]), staticBuffer(S, 'strtok', 8)),
  strtok_r: (S, a) => strtokImpl(S, num(a[0]), num(a[1]), num(a[2])),
  strsep: (S, a) => {
    const M = S.mem;
    const sp = num(a[0]);
    const s = M.ldp(sp, SITE);
    if (s === 0) return 0;
    const end = s + span(S, s, byteSet(S, num(a[1])), false);
    if (M.ldu8(end, SITE) === 0) M.stp(sp, 0, SITE);
    else {
      M.st8(end, 0, SITE);
      M.stp(sp, end + 1, SITE);
    }
    return s;
  },
  strspn: (S, a) => span(S, num(a[0]), byteSet(S, num(a[1])), true),
  strcspn: (S, a) => span(S, num(a[0]), byteSet(S, num(a[1])), false),
  strpbrk: (S, a) => {
    const s = num(a[0]);
    const k = span(S, s, byteSet(S, num(a[1])), false);
    return S.mem.ldu8(s + k, SITE) === 0 ? 0 : s + k;
  },
  strcasecmp: (S, a) => strcasecmpImpl(S, num(a[0]), num(a[1]), Infinity),
  strncasecmp: (S, a) => strcasecmpImpl(S, num(a[0]), num(a[1]), size(a[2])),
  getenv: (S, a) => {
    const name = S.mem.cstring(num(a[0]), SITE, 'getenv reading the name');
    const env = S.lib.env as Map<string, number> | undefined;
    return env?.get(name) ?? 0;
  },
  secure_getenv: (S, a) => LIBC_MORE.getenv(S, a),
  setenv: (S, a) => {
    const M = S.mem;
    const name = M.cstring(num(a[0]), SITE, 'setenv reading the name');
    if (name === '' || name.includes('=')) return -1;
    const env = ((S.lib.env as Map<string, number> | undefined) ?? (S.lib.env = new Map<string, number>())) as Map<string, number>;
    if (env.has(name) && i32(a[2]) === 0) return 0;
    const v = M.cstring(num(a[1]), SITE, 'setenv reading the value');
    const p = M.allocOwned(v.length + 1, AK.Global, `env ${name}`) * ID_UNIT;
    const b = new Uint8Array(v.length + 1);
    for (let k = 0; k < v.length; k++) b[k] = v.charCodeAt(k) & 255;
    M.writeBytes(p, b, SITE);
    env.set(name, p);
    return 0;
  },
  unsetenv: (S, a) => {
    const name = S.mem.cstring(num(a[0]), SITE, 'unsetenv reading the name');
    (S.lib.env as Map<string, number> | undefined)?.delete(name);
    return 0;
  },
};
