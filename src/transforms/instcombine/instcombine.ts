/**
 * instcombine ("lite"): peephole rewrites that may create instructions, after LLVM's
 * InstCombine (InstCombineAddSub.cpp, …MulDivRem.cpp, …Compares.cpp, …Casts.cpp,
 * …Select.cpp) and the algebraic simplification / strength reduction of the Dragon book
 * (§8.5.4) — run to a fixed point with a worklist.
 *
 * Each visit of an instruction: delete it if trivially dead; else replace it by what
 * instsimplify finds; else try the rewrites below, which return a replacement value
 * (new instructions are inserted right before the old one and go on the worklist) or
 * change the instruction in place. Users of anything changed are revisited.
 *
 * Rules (x, y values; C constants; flags are kept only where the rewrite provably keeps
 * them, else dropped — dropping nsw/nuw is always sound):
 *  - canonical form: constants to the right of commutative ops and compares;
 *    `sub x, C` → `add x, -C`; `icmp sle x, C` → `icmp slt x, C+1` (and sge/ule/uge);
 *    `icmp ult x, 1` → `icmp eq x, 0`; `add x, x` → `shl x, 1`.
 *  - strength reduction: `mul x, 2^k` → `shl x, k`; `mul x, -1` → `sub 0, x`;
 *    `udiv x, 2^k` → `lshr x, k`; `urem x, 2^k` → `and x, 2^k-1`; `sdiv`/`srem` by 2^k
 *    become `lshr`/`and` only when x is known non-negative; `sdiv exact x, 2^k` →
 *    `ashr exact`. The general signed case needs a rounding fix-up (three more
 *    instructions: ashr, lshr, add) — more work for the interpreter and hidden from later
 *    analyses, so like LLVM we leave it to a backend unless `instcombine<sdiv-pow2>`.
 *    Why `shl x, 1` and not `x + x` for `x * 2`: one canonical form for every power of two
 *    (and `x + x` is turned into it too), so CSE sees `2*x`, `x+x` and `x<<1` as one value.
 *  - reassociation of constants: `(x + C1) + C2` → `x + (C1+C2)`, `(C1 - x) + C2`,
 *    `C1 - (x + C2)`, `C1 - (C2 - x)`, `(x * C1) * C2`, `(x op C1) op C2` for and/or/xor,
 *    shifts of shifts; `(x + C) - C` → x falls out of these plus instsimplify.
 *  - negation: `(0 - x) + y` → `y - x`; `x - (0 - y)` → `x + y`; `~x + 1` → `0 - x`;
 *    `x - (x + y)` → `0 - y`.
 *  - compares: `icmp (x + C1), C2` → `icmp x, C2-C1` for eq/ne always, for signed
 *    predicates only with nsw and for unsigned only with nuw (and no overflow of C2-C1);
 *    `icmp (x ^ C1), C2`, `icmp (C1 - x), C2`, `icmp (x - y), 0` for eq/ne; compares of
 *    zext/sext with constants or with another zext/sext narrowed to the source type;
 *    `xor (icmp p a b), true` → `icmp !p a b`; i1 `icmp eq b, false` → `xor b, true`.
 *  - selects: `select c, false, true` → `xor c, true`; `select c, 1, 0` → `zext c`,
 *    `select c, -1, 0` → `sext c`; `select (xor c, true), a, b` → `select c, b, a`;
 *    and the reverse direction where it pays: `(zext i1 c) + C` → `select c, C+1, C`
 *    (also sub, mul, and sext) — one instruction instead of two.
 *  - casts: `zext (zext x)`, `sext (sext x)`, `sext (zext x)`, `trunc (trunc x)`,
 *    `trunc (zext/sext x)` to a narrower or wider type, `zext (trunc x)` back to x's type
 *    → `and x, mask`, `trunc (and x, C)` → `trunc x` when C keeps the low bits,
 *    `bitcast (bitcast x)`.
 *  - GEPs: `gep T, (gep T, p, C1), C2` → `gep T, p, C1+C2`.
 *  - branches: `br (xor c, true), T, F` → `br c, F, T` (the only CFG-visible change:
 *    successors swap order, so the pass then reports preserved 'none').
 *  - memory, within a block and a window of 6 instructions (as LLVM's InstCombine): a load
 *    of what was just stored or loaded at a must-alias address (src/analysis/alias.ts)
 *    with no possibly-aliasing write between; `store (load p), p` with nothing written in
 *    between is deleted; a store overwritten by a later store to the same address with no
 *    read or side effect between is deleted.
 *  - constant memory (src/analysis/const-memory.ts): a load from a `constant` global with a
 *    definitive initializer, through GEPs with constant indices (instructions or constant
 *    expressions), is the scalar stored there (LLVM: ConstantFoldLoadFromConstPtr); an
 *    alloca written only by a memcpy of its whole size from such a global and otherwise
 *    only read (loads, GEPs, lifetime markers) is the global: its uses take the global and
 *    the copy goes (LLVM: isOnlyCopiedFromConstantMemory) — what clang -O0 emits for
 *    `int xs[] = {5, -5, 0};`, whose loads then fold once their indices are constant.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import { callMemoryEffect, isTriviallyDead, mayHaveSideEffects, mayReadMemory, mayWriteMemory } from '../../ir/effects.js';
import { abiAlign, storeSize } from '../../ir/layout.js';
import { AliasAnalysis, decomposePointer, type DecomposedPointer } from '../../analysis/alias.js';
import { findConstantCopy, loadFromConstantMemory } from '../../analysis/const-memory.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode, Pred, inversePred, isBinaryOp, isCommutative, isSignedPred, swappedPred } from '../../ir/opcodes.js';
import { Type, TypeKind, i1 } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { isKnownNonNegative, simplifyInstruction } from '../../analysis/instsimplify.js';
import { CFGAnalysis, DominatorTreeAnalysis } from '../../pm/analyses.js';
import { phiDominanceQuery } from '../scalar/instsimplify.js';
import { foldTruncByEvaluation, foldZExtByEvaluation } from './evaluate-in-type.js';
import { andIsRedundant, narrowMaskedBinOp, simplifyDemandedOperands, type DemandedSink } from './demanded-bits.js';
import type { FunctionPass, PassContext, PassResult } from '../../pm/pass.js';
import type { PassInfo } from '../../pm/registry.js';

const isInst = (v: Value): v is Instruction => v.kind === ValueKind.Instruction;
/** How far back loads and stores look for the same address in their block (LLVM's DefMaxInstsToScan). */
const SCAN_LIMIT = 6;
const isCInt = (v: Value): v is ConstantInt => v.kind === ValueKind.ConstantInt;
const isConst = (v: Value): boolean => v.kind >= ValueKind.ConstantInt;

