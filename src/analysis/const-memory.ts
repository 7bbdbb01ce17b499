/**
 * Constant memory: what a load from a `constant` global reads, and allocas that are only
 * ever a copy of one (LLVM: ConstantFoldLoadFromConstPtr in ConstantFolding.cpp and
 * isOnlyCopiedFromConstantMemory in InstCombineLoadStoreAlloca.cpp).
 *
 *  - `loadFromConstantMemory(p, T)`: p is a constant global with a definitive initializer,
 *    or GEPs (instructions or constant expressions, all indices constant) and casts over
 *    one; the result is the scalar of type T stored at that byte offset of the initializer
 *    when T is exactly an element there (or the bytes are in a zeroinitializer), else null.
 *  - `findConstantCopy(alloca)`: the single `llvm.memcpy`/`llvm.memmove` that fills the
 *    whole alloca from such a global, when every other use only reads the alloca (loads,
 *    GEPs of it, lifetime markers); the alloca can then be replaced by the global.
 *
 * Analyses only: nothing here changes the IR.
 */
import { Constant, ConstantAggregate, ConstantExpr, ConstantFP, ConstantInt, ConstantString, nullValue } from '../ir/constants.js';
import type { GlobalVariable } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { allocSize, storeSize, structLayout } from '../ir/layout.js';
import { Flag, Opcode } from '../ir/opcodes.js';
import { floatType, i8, i64, ptr, Type, TypeKind } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { decomposePointer } from './alias.js';
import { readConstantAt } from './constant-folding.js';

/**
 * A global whose bytes are known at compile time: `constant`, with an initializer that
 * the linker cannot replace (not weak, linkonce, available_externally or extern) and that
 * is not filled in from outside (`externally_initialized`).
 */
export function isConstantMemoryGlobal(v: Value): v is GlobalVariable {
  if (v.kind !== ValueKind.GlobalVariable) return false;
  const g = v as GlobalVariable;
  if (!g.isConstant || g.initializer === null) return false;
  const link = g.attrs.linkage;
  if (link.includes('weak') || link.includes('linkonce') || link.includes('available_externally') || link.includes('extern')) return false;
  return !g.attrs.prefix.includes('externally_initialized');
}

/** The scalar types a load may be folded to (aggregates and vectors are left alone). */
function isFoldableLoadType(t: Type): boolean {
  switch (t.kind) {
    case TypeKind.Int:
    case TypeKind.Float:
    case TypeKind.Double:
    case TypeKind.Ptr:
      return true;
    default:
      return false;
  }
}

/** The value a load of type `ty` from `p` reads, when `p` points into constant memory; else null. */
export function loadFromConstantMemory(p: Value, ty: Type): Value | null {
  if (!isFoldableLoadType(ty)) return null;
  const d = decomposePointer(p);
  if (!isConstantMemoryGlobal(d.base)) return null;
  const g = d.base;
  // at an offset not known here, an all-zero initializer still reads zero (LLVM's
  // ConstantFoldLoadFromUniformValue; a load outside the global would be undefined)
  if (d.offset === null) return g.initializer!.kind === ValueKind.ConstantZero ? nullValue(ty) : null;
  if (d.offset < 0 || d.offset + storeSize(ty) > storeSize(g.valueType)) return null;
  const c = readConstantAt(g.initializer!, g.valueType, d.offset, ty);
  // readConstantAt hands back the element itself when it has type `ty` (a global, a
  // constant expression, …): the load's value whatever its kind
  return c !== null && c.type === ty ? c : null;
}

const isInst = (v: Value): v is Instruction => v.kind === ValueKind.Instruction;

function intrinsicName(call: Instruction): string {
  const f = call.calledFunction();
  return f === null ? '' : f.name;
}

export function isLifetimeMarker(i: Instruction): boolean {
  if (i.op !== Opcode.Call) return false;
  const n = intrinsicName(i);
  return n.startsWith('llvm.lifetime.start') || n.startsWith('llvm.lifetime.end');
}

function isMemCopy(i: Instruction): boolean {
  if (i.op !== Opcode.Call) return false;
  const n = intrinsicName(i);
  return n.startsWith('llvm.memcpy.') || n.startsWith('llvm.memmove.');
}

export interface ConstantCopy {
  /** The constant global the alloca is a copy of. */
  global: GlobalVariable;
  /** The memcpy/memmove that fills the alloca (to delete). */
  copy: Instruction;
  /** Lifetime markers of the alloca or of pointers derived from it (to delete). */
  markers: Instruction[];
  /** The largest `align` of a load of the alloca (the global must be at least as aligned). */
  loadAlign: number;
}

/**
 * When `alloca` is written only by one memcpy/memmove of its whole size from a constant
 * global (the global's type pointer matching the alloca's, address space included), and
 * read only by loads — directly or through GEPs — the copy and the global it was made from
 * hold the same bytes, so the alloca can be replaced by the global. Null otherwise: any
 * store, call (other than that copy and lifetime markers), escape, compare, phi or select
 * of the address keeps the alloca.
 */
