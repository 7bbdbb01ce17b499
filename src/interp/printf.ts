/**
 * printf formatting as glibc does it, byte for byte (the C standard's §7.21.6.1 plus
 * glibc's choices: "(null)" for a NULL %s, "(nil)" for a NULL %p, "-nan", %a in the
 * 0x1.hhhp±d normal form).
 *
 * Floating-point conversions are exact: the binary value is expanded to its exact decimal
 * digits (a double is M·2^E, i.e. M·5^-E / 10^-E, with bigint arithmetic) and rounded half
 * to even, as glibc does in the default rounding mode. JS's toFixed/toExponential round
 * exact ties away from zero, so they are used only as a fast path when the value is provably
 * not a tie (a tie at 10^-k needs x·2·10^k to be an odd integer; see isTie).
 *
 * Strings are "latin1" JS strings: one char per byte, so %s and %c are byte exact.
 */
import type { Wide } from './wide.js';

/** How printf reads its variadic arguments and C strings. */
export interface PrintfEnv {
  /** The next variadic argument (interpreter value), or undefined when missing. */
  arg(): unknown;
  /** The bytes of the NUL-terminated string at p (latin1), at most max bytes (max < 0: no limit). */
  str(p: number, max: number): string;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

function signBit(x: number): boolean {
  f64[0] = x;
  return (u32[1] & 0x80000000) !== 0;
}

/** x = m · 2^e with m an odd integer (x finite, non-zero, positive). */
function decompose(x: number): [number, number] {
  f64[0] = x;
  const hi = u32[1];
  const lo = u32[0];
  const bexp = (hi >>> 20) & 0x7ff;
  let m = (hi & 0xfffff) * 4294967296 + lo;
  let e: number;
  if (bexp === 0) e = -1074;
  else {
    m += 4503599627370496; // 2^52
    e = bexp - 1075;
  }
  while (m % 2 === 0) {
    m /= 2;
    e++;
  }
  return [m, e];
}

/** Whether rounding x (> 0) at the 10^-k digit is an exact tie (x·10^k = n + 1/2). */
function isTie(x: number, k: number): boolean {
  const [m, e] = decompose(x);
  if (e + 1 + k !== 0) return false;
  if (k >= 0) return true;
  if (-k > 22) return false;
  return m % 5 ** -k === 0;
}

/** The exact decimal expansion of x > 0: x = N · 10^-s. */
function exact(x: number): [bigint, number] {
  const [m, e] = decompose(x);
  if (e >= 0) return [BigInt(m) << BigInt(e), 0];
  return [BigInt(m) * 5n ** BigInt(-e), -e];
}

/** n / d rounded half to even. */
function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n - q * d;
  const r2 = 2n * r;
  if (r2 > d || (r2 === d && (q & 1n) === 1n)) return q + 1n;
  return q;
}

/** |x| with `prec` digits after the point (no sign), exact and half-even. */
export function fixedDigits(x: number, prec: number): string {
  if (x === 0) return prec > 0 ? '0.' + '0'.repeat(prec) : '0';
  if (x < 1e21 && prec <= 100 && !isTie(x, prec)) return x.toFixed(prec);
  const [n, s] = exact(x);
  let r: bigint;
  if (prec >= s) r = n * 10n ** BigInt(prec - s);
  else r = divRound(n, 10n ** BigInt(s - prec));
  let str = r.toString();
  if (prec === 0) return str;
  if (str.length <= prec) str = '0'.repeat(prec - str.length + 1) + str;
  return str.slice(0, str.length - prec) + '.' + str.slice(str.length - prec);
}

/** |x| as d.ddd with prec digits after the point, and its decimal exponent. */
export function expDigits(x: number, prec: number): [string, number] {
  if (x === 0) return [prec > 0 ? '0.' + '0'.repeat(prec) : '0', 0];
  if (prec <= 100) {
    const t = x.toExponential(prec);
    const ei = t.indexOf('e');
    const e10 = +t.slice(ei + 1);
    if (!isTie(x, prec - e10)) return [t.slice(0, ei), e10];
  }
  const [n, s] = exact(x);
  const digits = n.toString();
  let e10 = digits.length - 1 - s;
  let d: string;
  if (digits.length > prec + 1) {
    const drop = digits.length - (prec + 1);
    let r = divRound(n, 10n ** BigInt(drop)).toString();
    if (r.length > prec + 1) {
      r = r.slice(0, prec + 1);
      e10++;
    }
    d = r;
  } else d = digits + '0'.repeat(prec + 1 - digits.length);
  return [prec > 0 ? d[0] + '.' + d.slice(1) : d, e10];
}