function signedMin(w: number): bigint {
  return -(1n << BigInt(w - 1));
}
function signedMax(w: number): bigint {
  return (1n << BigInt(w - 1)) - 1n;
}
function fitsSigned(v: bigint, w: number): boolean {
  return v >= signedMin(w) && v <= signedMax(w);
}
function fitsUnsigned(v: bigint, w: number): boolean {
  return v >= 0n && v < 1n << BigInt(w);
}
/** log2 of a power of two given as an unsigned bigint, else -1. */
function log2Exact(u: bigint): number {
  if (u <= 0n || (u & (u - 1n)) !== 0n) return -1;
  return u.toString(2).length - 1;
}
function ci(t: Type, v: bigint): ConstantInt {
  return ConstantInt.get(t, v);
}
/** The unsigned version of a signed predicate (same for eq/ne and unsigned ones). */
function unsignedPred(p: Pred): Pred {
  switch (p) {
    case Pred.SGT: return Pred.UGT;
    case Pred.SGE: return Pred.UGE;
    case Pred.SLT: return Pred.ULT;
    case Pred.SLE: return Pred.ULE;
    default: return p;
  }
}

export interface InstCombineOptions {
  /** Expand `sdiv x, 2^k` with the rounding fix-up (off by default, see the file comment). */
  sdivPow2: boolean;
}

class Combiner {
  private readonly work: Instruction[] = [];
  /**
   * Whether an instruction is on the worklist, by its id (ids are unique in a function and
   * new instructions take fresh ones; an erased instruction's id becomes -1, and its old
   * mark is never read again). Grown as instructions are made.
   */
  private queued: Uint8Array;
  private pos: Instruction | null = null;
  /** Instructions made by the current rule (they may take the old instruction's name). */
  private readonly created = new Set<Instruction>();
  /** Scratch: the instruction operands of the one being combined, before the rules ran. */
  private readonly oldOperands: Instruction[] = [];
  changed = false;
  cfgChanged = false;
  /** What the rules in evaluate-in-type.ts and demanded-bits.ts insert through. */
  private readonly sink: DemandedSink = {
    insertAt: (inst, at) => {
      at.parent!.insertBefore(inst, at);
      this.created.add(inst);
      this.push(inst);
      return inst;
    },
    revisit: (inst) => this.push(inst),
  };
  stats = { combined: 0, simplified: 0, deleted: 0, constantLoads: 0, constantAllocas: 0 };

  constructor(
    private readonly fn: Function,
    private readonly reachable: (bb: BasicBlock) => boolean,
    private readonly dominatesPhi: (v: Value, bb: BasicBlock) => boolean,
    private readonly opts: InstCombineOptions,
  ) {
    this.queued = new Uint8Array(fn.instIdBound + 64);
  }

  push(i: Instruction): void {
    if (i.parent === null) return;
    const id = i.id;
    if (id >= this.queued.length) {
      const grown = new Uint8Array(Math.max(id + 1, this.queued.length * 2));
      grown.set(this.queued);
      this.queued = grown;
    }
    if (this.queued[id] !== 0 || !this.reachable(i.parent)) return;
    this.queued[id] = 1;
    this.work.push(i);
  }

  pushUsers(v: Value): void {
    for (let u = v.firstUse; u !== null; u = u.next) if (isInst(u.user)) this.push(u.user as Instruction);
  }

  pushOperands(i: Instruction): void {
    for (const u of i.ops) if (isInst(u.value)) this.push(u.value);
  }

  run(order: BasicBlock[]): void {
    // seed in reverse so that popping visits the function in program order
    for (let k = order.length - 1; k >= 0; k--) for (let i = order[k].last; i !== null; i = i.prev) this.push(i);
    while (this.work.length > 0) {
      const i = this.work.pop()!;
      if (i.parent === null) continue;
      this.queued[i.id] = 0;
      this.visit(i);
    }
  }

  private erase(i: Instruction): void {
    const ops = i.operands();
    i.eraseFromParent();
    this.stats.deleted++;
    this.changed = true;
    for (const o of ops) if (isInst(o) && o.firstUse === null) this.push(o);
  }

  private replace(i: Instruction, v: Value, isNew: boolean): void {
    this.pushUsers(i);
    if (isInst(v)) {
      this.push(v);
      if (isNew && v.name === '' && i.name !== '') {
        v.name = i.name;
        i.name = '';
      }
    }
    i.replaceAllUsesWith(v);
    this.changed = true;
    if (isTriviallyDead(i)) this.erase(i);
  }