export function findConstantCopy(alloca: Instruction): ConstantCopy | null {
  if (alloca.op !== Opcode.Alloca || alloca.auxType === null || alloca.flags & Flag.InAlloca) return null;
  const count = alloca.ops[0]?.value;
  if (count === undefined || count.kind !== ValueKind.ConstantInt || (count as ConstantInt).value !== 1n) return null;
  const size = allocSize(alloca.auxType);
  if (size === 0) return null;
  let copy: Instruction | null = null;
  let global: GlobalVariable | null = null;
  const markers: Instruction[] = [];
  let loadAlign = 0;
  const work: Value[] = [alloca];
  for (let guard = 0; work.length > 0; guard++) {
    if (guard > 10_000) return null;
    const v = work.pop()!;
    for (let u = v.firstUse; u !== null; u = u.next) {
      const user = u.user as Value;
      if (!isInst(user)) return null;
      switch (user.op) {
        case Opcode.Load:
          if (user.flags & (Flag.Volatile | Flag.Atomic)) return null;
          if (user.align > loadAlign) loadAlign = user.align;
          continue;
        case Opcode.GetElementPtr:
          if (u.index !== 0) return null; // the address used as an index
          work.push(user);
          continue;
        case Opcode.Call: {
          if (isLifetimeMarker(user)) {
            markers.push(user);
            continue;
          }
          // the copy: into the alloca itself (not a part of it), whole, not volatile, once
          if (!isMemCopy(user) || v !== alloca || u.index !== 1 || copy !== null) return null;
          const src = user.arg(1);
          const len = user.arg(2);
          const vol = user.arg(3);
          if (user.arg(0) !== alloca || src === alloca) return null;
          if (vol === undefined || vol.kind !== ValueKind.ConstantInt || (vol as ConstantInt).value !== 0n) return null;
          if (len.kind !== ValueKind.ConstantInt || (len as ConstantInt).value !== BigInt(size)) return null;
          if (!isConstantMemoryGlobal(src) || src.type !== alloca.type || allocSize(src.valueType) < size) return null;
          copy = user;
          global = src;
          continue;
        }
        default:
          return null;
      }
    }
  }
  if (copy === null || global === null) return null;
  return { global, copy, markers, loadAlign };
}

/** The value of type t at byte `off` of constant memory `p` points into, read byte by byte (LLVM's ReadDataFromGlobal); null when unknown. */
export function constantBytes(p: Value, off: number, t: Type): Value | null {
  const direct = loadFromConstantMemory(byteOffsetPointer(p, off), t);
  if (direct !== null) return direct;
  const d = decomposePointer(p);
  if (d.offset === null || !isConstantMemoryGlobal(d.base)) return null;
  const g = d.base;
  const n = storeSize(t);
  if (t.kind === TypeKind.Ptr || n > 8) return null;
  let v = 0n;
  for (let k = n - 1; k >= 0; k--) {
    const b = constantByteAt(g.initializer!, g.valueType, d.offset + off + k);
    if (b === null) return null;
    v = (v << 8n) | BigInt(b);
  }
  if (t.kind === TypeKind.Int) return ConstantInt.get(t, v);
  const dv = new DataView(new ArrayBuffer(8));
  if (t === floatType) {
    dv.setUint32(0, Number(v));
    return ConstantFP.get(t, dv.getFloat32(0));
  }
  if (t.kind === TypeKind.Double) {
    dv.setBigUint64(0, v);
    return ConstantFP.get(t, dv.getFloat64(0));
  }
  return null;
}


/** Byte `off` of constant c of type cty (little-endian), or null when it is not a plain number. */
function constantByteAt(c: Constant, cty: Type, off: number): number | null {
  for (let guard = 0; guard < 64; guard++) {
    if (off < 0 || off >= allocSize(cty)) return null;
    switch (c.kind) {
      case ValueKind.ConstantZero:
      case ValueKind.ConstantNull:
        return 0;
      case ValueKind.ConstantString:
        return (c as ConstantString).bytes[off] ?? 0;
      case ValueKind.ConstantInt: {
        if (off >= storeSize(cty)) return null; // padding of an odd-width integer
        const u = BigInt.asUintN(Math.max(8, storeSize(cty) * 8), (c as ConstantInt).value);
        return Number((u >> BigInt(8 * off)) & 255n);
      }
      case ValueKind.ConstantFP: {
        const dv = new DataView(new ArrayBuffer(8));
        if (cty === floatType) dv.setFloat32(0, (c as ConstantFP).value, true);
        else if (cty.kind === TypeKind.Double) dv.setFloat64(0, (c as ConstantFP).value, true);
        else return null;
        return off < storeSize(cty) ? dv.getUint8(off) : null;
      }
      case ValueKind.ConstantArray:
      case ValueKind.ConstantStruct: {
        const agg = c as ConstantAggregate;
        if (cty.kind === TypeKind.Array) {
          const es = allocSize(cty.elem!);
          const k = Math.floor(off / es);
          c = agg.elements[k];
          off -= k * es;
          cty = cty.elem!;
          continue;
        }
        if (cty.kind !== TypeKind.Struct) return null;
        const offs = structLayout(cty).offsets;
        let k = offs.length - 1;
        while (k > 0 && offs[k] > off) k--;
        if (off - offs[k] >= allocSize(cty.members[k])) return null; // padding: not defined
        c = agg.elements[k];
        off -= offs[k];
        cty = cty.members[k];
        continue;
      }
      default:
        return null;
    }
  }
  return null;
}


/** A pointer value `off` bytes past p for analysis only (a constant GEP when p is a constant). */
function byteOffsetPointer(p: Value, off: number): Value {
  if (off === 0 || p.kind !== ValueKind.GlobalVariable) return p;
  return ConstantExpr.get(Opcode.GetElementPtr, ptr, [p as Constant, ConstantInt.get(i64, off)], Flag.InBounds, i8);
}
