/**
 * Reading and writing values of any first-class IR type at a byte offset of a DataView,
 * following the x86-64 layout of src/ir/layout.ts (little endian, struct padding, array
 * strides). Used for aggregate loads/stores, odd integer widths, x86_fp80, bitcasts between
 * vectors and scalars, and global initializers; scalar loads of common types have fast
 * paths in memory.ts instead.
 *
 * Value shapes: see values in codegen.ts — integers ≤ 32 bits are numbers in signed form
 * (i1 as 0/1), wider ones hybrid numbers/bigints (wide.ts), floats numbers, pointers
 * numbers, vectors/arrays/structs JS arrays.
 */
import { allocSize, storeSize, structLayout } from '../ir/layout.js';
import { Type, TypeKind } from '../ir/types.js';
import { canonBig, MAX_SAFE, Wide } from './wide.js';

const TWO32 = 4294967296;

export function readRaw(dv: DataView, off: number, ty: Type): unknown {
  switch (ty.kind) {
    case TypeKind.Int: {
      const bits = ty.bits;
      if (bits === 1) return dv.getUint8(off) & 1;
      if (bits === 8) return dv.getInt8(off);
      if (bits === 16) return dv.getInt16(off, true);
      if (bits === 32) return dv.getInt32(off, true);
      if (bits === 64) {
        const r = dv.getInt32(off + 4, true) * TWO32 + dv.getUint32(off, true);
        if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
        return dv.getBigInt64(off, true);
      }
      const n = (bits + 7) >> 3;
      let x = 0n;
      for (let i = n - 1; i >= 0; i--) x = (x << 8n) | BigInt(dv.getUint8(off + i));
      const v = BigInt.asIntN(bits, x);
      return bits <= 32 ? Number(v) : canonBig(v);
    }
    case TypeKind.Float:
      return dv.getFloat32(off, true);
    case TypeKind.Double:
      return dv.getFloat64(off, true);
    case TypeKind.X86_FP80:
      return readFp80(dv, off);
    case TypeKind.Half:
      return halfToNumber(dv.getUint16(off, true));
    case TypeKind.BFloat:
      return bfloatToNumber(dv.getUint16(off, true));
    case TypeKind.FP128:
      return readFp128(dv, off);
    case TypeKind.Ptr:
      return dv.getUint32(off + 4, true) * TWO32 + dv.getUint32(off, true);
    case TypeKind.Array: {
      const e = ty.elem!;
      const st = allocSize(e);
      const out = new Array(ty.count);
      for (let i = 0; i < ty.count; i++) out[i] = readRaw(dv, off + i * st, e);
      return out;
    }
    case TypeKind.Struct: {
      const l = structLayout(ty);
      const out = new Array(ty.members.length);
      for (let i = 0; i < ty.members.length; i++) out[i] = readRaw(dv, off + l.offsets[i], ty.members[i]);
      return out;
    }
    case TypeKind.Vector: {
      const e = ty.elem!;
      const out = new Array(ty.count);
      if (e.kind === TypeKind.Int && e.bits % 8 !== 0) {
        // bit-packed vector (<8 x i1>): element i is bit i*bits
        for (let i = 0; i < ty.count; i++) {
          let x = 0n;
          for (let b = 0; b < e.bits; b++) {
            const bit = i * e.bits + b;
            if ((dv.getUint8(off + (bit >> 3)) >> (bit & 7)) & 1) x |= 1n << BigInt(b);
          }
          const v = BigInt.asIntN(e.bits, x);
          out[i] = e.bits === 1 ? Number(x) : e.bits <= 32 ? Number(v) : canonBig(v);
        }
        return out;
      }
      const st = storeSize(e);
      for (let i = 0; i < ty.count; i++) out[i] = readRaw(dv, off + i * st, e);
      return out;
    }
    default:
      throw new Error(`cannot load a value of type ${ty}`);
  }
}