  private visit(i: Instruction): void {
    if (isTriviallyDead(i)) {
      this.erase(i);
      return;
    }
    const s = simplifyInstruction(i, { dominatesPhi: this.dominatesPhi });
    if (s !== null) {
      this.stats.simplified++;
      this.replace(i, s, false);
      return;
    }
    this.pos = i;
    // the operands before the rules run: an in-place change may leave some of them dead
    const before = this.oldOperands;
    let n = 0;
    for (let k = 0; k < i.ops.length; k++) {
      const v = i.ops[k].value;
      if (isInst(v)) before[n++] = v;
    }
    const r = this.combine(i);
    this.pos = null;
    if (r === null) {
      this.created.clear();
      return;
    }
    this.stats.combined++;
    this.changed = true;
    if (r === i) {
      this.created.clear();
      // changed in place: look at it, its users and its old operands (maybe dead now) again
      this.push(i);
      this.pushUsers(i);
      this.pushOperands(i);
      for (let k = 0; k < n; k++) {
        const o = before[k];
        if (o.parent !== null && o.firstUse === null) this.push(o);
      }
      return;
    }
    this.replace(i, r, isInst(r) && this.created.has(r));
    this.created.clear();
  }

  // ---- building ------------------------------------------------------------------------

  /** Inserts a new instruction before the one being combined and queues it. */
  private insert(inst: Instruction): Instruction {
    this.pos!.parent!.insertBefore(inst, this.pos!);
    this.created.add(inst);
    this.push(inst);
    return inst;
  }
  private bin(op: Opcode, a: Value, b: Value, flags = 0): Instruction {
    const i = new Instruction(op, a.type, [a, b]);
    i.flags = flags;
    return this.insert(i);
  }
  private icmp(p: Pred, a: Value, b: Value): Instruction {
    const i = new Instruction(Opcode.ICmp, i1, [a, b]);
    i.pred = p;
    return this.insert(i);
  }
  private cast(op: Opcode, v: Value, to: Type, flags = 0): Instruction {
    const i = new Instruction(op, to, [v]);
    i.flags = flags;
    return this.insert(i);
  }
  private select(c: Value, a: Value, b: Value): Instruction {
    return this.insert(new Instruction(Opcode.Select, a.type, [c, a, b]));
  }
  private not(c: Value): Instruction {
    return this.bin(Opcode.Xor, c, ConstantInt.true());
  }

  // ---- rules -------------------------------------------------------------------------------

  private combine(i: Instruction): Value | null {
    const op = i.op;
    if (isBinaryOp(op)) {
      if (i.type.kind !== TypeKind.Int) return this.canonicalizeOperands(i);
      return this.combineIntBinary(i);
    }
    switch (op) {
      case Opcode.ICmp:
        return i.ops[0].value.type.kind === TypeKind.Vector ? null : this.combineICmp(i);
      case Opcode.FCmp:
        if (isConst(i.ops[0].value) && !isConst(i.ops[1].value)) {
          this.swapOperands(i);
          i.pred = swappedPred(i.pred);
          return i;
        }
        return null;
      case Opcode.Select:
        return this.combineSelect(i);
      case Opcode.ZExt:
      case Opcode.SExt:
      case Opcode.Trunc:
      case Opcode.BitCast:
        return i.type.kind === TypeKind.Vector ? null : this.combineCast(i);
      case Opcode.GetElementPtr:
        return this.combineGEP(i);
      case Opcode.Br:
        return this.combineBranch(i);
      case Opcode.Load:
        return this.combineLoad(i);
      case Opcode.Store:
        return this.combineStore(i);
      case Opcode.Alloca:
        return this.combineAlloca(i);
      default:
        return null;
    }
  }

  /**
   * A load of what the same block just stored or loaded at a must-alias address, with no
   * possibly-aliasing write in the last few instructions (LLVM: FindAvailableLoadedValue).
   */
  private combineLoad(i: Instruction): Value | null {
    if (i.flags & (Flag.Volatile | Flag.Atomic)) return null;
    const p = i.ops[0].value;
    const c = loadFromConstantMemory(p, i.type);
    if (c !== null) {
      this.stats.constantLoads++;
      return c;
    }
    const size = storeSize(i.type);
    // made on first need: most loads have no memory access among the few instructions before them
    let aa: AliasAnalysis | null = null;
    let pd: DecomposedPointer | null = null;
    let k = 0;
    for (let s = i.prev; s !== null && k < SCAN_LIMIT; s = s.prev, k++) {
      if (s.op === Opcode.Store) {
        if (s.flags & (Flag.Volatile | Flag.Atomic)) return null;
        const v = s.ops[0].value;
        aa ??= new AliasAnalysis();
        const r = aa.aliasDecomposed(s.ops[1].value, storeSize(v.type), p, (pd ??= decomposePointer(p)), size);
        if (r === 'must' && v.type === i.type) return v;
        if (r !== 'no') return null;
        continue;
      }
      if (s.op === Opcode.Load) {
        if (s.flags & (Flag.Volatile | Flag.Atomic)) return null;
        if (s.type !== i.type) continue;
        aa ??= new AliasAnalysis();
        if (aa.aliasDecomposed(s.ops[0].value, size, p, (pd ??= decomposePointer(p)), size) === 'must') return s;
        continue;
      }
      if (s.op === Opcode.Call) {
        const e = callMemoryEffect(s);
        aa ??= new AliasAnalysis();
        if (e === 'none' || e === 'read' || aa.isLocalUnreachableFromCalls(p)) continue;
        return null;
      }
      if (mayWriteMemory(s)) return null;
    }
    return null;
  }

