/**
 * Loop-invariant code motion, after LLVM's LICM (lib/Transforms/Scalar/LICM.cpp: hoistRegion,
 * sinkRegion, isGuaranteedToExecute) and the dragon book's §9.5.
 *
 * Loops are visited inner first (reverse preorder of the loop tree), each in LoopSimplify form
 * (`simplifyLoops` runs first). In a loop, the blocks that belong to it and to no subloop are
 * walked in reverse postorder (dominators first), and an instruction is hoisted to the
 * preheader when its operands are defined outside the loop and
 *  - it is safe to speculate (isSafeToSpeculate), or
 *  - it is guaranteed to execute: its block dominates every exiting block and no call in the
 *    loop might not return, so hoisting cannot add a trap the loop would not have hit;
 *  - a load additionally needs no write in the loop that may alias it (src/analysis/alias.ts:
 *    stores and memory intrinsics compared by underlying object and constant offsets; calls
 *    that write memory cannot reach an alloca whose address never escapes); a load of an
 *    alloca or global at a constant in-bounds offset is speculatable.
 * Then instructions whose uses are all outside the loop are sunk: moved to the one exit block
 * that dominates all their uses (they are pure and their block dominates that exit, so their
 * operands there hold the values of the last iteration), or, when the uses are reached
 * through several exits and the block dominates every exit (at most 4), copied into each
 * exit with the uses rewritten by SSA repair (src/transforms/utils/ssa-repair.ts).
 *
 * Hoisting and sinking never change the CFG; LoopSimplify might.
 */
import { dropLocation, dropUBImplyingMetadata, getAttachment } from '../../ir/metadata.js';
import { BasicBlock } from '../../ir/basic-block.js';
import type { ConstantInt } from '../../ir/constants.js';
import { callMemoryEffect, callWillReturn, isMarkerIntrinsicName, isSafeToSpeculate, mayHaveSideEffects, mayReadMemory, mayWriteMemory } from '../../ir/effects.js';
import type { Function, GlobalVariable } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { allocSize, storeSize } from '../../ir/layout.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { Use, Value, ValueKind } from '../../ir/value.js';
import { AliasAnalysis, decomposePointer } from '../../analysis/alias.js';
import { CFG } from '../../analysis/cfg.js';
import { computeDominators, DominatorTree } from '../../analysis/dominators.js';
import { findLoops, Loop, LoopInfo } from '../../analysis/loops.js';
import { LoopAnalysis } from '../../pm/analyses.js';
import type { PassContext } from '../../pm/pass.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { computeLoopExits, simplifyLoops, type LoopExits } from '../utils/loop-simplify.js';
import { deleteIfDead } from '../utils/local.js';
import { repairSSA, type NewDefinition } from '../utils/ssa-repair.js';
import { ScalarPromoter } from './licm-promote.js';

// ---- memory facts -----------------------------------------------------------------------

/** Whether `size` bytes at p are known to lie inside an alloca or a global (a load there cannot trap). */
export function isDereferenceable(p: Value, size: number): boolean {
  const { base, offset } = decomposePointer(p);
  if (offset === null || offset < 0) return false;
  let objSize = -1;
  if (base.kind === ValueKind.Instruction && (base as Instruction).op === Opcode.Alloca) {
    const a = base as Instruction;
    const c = a.operand(0);
    if (c.kind !== ValueKind.ConstantInt) return false;
    objSize = allocSize(a.auxType!) * (c as ConstantInt).toNumber();
  } else if (base.kind === ValueKind.GlobalVariable) {
    const g = base as GlobalVariable;
    if (g.attrs.linkage === 'extern_weak') return false;
    objSize = storeSize(g.valueType);
  }
  return objSize >= 0 && offset + size <= objSize;
}

function isMemIntrinsic(i: Instruction): boolean {
  const f = i.calledFunction();
  return f !== null && (f.name.startsWith('llvm.memset.') || f.name.startsWith('llvm.memcpy.') || f.name.startsWith('llvm.memmove.'));
}