function expSuffix(e10: number, upper: boolean): string {
  const a = Math.abs(e10);
  return (upper ? 'E' : 'e') + (e10 < 0 ? '-' : '+') + (a < 10 ? '0' + a : String(a));
}

/** %a: hexadecimal floating point, as glibc prints doubles. prec < 0: exact, trailing zeros trimmed. */
export function hexFloat(x: number, prec: number, upper: boolean, alt: boolean): string {
  // x ≥ 0, finite
  let lead: number;
  let frac: bigint; // 52 bits
  let exp: number;
  if (x === 0) {
    lead = 0;
    frac = 0n;
    exp = 0;
  } else {
    f64[0] = x;
    const hi = u32[1];
    const bexp = (hi >>> 20) & 0x7ff;
    frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(u32[0]);
    if (bexp === 0) {
      lead = 0;
      exp = -1022;
    } else {
      lead = 1;
      exp = bexp - 1023;
    }
  }
  let digits: string;
  if (prec < 0) {
    digits = frac.toString(16).padStart(13, '0').replace(/0+$/, '');
  } else if (prec >= 13) {
    digits = frac.toString(16).padStart(13, '0') + '0'.repeat(prec - 13);
  } else {
    const drop = BigInt((13 - prec) * 4);
    let q = frac >> drop;
    const r = frac - (q << drop);
    const half = 1n << (drop - 1n);
    const odd = prec === 0 ? (lead & 1) === 1 : (q & 1n) === 1n;
    if (r > half || (r === half && odd)) q++;
    if (q >> BigInt(prec * 4) !== 0n) {
      lead++;
      q &= (1n << BigInt(prec * 4)) - 1n;
    }
    digits = prec === 0 ? '' : q.toString(16).padStart(prec, '0');
  }
  let s = '0x' + lead.toString(16) + (digits.length > 0 || alt ? '.' : '') + digits + 'p' + (exp < 0 ? '-' : '+') + Math.abs(exp);
  if (upper) s = s.toUpperCase();
  return s;
}

interface Spec {
  minus: boolean;
  plus: boolean;
  space: boolean;
  alt: boolean;
  zero: boolean;
  width: number;
  prec: number; // −1: none
}

function pad(body: string, prefix: string, sp: Spec, zeroOk: boolean): string {
  const len = body.length + prefix.length;
  if (len >= sp.width) return prefix + body;
  const fill = sp.width - len;
  if (sp.minus) return prefix + body + ' '.repeat(fill);
  if (sp.zero && zeroOk) return prefix + '0'.repeat(fill) + body;
  return ' '.repeat(fill) + prefix + body;
}

function toBig(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  return 0n;
}

/** Integer argument read with a length modifier; signed or unsigned. */
function intArg(v: unknown, len: string, signed: boolean): bigint | number {
  switch (len) {
    case 'hh':
      return signed ? (Number(toBig(v) & 0xffn) << 24) >> 24 : Number(toBig(v) & 0xffn);
    case 'h':
      return signed ? (Number(toBig(v) & 0xffffn) << 16) >> 16 : Number(toBig(v) & 0xffffn);
    case 'l':
    case 'll':
    case 'j':
    case 'z':
    case 't':
    case 'q':
    case 'L': {
      if (typeof v === 'number' && Number.isSafeInteger(v) && (signed || v >= 0)) return v;
      const b = toBig(v);
      return signed ? BigInt.asIntN(64, b) : BigInt.asUintN(64, b);
    }
    default: {
      if (typeof v === 'number') return signed ? v | 0 : v >>> 0;
      const b = toBig(v);
      return signed ? Number(BigInt.asIntN(32, b)) : Number(BigInt.asUintN(32, b));
    }
  }
}

function floatArg(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return 0;
}

