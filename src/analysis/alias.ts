/**
 * A simple alias analysis, in the spirit of LLVM's BasicAA: two memory accesses are
 * compared by the object their pointers are based on and their constant byte offsets.
 *
 *   alias(a, sizeA, b, sizeB) → 'no' | 'may' | 'must'
 *
 * Rules, in order:
 *  - the same pointer value with the same size: must;
 *  - pointers decomposed through GEPs with constant indices and bitcasts to (base, offset):
 *    the same base with known offsets → no when [offset, offset+size) ranges are disjoint,
 *    must when offsets and sizes are equal, else may; the same base with a variable index
 *    somewhere → may;
 *  - different bases that are both identified objects (allocas, global variables) → no;
 *  - a non-escaping alloca (its address only flows into loads, stores as the address,
 *    GEPs/bitcasts of it, compares and lifetime markers) against any pointer with a
 *    different base → no: nothing else can hold its address;
 *  - an internal global whose address is never taken (analysis/global-escape.ts, LLVM's
 *    GlobalsAA) against a pointer loaded from memory, an argument or a call's result → no:
 *    none of those can hold its address (phis and selects are not trusted: a transform may
 *    have merged pointers into the global in one);
 *  - an access larger than the whole of the other side's object (an alloca or a defined,
 *    non-interposable global, its size rounded up to its alignment) → no: such an access
 *    cannot lie inside that object (LLVM BasicAA's isObjectSmallerThan: an 8-byte pointer
 *    store through an unknown pointer does not touch a 4-byte global);
 *  - otherwise may.
 * Sizes are store sizes in bytes; a negative size means unknown (ranges never disjoint).
 *
 * Invariant: pure queries on the IR as it is; `AliasAnalysis` caches escape results and
 * must be dropped when a transform adds uses of an alloca's address.
 */
import type { GlobalVariable } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { allocSize } from '../ir/layout.js';
import { isSized } from '../ir/types.js';
import type { ConstantExpr, ConstantInt } from '../ir/constants.js';
import { Value, ValueKind } from '../ir/value.js';
import { constantGEPInstOffset, constantGEPOffset } from './constant-folding.js';
import { isNonAddressTakenGlobal } from './global-escape.js';

export type AliasResult = 'no' | 'may' | 'must';

export interface DecomposedPointer {
  /** The value the pointer is derived from (after stripping GEPs and casts). */
  base: Value;
  /** Constant byte offset from base, or null when some index is not constant. */
  offset: number | null;
}

/** Strips GEPs (accumulating constant offsets) and pointer casts. */
export function decomposePointer(p: Value): DecomposedPointer {
  let off: number | null = 0;
  let v = p;
  for (let guard = 0; guard < 64; guard++) {
    if (v.kind === ValueKind.Instruction) {
      const i = v as Instruction;
      if (i.op === Opcode.GetElementPtr && i.auxType !== null) {
        if (off !== null) {
          const d = constantGEPInstOffset(i);
          off = d === null ? null : off + d;
        }
        v = i.ops[0].value;
        continue;
      }
      if (i.op === Opcode.BitCast || i.op === Opcode.AddrSpaceCast) {
        v = i.ops[0].value;
        continue;
      }
    } else if (v.kind === ValueKind.ConstantExpr) {
      const ce = v as ConstantExpr;
      if (ce.opcode === Opcode.GetElementPtr && ce.sourceType !== null) {
        if (off !== null) {
          const d = constantGEPOffset(ce.sourceType, ce.operands.slice(1));
          off = d === null ? null : off + d;
        }
        v = ce.operands[0];
        continue;
      }
      if (ce.opcode === Opcode.BitCast || ce.opcode === Opcode.AddrSpaceCast) {
        v = ce.operands[0];
        continue;
      }
    }
    break;
  }
  return { base: v, offset: off };
}

/** The object a pointer is based on. */
export function underlyingObject(p: Value): Value {
  return decomposePointer(p).base;
}

/** Allocas and global variables: distinct ones never overlap. */
export function isIdentifiedObject(v: Value): boolean {
  if (v.kind === ValueKind.Instruction) return (v as Instruction).op === Opcode.Alloca;
  if (v.kind === ValueKind.GlobalVariable) return !(v as GlobalVariable).attrs.linkage.includes('extern_weak');
  return false;
}

/**
 * Whether an alloca's address never escapes: every (transitive) use through GEPs and
 * bitcasts is a load or store address, a compare, or a lifetime marker.
 */
export function isNonEscapingAlloca(a: Instruction): boolean {
  if (a.op !== Opcode.Alloca) return false;
  const work: Value[] = [a];
  const seen = new Set<Value>(work);
  while (work.length > 0) {
    const v = work.pop()!;
    for (let u = v.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      if (user.kind !== ValueKind.Instruction) return false;
      switch (user.op) {
        case Opcode.Load:
          break;
        case Opcode.Store:
          if (u.index !== 1) return false; // the address itself is stored somewhere
          break;
        case Opcode.ICmp:
          break;
        case Opcode.GetElementPtr:
        case Opcode.BitCast:
        case Opcode.AddrSpaceCast:
          if (u.index !== 0) return false;
          if (!seen.has(user)) {
            seen.add(user);
            work.push(user);
          }
          break;
        case Opcode.Call: {
          const f = user.calledFunction();
          if (f === null || !(f.name.startsWith('llvm.lifetime.') || f.name.startsWith('llvm.dbg.'))) return false;
          break;
        }
        default:
          return false;
      }
    }
  }
  return true;
}

