/**
 * LICM scalar promotion, after LLVM's promoteLoopAccessesToScalars (lib/Transforms/Scalar/LICM.cpp,
 * with its LoopPromoter): a memory location that a loop loads and stores through a
 * loop-invariant pointer is kept in a register through the loop. Its value is loaded once in
 * the preheader, the loop's loads and stores become uses and definitions of an SSA value,
 * and the last value is stored back in each exit block.
 *
 * The location is promoted only when (LLVM's conditions):
 *  - every access to it in the loop is a simple (not volatile or atomic) load or store of the
 *    same type through a pointer that must-aliases it, and at least one is a store;
 *  - every other access in the loop (loads, stores, memory intrinsics, lifetime markers)
 *    provably does not alias it, and no call may read or write it (any call that touches
 *    memory, unless the location is a local alloca whose address never escapes);
 *  - the preheader load cannot trap: the location is dereferenceable (an alloca or global at
 *    an in-bounds constant offset) or one of its accesses is guaranteed to execute;
 *  - the exit stores add no store the program would not have done: a store to it is
 *    guaranteed to execute (its block dominates every exiting block, and every call in the
 *    loop returns), or the location is a non-escaping local alloca (no one else can see it);
 *  - every exit block is dedicated (all its predecessors are in the loop; LoopSimplify makes
 *    them so), so the exit stores run only when leaving this loop.
 *
 * How: the promoted accesses are rewritten to a fresh alloca (a load of the location into it
 * in the preheader, a load of it stored back to the location in each exit), and mem2reg
 * (src/transforms/ssa/mem2reg.ts) promotes all those allocas once per function: that is LLVM's
 * SSAUpdater done by the SSA construction we already have. Outer loops, visited after inner
 * ones, then see the preheader load and exit stores of an inner loop as ordinary accesses
 * and can promote them further.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import { callMemoryEffect, callWillReturn } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { abiAlign, storeSize } from '../../ir/layout.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { i32, ptr, voidType, type Type } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { AliasAnalysis, decomposePointer } from '../../analysis/alias.js';
import type { CFG } from '../../analysis/cfg.js';
import type { DominatorTree } from '../../analysis/dominators.js';
import type { Loop } from '../../analysis/loops.js';
import { promoteAllocas } from '../utils/promote-allocas.js';
import { getAttachment, type MDAttachment, type MDNode, sortAttachments } from '../../ir/metadata.js';
import { mergeAAMetadata, mergedLocation } from '../utils/metadata-merge.js';

/** Beyond this many memory accesses in one loop, promotion is not tried (the checks are accesses × candidates). */
const MAX_ACCESSES = 2000;
/** At most this many locations tried per loop. */
const MAX_CANDIDATES = 64;

interface Access {
  inst: Instruction;
  /** The pointer operand (null for calls). */
  ptr: Value | null;
  size: number;
}

export class ScalarPromoter {
  /** The allocas standing for promoted locations, to be promoted to SSA at the end. */
  private readonly slots: Instruction[] = [];
  private readonly isSlot = new Set<Value>();
  promoted = 0;

  constructor(
    readonly fn: Function,
    readonly cfg: CFG,
    readonly dt: DominatorTree,
    readonly alias: AliasAnalysis,
    /** licm.ts's isDereferenceable (passed in, so this file does not import licm.ts back). */
    readonly isDereferenceable: (p: Value, size: number) => boolean,
  ) {}

  private inLoop(l: Loop, b: BasicBlock): boolean {
    return b.id < this.cfg.n && this.cfg.blocks[b.id] === b && l.contains(b.id);
  }

  /** Promotes what it can in loop `l` (preheader `ph`, exiting blocks and exit blocks as LICM computed them). */
  promoteLoop(l: Loop, ph: BasicBlock, exiting: readonly BasicBlock[], exits: readonly BasicBlock[]): void {
    if (exits.length === 0) return;
    // dedicated exits only: an exit store must run only on the way out of this loop
    for (const e of exits) for (const p of this.cfg.predecessors(e.id)) if (!l.contains(p)) return;

    const accesses: Access[] = [];
    const calls: Instruction[] = [];
    let mayNotReturn = false;
    for (const id of l.blocks()) {
      const b = this.cfg.blockOf(id)!;
      for (let i = b.first; i !== null; i = i.next) {
        switch (i.op) {
          case Opcode.Load:
            accesses.push({ inst: i, ptr: i.operand(0), size: storeSize(i.type) });
            break;
          case Opcode.Store:
            accesses.push({ inst: i, ptr: i.operand(1), size: storeSize(i.operand(0).type) });
            break;
          case Opcode.Call:
            if (!callWillReturn(i)) mayNotReturn = true;
            calls.push(i);
            break;
          case Opcode.VAArg:
          case Opcode.Fence:
          case Opcode.AtomicCmpXchg:
          case Opcode.AtomicRMW:
            return; // memory operations we do not describe
        }
      }
      if (accesses.length > MAX_ACCESSES) return;
    }

    const guaranteed = (b: BasicBlock): boolean => {
      if (exiting.length === 0 || mayNotReturn) return false;
      for (const e of exiting) if (!this.dt.dominates(b.id, e.id)) return false;
      return true;
    };

    const done = new Set<Instruction>();
    let tried = 0;
    for (const a of accesses) {
      if (a.inst.op !== Opcode.Store || done.has(a.inst)) continue;
      if (++tried > MAX_CANDIDATES) break;
      const p = a.ptr!;
      // our own slots become SSA values anyway (mem2reg at the end)
      if (!this.isInvariant(l, p) || this.isSlot.has(p)) continue;
      this.tryPromote(l, p, a.inst.operand(0).type, accesses, calls, done, ph, exits, guaranteed);
    }
  }

