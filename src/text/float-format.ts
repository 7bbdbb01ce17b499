/**
 * Floating-point literals as LLVM writes and reads them.
 *
 * LLVM prints a float/double constant in scientific notation with six digits after the point
 * (`1.000000e+00`, APFloat::toString's rounding, see llvmScientific6) when that text reads
 * back to exactly the same value, and otherwise as the 64-bit pattern of the
 * value widened to double (`0x3FB99999A0000000`). half/bfloat/x86_fp80/fp128 use `0xH`,
 * `0xR`, `0xK`, `0xL` bit patterns. We keep every value as a JS double, so the wide formats
 * are read to the nearest double.
 */
import { Type, TypeKind } from '../ir/types.js';

const buf = new DataView(new ArrayBuffer(16));

function doubleFromBits(hi: number, lo: number): number {
  buf.setUint32(0, hi);
  buf.setUint32(4, lo);
  return buf.getFloat64(0);
}

export function parseFloatLiteral(text: string, ty: Type, error: (msg: string) => never): number {
  let neg = false;
  let t = text;
  if (t.startsWith('-')) {
    neg = true;
    t = t.slice(1);
  } else if (t.startsWith('+')) t = t.slice(1);
  if (!t.startsWith('0x')) {
    const v = Number(t);
    if (Number.isNaN(v)) error(`invalid floating-point literal '${text}'`);
    return neg ? -v : v;
  }
  const kind = t[2];
  let v: number;
  if (kind === 'K') v = fp80FromHex(t.slice(3));
  else if (kind === 'L') v = fp128FromHex(t.slice(3));
  else if (kind === 'H') v = halfFromBits(parseInt(t.slice(3), 16));
  else if (kind === 'R') v = doubleFromBits(parseInt(t.slice(3), 16) << 16, 0) /* bfloat = top half of a float */;
  else if (kind === 'M') error('ppc_fp128 literals are not supported');
  else {
    const hex = t.slice(2).padStart(16, '0');
    if (hex.length > 16) error(`floating-point literal '${text}' is too long`);
    v = doubleFromBits(parseInt(hex.slice(0, 8), 16), parseInt(hex.slice(8), 16));
  }
  if (kind === 'R') {
    buf.setUint32(0, parseInt(t.slice(3), 16) << 16);
    v = buf.getFloat32(0);
  }
  void ty;
  return neg ? -v : v;
}

