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
 *  - otherwise may.
 * Sizes are store sizes in bytes; a negative size means unknown (ranges never disjoint).
 *
 * Invariant: pure queries on the IR as it is; `AliasAnalysis` caches escape results and
 * must be dropped when a transform adds uses of an alloca's address.
 */
import type { GlobalVariable } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import type { ConstantExpr } from '../ir/constants.js';
import { Value, ValueKind } from '../ir/value.js';
import { constantGEPInstOffset, constantGEPOffset } from './constant-folding.js';

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
    return 'may';
  }

  /** Whether memory at `p` can be read or written by a call (it is a non-escaping local). */
  isLocalUnreachableFromCalls(p: Value): boolean {
    return this.isNonEscaping(underlyingObject(p));
  }
}

/** One-shot query (no cache). */
export function alias(a: Value, sizeA: number, b: Value, sizeB: number): AliasResult {
  return new AliasAnalysis().alias(a, sizeA, b, sizeB);
}