  /**
   * An alloca that is only a copy of a constant global (filled by one memcpy of its whole
   * size, otherwise only read) becomes the global: the copy and the lifetime markers go,
   * the loads are revisited (they may now fold), and the caller replaces the alloca.
   */
  private combineAlloca(i: Instruction): Value | null {
    const cc = findConstantCopy(i);
    if (cc === null) return null;
    const g = cc.global;
    // the loads were allowed to assume the alloca's alignment: the global must have it too
    const need = Math.max(cc.loadAlign, i.align);
    if (need > (g.align > 0 ? g.align : abiAlign(g.valueType))) g.align = need;
    this.erase(cc.copy);
    for (const m of cc.markers) if (m.parent !== null) this.erase(m);
    // revisit every load and GEP reading through the alloca
    const seen = new Set<Value>([i]);
    const stack: Value[] = [i];
    while (stack.length > 0) {
      const v = stack.pop()!;
      for (let u = v.firstUse; u !== null; u = u.next) {
        const user = u.user as Instruction;
        if (seen.has(user)) continue;
        seen.add(user);
        this.push(user);
        if (user.op === Opcode.GetElementPtr) stack.push(user);
      }
    }
    this.stats.constantAllocas++;
    return g;
  }

  /**
   * Stores that change nothing: storing the value just loaded from the same address, or a
   * store overwritten by this one with no read in between (the earlier one is deleted).
   */
  private combineStore(i: Instruction): Value | null {
    if (i.flags & (Flag.Volatile | Flag.Atomic)) return null;
    const v = i.ops[0].value;
    const p = i.ops[1].value;
    const size = storeSize(v.type);
    const aa = new AliasAnalysis();
    // store (load p), p
    if (isInst(v) && v.op === Opcode.Load && v.parent === i.parent && !(v.flags & (Flag.Volatile | Flag.Atomic)) && aa.alias(v.ops[0].value, size, p, size) === 'must') {
      let clean = true;
      let k = 0;
      let s = i.prev;
      for (; s !== null && s !== v && k < SCAN_LIMIT; s = s.prev, k++) if (mayWriteMemory(s) || s.op === Opcode.Load && s.flags & Flag.Volatile) clean = false;
      if (clean && s === v) {
        this.erase(i);
        this.stats.combined++;
        return null;
      }
    }
    // store x, p; ...; store y, p  -> the first store is dead
    let k = 0;
    for (let s = i.prev; s !== null && k < SCAN_LIMIT; s = s.prev, k++) {
      if (s.op === Opcode.Store) {
        if (s.flags & (Flag.Volatile | Flag.Atomic)) return null;
        const r = aa.alias(s.ops[1].value, storeSize(s.ops[0].value.type), p, size);
        if (r === 'must' && storeSize(s.ops[0].value.type) === size) {
          this.erase(s);
          this.stats.combined++;
          return null;
        }
        if (r !== 'no') return null;
        continue;
      }
      if (mayReadMemory(s) || mayWriteMemory(s) || mayHaveSideEffects(s)) return null;
    }
    return null;
  }

  private swapOperands(i: Instruction): void {
    const a = i.ops[0].value;
    const b = i.ops[1].value;
    i.setOperand(0, b);
    i.setOperand(1, a);
  }

  private canonicalizeOperands(i: Instruction): Instruction | null {
    if (isCommutative(i.op) && isConst(i.ops[0].value) && !isConst(i.ops[1].value)) {
      this.swapOperands(i);
      return i;
    }
    return null;
  }