export function writeRaw(dv: DataView, off: number, v: unknown, ty: Type): void {
  switch (ty.kind) {
    case TypeKind.Int: {
      const bits = ty.bits;
      if (bits === 1) return dv.setUint8(off, (v as number) & 1);
      if (bits === 8) return dv.setInt8(off, v as number);
      if (bits === 16) return dv.setInt16(off, v as number, true);
      if (bits === 32) return dv.setInt32(off, v as number, true);
      if (bits === 64) {
        if (typeof v === 'number') {
          dv.setUint32(off, v >>> 0, true);
          dv.setInt32(off + 4, Math.floor(v / TWO32), true);
        } else dv.setBigInt64(off, v as bigint, true);
        return;
      }
      const n = (bits + 7) >> 3;
      let x = BigInt.asUintN(n * 8, BigInt(v as Wide));
      for (let i = 0; i < n; i++) {
        dv.setUint8(off + i, Number(x & 0xffn));
        x >>= 8n;
      }
      return;
    }
    case TypeKind.Float:
      return dv.setFloat32(off, v as number, true);
    case TypeKind.Double:
      return dv.setFloat64(off, v as number, true);
    case TypeKind.X86_FP80:
      return writeFp80(dv, off, v as number);
    case TypeKind.Half:
      return dv.setUint16(off, numberToHalf(v as number), true);
    case TypeKind.BFloat:
      return dv.setUint16(off, numberToBfloat(v as number), true);
    case TypeKind.FP128:
      return writeFp128(dv, off, v as number);
    case TypeKind.Ptr: {
      const p = v as number;
      dv.setUint32(off, p >>> 0, true);
      dv.setUint32(off + 4, Math.floor(p / TWO32) >>> 0, true);
      return;
    }
    case TypeKind.Array: {
      const e = ty.elem!;
      const st = allocSize(e);
      const a = v as unknown[];
      for (let i = 0; i < ty.count; i++) writeRaw(dv, off + i * st, a[i], e);
      return;
    }
    case TypeKind.Struct: {
      const l = structLayout(ty);
      const a = v as unknown[];
      for (let i = 0; i < ty.members.length; i++) writeRaw(dv, off + l.offsets[i], a[i], ty.members[i]);
      return;
    }
    case TypeKind.Vector: {
      const e = ty.elem!;
      const a = v as unknown[];
      if (e.kind === TypeKind.Int && e.bits % 8 !== 0) {
        const total = storeSize(ty);
        for (let i = 0; i < total; i++) dv.setUint8(off + i, 0);
        for (let i = 0; i < ty.count; i++) {
          const x = BigInt.asUintN(e.bits, BigInt(a[i] as Wide));
          for (let b = 0; b < e.bits; b++) {
            if ((x >> BigInt(b)) & 1n) {
              const bit = i * e.bits + b;
              dv.setUint8(off + (bit >> 3), dv.getUint8(off + (bit >> 3)) | (1 << (bit & 7)));
            }
          }
        }
        return;
      }
      const st = storeSize(e);
      for (let i = 0; i < ty.count; i++) writeRaw(dv, off + i * st, a[i], e);
      return;
    }
    default:
      throw new Error(`cannot store a value of type ${ty}`);
  }
}

/** The zero value of a type in interpreter form (also what undef and poison become). */
export function zeroValue(ty: Type): unknown {
  switch (ty.kind) {
    case TypeKind.Array:
    case TypeKind.Vector: {
      const out = new Array(ty.count);
      for (let i = 0; i < ty.count; i++) out[i] = zeroValue(ty.elem!);
      return out;
    }
    case TypeKind.Struct:
      return ty.members.map(zeroValue);
    default:
      return 0;
  }
}

const scratch = new DataView(new ArrayBuffer(256));

/** bitcast between any two types of the same size, through memory. */
export function bitcastValue(v: unknown, from: Type, to: Type): unknown {
  const n = storeSize(from);
  const dv = n <= 256 ? scratch : new DataView(new ArrayBuffer(n));
  writeRaw(dv, 0, v, from);
  return readRaw(dv, 0, to);
}

// ---- x86_fp80 (long double), kept as a double in registers ----------------------------------

export function readFp80(dv: DataView, off: number): number {
  const lo = BigInt(dv.getUint32(off, true));
  const hi = BigInt(dv.getUint32(off + 4, true));
  const mant = (hi << 32n) | lo;
  const se = dv.getUint16(off + 8, true);
  const sign = se & 0x8000 ? -1 : 1;
  const exp = se & 0x7fff;
  if (exp === 0x7fff) return (mant & 0x7fffffffffffffffn) === 0n ? sign * Infinity : NaN;
  if (mant === 0n) return sign * 0;
  const e = (exp === 0 ? 1 : exp) - 16383 - 63;
  // scale in two steps so that neither factor overflows
  return sign * Number(mant) * 2 ** Math.trunc(e / 2) * 2 ** (e - Math.trunc(e / 2));
}

