/**
 * mem2reg-braun: promotes the same allocas as mem2reg (LLVM's isAllocaPromotable) with Braun
 * et al.'s construction (CC 2013, src/transforms/utils/ssa-builder.ts) run over the existing CFG: blocks are
 * filled in reverse postorder (a load reads the variable, a store writes it), and a block is
 * sealed as soon as all its reachable predecessors are filled (loop headers when their
 * latches are done). For reducible CFGs the construction alone gives minimal SSA, with as
 * many phis as Cytron's pruned placement; on irreducible CFGs redundant phi cycles may remain,
 * so (§3.2–3.3) Algorithm 5 (transforms/utils/phi-webs.ts) then runs on the phis it made,
 * which makes the result minimal for any CFG (`mem2reg-braun<no-scc>` skips it).
 * `mem2reg-braun<marker>` crosses joins with §3.3's marker algorithm
 * (utils/ssa-builder-marker.ts) instead of Algorithm 2's phi-first lookup: the same result,
 * fewer temporary phis (none outside data-flow cycles).
 *
 * As in mem2reg, the new phis then go through LLVM's clean-up (one value plus undef), so the
 * two passes give the same phis; unreachable predecessors give poison.
 *
 * Invariants: every reachable block is filled exactly once, after all its forward-edge
 * predecessors (RPO); a block is sealed exactly when its last reachable predecessor is
 * filled, so incomplete phis exist only in loop headers (and irreducible entries) between
 * their first read and their last latch.
 */