  private combineIntBinary(i: Instruction): Value | null {
    const t = i.type;
    const w = t.bits;
    const c = this.canonicalizeOperands(i);
    if (c !== null) return c;
    const a = i.ops[0].value;
    const b = i.ops[1].value;
    const flags = i.flags;
    const nsw = (flags & Flag.NSW) !== 0;
    const nuw = (flags & Flag.NUW) !== 0;
    const bc = isCInt(b) ? b : null;
    const ai = isInst(a) ? a : null;
    switch (i.op) {
      case Opcode.Add: {
        if (bc !== null && ai !== null) {
          // (x + C1) + C2 -> x + (C1 + C2)
          if (ai.op === Opcode.Add && isCInt(ai.ops[1].value)) {
            const c1 = ai.ops[1].value as ConstantInt;
            return this.bin(Opcode.Add, ai.ops[0].value, ci(t, c1.value + bc.value), this.reassocFlags(ai.flags, flags, c1, bc, Opcode.Add));
          }
          // (C1 - x) + C2 -> (C1 + C2) - x
          if (ai.op === Opcode.Sub && isCInt(ai.ops[0].value)) {
            return this.bin(Opcode.Sub, ci(t, (ai.ops[0].value as ConstantInt).value + bc.value), ai.ops[1].value);
          }
          // ~x + 1 -> 0 - x
          if (ai.op === Opcode.Xor && isCInt(ai.ops[1].value) && (ai.ops[1].value as ConstantInt).value === -1n && bc.value === 1n) {
            return this.bin(Opcode.Sub, ci(t, 0n), ai.ops[0].value);
          }
          // (zext i1 c) + C -> select c, C+1, C ; (sext i1 c) + C -> select c, C-1, C
          const s = this.boolExtBinop(ai, bc, (x) => x + bc.value);
          if (s !== null) return s;
        }
        // (0 - x) + y -> y - x ; y + (0 - x) -> y - x
        if (ai !== null && ai.op === Opcode.Sub && isZero(ai.ops[0].value)) return this.bin(Opcode.Sub, b, ai.ops[1].value);
        if (isInst(b) && b.op === Opcode.Sub && isZero(b.ops[0].value)) return this.bin(Opcode.Sub, a, b.ops[1].value);
        // x + x -> x << 1
        if (a === b && w > 1) return this.bin(Opcode.Shl, a, ci(t, 1n), flags & (Flag.NSW | Flag.NUW));
        return null;
      }
      case Opcode.Sub: {
        // x - C -> x + (-C): nsw survives unless C is INT_MIN (whose negation wraps)
        if (bc !== null) return this.bin(Opcode.Add, a, ci(t, -bc.value), nsw && bc.value !== signedMin(w) ? Flag.NSW : 0);
        const bi = isInst(b) ? b : null;
        if (isCInt(a) && bi !== null) {
          const ac = a as ConstantInt;
          // C1 - (x + C2) -> (C1 - C2) - x
          if (bi.op === Opcode.Add && isCInt(bi.ops[1].value)) return this.bin(Opcode.Sub, ci(t, ac.value - (bi.ops[1].value as ConstantInt).value), bi.ops[0].value);
          // C1 - (C2 - x) -> x + (C1 - C2)
          if (bi.op === Opcode.Sub && isCInt(bi.ops[0].value)) return this.bin(Opcode.Add, bi.ops[1].value, ci(t, ac.value - (bi.ops[0].value as ConstantInt).value));
          // C - (zext i1 c) -> select c, C-1, C
          const s = this.boolExtBinop(bi, ac, (x) => ac.value - x);
          if (s !== null) return s;
        }
        if (bi !== null) {
          // x - (0 - y) -> x + y
          if (bi.op === Opcode.Sub && isZero(bi.ops[0].value)) return this.bin(Opcode.Add, a, bi.ops[1].value);
          // x - (x + y) -> 0 - y
          if (bi.op === Opcode.Add) {
            if (bi.ops[0].value === a) return this.bin(Opcode.Sub, ci(t, 0n), bi.ops[1].value);
            if (bi.ops[1].value === a) return this.bin(Opcode.Sub, ci(t, 0n), bi.ops[0].value);
          }
        }
        // (x - y) - x -> 0 - y
        if (ai !== null && ai.op === Opcode.Sub && ai.ops[0].value === b && !isZero(b)) return this.bin(Opcode.Sub, ci(t, 0n), ai.ops[1].value);
        return null;
      }
      case Opcode.Mul: {
        if (bc === null) return null;
        if (bc.value === -1n) return this.bin(Opcode.Sub, ci(t, 0n), a, nsw ? Flag.NSW : 0);
        const k = log2Exact(bc.zext());
        if (k > 0) {
          // nsw holds for the shift unless 2^k is INT_MIN (shl nsw by w-1 is stricter)
          let f = 0;
          if (nuw) f |= Flag.NUW;
          if (nsw && k < w - 1) f |= Flag.NSW;
          return this.bin(Opcode.Shl, a, ci(t, BigInt(k)), f);
        }
        if (ai !== null && ai.op === Opcode.Mul && isCInt(ai.ops[1].value)) {
          const c1 = ai.ops[1].value as ConstantInt;
          return this.bin(Opcode.Mul, ai.ops[0].value, ci(t, c1.value * bc.value), this.reassocFlags(ai.flags, flags, c1, bc, Opcode.Mul));
        }
        if (ai !== null) {
          const s = this.boolExtBinop(ai, bc, (x) => x * bc.value);
          if (s !== null) return s;
        }
        return null;
      }
      case Opcode.UDiv: {
        if (bc === null) return null;
        const k = log2Exact(bc.zext());
        if (k > 0) return this.bin(Opcode.LShr, a, ci(t, BigInt(k)), flags & Flag.Exact);
        // (x udiv C1) udiv C2 -> x udiv (C1*C2), or 0 when the product overflows
        if (ai !== null && ai.op === Opcode.UDiv && isCInt(ai.ops[1].value) && !isZero(ai.ops[1].value) && bc.value !== 0n) {
          const p = (ai.ops[1].value as ConstantInt).zext() * bc.zext();
          return fitsUnsigned(p, w) ? this.bin(Opcode.UDiv, ai.ops[0].value, ci(t, p)) : ci(t, 0n);
        }
        return null;
      }
      case Opcode.SDiv: {
        if (bc === null) return null;
        if (bc.value === -1n) return this.bin(Opcode.Sub, ci(t, 0n), a); // INT_MIN / -1 is UB, so no nsw needed
        const k = bc.value > 0n ? log2Exact(bc.value) : -1;
        if (k <= 0) return null;
        if (flags & Flag.Exact) return this.bin(Opcode.AShr, a, ci(t, BigInt(k)), Flag.Exact);
        if (isKnownNonNegative(a)) return this.bin(Opcode.LShr, a, ci(t, BigInt(k)));
        if (!this.opts.sdivPow2) return null;
        // round toward zero: add 2^k - 1 to negative dividends before the arithmetic shift
        const sign = this.bin(Opcode.AShr, a, ci(t, BigInt(w - 1)));
        const bias = this.bin(Opcode.LShr, sign, ci(t, BigInt(w - k)));
        const sum = this.bin(Opcode.Add, a, bias);
        return this.bin(Opcode.AShr, sum, ci(t, BigInt(k)));
      }
      case Opcode.URem: {
        if (bc === null) return null;
        const k = log2Exact(bc.zext());
        if (k > 0) return this.bin(Opcode.And, a, ci(t, bc.zext() - 1n));
        return null;
      }
      case Opcode.SRem: {
        if (bc === null) return null;
        // x srem -C == x srem C (the sign follows the dividend)
        if (bc.value < 0n && bc.value !== signedMin(w) && bc.value !== -1n) return this.bin(Opcode.SRem, a, ci(t, -bc.value));
        const k = bc.value > 0n ? log2Exact(bc.value) : -1;
        if (k > 0 && isKnownNonNegative(a)) return this.bin(Opcode.And, a, ci(t, bc.value - 1n));
        return null;
      }
      case Opcode.Shl:
      case Opcode.LShr:
      case Opcode.AShr: {
        if (bc === null || ai === null || !isBinaryOp(ai.op) || !isCInt(ai.ops[1].value)) return null;
        const c1 = (ai.ops[1].value as ConstantInt).zext();
        const c2 = bc.zext();
        const W = BigInt(w);
        if (c1 >= W || c2 >= W) return null;
        if (ai.op === i.op) {
          const sum = c1 + c2;
          if (sum < W) return this.bin(i.op, ai.ops[0].value, ci(t, sum));
          return i.op === Opcode.AShr ? this.bin(Opcode.AShr, ai.ops[0].value, ci(t, W - 1n)) : ci(t, 0n);
        }
        if (c1 === c2) {
          const all = (1n << W) - 1n;
          // (x >>u C) << C -> x & (-1 << C) ; (x << C) >>u C -> x & (-1 >>u C)
          if (i.op === Opcode.Shl && ai.op === Opcode.LShr) return this.bin(Opcode.And, ai.ops[0].value, ci(t, (all << c1) & all));
          if (i.op === Opcode.LShr && ai.op === Opcode.Shl) return this.bin(Opcode.And, ai.ops[0].value, ci(t, all >> c1));
        }
        return null;
      }
      case Opcode.And:
      case Opcode.Or:
      case Opcode.Xor: {
        if (bc !== null && ai !== null && ai.op === i.op && isCInt(ai.ops[1].value)) {
          const c1 = (ai.ops[1].value as ConstantInt).value;
          const v = i.op === Opcode.And ? c1 & bc.value : i.op === Opcode.Or ? c1 | bc.value : c1 ^ bc.value;
          return this.bin(i.op, ai.ops[0].value, ci(t, v));
        }
        // the mask says which bits are demanded (demanded-bits.ts)
        if (i.op === Opcode.And && bc !== null) {
          const r = andIsRedundant(i) ?? narrowMaskedBinOp(i, this.sink);
          if (r !== null) return r;
          if (simplifyDemandedOperands(i, this.sink)) return i;
        }
        if (i.op === Opcode.Xor && w === 1 && bc !== null && bc.value === -1n && ai !== null) {
          // not (icmp p a b) -> icmp !p a b
          if (ai.op === Opcode.ICmp || ai.op === Opcode.FCmp) {
            const n = new Instruction(ai.op, i1, [ai.ops[0].value, ai.ops[1].value]);
            n.pred = inversePred(ai.pred);
            n.flags = ai.flags;
            return this.insert(n);
          }
        }
        if (ai !== null && bc !== null) {
          const f = i.op === Opcode.And ? (x: bigint) => x & bc.value : i.op === Opcode.Or ? (x: bigint) => x | bc.value : (x: bigint) => x ^ bc.value;
          const s = this.boolExtBinop(ai, bc, f);
          if (s !== null) return s;
        }
        return null;
      }
      default:
        return null;
    }
  }