/** Formats a double conversion (f F e E g G a A) including sign and padding. */
export function formatFloat(x: number, conv: string, sp: Spec): string {
  const upper = conv === 'F' || conv === 'E' || conv === 'G' || conv === 'A';
  const neg = signBit(x);
  const sign = neg ? '-' : sp.plus ? '+' : sp.space ? ' ' : '';
  if (!Number.isFinite(x)) {
    const body = Number.isNaN(x) ? (upper ? 'NAN' : 'nan') : upper ? 'INF' : 'inf';
    return pad(body, sign, sp, false);
  }
  const a = Math.abs(x);
  let body: string;
  switch (conv) {
    case 'f':
    case 'F': {
      const p = sp.prec < 0 ? 6 : sp.prec;
      body = fixedDigits(a, p);
      if (sp.alt && p === 0) body += '.';
      break;
    }
    case 'e':
    case 'E': {
      const p = sp.prec < 0 ? 6 : sp.prec;
      const [d, e10] = expDigits(a, p);
      body = d + (sp.alt && p === 0 ? '.' : '') + expSuffix(e10, upper);
      break;
    }
    case 'g':
    case 'G': {
      let P = sp.prec < 0 ? 6 : sp.prec;
      if (P === 0) P = 1;
      const [ed, X] = expDigits(a, P - 1);
      if (P > X && X >= -4) {
        body = fixedDigits(a, P - 1 - X);
        if (!sp.alt) {
          if (body.indexOf('.') >= 0) body = body.replace(/0+$/, '').replace(/\.$/, '');
        } else if (body.indexOf('.') < 0) body += '.';
      } else {
        let d = ed;
        if (!sp.alt) {
          if (d.indexOf('.') >= 0) d = d.replace(/0+$/, '').replace(/\.$/, '');
        } else if (d.indexOf('.') < 0) d += '.';
        body = d + expSuffix(X, upper);
      }
      break;
    }
    default: {
      // a A
      const h = hexFloat(a, sp.prec, upper, sp.alt);
      // the 0x prefix goes before zero padding
      return pad(h.slice(2), sign + h.slice(0, 2), sp, true);
    }
  }
  return pad(body, sign, sp, true);
}

/**
 * printf: formats `fmt` (latin1) with arguments from env. Returns the latin1 output.
 * Throws an Error with a message for conversions it does not support (%n, %ls).
 */