// ---- the pass ----------------------------------------------------------------------------------

export interface LICMStats {
  hoisted: number;
  hoistedLoads: number;
  sunk: number;
  /** Memory locations kept in registers through a loop (licm-promote.ts). */
  promoted: number;
}

class LoopMemorySummary {
  /** Stores and memory intrinsics: [pointer, bytes (-1 = unknown)]. */
  readonly writes: [Value, number][] = [];
  /** Some call may write memory it was not given explicitly. */
  callWrites = false;
  /** A write we cannot describe (atomics, fences, va_arg): clobbers everything. */
  clobberAll = false;
  /** Some call might not return (exit, an infinite loop): nothing is guaranteed to execute after it. */
  mayNotReturn = false;

  /** Summarizes the loop's own blocks and adds its children's summaries (bottom-up: linear overall). */
  constructor(own: readonly BasicBlock[], children: readonly LoopMemorySummary[]) {
    for (const b of own) {
      for (let i = b.first; i !== null; i = i.next) {
        if (i.op === Opcode.Call) {
          if (!callWillReturn(i)) this.mayNotReturn = true;
          const e = callMemoryEffect(i);
          if (e === 'write' || e === 'readwrite') {
            if (isMemIntrinsic(i)) this.writes.push([i.arg(0), -1]);
            else this.callWrites = true;
          }
        } else if (i.op === Opcode.Store) {
          if ((i.flags & (Flag.Volatile | Flag.Atomic)) !== 0) this.clobberAll = true;
          this.writes.push([i.operand(1), storeSize(i.operand(0).type)]);
        } else if (mayWriteMemory(i)) {
          this.clobberAll = true;
        }
      }
    }
    for (const c of children) {
      for (const w of c.writes) this.writes.push(w);
      this.callWrites ||= c.callWrites;
      this.clobberAll ||= c.clobberAll;
      this.mayNotReturn ||= c.mayNotReturn;
    }
  }
}

class LICM {
  readonly stats: LICMStats = { hoisted: 0, hoistedLoads: 0, sunk: 0, promoted: 0 };
  private readonly alias = new AliasAnalysis();
  private readonly promoter: ScalarPromoter;

  constructor(
    readonly fn: Function,
    readonly cfg: CFG,
    readonly dt: DominatorTree,
    readonly li: LoopInfo,
  ) {
    this.exits = computeLoopExits(li);
    this.own = li.loops.map(() => []);
    for (const id of cfg.rpo) {
      const k = li.innermost[id];
      if (k >= 0) this.own[k].push(cfg.blockOf(id)!);
    }
    this.summaries = new Array(li.loops.length);
    this.promoter = new ScalarPromoter(fn, cfg, dt, this.alias, isDereferenceable);
  }

  private readonly exits: LoopExits;
  /** Each loop's own blocks (in no subloop), in reverse postorder. */
  private readonly own: BasicBlock[][];
  private readonly summaries: LoopMemorySummary[];

  run(): void {
    const loops = this.li.loops;
    for (let k = loops.length - 1; k >= 0; k--) {
      const l = loops[k];
      this.summaries[l.index] = new LoopMemorySummary(this.own[l.index], l.subLoops.map((c) => this.summaries[c.index]));
      this.processLoop(l);
    }
    this.promoter.finish();
    this.stats.promoted = this.promoter.promoted;
  }

  private isInvariant(l: Loop, v: Value): boolean {
    if (v.kind !== ValueKind.Instruction) return v.kind !== ValueKind.BasicBlock;
    const b = (v as Instruction).parent!;
    return !this.contains(l, b);
  }

  private contains(l: Loop, b: BasicBlock): boolean {
    return b.id < this.cfg.n && this.cfg.blocks[b.id] === b && l.contains(b.id);
  }