  /** Flags for (x op C1) op C2 -> x op (C1 op C2): kept when both had them and C1 op C2 does not wrap. */
  private reassocFlags(f1: number, f2: number, c1: ConstantInt, c2: ConstantInt, op: Opcode): number {
    const w = c1.type.bits;
    let f = 0;
    const both = f1 & f2;
    if (both & Flag.NSW) {
      const r = op === Opcode.Add ? c1.value + c2.value : c1.value * c2.value;
      if (fitsSigned(r, w)) f |= Flag.NSW;
    }
    if (both & Flag.NUW) {
      const r = op === Opcode.Add ? c1.zext() + c2.zext() : c1.zext() * c2.zext();
      if (fitsUnsigned(r, w)) f |= Flag.NUW;
    }
    return f;
  }

  /**
   * `f(ext c)` for an i1 `c` extended by a single-use zext/sext: a select of the two
   * folded constants (one instruction instead of two).
   */
  private boolExtBinop(ext: Instruction, _c: ConstantInt, f: (x: bigint) => bigint): Value | null {
    if ((ext.op !== Opcode.ZExt && ext.op !== Opcode.SExt) || !ext.hasOneUse()) return null;
    const cond = ext.ops[0].value;
    if (cond.type !== i1) return null;
    const t = ext.type;
    const onTrue = f(ext.op === Opcode.ZExt ? 1n : -1n);
    const onFalse = f(0n);
    return this.select(cond, ci(t, onTrue), ci(t, onFalse));
  }

