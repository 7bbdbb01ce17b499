/**
 * What the two alloca promotions share (mem2reg, Cytron et al.; mem2reg-braun, Braun et
 * al.), after LLVM's PromoteMemoryToRegister.cpp: which allocas are promotable
 * (isAllocaPromotable), the clean-up of their lifetime markers, deleting the accesses, the
 * poison entries for unreachable predecessors, the repetition until nothing is left, and
 * the statistics.
 */
import { PoisonValue } from '../../ir/constants.js';
import type { DominatorTree } from '../../analysis/dominators.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { TypeKind } from '../../ir/types.js';
import { unlinkUse, type Value, ValueKind } from '../../ir/value.js';
import type { PassContext, PassResult } from '../../pm/pass.js';
import { DominatorTreeAnalysis } from '../../pm/analyses.js';
import { assert } from '../../util/assert.js';
import { reportStats } from '../../pm/define-pass.js';

export interface PromoteStats {
  /** Allocas removed, counting dead ones. */
  allocasPromoted: number;
  deadAllocas: number;
  singleStore: number;
  singleBlock: number;
  neverStored: number;
  phisInserted: number;
  /** New phis removed by the clean-up (one value plus undef). */
  phisRemoved: number;
}

export function emptyPromoteStats(): PromoteStats {
  return { allocasPromoted: 0, deadAllocas: 0, singleStore: 0, singleBlock: 0, neverStored: 0, phisInserted: 0, phisRemoved: 0 };
}

// ---- promotability (LLVM's isAllocaPromotable) -------------------------------------------

function isLifetimeMarker(i: Instruction): boolean {
  if (i.op !== Opcode.Call) return false;
  const f = i.calledFunction();
  return f !== null && (f.name.startsWith('llvm.lifetime.start') || f.name.startsWith('llvm.lifetime.end'));
}

function onlyUsedByLifetimeMarkers(v: Value): boolean {
  for (let u = v.firstUse; u !== null; u = u.next) {
    const user = u.user as Instruction;
    if (user.kind !== ValueKind.Instruction || !isLifetimeMarker(user)) return false;
  }
  return true;
}

function hasAllZeroIndices(gep: Instruction): boolean {
  for (let k = 1; k < gep.ops.length; k++) {
    const c = gep.ops[k].value;
    if (c.kind === ValueKind.ConstantZero) continue;
    if (c.kind !== ValueKind.ConstantInt || (c as unknown as { value: bigint }).value !== 0n) return false;
  }
  return true;
}