function halfFromBits(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

function fp80FromHex(hex: string): number {
  hex = hex.padStart(20, '0');
  const se = parseInt(hex.slice(0, 4), 16);
  const mant = BigInt('0x' + hex.slice(4));
  const sign = se & 0x8000 ? -1 : 1;
  const exp = se & 0x7fff;
  if (exp === 0x7fff) return (mant & ((1n << 63n) - 1n)) === 0n ? sign * Infinity : NaN;
  if (exp === 0 && mant === 0n) return sign * 0;
  return sign * Number(mant) * 2 ** (exp - 16383 - 63);
}

function fp128FromHex(hex: string): number {
  // LLVM prints fp128 as the low 64 bits followed by the high 64 bits.
  hex = hex.padStart(32, '0');
  const lo = BigInt('0x' + hex.slice(0, 16));
  const hi = BigInt('0x' + hex.slice(16));
  const sign = hi >> 63n ? -1 : 1;
  const exp = Number((hi >> 48n) & 0x7fffn);
  const mant = ((hi & 0xffffffffffffn) << 64n) | lo;
  if (exp === 0x7fff) return mant === 0n ? sign * Infinity : NaN;
  if (exp === 0 && mant === 0n) return sign * 0;
  const full = exp === 0 ? mant : mant | (1n << 112n);
  return sign * Number(full) * 2 ** ((exp === 0 ? 1 : exp) - 16383 - 112);
}

/** The double's bit pattern as AsmWriter writes it: `format_hex(bits, 0, Upper)`, no leading zeros. */
function hex16(v: number): string {
  buf.setFloat64(0, v);
  return '0x' + buf.getBigUint64(0).toString(16).toUpperCase();
}

/**
 * LLVM's `APFloat::toString(Str, FormatPrecision = 6, FormatMaxPadding = 0,
 * TruncateZero = false)` for a finite non-negative double, which AsmWriter tries before
 * falling back to hex. It is not printf's `%.6e`: the exact decimal expansion of the value is
 * first cut down by a floor division to about 20 bits of digits (AdjustToPrecision on the
 * APInt), and only then rounded half-up to six significant digits on the digit below them.
 * So 1e-12 (exactly 9.99999999999999979e-13) becomes 9.99999e-13, which does not read back,
 * and LLVM prints 0x3D719799812DEA11 where `%.6e` would give 1.000000e-12. Written out
 * (BigInt), not taken from a library, because only this exact procedure is byte-identical.
 */
function llvmScientific6(v: number): string {
  const PRECISION = 6;
  if (v === 0) return '0.000000e+00';
  buf.setFloat64(0, v);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let sig = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp = biased === 0 ? -1074 : biased - 1075;
  if (biased !== 0) sig |= 1n << 52n;
  while ((sig & 1n) === 0n) {
    sig >>= 1n;
    exp++;
  }
  // m * 2^e as N * 10^exp: shift left, or multiply by 5^-e (N 2^-t = N 5^t 10^-t)
  if (exp > 0) {
    sig <<= BigInt(exp);
    exp = 0;
  } else if (exp < 0) sig *= 5n ** BigInt(-exp);
  // AdjustToPrecision on the integer: drop whole decimal digits by a floor division
  const bits = sig.toString(2).length;
  const bitsRequired = Math.floor((PRECISION * 196 + 58) / 59);
  if (bits > bitsRequired) {
    const tens = Math.floor(((bits - bitsRequired) * 59) / 196);
    if (tens > 0) {
      exp += tens;
      sig /= 10n ** BigInt(tens);
    }
  }
  // the digits, least significant first, without trailing zeros
  let digits = sig.toString();
  let strip = digits.length;
  while (digits[strip - 1] === '0') strip--;
  exp += digits.length - strip;
  digits = digits.slice(0, strip);
  // AdjustToPrecision on the digits: round half up on the first dropped digit
  if (digits.length > PRECISION) {
    const dropped = digits.length - PRECISION;
    const next = digits.charCodeAt(PRECISION);
    let kept = digits.slice(0, PRECISION);
    exp += dropped;
    if (next >= 0x35 /* '5' */) {
      const up = (BigInt(kept) + 1n).toString();
      if (up.length > kept.length) {
        kept = '1';
        exp += PRECISION;
      } else kept = up;
    }
    let end = kept.length;
    while (end > 1 && kept[end - 1] === '0') end--;
    exp += kept.length - end;
    digits = kept.slice(0, end);
  }
  exp += digits.length - 1;
  const mantissa = digits[0] + '.' + digits.slice(1).padEnd(PRECISION, '0');
  const e = Math.abs(exp).toString().padStart(2, '0');
  return `${mantissa}e${exp < 0 ? '-' : '+'}${e}`;
}

export function formatFloatLiteral(v: number, ty: Type): string {
  switch (ty.kind) {
    case TypeKind.Float:
    case TypeKind.Double: {
      if (Number.isFinite(v)) {
        let s = llvmScientific6(Math.abs(v));
        if (v < 0 || Object.is(v, -0)) s = '-' + s;
        if (Number(s) === v) return s;
      }
      return hex16(v);
    }
    case TypeKind.Half:
      return '0xH' + halfBits(v).toString(16).toUpperCase().padStart(4, '0');
    case TypeKind.BFloat: {
      buf.setFloat32(0, v);
      return '0xR' + (buf.getUint32(0) >>> 16).toString(16).toUpperCase().padStart(4, '0');
    }
    case TypeKind.X86_FP80:
      return '0xK' + fp80Hex(v);
    case TypeKind.FP128:
      return '0xL' + fp128Hex(v);
    default:
      return hex16(v);
  }
}

function halfBits(v: number): number {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  let e = Math.floor(Math.log2(a));
  if (a / 2 ** e >= 2) e++;
  if (a / 2 ** e < 1) e--;
  if (e < -14) return sign | Math.round(a / 2 ** -24);
  const f = Math.round((a / 2 ** e - 1) * 1024);
  if (f === 1024) e++;
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | (f & 0x3ff);
}

function fp80Hex(v: number): string {
  if (Number.isNaN(v)) return '7FFFC000000000000000';
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return (sign | 0x7fff).toString(16).toUpperCase() + '8000000000000000';
  if (a === 0) return (sign).toString(16).toUpperCase().padStart(4, '0') + '0000000000000000';
  buf.setFloat64(0, a);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  let exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp === 0) {
    // subnormal double: normalise
    let e = -1022;
    while ((mant & (1n << 52n)) === 0n) {
      mant <<= 1n;
      e--;
    }
    exp = e + 1023;
  } else mant |= 1n << 52n;
  const e80 = exp - 1023 + 16383;
  const m80 = mant << 11n;
  return (sign | e80).toString(16).toUpperCase().padStart(4, '0') + m80.toString(16).toUpperCase().padStart(16, '0');
}

function fp128Hex(v: number): string {
  if (v === 0) return (Object.is(v, -0) ? '0000000000000000' + '8000000000000000' : '0'.repeat(32));
  buf.setFloat64(0, Math.abs(v));
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const sign = v < 0 ? 1n : 0n;
  const exp = (hi >>> 20) & 0x7ff;
  const mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e128: bigint;
  let m128: bigint;
  if (!Number.isFinite(v)) {
    e128 = 0x7fffn;
    m128 = Number.isNaN(v) ? 1n << 111n : 0n;
  } else {
    e128 = BigInt(exp - 1023 + 16383);
    m128 = mant << 60n;
  }
  const high = (sign << 63n) | (e128 << 48n) | (m128 >> 64n);
  const low = m128 & ((1n << 64n) - 1n);
  return low.toString(16).toUpperCase().padStart(16, '0') + high.toString(16).toUpperCase().padStart(16, '0');
}