  private combineICmp(i: Instruction): Value | null {
    const a = i.ops[0].value;
    const b = i.ops[1].value;
    if (isConst(a) && !isConst(b)) {
      this.swapOperands(i);
      i.pred = swappedPred(i.pred);
      return i;
    }
    const p = i.pred;
    if (a.type.kind !== TypeKind.Int) return null;
    const t = a.type;
    const w = t.bits;
    if (isCInt(b)) {
      const c = b.value;
      const uc = b.zext();
      // canonical strict predicates (the boundary constants were folded by instsimplify)
      if (p === Pred.SLE && c !== signedMax(w)) return this.newICmp(i, Pred.SLT, a, ci(t, c + 1n));
      if (p === Pred.SGE && c !== signedMin(w)) return this.newICmp(i, Pred.SGT, a, ci(t, c - 1n));
      if (p === Pred.ULE && uc !== (1n << BigInt(w)) - 1n) return this.newICmp(i, Pred.ULT, a, ci(t, uc + 1n));
      if (p === Pred.UGE && uc !== 0n) return this.newICmp(i, Pred.UGT, a, ci(t, uc - 1n));
      if (p === Pred.ULT && uc === 1n) return this.newICmp(i, Pred.EQ, a, ci(t, 0n));
      if (p === Pred.UGT && uc === 0n) return this.newICmp(i, Pred.NE, a, ci(t, 0n));
      if (w === 1) {
        // icmp eq b, false -> !b ; icmp ne b, true -> !b
        if ((p === Pred.EQ && c === 0n) || (p === Pred.NE && c === -1n)) return this.not(a);
      }
      if (isInst(a)) {
        const ai = a;
        const eqne = p === Pred.EQ || p === Pred.NE;
        const x0 = ai.ops.length > 0 ? ai.ops[0].value : null;
        const x1 = ai.ops.length > 1 ? ai.ops[1].value : null;
        // icmp (x + C1), C2 -> icmp x, C2 - C1
        if (ai.op === Opcode.Add && x1 !== null && isCInt(x1)) {
          const c1 = x1 as ConstantInt;
          if (eqne) return this.newICmp(i, p, x0!, ci(t, c - c1.value));
          if (isSignedPred(p) && ai.flags & Flag.NSW && fitsSigned(c - c1.value, w)) return this.newICmp(i, p, x0!, ci(t, c - c1.value));
          if (!isSignedPred(p) && ai.flags & Flag.NUW && uc >= c1.zext()) return this.newICmp(i, p, x0!, ci(t, uc - c1.zext()));
        }
        if (eqne) {
          // icmp (x ^ C1), C2 -> icmp x, C1 ^ C2
          if (ai.op === Opcode.Xor && x1 !== null && isCInt(x1)) return this.newICmp(i, p, x0!, ci(t, c ^ (x1 as ConstantInt).value));
          // icmp (C1 - x), C2 -> icmp x, C1 - C2
          if (ai.op === Opcode.Sub && isCInt(x0!)) return this.newICmp(i, p, x1!, ci(t, (x0 as ConstantInt).value - c));
          // icmp (x - y), 0 -> icmp x, y
          if (ai.op === Opcode.Sub && c === 0n) return this.newICmp(i, p, x0!, x1!);
        }
        // compares of extended values with constants that fit the source type
        if (ai.op === Opcode.ZExt) {
          const n = x0!.type.bits;
          if (fitsUnsigned(c, n) && (!isSignedPred(p) || c >= 0n)) return this.newICmp(i, unsignedPred(p), x0!, ci(x0!.type, c));
        }
        if (ai.op === Opcode.SExt) {
          const n = x0!.type.bits;
          if (fitsSigned(c, n)) return this.newICmp(i, p, x0!, ci(x0!.type, c));
        }
      }
      return null;
    }
    // icmp (zext x), (zext y) -> icmp x, y (unsigned) ; same for sext
    if (isInst(a) && isInst(b) && a.op === b.op && (a.op === Opcode.ZExt || a.op === Opcode.SExt)) {
      const x = a.ops[0].value;
      const y = b.ops[0].value;
      if (x.type === y.type) return this.newICmp(i, a.op === Opcode.ZExt ? unsignedPred(p) : p, x, y);
    }
    return null;
  }

  /** Rewrites the compare in place (keeping its name); null when nothing would change. */
  private newICmp(i: Instruction, p: Pred, a: Value, b: Value): Instruction | null {
    if (i.ops[0].value === a && i.ops[1].value === b && i.pred === p) return null;
    // in place: keeps the instruction (and its name)
    i.setOperand(0, a);
    i.setOperand(1, b);
    i.pred = p;
    return i;
  }

  private combineSelect(i: Instruction): Value | null {
    const c = i.ops[0].value;
    const a = i.ops[1].value;
    const b = i.ops[2].value;
    const t = i.type;
    if (c.type !== i1) return null;
    // select (not c), a, b -> select c, b, a
    if (isInst(c) && c.op === Opcode.Xor && isCInt(c.ops[1].value) && (c.ops[1].value as ConstantInt).value === -1n) {
      i.setOperand(0, c.ops[0].value);
      i.setOperand(1, b);
      i.setOperand(2, a);
      return i;
    }
    if (t.kind !== TypeKind.Int || !isCInt(a) || !isCInt(b)) return null;
    if (t === i1) {
      if (a.value === 0n && b.value === -1n) return this.not(c); // c ? false : true
      return null;
    }
    if (a.value === 1n && b.value === 0n) return this.cast(Opcode.ZExt, c, t);
    if (a.value === -1n && b.value === 0n) return this.cast(Opcode.SExt, c, t);
    return null;
  }

  private combineCast(i: Instruction): Value | null {
    const v = i.ops[0].value;
    const to = i.type;
    if (!isInst(v)) return null;
    const x = v.ops.length > 0 ? v.ops[0].value : null;
    if (x === null) return null;
    switch (i.op) {
      case Opcode.ZExt:
        if (v.op === Opcode.ZExt) return this.cast(Opcode.ZExt, x, to);
        // zext (trunc x) to x's type -> x & mask
        if (v.op === Opcode.Trunc && x.type === to) return this.bin(Opcode.And, x, ci(to, (1n << BigInt(v.type.bits)) - 1n));
        // the whole single-use tree computed in the wide type (evaluate-in-type.ts)
        return foldZExtByEvaluation(i, this.sink);
      case Opcode.SExt:
        if (v.op === Opcode.SExt) return this.cast(Opcode.SExt, x, to);
        if (v.op === Opcode.ZExt) return this.cast(Opcode.ZExt, x, to); // the top bit after zext is 0
        return null;
      case Opcode.Trunc:
        if (v.op === Opcode.Trunc) return this.cast(Opcode.Trunc, x, to);
        // trunc (x & C) when C keeps every bit the trunc keeps -> trunc x
        if (v.op === Opcode.And && isCInt(v.ops[1].value) && to.kind === TypeKind.Int) {
          const m = (1n << BigInt(to.bits)) - 1n;
          if (((v.ops[1].value as ConstantInt).zext() & m) === m) return this.cast(Opcode.Trunc, x, to);
        }
        if ((v.op === Opcode.ZExt || v.op === Opcode.SExt) && x.type.kind === TypeKind.Int) {
          if (x.type.bits > to.bits) return this.cast(Opcode.Trunc, x, to);
          if (x.type.bits < to.bits) return this.cast(v.op, x, to);
        }
        // the whole single-use tree computed in the narrow type (evaluate-in-type.ts)
        return foldTruncByEvaluation(i, this.sink);
      case Opcode.BitCast:
        if (v.op === Opcode.BitCast && x.type !== to) return this.cast(Opcode.BitCast, x, to);
        return null;
      default:
        return null;
    }
  }