/** Whether `ai` can be promoted: only direct, non-volatile loads and stores of its type, plus lifetime markers. */
export function isAllocaPromotable(ai: Instruction): boolean {
  if (ai.op !== Opcode.Alloca) return false;
  const t = ai.auxType;
  if (t === null) return false;
  for (let u = ai.firstUse; u !== null; u = u.next) {
    const user = u.user as Instruction;
    if (user.kind !== ValueKind.Instruction) return false;
    switch (user.op) {
      case Opcode.Load:
        if ((user.flags & Flag.Volatile) !== 0 || user.type !== t) return false;
        break;
      case Opcode.Store:
        // the address itself must not escape through the store
        if (u.index !== 1 || user.ops[0].value === ai) return false;
        if ((user.flags & Flag.Volatile) !== 0 || user.ops[0].value.type !== t) return false;
        break;
      case Opcode.Call:
        if (!isLifetimeMarker(user)) return false;
        break;
      case Opcode.BitCast:
      case Opcode.AddrSpaceCast:
        if (!onlyUsedByLifetimeMarkers(user)) return false;
        break;
      case Opcode.GetElementPtr:
        if (u.index !== 0 || !hasAllZeroIndices(user) || !onlyUsedByLifetimeMarkers(user)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** The promotable allocas of the entry block, in order (what LLVM's mem2reg pass promotes). */
export function promotableAllocas(fn: Function): Instruction[] {
  const out: Instruction[] = [];
  const entry = fn.firstBlock;
  if (entry === null) return out;
  for (let i = entry.first; i !== null && i !== entry.last; i = i.next) if (i.op === Opcode.Alloca && isAllocaPromotable(i)) out.push(i);
  return out;
}

/** Deletes lifetime markers (and the casts/GEPs that only feed them) of a promotable alloca. */
export function removeIntrinsicUsers(ai: Instruction): void {
  let u = ai.firstUse;
  while (u !== null) {
    const next = u.next;
    const user = u.user as Instruction;
    if (user.op !== Opcode.Load && user.op !== Opcode.Store) {
      if (user.type.kind !== TypeKind.Void) {
        let uu = user.firstUse;
        while (uu !== null) {
          const n2 = uu.next;
          (uu.user as Instruction).eraseFromParent();
          uu = n2;
        }
      }
      // the next use may belong to `user` itself (a marker using the alloca twice)
      let nx = next;
      while (nx !== null && nx.user === user) nx = nx.next;
      user.eraseFromParent();
      u = nx;
      continue;
    }
    u = next;
  }
}

// ---- promoting --------------------------------------------------------------------------

/**
 * Deletes a load or store whose result has no uses: like eraseFromParent, without
 * allocating fresh operand arrays for an instruction nobody will see again (mem2reg deletes
 * about half the instructions of clang -O0 code).
 */
export function deleteAccess(i: Instruction): void {
  assert(i.firstUse === null, `mem2reg: deleting a ${i.opcodeName} that still has uses`);
  const ops = i.ops;
  for (let k = 0; k < ops.length; k++) unlinkUse(ops[k]);
  i.removeFromParent();
}

/** Phis of reachable blocks get poison from unreachable predecessors (one entry per edge), as LLVM does. */
export function addPoisonForUnreachablePredecessors(phis: readonly Instruction[], dt: DominatorTree): void {
  const cfg = dt.cfg!;
  for (const phi of phis) {
    const b = phi.parent!.id;
    for (let j = cfg.predOff[b]; j < cfg.predOff[b + 1]; j++) {
      const p = cfg.pred[j];
      if (dt.depth[p] >= 0) continue;
      const pb = cfg.blocks[p]!;
      const c = cfg.edgeCount(p, b);
      for (let k = 0; k < c; k++) phi.addIncoming(PoisonValue.get(phi.type), pb);
    }
  }
}

/**
 * Promotes the promotable entry-block allocas with `promote`, again until none is left
 * (promoting one can make another promotable, e.g. a pointer kept in a promoted slot).
 */
export function promoteRepeatedly(fn: Function, first: Instruction[] | undefined, promote: (allocas: Instruction[]) => void): void {
  let allocas = first ?? promotableAllocas(fn);
  while (allocas.length > 0) {
    // only a promoted slot that held pointers can make another alloca promotable
    let heldPointers = false;
    for (const a of allocas) if (a.auxType!.kind !== TypeKind.Int && a.auxType!.kind !== TypeKind.Double && a.auxType!.kind !== TypeKind.Float) heldPointers = true;
    promote(allocas);
    if (!heldPointers) break;
    allocas = promotableAllocas(fn);
  }
}

/**
 * The run of a promotion pass (mem2reg, mem2reg-braun): nothing to do without a promotable
 * alloca; else `promote` them with the function's dominator tree and report the counts it
 * `reports`. The CFG is kept.
 */
export function runPromotion(fn: Function, ctx: PassContext, promote: (dt: DominatorTree, allocas: Instruction[], stats: PromoteStats) => void, reports: (s: PromoteStats) => Record<string, number>): PassResult {
  const allocas = promotableAllocas(fn);
  if (allocas.length === 0) return { changed: false };
  const stats = emptyPromoteStats();
  promote(ctx.analyses.get(DominatorTreeAnalysis), allocas, stats);
  reportStats(ctx, reports(stats));
  return { changed: true, preserved: 'cfg' };
}

/** The counts mem2reg reports. */
export function promoteStatCounts(s: PromoteStats): Record<string, number> {
  return { 'allocas promoted': s.allocasPromoted, 'allocas promoted with a single store': s.singleStore, 'allocas promoted within one block': s.singleBlock, 'dead allocas removed': s.deadAllocas, 'phis inserted': s.phisInserted, 'phis removed as trivial': s.phisRemoved };
}