import type { DominatorTree } from '../../analysis/dominators.js';
import type { BasicBlock } from '../../ir/basic-block.js';
import { PoisonValue, UndefValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { ValueKind } from '../../ir/value.js';
import { definePass, param } from '../../pm/define-pass.js';
import { SSABuilder } from '../utils/ssa-builder.js';
import type { BraunTracer } from '../utils/ssa-builder-trace.js';
import { addPoisonForUnreachablePredecessors, deleteAccess, emptyPromoteStats, promoteRepeatedly, removeIntrinsicUsers, runPromotion, type PromoteStats } from '../utils/promote-memory.js';
import { simplifyPhisLikeLLVM } from '../utils/phi-simplify.js';
import { removeRedundantPhis } from './redundant-phis.js';
import type { RedundantPhiTracer } from '../utils/phi-webs-trace.js';

export interface BraunPromoteOptions {
  /** LLVM's clean-up of phis merging one value and undef (default true). */
  simplifyPhis?: boolean;
  /** Receives the construction step by step (mem2reg-braun-trace.ts). */
  tracer?: BraunTracer | null;
  /** How lookups cross joins: Algorithm 2's phi first (default) or §3.3's marker algorithm. */
  lookup?: 'phi-first' | 'marker';
  /** Algorithm 5 on the phis made, for minimal SSA on irreducible CFGs too (default true). */
  scc?: boolean;
  /** Makes the tracer of Algorithm 5, called after the construction (when tracing). */
  sccTracer?: ((fn: Function) => RedundantPhiTracer) | null;
}

/** Promotes `allocas` with the Braun builder over `fn`'s CFG; returns the phis left. */
export function promoteAllocasBraun(fn: Function, dt: DominatorTree, allocas: readonly Instruction[], opts: BraunPromoteOptions = {}, stats: PromoteStats = emptyPromoteStats()): Instruction[] {
  const cfg = dt.cfg;
  if (cfg === null || cfg.fn !== fn) throw new Error('promoteAllocasBraun: the dominator tree is not of this function');
  const live: Instruction[] = [];
  for (const ai of allocas) {
    removeIntrinsicUsers(ai);
    if (ai.firstUse === null) {
      ai.eraseFromParent();
      stats.deadAllocas++;
      stats.allocasPromoted++;
    } else live.push(ai);
  }
  if (live.length === 0) return [];
  const idBound = fn.instIdBound;
  const n = cfg.n;
  const depth = dt.depth;

  // predecessors for the builder: reachable ones, one entry per edge, grouped by block
  const predLists: (BasicBlock[] | undefined)[] = new Array(n);
  const predsOf = (b: BasicBlock): readonly BasicBlock[] => {
    const id = b.id;
    let l = predLists[id];
    if (l !== undefined) return l;
    l = [];
    if (depth[id] >= 0) {
      for (let j = cfg.predOff[id]; j < cfg.predOff[id + 1]; j++) {
        const p = cfg.pred[j];
        if (depth[p] < 0) continue;
        const pb = cfg.blocks[p]!;
        const c = cfg.edgeCount(p, id);
        for (let k = 0; k < c; k++) l.push(pb);
      }
    }
    predLists[id] = l;
    return l;
  };
  const created: Instruction[] = [];
  // Braun caches a definition in every block a lookup passes: about three per access
  let accesses = 0;
  for (const ai of live) accesses += ai.numUses;
  const ssa = new SSABuilder(fn, { predecessors: predsOf, onPhiCreated: (phi) => created.push(phi), expectedDefinitions: 3 * accesses, tracer: opts.tracer ?? null, lookup: opts.lookup });
  const varOf = new Int32Array(idBound).fill(-1);
  for (let v = 0; v < live.length; v++) {
    varOf[live[v].id] = ssa.declareVariable(live[v].auxType!, `${live[v].name}.`);
  }
  const varOfPointer = (p: import('../../ir/value.js').Value): number => {
    if (p.kind !== ValueKind.Instruction) return -1;
    const pid = (p as Instruction).id;
    const v = pid >= 0 && pid < idBound ? varOf[pid] : -1;
    return v >= 0 && live[v] === p ? v : -1;
  };

  // unreachable blocks: their accesses go (loads read undef)
  for (let bb = fn.firstBlock; bb !== null; bb = bb.next) {
    if (depth[bb.id] >= 0) continue;
    for (let i = bb.first; i !== null; ) {
      const next: Instruction | null = i.next;
      if (i.op === Opcode.Load && varOfPointer(i.ops[0].value) >= 0) {
        i.replaceAllUsesWith(UndefValue.get(i.type));
        i.eraseFromParent();
      } else if (i.op === Opcode.Store && varOfPointer(i.ops[1].value) >= 0) i.eraseFromParent();
      i = next;
    }
  }

  // fill in reverse postorder, sealing a block when its last reachable predecessor is filled
  const remaining = new Int32Array(n);
  const rpo = cfg.rpo;
  for (let k = 0; k < rpo.length; k++) {
    const b = rpo[k];
    let c = 0;
    for (let j = cfg.predOff[b]; j < cfg.predOff[b + 1]; j++) if (depth[cfg.pred[j]] >= 0) c++;
    remaining[b] = c;
  }
  for (let k = 0; k < rpo.length; k++) {
    const b = rpo[k];
    const bb = cfg.blocks[b]!;
    if (opts.tracer != null) opts.tracer.fill(bb);
    if (remaining[b] === 0) ssa.sealBlock(bb);
    for (let i = bb.first; i !== null; ) {
      const next: Instruction | null = i.next;
      if (i.op === Opcode.Load) {
        const v = varOfPointer(i.ops[0].value);
        if (v >= 0) {
          const val = ssa.readVariable(v, bb);
          i.replaceAllUsesWith(val === i ? PoisonValue.get(i.type) : val);
          deleteAccess(i);
        }
      } else if (i.op === Opcode.Store) {
        const v = varOfPointer(i.ops[1].value);
        if (v >= 0) {
          ssa.writeVariable(v, bb, i.ops[0].value);
          deleteAccess(i);
        }
      }
      i = next;
    }
    for (let j = cfg.succOff[b]; j < cfg.succOff[b + 1]; j++) {
      const s = cfg.succ[j];
      if (--remaining[s] === 0) ssa.sealBlock(cfg.blocks[s]!);
    }
  }
  for (const ai of live) {
    if (ai.firstUse !== null) ai.replaceAllUsesWith(PoisonValue.get(ai.type));
    ai.eraseFromParent();
    stats.allocasPromoted++;
  }
  stats.phisInserted += ssa.stats.phisCreated;
  stats.phisRemoved += ssa.stats.phisRemovedTrivial;
  let phis = created.filter((p) => p.parent !== null);
  if (opts.scc !== false && phis.length > 1) {
    const trace = opts.sccTracer != null ? opts.sccTracer(fn) : null;
    const st = removeRedundantPhis(fn, phis, trace);
    stats.phisRemoved += st.redundant + st.trivial;
    phis = phis.filter((p) => p.parent !== null);
  }
  if (opts.simplifyPhis !== false) phis = simplifyPhisLikeLLVM(phis, dt, () => stats.phisRemoved++);
  addPoisonForUnreachablePredecessors(phis, dt);
  return phis;
}

/** Promotes entry-block allocas with the Braun builder until none is promotable. */
export function promoteMemoryToRegisterBraun(fn: Function, dt: DominatorTree, opts: BraunPromoteOptions = {}, stats: PromoteStats = emptyPromoteStats(), first?: Instruction[]): PromoteStats {
  promoteRepeatedly(fn, first, (allocas) => promoteAllocasBraun(fn, dt, allocas, opts, stats));
  return stats;
}

export const mem2regBraunPass = definePass({
  name: 'mem2reg-braun',
  description: "promote allocas to SSA registers with Braun et al.'s on-the-fly construction, then Algorithm 5 (minimal SSA on any CFG); mem2reg-braun<marker>: §3.3's marker lookup",
  local: true,
  params: {
    marker: param.flag('marker', false, "Braun et al. §3.3's marker algorithm: mark a join instead of placing a phi first; a phi only where predecessors disagree or a cycle comes back"),
    scc: param.flag('scc', true, 'Algorithm 5 (redundant phi SCCs) on the phis made, for minimal SSA on irreducible CFGs; no-scc: the construction alone'),
  },
  run: (fn, ctx, p) =>
    runPromotion(
      fn,
      ctx,
      (dt, allocas, stats) => promoteMemoryToRegisterBraun(fn, dt, { lookup: p.marker ? 'marker' : 'phi-first', scc: p.scc }, stats, allocas),
      (s) => ({ 'allocas promoted': s.allocasPromoted, 'phis inserted': s.phisInserted, 'phis removed': s.phisRemoved }),
    ),
});