function rangesDisjoint(oa: number, sa: number, ob: number, sb: number): boolean {
  if (sa < 0 || sb < 0) return false;
  return oa + sa <= ob || ob + sb <= oa;
}

/** Alias analysis with a cache of escape results. */
export class AliasAnalysis {
  private readonly escapes = new Map<Instruction, boolean>();

  isNonEscaping(v: Value): boolean {
    if (v.kind !== ValueKind.Instruction || (v as Instruction).op !== Opcode.Alloca) return false;
    const a = v as Instruction;
    let r = this.escapes.get(a);
    if (r === undefined) this.escapes.set(a, (r = isNonEscapingAlloca(a)));
    return r;
  }

  alias(a: Value, sizeA: number, b: Value, sizeB: number): AliasResult {
    // (the same answer aliasDecomposed gives, before decomposing b for nothing)
    if (a === b) return sizeA === sizeB && sizeA >= 0 ? 'must' : 'may';
    return this.aliasDecomposed(a, sizeA, b, decomposePointer(b), sizeB);
  }

  /**
   * `alias` with `b` already decomposed (`db = decomposePointer(b)`): what a query that
   * compares one pointer with many accesses uses, so it decomposes that pointer once.
   */
  aliasDecomposed(a: Value, sizeA: number, b: Value, db: DecomposedPointer, sizeB: number): AliasResult {
    if (a === b) return sizeA === sizeB && sizeA >= 0 ? 'must' : 'may';
    const da = decomposePointer(a);
    if (da.base === db.base) {
      if (da.offset === null || db.offset === null) return 'may';
      if (da.offset === db.offset && sizeA === sizeB && sizeA >= 0) return 'must';
      return rangesDisjoint(da.offset, sizeA, db.offset, sizeB) ? 'no' : 'may';
    }
    if (isIdentifiedObject(da.base) && isIdentifiedObject(db.base)) return 'no';
    if (this.isNonEscaping(da.base) || this.isNonEscaping(db.base)) return 'no';
    if (globalVsOpaquePointer(da.base, db.base) || globalVsOpaquePointer(db.base, da.base)) return 'no';
    if (objectSmallerThan(db.base, sizeA) || objectSmallerThan(da.base, sizeB)) return 'no';
    return 'may';
  }

  /** Whether memory at `p` can be read or written by a call (it is a non-escaping local). */
  isLocalUnreachableFromCalls(p: Value): boolean {
    return this.isNonEscaping(underlyingObject(p));
  }
}

/**
 * The size in bytes of the object `v` is, rounded up to its alignment (LLVM's getObjectSize
 * with RoundToAlign), or -1 when unknown: an alloca of a constant count, or a global with
 * a definition the linker cannot replace.
 */
export function objectSize(v: Value): number {
  if (v.kind === ValueKind.Instruction) {
    const a = v as Instruction;
    if (a.op !== Opcode.Alloca || a.auxType === null || !isSized(a.auxType)) return -1;
    const n = a.ops[0].value;
    if (n.kind !== ValueKind.ConstantInt) return -1;
    const count = Number((n as ConstantInt).value);
    return roundUp(allocSize(a.auxType) * count, a.align);
  }
  if (v.kind === ValueKind.GlobalVariable) {
    const g = v as GlobalVariable;
    if (g.isDeclaration() || !isSized(g.valueType) || /\b(weak|weak_odr|linkonce|linkonce_odr|common|extern_weak|available_externally)\b/.test(g.attrs.linkage)) return -1;
    return roundUp(allocSize(g.valueType), g.align);
  }
  return -1;
}

const roundUp = (n: number, align: number): number => (align > 1 ? Math.ceil(n / align) * align : n);

/** Whether an access of `size` bytes cannot fit inside the object `base` (so cannot touch it). */
function objectSmallerThan(base: Value, size: number): boolean {
  if (size <= 0) return false;
  const s = objectSize(base);
  return s >= 0 && s < size;
}

/** A pointer that cannot have been merged from others by a transform: loaded, an argument, a call's result. */
function isOpaquePointerSource(v: Value): boolean {
  if (v.kind === ValueKind.Argument) return true;
  if (v.kind !== ValueKind.Instruction) return false;
  const op = (v as Instruction).op;
  return op === Opcode.Load || op === Opcode.Call;
}

/** `g` is a global whose address is never taken and `other` a pointer that could only hold it if it were. */
function globalVsOpaquePointer(g: Value, other: Value): boolean {
  return g.kind === ValueKind.GlobalVariable && isOpaquePointerSource(other) && isNonAddressTakenGlobal(g as GlobalVariable);
}

/** One-shot query (no cache). */
export function alias(a: Value, sizeA: number, b: Value, sizeB: number): AliasResult {
  return new AliasAnalysis().alias(a, sizeA, b, sizeB);
}