  private isInvariant(l: Loop, v: Value): boolean {
    if (v.kind !== ValueKind.Instruction) return true;
    return !this.inLoop(l, (v as Instruction).parent!);
  }

  private tryPromote(
    l: Loop,
    p: Value,
    type: Type,
    accesses: readonly Access[],
    calls: readonly Instruction[],
    done: Set<Instruction>,
    ph: BasicBlock,
    exits: readonly BasicBlock[],
    guaranteed: (b: BasicBlock) => boolean,
  ): void {
    const size = storeSize(type);
    const dp = decomposePointer(p);
    const members: Instruction[] = [];
    let safeToLoad = this.isDereferenceable(p, size);
    let storeGuaranteed = false;
    for (const a of accesses) {
      const r = this.alias.aliasDecomposed(a.ptr!, a.size, p, dp, size);
      if (r === 'no') continue;
      const i = a.inst;
      const t = i.op === Opcode.Load ? i.type : i.operand(0).type;
      if (r !== 'must' || t !== type || (i.flags & (Flag.Volatile | Flag.Atomic)) !== 0) {
        for (const m of members) done.add(m);
        return;
      }
      if (!this.isInvariant(l, a.ptr!)) return;
      members.push(i);
      if (!safeToLoad || (i.op === Opcode.Store && !storeGuaranteed)) {
        const g = guaranteed(i.parent!);
        if (g) safeToLoad = true;
        if (g && i.op === Opcode.Store) storeGuaranteed = true;
      }
    }
    for (const m of members) done.add(m);
    const local = this.alias.isLocalUnreachableFromCalls(p);
    if (!safeToLoad || !(storeGuaranteed || (local && this.isDereferenceable(p, size)))) return;
    for (const c of calls) {
      const e = callMemoryEffect(c);
      if (e !== 'none' && !local) return;
      // a call given a pointer to the location (lifetime markers, memcpy) touches it explicitly
      for (let k = 0; k < c.numOperands - 1; k++) {
        const arg = c.arg(k);
        if (arg.type === ptr && decomposePointer(arg).base === dp.base) return;
      }
    }

    // rewrite: the accesses go to a fresh slot, filled in the preheader and written back at the exits
    const slot = new Instruction(Opcode.Alloca, ptr, [ConstantInt.get(i32, 1)]);
    slot.auxType = type;
    slot.align = abiAlign(type);
    const entry = this.fn.firstBlock!;
    entry.insertBefore(slot, entry.first!);
    this.slots.push(slot);
    this.isSlot.add(slot);
    const phTerm = ph.terminator()!;
    const init = new Instruction(Opcode.Load, type, [p]);
    init.align = minAlign(members);
    ph.insertBefore(init, phTerm);
    ph.insertBefore(storeInst(init, slot), phTerm);
    // LLVM's LoopPromoter: the stores written back carry the accesses' merged AA tags and locations
    let aa: MDAttachment[] | null = null;
    let loc: MDNode | null = null;
    for (let k = 0; k < members.length; k++) {
      const m = members[k];
      aa = k === 0 ? (m.md === null ? [] : m.md.filter((a) => a.kind === 'tbaa' || a.kind === 'alias.scope' || a.kind === 'noalias')) : mergeAAMetadata(aa, m.md);
      loc = k === 0 ? getAttachment(m.md, 'dbg') : mergedLocation(loc, getAttachment(m.md, 'dbg'));
    }
    if (loc !== null) (aa ??= []).push({ kind: 'dbg', node: loc });
    const exitMd = aa === null || aa.length === 0 ? null : sortAttachments(aa);
    // the preheader load takes the AA tags when a load of the loop surely runs (LLVM's
    // LoadIsGuaranteedToExecute; here: a load in the header, the block every iteration runs)
    if (aa !== null && members.some((m) => m.op === Opcode.Load && m.parent!.id === l.header)) {
      const tags = aa.filter((a) => a.kind !== 'dbg');
      init.md = tags.length === 0 ? null : sortAttachments(tags);
    }
    for (const m of members) m.setOperand(m.op === Opcode.Load ? 0 : 1, slot);
    for (const e of exits) {
      const at = e.firstNonPhi()!;
      const v = new Instruction(Opcode.Load, type, [slot]);
      v.align = slot.align;
      e.insertBefore(v, at);
      const st = storeInst(v, p);
      st.align = init.align;
      st.md = exitMd === null ? null : exitMd.slice();
      e.insertBefore(st, at);
    }
    this.promoted++;
  }

  /** Turns the slots into SSA values (one mem2reg run for the whole function). */
  finish(): void {
    if (this.slots.length > 0) promoteAllocas(this.fn, this.dt, this.slots);
  }
}

function storeInst(v: Value, p: Value): Instruction {
  const s = new Instruction(Opcode.Store, voidType, [v, p]);
  s.align = abiAlign(v.type);
  return s;
}

/** The alignment every promoted access already claimed (the smallest of theirs). */
function minAlign(members: readonly Instruction[]): number {
  let a = 0;
  for (const m of members) if (m.align > 0 && (a === 0 || m.align < a)) a = m.align;
  return a;
}
