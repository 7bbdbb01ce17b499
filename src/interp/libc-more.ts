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
 *
 * Also the rest of what test/interp/libc-list.txt found missing and could do without the
 * host: strndup, strerror, perror, strcoll/strxfrm (C locale), getline and read on stdin,
 * fileno, getpid (a fixed 1000: runs stay reproducible), sleep/usleep/nanosleep (they
 * advance the deterministic clock of libc-time.ts), div, ldiv, lldiv, remainder, ilogb, logb,
 * nextafter, fma, nan. What would reach the host (other files, processes, signals) or
 * leave the interpreter's control flow (setjmp/longjmp) stops the program with a message
 * saying it is not supported.
 */
import { Fault } from './errors.js';
import type { ExternalFn, Machine } from './machine.js';
import { AK, ID_UNIT } from './memory.js';
import { RT } from './runtime.js';
import { i32, num, SITE, wide } from './libc-args.js';
import type { Wide } from './wide.js';

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

// ---- the sweep's additions ---------------------------------------------------------------

/**
 * glibc's strerror texts (string/_strerror.c) for the errno values C library code sets,
 * copied word for word so `strerror`/`perror` print what a native run prints; entry 38 is
 * glibc's message for ENOSYS, quoted as data.
 */
const ERRNO_TEXT: Record<number, string> = {
  0: 'Success', 1: 'Operation not permitted', 2: 'No such file or directory', 4: 'Interrupted system call',
  5: 'Input/output error', 9: 'Bad file descriptor', 11: 'Resource temporarily unavailable', 12: 'Cannot allocate memory',
  13: 'Permission denied', 17: 'File exists', 22: 'Invalid argument', 28: 'No space left on device',
  33: 'Numerical argument out of domain', 34: 'Numerical result out of range', 38: 'Function not implemented',
};
const errnoText = (e: number): string => ERRNO_TEXT[e] ?? `Unknown error ${e}`;

function errnoValue(S: Machine): number {
  const p = S.lib.errno as number | undefined;
  return p === undefined ? 0 : S.mem.ld32(p, SITE);
}

function putBytes(S: Machine, p: number, s: string): number {
  const b = new Uint8Array(s.length + 1);
  for (let k = 0; k < s.length; k++) b[k] = s.charCodeAt(k) & 255;
  S.mem.writeBytes(p, b, SITE);
  return p;
}

function refuse(name: string, what: string): ExternalFn {
  return () => {
    throw new Fault(`${name}: ${what} not supported by ssakit's interpreter (a sandbox: no host files, processes or signals)`, SITE);
  };
}

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** nextafter(x, y): the next double after x toward y (bit steps, as IEEE 754). */
function nextAfter(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === y) return y;
  if (x === 0) return y > 0 ? 5e-324 : -5e-324;
  f64[0] = x;
  u64[0] += (y > x) === (x > 0) ? 1n : -1n;
  return f64[0];
}

/**
 * IEEE remainder: x − n·y, n the integer nearest x/y (ties to even), exactly. With
 * r = fmod(|x|, 2|y|) (exact) the floor quotient's parity is known: odd when r > |y|.
 */
function remainderD(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return x + y; // propagates the NaN operand
  if (!Number.isFinite(x) || y === 0) {
    // glibc's (x·y)/(x·y): the host's invalid operation gives x86's default NaN (-nan); a
    // stored NaN constant would not do, as V8 may canonicalize it to +nan in optimized code
    const z = x * y;
    return z / z;
  }
  if (!Number.isFinite(y)) return x;
  const ay = Math.abs(y);
  let r = RT.fmod(Math.abs(x), 2 * ay); // 2|y| may overflow to Infinity: then r = |x| < 2|y|
  let odd = false;
  if (r > ay) {
    r -= ay;
    odd = true;
  }
  const res = 2 * r > ay || (2 * r === ay && odd) ? r - ay : r;
  return x < 0 || Object.is(x, -0) ? -res : res;
}