export function writeFp80(dv: DataView, off: number, x: number): void {
  let sign = 0;
  if (x < 0 || Object.is(x, -0)) {
    sign = 0x8000;
    x = -x;
  }
  let exp: number;
  let mant: bigint;
  if (Number.isNaN(x)) {
    exp = 0x7fff;
    mant = 0xc000000000000000n;
  } else if (x === Infinity) {
    exp = 0x7fff;
    mant = 0x8000000000000000n;
  } else if (x === 0) {
    exp = 0;
    mant = 0n;
  } else {
    const d = new DataView(new ArrayBuffer(8));
    d.setFloat64(0, x);
    const bexp = (d.getUint16(0) >> 4) & 0x7ff;
    let frac = (BigInt(d.getUint32(0) & 0xfffff) << 32n) | BigInt(d.getUint32(4));
    let e: number;
    if (bexp === 0) {
      // subnormal double: normalise
      e = -1022;
      while ((frac & (1n << 52n)) === 0n) {
        frac <<= 1n;
        e--;
      }
    } else {
      frac |= 1n << 52n;
      e = bexp - 1023;
    }
    mant = frac << 11n;
    exp = e + 16383;
  }
  dv.setUint32(off, Number(mant & 0xffffffffn), true);
  dv.setUint32(off + 4, Number(mant >> 32n), true);
  dv.setUint16(off + 8, exp | sign, true);
}

function readFp128(dv: DataView, off: number): number {
  // IEEE quad: 1 sign, 15 exponent, 112 fraction bits
  const hi = dv.getUint16(off + 14, true);
  const sign = hi & 0x8000 ? -1 : 1;
  const exp = hi & 0x7fff;
  let frac = 0n;
  for (let i = 13; i >= 0; i--) frac = (frac << 8n) | BigInt(dv.getUint8(off + i));
  if (exp === 0x7fff) return frac === 0n ? sign * Infinity : NaN;
  if (exp === 0 && frac === 0n) return sign * 0;
  const m = exp === 0 ? frac : frac | (1n << 112n);
  const e = (exp === 0 ? 1 : exp) - 16383 - 112;
  return sign * Number(m) * 2 ** Math.trunc(e / 2) * 2 ** (e - Math.trunc(e / 2));
}

function writeFp128(dv: DataView, off: number, x: number): void {
  const tmp = new DataView(new ArrayBuffer(10));
  writeFp80(tmp, 0, x);
  const se = tmp.getUint16(8, true);
  const mant = (BigInt(tmp.getUint32(4, true)) << 32n) | BigInt(tmp.getUint32(0, true));
  // drop the explicit integer bit, widen the fraction to 112 bits
  let frac = (mant & 0x7fffffffffffffffn) << 49n;
  for (let i = 0; i < 14; i++) {
    dv.setUint8(off + i, Number(frac & 0xffn));
    frac >>= 8n;
  }
  dv.setUint16(off + 14, se, true);
}

export function halfToNumber(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f === 0 ? s * Infinity : NaN;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

export function numberToHalf(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const s = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  x = Math.abs(x);
  if (x >= 65520) return s | 0x7c00;
  if (x < 2 ** -14) {
    const f = roundHalfEven(x / 2 ** -24);
    return s | f;
  }
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e--;
  if (2 ** (e + 1) <= x) e++;
  let f = roundHalfEven((x / 2 ** e - 1) * 1024);
  if (f === 1024) {
    f = 0;
    e++;
  }
  if (e > 15) return s | 0x7c00;
  return s | ((e + 15) << 10) | f;
}

function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5 || (d === 0.5 && f % 2 === 1)) return f + 1;
  return f;
}

export function bfloatToNumber(h: number): number {
  const d = new DataView(new ArrayBuffer(4));
  d.setUint32(0, h << 16);
  return d.getFloat32(0);
}
export function numberToBfloat(x: number): number {
  const d = new DataView(new ArrayBuffer(4));
  d.setFloat32(0, x);
  const u = d.getUint32(0);
  if (Number.isNaN(x)) return 0x7fc0;
  const lsb = (u >> 16) & 1;
  return ((u + 0x7fff + lsb) >>> 16) & 0xffff;
}