  private combineGEP(i: Instruction): Value | null {
    const merged = this.mergeGEPs(i);
    if (merged !== null) return merged;
    if (i.ops.length !== 2) return null;
    const base = i.ops[0].value;
    const idx = i.ops[1].value;
    if (!isInst(base) || base.op !== Opcode.GetElementPtr || base.ops.length !== 2 || base.auxType !== i.auxType) return null;
    const idx0 = base.ops[1].value;
    if (!isCInt(idx) || !isCInt(idx0) || idx.type !== idx0.type) return null;
    const sum = idx.value + idx0.value;
    if (!fitsSigned(sum, idx.type.bits)) return null;
    const g = new Instruction(Opcode.GetElementPtr, i.type, [base.ops[0].value, ci(idx.type, sum)]);
    g.auxType = i.auxType;
    // inbounds of both steps does not make the sum step inbounds when the steps have opposite signs
    const sameSign = (idx.value >= 0n) === (idx0.value >= 0n);
    g.flags = sameSign ? i.flags & base.flags & Flag.InBounds : 0;
    return this.insert(g);
  }

  /**
   * gep T, (gep S, p, a0, …, an), 0, b1, …, bm → gep S, p, a0, …, an, b1, …, bm when T is the
   * type the inner GEP's indices reach (LLVM's GEP-of-GEP merge: one address computation
   * instead of two, e.g. a[i][j] through a row pointer). The inner GEP stays for its other
   * users; the result is inbounds only when both were (the flags of an index step say
   * nothing about a step taken together with another).
   */
  private mergeGEPs(i: Instruction): Value | null {
    const base = i.ops[0].value;
    if (i.ops.length < 3 || !isZero(i.ops[1].value) || !isInst(base) || base.op !== Opcode.GetElementPtr) return null;
    if (base.type !== i.type || base.auxType === null || i.auxType === null) return null;
    let t: Type = base.auxType;
    for (let k = 2; k < base.ops.length; k++) {
      if (t.kind === TypeKind.Array || t.kind === TypeKind.Vector) t = t.elem!;
      else if (t.kind === TypeKind.Struct && isCInt(base.ops[k].value)) t = t.members[Number((base.ops[k].value as ConstantInt).value)];
      else return null;
    }
    if (t !== i.auxType || t.kind === TypeKind.Vector) return null;
    const ops: Value[] = [];
    for (const u of base.ops) ops.push(u.value);
    for (let k = 2; k < i.ops.length; k++) ops.push(i.ops[k].value);
    const g = new Instruction(Opcode.GetElementPtr, i.type, ops);
    g.auxType = base.auxType;
    g.flags = i.flags & base.flags & Flag.InBounds;
    return this.insert(g);
  }

  private combineBranch(i: Instruction): Value | null {
    if (!i.isConditionalBranch()) return null;
    const c = i.ops[0].value;
    if (!isInst(c) || c.op !== Opcode.Xor || !isCInt(c.ops[1].value) || (c.ops[1].value as ConstantInt).value !== -1n) return null;
    const t = i.ops[1].value;
    const f = i.ops[2].value;
    i.setOperand(0, c.ops[0].value);
    i.setOperand(1, f);
    i.setOperand(2, t);
    this.cfgChanged = true;
    return i;
  }
}

function isZero(v: Value): boolean {
  return isCInt(v) && v.value === 0n;
}

/** Runs instcombine on a function; returns whether it changed and whether the CFG shape did. */
export function combineFunction(fn: Function, ctx: PassContext, opts: InstCombineOptions = { sdivPow2: false }): { changed: boolean; cfgChanged: boolean } {
  const cfg = ctx.analyses.get(CFGAnalysis);
  const dt = ctx.analyses.get(DominatorTreeAnalysis);
  const order: BasicBlock[] = [];
  for (const id of cfg.rpo) order.push(cfg.blocks[id]!);
  const reach = (bb: BasicBlock): boolean => bb.id >= 0 && bb.id < cfg.n && cfg.blocks[bb.id] === bb && cfg.isReachable(bb.id);
  const c = new Combiner(fn, reach, phiDominanceQuery(dt), opts);
  c.run(order);
  if (c.stats.combined) ctx.stat('instructions combined', c.stats.combined);
  if (c.stats.simplified) ctx.stat('instructions simplified', c.stats.simplified);
  if (c.stats.deleted) ctx.stat('instructions deleted', c.stats.deleted);
  if (c.stats.constantLoads) ctx.stat('loads folded from constant memory', c.stats.constantLoads);
  if (c.stats.constantAllocas) ctx.stat('allocas replaced by constant globals', c.stats.constantAllocas);
  return { changed: c.changed, cfgChanged: c.cfgChanged };
}

export const instcombinePass: PassInfo = {
  name: 'instcombine',
  description: 'peephole rewrites: canonicalization, strength reduction, reassociation, compare and cast folding (worklist to a fixed point)',
  create(params: string): FunctionPass {
    const opts: InstCombineOptions = { sdivPow2: false };
    for (const p of params.split(';').map((s) => s.trim()).filter((s) => s !== '')) {
      if (p === 'sdiv-pow2') opts.sdivPow2 = true;
      else if (p === 'no-sdiv-pow2') opts.sdivPow2 = false;
      else throw new Error(`instcombine: unknown parameter '${p}' (expected sdiv-pow2)`);
    }
    return {
      kind: 'function',
      name: 'instcombine',
      run(fn: Function, ctx: PassContext): PassResult {
        const r = combineFunction(fn, ctx, opts);
        return { changed: r.changed, preserved: r.cfgChanged ? 'none' : 'cfg' };
      },
    };
  },
};