  private processLoop(l: Loop): void {
    const ph = l.preheader();
    if (ph < 0) return;
    const phBlock = this.cfg.blockOf(ph)!;
    const phTerm = phBlock.terminator()!;
    const mem = this.summaries[l.index];
    const exiting = this.exits.exiting[l.index];
    const own = this.own[l.index];
    const guaranteed = (b: BasicBlock): boolean => {
      if (exiting.length === 0 || mem.mayNotReturn) return false;
      for (const e of exiting) if (!this.dt.dominates(b.id, e.id)) return false;
      return true;
    };

    for (const b of own) {
      let g: boolean | null = null;
      for (let i = b.first; i !== null; ) {
        const next = i.next;
        if (this.canHoist(l, i, mem, () => (g ??= guaranteed(b)))) {
          i.moveBefore(phTerm);
          // LLVM's hoist(): metadata that would make a speculated execution UB goes, and the location
          if (i.md !== null) {
            if (!(g ??= guaranteed(b))) dropUBImplyingMetadata(i);
            dropLocation(i, i.op === Opcode.Call, getAttachment(i.function!.md, 'dbg'));
          }
          this.stats.hoisted++;
          if (i.op === Opcode.Load) this.stats.hoistedLoads++;
        }
        i = next;
      }
    }

    // LLVM's order: hoist, then promote (addresses are invariant by now), then sink
    this.promoter.promoteLoop(l, phBlock, exiting, this.exits.exits[l.index]);
    this.sinkFromLoop(l, own);
  }

  private canHoist(l: Loop, i: Instruction, mem: LoopMemorySummary, guaranteed: () => boolean): boolean {
    switch (i.op) {
      case Opcode.Phi:
      case Opcode.Alloca:
      case Opcode.Store:
      case Opcode.VAArg:
      case Opcode.Fence:
      case Opcode.AtomicCmpXchg:
      case Opcode.AtomicRMW:
        return false;
      default:
        if (i.isTerminator()) return false;
    }
    for (let k = 0; k < i.numOperands; k++) if (!this.isInvariant(l, i.operand(k))) return false;
    if (i.op === Opcode.Load) {
      if ((i.flags & (Flag.Volatile | Flag.Atomic)) !== 0) return false;
      if (mem.clobberAll) return false;
      const p = i.operand(0);
      const size = storeSize(i.type);
      if (mem.callWrites && !this.alias.isLocalUnreachableFromCalls(p)) return false;
      for (const [q, qs] of mem.writes) if (this.alias.alias(p, size, q, qs) !== 'no') return false;
      return isDereferenceable(p, size) || guaranteed();
    }
    if (i.op === Opcode.Call) {
      // debug and lifetime markers describe their position: they stay where they are
      const f = i.calledFunction();
      if (f !== null && isMarkerIntrinsicName(f.name)) return false;
      if (mayHaveSideEffects(i)) return false;
      if (isSafeToSpeculate(i)) return true;
      // a read-only call that returns: like a load of anything
      if (mayReadMemory(i) && (mem.clobberAll || mem.callWrites || mem.writes.length > 0)) return false;
      return guaranteed();
    }
    if (mayHaveSideEffects(i)) return false;
    return isSafeToSpeculate(i) || guaranteed();
  }

  /** Moves pure instructions used only after the loop into the exit block that dominates their uses. */
  private sinkFromLoop(l: Loop, own: BasicBlock[]): void {
    const exits = this.exits.exits[l.index];
    if (exits.length === 0) return;
    for (let k = own.length - 1; k >= 0; k--) {
      const b = own[k];
      for (let i = b.last; i !== null; ) {
        const prev = i.prev;
        if (this.canSink(l, i)) {
          const e = this.sinkTarget(i, exits);
          if (e !== null) {
            i.moveBefore(e.firstNonPhi()!);
            this.stats.sunk++;
          } else if (this.sinkIntoAllExits(i, exits)) this.stats.sunk++;
        }
        i = prev;
      }
    }
  }

