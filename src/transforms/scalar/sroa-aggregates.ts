/**
 * SROA's helpers for whole-aggregate accesses, after LLVM's SROA.cpp AggLoadStoreRewriter:
 * a load or store of a struct or array on an alloca becomes one access per scalar leaf, so
 * the alloca's slices are scalars (see sroa.ts). Also the small instruction makers and the
 * limits the slicing shares with it.
 *
 * Invariant: no CFG change; every new instruction is placed before the access it replaces.
 */
import { ConstantInt, UndefValue } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { allocSize, structLayout } from '../../ir/layout.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { i8, i64, ptr, TypeKind, voidType, type Type } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { decomposePointer } from '../../analysis/alias.js';

/** Allocas bigger than this many partitions are left alone (LLVM has no such limit, but splits lazily). */
export const MAX_PARTITIONS = 64;

/** A scalar type we can hold a partition in. */
export function isScalar(t: Type): boolean {
  return t.kind === TypeKind.Int || t.kind === TypeKind.Ptr || t.kind === TypeKind.Float || t.kind === TypeKind.Double;
}

/** `base` plus `offset` bytes, as an i8 GEP placed before `before`. */
export function byteGEP(base: Value, offset: number, before: Instruction): Value {
  if (offset === 0) return base;
  const g = new Instruction(Opcode.GetElementPtr, ptr, [base, ConstantInt.get(i64, offset)]);
  g.auxType = i8;
  g.flags = Flag.InBounds;
  before.parent!.insertBefore(g, before);
  return g;
}


export function newLoad(t: Type, p: Value, align: number, before: Instruction): Instruction {
  const l = new Instruction(Opcode.Load, t, [p]);
  l.align = align;
  before.parent!.insertBefore(l, before);
  return l;
}


export function newStore(v: Value, p: Value, align: number, before: Instruction): Instruction {
  const s = new Instruction(Opcode.Store, voidType, [v, p]);
  s.align = align;
  before.parent!.insertBefore(s, before);
  return s;
}


interface Leaf {
  path: number[];
  offset: number;
  type: Type;
}

/** The scalar leaves of an aggregate type with their byte offsets (null when more than MAX_PARTITIONS or not scalar). */
export function leavesOf(t: Type): Leaf[] | null {
  const out: Leaf[] = [];
  const stack: Leaf[] = [{ path: [], offset: 0, type: t }];
  while (stack.length > 0) {
    const x = stack.pop()!;
    const ty = x.type;
    if (ty.kind === TypeKind.Struct) {
      const lay = structLayout(ty);
      for (let k = ty.members.length - 1; k >= 0; k--) stack.push({ path: [...x.path, k], offset: x.offset + lay.offsets[k], type: ty.members[k] });
    } else if (ty.kind === TypeKind.Array) {
      const es = allocSize(ty.elem!);
      if (ty.count > MAX_PARTITIONS) return null;
      for (let k = ty.count - 1; k >= 0; k--) stack.push({ path: [...x.path, k], offset: x.offset + k * es, type: ty.elem! });
    } else if (isScalar(ty)) {
      out.push(x);
      if (out.length > MAX_PARTITIONS) return null;
    } else return null;
  }
  return out;
}

export function isAggregate(t: Type): boolean {
  return t.kind === TypeKind.Struct || t.kind === TypeKind.Array;
}

export function basedOnAlloca(p: Value): boolean {
  const b = decomposePointer(p).base;
  return b.kind === ValueKind.Instruction && (b as Instruction).op === Opcode.Alloca;
}

/**
 * LLVM's AggLoadStoreRewriter: loads and stores of whole structs or arrays on an alloca become
 * one access per scalar leaf, so the alloca's slices are scalars. A load used only by stores
 * (a copy, as the inliner makes for byval arguments) becomes leaf loads and leaf stores; other
 * loads are rebuilt with insertvalue, other stored values taken apart with extractvalue.
 */
export function splitAggregateAccesses(todo: readonly Instruction[], newExtracts: Instruction[]): number {
  let n = 0;
  for (const i of todo) {
    if (i.parent === null) continue;
    if (i.op === Opcode.Store) {
      const v = i.operand(0);
      const leaves = leavesOf(v.type);
      if (leaves === null) continue;
      const l = v as Instruction;
      const copy = v.kind === ValueKind.Instruction && l.op === Opcode.Load && (l.flags & (Flag.Volatile | Flag.Atomic)) === 0 && l.firstUse!.next === null;
      for (const leaf of leaves) {
        let x: Value;
        if (copy) x = newLoad(leaf.type, byteGEP(l.operand(0), leaf.offset, l), 1, l);
        else {
          const e = new Instruction(Opcode.ExtractValue, leaf.type, [v]);
          e.indices = leaf.path;
          newExtracts.push(e);
          i.parent.insertBefore(e, i);
          x = e;
        }
        newStore(x, byteGEP(i.operand(1), leaf.offset, i), 1, i);
      }
      i.eraseFromParent();
      if (copy) l.eraseFromParent();
      n++;
    } else {
      const leaves = leavesOf(i.type);
      if (leaves === null) continue;
      let agg: Value = UndefValue.get(i.type);
      for (const leaf of leaves) {
        const x = newLoad(leaf.type, byteGEP(i.operand(0), leaf.offset, i), 1, i);
        const ins = new Instruction(Opcode.InsertValue, i.type, [agg, x]);
        ins.indices = leaf.path;
        i.parent.insertBefore(ins, i);
        agg = ins;
      }
      i.replaceAllUsesWith(agg);
      i.eraseFromParent();
      n++;
    }
  }
  return n;
}