function ilogbD(x: number): number {
  if (x === 0) return -2147483648; // FP_ILOGB0
  if (Number.isNaN(x)) return -2147483648; // FP_ILOGBNAN on x86-64 glibc
  if (!Number.isFinite(x)) return 2147483647;
  return RT.frexp(x)[1] - 1;
}

function longDiv(a: unknown[]): [Wide, Wide] {
  const x = BigInt(a[0] as number | bigint);
  const y = BigInt(a[1] as number | bigint);
  if (y === 0n) throw new Fault('ldiv: division by zero', SITE);
  // LONG_MIN / -1 overflows: natively the division traps (SIGFPE)
  if (y === -1n && x === -(1n << 63n)) throw new Fault('ldiv: LONG_MIN / -1 overflows', SITE);
  const q = x / y; // BigInt division truncates toward zero, as C
  return [wide(q), wide(x - q * y)];
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
  strndup: (S, a) => {
    const src = num(a[0]);
    const n = Math.min(S.mem.strlen(src, SITE), size(a[1]));
    const p = S.mem.malloc(n + 1);
    if (p === 0) return 0;
    S.mem.memcpy(p, src, n, SITE, 'strndup');
    S.mem.st8(p + n, 0, SITE);
    return p;
  },
  strerror: (S, a) => {
    // one static buffer, overwritten by each call (as glibc's for unknown values)
    const t = errnoText(i32(a[0]));
    return putBytes(S, staticBuffer(S, 'strerror', 64), t.slice(0, 63));
  },
  perror: (S, a) => {
    const p = num(a[0]);
    const msg = p === 0 ? '' : S.mem.cstring(p, SITE, 'perror reading the message');
    S.out.flush();
    S.err.latin1(`${msg === '' ? '' : msg + ': '}${errnoText(errnoValue(S))}\n`);
    return undefined;
  },
  strcoll: (S, a) => {
    const M = S.mem;
    for (let k = 0; ; k++) {
      const x = M.ldu8(num(a[0]) + k, SITE);
      const y = M.ldu8(num(a[1]) + k, SITE);
      if (x !== y || x === 0) return x - y;
    }
  },
  strxfrm: (S, a) => {
    const src = num(a[1]);
    const n = S.mem.strlen(src, SITE);
    if (n < size(a[2])) S.mem.memcpy(num(a[0]), src, n + 1, SITE, 'strxfrm');
    return n;
  },
  fileno: (S, a) => {
    const fs = S.lib.files as { stdin: number; stdout: number; stderr: number };
    const f = num(a[0]);
    return f === fs.stdin ? 0 : f === fs.stdout ? 1 : f === fs.stderr ? 2 : -1;
  },
  getline: (S, a) => {
    const fs = S.lib.files as { stdin: number };
    if (num(a[2]) !== fs.stdin) throw new Fault('getline: FILE* other than stdin (files are not supported by ssakit\'s interpreter)', SITE);
    const bytes: number[] = [];
    for (;;) {
      const c = S.inp.getc();
      if (c < 0) break;
      bytes.push(c);
      if (c === 10) break;
    }
    if (bytes.length === 0) return -1;
    const M = S.mem;
    const lp = num(a[0]);
    const np = num(a[1]);
    let buf = M.ldp(lp, SITE);
    const cap = buf === 0 ? 0 : num(M.ld64(np, SITE));
    if (cap < bytes.length + 1) {
      const want = Math.max(120, bytes.length + 1);
      const nb = M.malloc(want);
      if (buf !== 0) {
        M.memcpy(nb, buf, Math.min(cap, want), SITE, 'getline');
        M.free(buf);
      }
      buf = nb;
      M.stp(lp, buf, SITE);
      M.st64(np, want, SITE);
    }
    M.writeBytes(buf, Uint8Array.from([...bytes, 0]), SITE);
    return bytes.length;
  },
  read: (S, a) => {
    if (i32(a[0]) !== 0) throw new Fault('read: file descriptors other than 0 are not supported by ssakit\'s interpreter', SITE);
    const n = size(a[2]);
    const bytes: number[] = [];
    while (bytes.length < n) {
      const c = S.inp.getc();
      if (c < 0) break;
      bytes.push(c);
    }
    if (bytes.length > 0) S.mem.writeBytes(num(a[1]), Uint8Array.from(bytes), SITE);
    return bytes.length;
  },
  getpid: () => 1000,
  sleep: (S, a) => {
    S.lib.clockUs = ((S.lib.clockUs as number | undefined) ?? 0) + (num(a[0]) >>> 0) * 1e6;
    return 0;
  },
  usleep: (S, a) => {
    S.lib.clockUs = ((S.lib.clockUs as number | undefined) ?? 0) + (num(a[0]) >>> 0);
    return 0;
  },
  nanosleep: (S, a) => {
    const ts = num(a[0]);
    const us = num(S.mem.ld64(ts, SITE)) * 1e6 + Math.floor(num(S.mem.ld64(ts + 8, SITE)) / 1000);
    S.lib.clockUs = ((S.lib.clockUs as number | undefined) ?? 0) + us;
    return 0;
  },
  // div_t is returned in one register: quot in the low half, rem in the high half
  div: (S, a) => {
    const x = i32(a[0]);
    const y = i32(a[1]);
    if (y === 0) throw new Fault('div: division by zero', SITE);
    const q = (x / y) | 0;
    const r = (x - Math.imul(q, y)) | 0;
    return BigInt.asIntN(64, (BigInt(r) << 32n) | BigInt(q >>> 0));
  },
  // ldiv_t/lldiv_t ({ i64, i64 }) come back as a two-field aggregate: quot, rem (C99: truncating)
  ldiv: (S, a) => longDiv(a),
  lldiv: (S, a) => longDiv(a),
  remainder: (S, a) => remainderD(num(a[0]), num(a[1])),
  remainderf: (S, a) => Math.fround(remainderD(num(a[0]), num(a[1]))),
  ilogb: (S, a) => ilogbD(num(a[0])),
  logb: (S, a) => {
    const x = num(a[0]);
    if (x === 0) return -Infinity;
    if (!Number.isFinite(x)) return Math.abs(x);
    return ilogbD(x);
  },
  nextafter: (S, a) => nextAfter(num(a[0]), num(a[1])),
  fma: (S, a) => RT.fmaD(num(a[0]), num(a[1]), num(a[2])),
  fmaf: (S, a) => Math.fround(RT.fmaD(num(a[0]), num(a[1]), num(a[2]))),
  nan: () => NaN,
  nanf: () => NaN,
  // what a sandbox refuses
  system: refuse('system', 'running commands is'),
  popen: refuse('popen', 'running commands is'),
  pclose: refuse('pclose', 'running commands is'),
  fork: refuse('fork', 'processes are'),
  execv: refuse('execv', 'processes are'),
  execvp: refuse('execvp', 'processes are'),
  execl: refuse('execl', 'processes are'),
  execlp: refuse('execlp', 'processes are'),
  signal: refuse('signal', 'signals are'),
  sigaction: refuse('sigaction', 'signals are'),
  raise: refuse('raise', 'signals are'),
  kill: refuse('kill', 'signals are'),
  alarm: refuse('alarm', 'signals are'),
  freopen: refuse('freopen', 'files are'),
  fseek: refuse('fseek', 'files are'),
  ftell: refuse('ftell', 'files are'),
  rewind: refuse('rewind', 'files are'),
  remove: refuse('remove', 'files are'),
  rename: refuse('rename', 'files are'),
  tmpfile: refuse('tmpfile', 'files are'),
  tmpnam: refuse('tmpnam', 'files are'),
  open: refuse('open', 'files are'),
  close: refuse('close', 'files are'),
  setjmp: refuse('setjmp', 'setjmp/longjmp are'),
  _setjmp: refuse('_setjmp', 'setjmp/longjmp are'),
  longjmp: refuse('longjmp', 'setjmp/longjmp are'),
};