  private canSink(l: Loop, i: Instruction): boolean {
    if (i.op === Opcode.Phi || i.op === Opcode.Alloca || i.isTerminator() || i.firstUse === null) return false;
    if (mayHaveSideEffects(i) || mayReadMemory(i)) return false;
    for (let u: Use | null = i.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      const at = user.op === Opcode.Phi ? user.blocks![u.index] : user.parent!;
      if (this.contains(l, at)) return false;
    }
    return true;
  }

  /**
   * Uses reached through several exits: when i's block dominates every exit (so every way
   * out of the loop computed i), a copy goes to each exit and SSA repair (src/transforms/utils/ssa-repair.ts)
   * gives each use the copy that reaches it, with phis where exits meet. At most 4 exits.
   */
  private sinkIntoAllExits(i: Instruction, exits: readonly BasicBlock[]): boolean {
    if (exits.length < 2 || exits.length > 4) return false;
    const def = i.parent!.id;
    for (const e of exits) if (!this.dt.dominates(def, e.id)) return false;
    const copies: NewDefinition[] = [];
    for (const b of exits) {
      const c = i.clone();
      b.insertBefore(c, b.firstNonPhi()!);
      copies.push({ block: b, value: c });
    }
    repairSSA(this.fn, i, copies, { keepOriginal: false });
    if (i.firstUse !== null) {
      // cannot happen when every exit has a copy; undo rather than leave a wrong value
      for (const c of copies) {
        const ci = c.value as Instruction;
        ci.replaceAllUsesWith(i);
        ci.eraseFromParent();
      }
      return false;
    }
    i.eraseFromParent();
    for (const c of copies) deleteIfDead(c.value as Instruction);
    return true;
  }

  /** The exit block dominated by i's block that dominates every use of i, or null. */
  private sinkTarget(i: Instruction, exits: readonly BasicBlock[]): BasicBlock | null {
    const def = i.parent!.id;
    for (const e of exits) {
      if (!this.dt.dominates(def, e.id)) continue;
      let all = true;
      for (let u = i.firstUse; u !== null && all; u = u.next) {
        const user = u.user as Instruction;
        const at = user.op === Opcode.Phi ? user.blocks![u.index] : user.parent!;
        // a phi in e itself uses the value on an edge from inside the loop: not sinkable
        if (!this.dt.dominates(e.id, at.id) || (user.op === Opcode.Phi && user.parent === e)) all = false;
      }
      if (all) return e;
    }
    return null;
  }
}

/** Runs LICM on `fn` (LoopSimplify first); returns what it moved. */
export function runLICM(fn: Function, ctx?: PassContext): LICMStats & { cfgChanged: boolean } {
  const cached = ctx?.analyses.get(LoopAnalysis);
  const s = simplifyLoops(fn, cached);
  const cfgChanged = s.nested + s.preheaders + s.backedges + s.exits > 0;
  let li: LoopInfo;
  if (!cfgChanged && cached !== undefined) li = cached;
  else {
    const cfg = new CFG(fn);
    li = findLoops(cfg, computeDominators(cfg));
  }
  if (li.loops.length === 0) return { hoisted: 0, hoistedLoads: 0, sunk: 0, promoted: 0, cfgChanged };
  const pass = new LICM(fn, li.cfg, li.domTree, li);
  pass.run();
  return { ...pass.stats, cfgChanged };
}

export const licmPass = defineCountingPass({
  name: 'licm',
  description: 'hoist loop-invariant computations to preheaders, sink computations used only after the loop',
  count: (fn, ctx) => runLICM(fn, ctx),
  stats: { hoisted: 'instructions hoisted', hoistedLoads: 'loads hoisted', sunk: 'instructions sunk', promoted: 'locations promoted' },
  changed: (r) => r.cfgChanged || r.hoisted + r.sunk + r.promoted > 0,
  preserves: (r) => (r.cfgChanged ? 'none' : 'cfg'),
});