export function formatPrintf(fmt: string, env: PrintfEnv): string {
  let out = '';
  const n = fmt.length;
  let i = 0;
  while (i < n) {
    const pct = fmt.indexOf('%', i);
    if (pct < 0) {
      out += i === 0 ? fmt : fmt.slice(i);
      break;
    }
    if (pct > i) out += fmt.slice(i, pct);
    i = pct + 1;
    if (i >= n) break;
    const c0 = fmt.charCodeAt(i);
    // fast paths: plain %d, %s, %c (no flags, width, precision or length)
    if (c0 === 100 || c0 === 105) {
      const v = env.arg();
      out += typeof v === 'number' ? String(v | 0) : String(Number(BigInt.asIntN(32, v as bigint)));
      i++;
      continue;
    }
    if (c0 === 115) {
      const p = env.arg();
      const pv = typeof p === 'number' ? p : Number(p ?? 0);
      out += pv === 0 ? '(null)' : env.str(pv, -1);
      i++;
      continue;
    }
    if (c0 === 99) {
      const v = env.arg();
      out += String.fromCharCode((typeof v === 'number' ? v : Number(v)) & 255);
      i++;
      continue;
    }
    const sp = SPEC;
    sp.minus = sp.plus = sp.space = sp.alt = sp.zero = false;
    sp.width = 0;
    sp.prec = -1;
    // flags
    for (;;) {
      const c = fmt[i];
      if (c === '-') sp.minus = true;
      else if (c === '+') sp.plus = true;
      else if (c === ' ') sp.space = true;
      else if (c === '#') sp.alt = true;
      else if (c === '0') sp.zero = true;
      else if (c === "'" || c === 'I') {
        /* grouping / locale digits: no effect in the C locale */
      } else break;
      i++;
    }
    // width
    if (fmt[i] === '*') {
      i++;
      let w = Number(intArg(env.arg(), '', true));
      if (w < 0) {
        sp.minus = true;
        w = -w;
      }
      sp.width = w;
    } else {
      let w = 0;
      while (i < n && fmt.charCodeAt(i) >= 48 && fmt.charCodeAt(i) <= 57) w = w * 10 + (fmt.charCodeAt(i++) - 48);
      sp.width = w;
    }
    // precision
    if (fmt[i] === '.') {
      i++;
      if (fmt[i] === '*') {
        i++;
        const p = Number(intArg(env.arg(), '', true));
        sp.prec = p < 0 ? -1 : p;
      } else {
        let p = 0;
        while (i < n && fmt.charCodeAt(i) >= 48 && fmt.charCodeAt(i) <= 57) p = p * 10 + (fmt.charCodeAt(i++) - 48);
        sp.prec = p;
      }
    }
    // length
    let len = '';
    for (;;) {
      const c = fmt[i];
      if (c === 'h' || c === 'l' || c === 'L' || c === 'j' || c === 'z' || c === 't' || c === 'q') {
        len += c;
        i++;
      } else break;
    }
    const conv = fmt[i++];
    switch (conv) {
      case '%':
        out += '%';
        break;
      case 'd':
      case 'i': {
        const v = intArg(env.arg(), len, true);
        const neg = v < 0;
        let digits = (neg ? -(v as number) : v).toString();
        if (typeof v === 'bigint' && neg) digits = (-v).toString();
        out += intBody(digits, neg ? '-' : sp.plus ? '+' : sp.space ? ' ' : '', sp, v === 0 || v === 0n);
        break;
      }
      case 'u':
      case 'o':
      case 'x':
      case 'X': {
        const v = intArg(env.arg(), len, false);
        const base = conv === 'u' ? 10 : conv === 'o' ? 8 : 16;
        let digits = v.toString(base);
        if (conv === 'X') digits = digits.toUpperCase();
        const zero = v === 0 || v === 0n;
        let prefix = '';
        if (sp.alt && conv === 'x' && !zero) prefix = '0x';
        else if (sp.alt && conv === 'X' && !zero) prefix = '0X';
        if (sp.alt && conv === 'o') {
          // '#' with o: the first digit is a 0 (raise precision if needed)
          if (zero && sp.prec === 0) sp.prec = 1;
          else if (!zero && (sp.prec < 0 || sp.prec <= digits.length)) sp.prec = digits.length + 1;
        }
        out += intBody(digits, prefix, sp, zero);
        break;
      }
      case 'c': {
        const v = env.arg();
        const ch = String.fromCharCode(Number(toBig(v) & 0xffn));
        out += pad(ch, '', sp, false);
        break;
      }
      case 's': {
        const p = env.arg();
        const pv = typeof p === 'number' ? p : Number(p ?? 0);
        let s: string;
        if (pv === 0) s = sp.prec < 0 || sp.prec >= 6 ? '(null)' : '';
        else s = env.str(pv, sp.prec);
        out += pad(s, '', sp, false);
        break;
      }
      case 'p': {
        const p = env.arg();
        const pv = typeof p === 'number' ? p : Number(p ?? 0);
        if (pv === 0) out += pad('(nil)', '', sp, false);
        else {
          const sign = sp.plus ? '+' : sp.space ? ' ' : '';
          out += intBody(pv.toString(16), sign + '0x', sp, false);
        }
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A':
        out += formatFloat(floatArg(env.arg()), conv, sp);
        break;
      case 'n':
        throw new Error('printf %n is not supported');
      case 'm':
        out += 'Success';
        break;
      default:
        // glibc prints an unknown conversion as is
        out += '%' + fmt.slice(pct + 1, i);
        break;
    }
  }
  return out;
}

const SPEC: Spec = { minus: false, plus: false, space: false, alt: false, zero: false, width: 0, prec: -1 };

function intBody(digits: string, prefix: string, sp: Spec, zero: boolean): string {
  if (sp.prec >= 0) {
    if (sp.prec === 0 && zero) digits = '';
    else if (digits.length < sp.prec) digits = '0'.repeat(sp.prec - digits.length) + digits;
  }
  return pad(digits, prefix, sp, sp.prec < 0);
}

/** The unsigned 64-bit reading of an interpreter integer (for %lu and friends). */
export function u64(v: Wide): bigint {
  return BigInt.asUintN(64, typeof v === 'bigint' ? v : BigInt(v));
}
