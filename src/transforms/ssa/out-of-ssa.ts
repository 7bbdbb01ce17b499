/**
 * Out of SSA: replaces every phi by copies on the incoming edges, in the classic way
 * (Cytron et al. 1991, §7; Briggs, Cooper, Harvey and Simpson, "Practical Improvements to
 * the Construction and Destruction of Static Single Assignment Form", SPE 1998; Boissinot
 * et al., CGO 2009): split critical edges, turn the phis of a block into one parallel copy per
 * incoming edge, placed where exactly that edge runs it, and sequentialize each parallel
 * copy with a temporary only for cycles (src/transforms/utils/parallel-copy.ts).
 *
 * ## Representation
 *
 * LLVM IR has no copy instruction and must stay in SSA form, so the phi "variables" live in
 * memory: each phi gets a slot (an entry-block alloca). The parallel copy of the edge P→B
 * writes B's slots — `store v, %x.slot` for an incoming value v, and `%t = load %y.slot;
 * store %t, %x.slot` when the incoming value is another phi y of B: a slot-to-slot copy, the
 * register-to-register copy of the textbook, which keeps y's live range short. At the top of
 * B each slot is read once (`%x = load %x.slot`) and that load replaces the phi everywhere.
 * The result has no phis and is valid LLVM IR; mem2reg turns it back into SSA.
 *
 * The copies of the edge P→B go at the end of P when B is P's only successor, else at the top
 * of B (then P is B's only predecessor: the edge was not critical). With this placement a
 * slot is only written on edges into its block, so at any point it holds the value of its phi
 * at the latest entry to the block — which is what a slot-to-slot copy must read. Both
 * classic pitfalls are reproduced by the options for demonstrations (see test/ssa):
 * without splitting, a copy placed at the end of a predecessor that then leaves the loop
 * clobbers a slot another copy still reads (the lost-copy problem); copying in phi order,
 * `a ← b; b ← a` loses a (the swap problem).
 *
 * Invariant: every slot is written on every incoming edge of its block before the block
 * reads it (each phi has an entry per edge); all copies of one edge behave as one parallel
 * assignment.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import type { Value } from '../../ir/value.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { splitCriticalEdges } from '../utils/basic-block-utils.js';
import { CopyStep, ParallelCopy, sequentializeNaively, sequentializeParallelCopy } from '../utils/parallel-copy.js';
import { newLoad, newSlot, newStore } from './reg2mem.js';
import type { OutOfSSATracer } from './out-of-ssa-trace.js';

export interface OutOfSSAOptions {
  /** Demonstration only: emit each parallel copy in phi order (shows the swap problem). */
  naiveSequentialization?: boolean;
  /** Demonstration only: keep critical edges; copies go at the end of the predecessor (shows the lost-copy problem). */
  noEdgeSplitting?: boolean;
  /** Receives each edge's parallel copy and its sequentialization (out-of-ssa-trace.ts). */
  tracer?: OutOfSSATracer | null;
}

export interface OutOfSSAStats {
  criticalEdgesSplit: number;
  phisReplaced: number;
  /** Stores into slots emitted by the parallel copies. */
  copies: number;
  /** Temporaries that broke a cycle of copies. */
  temporaries: number;
}

export function outOfSSA(fn: Function, opts: OutOfSSAOptions = {}): OutOfSSAStats {
  const stats: OutOfSSAStats = { criticalEdgesSplit: 0, phisReplaced: 0, copies: 0, temporaries: 0 };
  if (fn.isDeclaration()) return stats;
  if (!opts.noEdgeSplitting) stats.criticalEdgesSplit = splitCriticalEdges(fn, { onlyIntoPhiBlocks: true });

  const phiBlocks: BasicBlock[] = [];
  for (let b = fn.firstBlock; b !== null; b = b.next) if (b.first !== null && b.first.op === Opcode.Phi) phiBlocks.push(b);
  const allPhis: Instruction[] = [];
  const allLoads: Instruction[] = [];
  for (const b of phiBlocks) {
    const phis = b.phis();
    const slots = phis.map((p) => newSlot(fn, p.type, `${p.name}.slot`));
    // the slots are read once, at the top of the block
    const loads = phis.map((p, j) => newLoad(p.type, slots[j], ''));
    const top = b.firstNonPhi();
    for (const l of loads) {
      if (top === null) b.append(l);
      else b.insertBefore(l, top);
    }
    // one parallel copy per incoming edge (per distinct predecessor)
    const preds: BasicBlock[] = [];
    for (const p of phis[0].blocks!) if (!preds.includes(p)) preds.push(p);
    const indexOfPhi = new Map<Value, number>();
    phis.forEach((p, j) => indexOfPhi.set(p, j));
    for (const p of preds) {
      const outside: Value[] = [];
      const copies: ParallelCopy[] = [];
      for (let j = 0; j < phis.length; j++) {
        const v = phis[j].incomingValueFor(p)!;
        const k = indexOfPhi.get(v) ?? -1;
        if (k >= 0) copies.push({ dst: j, src: k });
        else {
          outside.push(v);
          copies.push({ dst: j, src: -outside.length });
        }
      }
      const tr = opts.tracer ?? null;
      if (tr !== null) tr.edge(p, b, phis, copies, outside);
      const steps: CopyStep[] = opts.naiveSequentialization ? sequentializeNaively(copies) : sequentializeParallelCopy(copies, tr === null ? null : (s, why) => tr.step(s, why, phis, outside));
      const t = p.terminator();
      // at the top of b when p has other successors (then p is b's only predecessor); an
      // unsplittable critical edge (indirectbr) falls back to the end of p
      const atTop = !opts.noEdgeSplitting && t !== null && distinctSuccessors(t) > 1 && preds.length === 1;
      const at: Instruction | null = atTop ? loads[0] : t;
      const where: BasicBlock = atTop ? b : p;
      const emit = (i: Instruction): void => {
        if (at === null) where.append(i);
        else where.insertBefore(i, at);
      };
      const temps: Instruction[] = [];
      for (const s of steps) {
        if (s.op === 'copy') {
          let v: Value;
          if (s.src >= 0) {
            const l = newLoad(phis[s.src].type, slots[s.src], '');
            emit(l);
            v = l;
          } else v = outside[-1 - s.src];
          emit(newStore(v, slots[s.dst]));
          stats.copies++;
        } else if (s.op === 'save') {
          const l = newLoad(phis[s.src].type, slots[s.src], 'phi.tmp');
          emit(l);
          temps[s.temp] = l;
          stats.temporaries++;
        } else {
          emit(newStore(temps[s.temp], slots[s.dst]));
          stats.copies++;
        }
      }
    }
    for (let j = 0; j < phis.length; j++) {
      allPhis.push(phis[j]);
      allLoads.push(loads[j]);
    }
  }
  for (let j = 0; j < allPhis.length; j++) allPhis[j].replaceAllUsesWith(allLoads[j]);
  for (let j = 0; j < allPhis.length; j++) {
    allLoads[j].name = allPhis[j].name;
    allPhis[j].eraseFromParent();
  }
  stats.phisReplaced = allPhis.length;
  return stats;
}

function distinctSuccessors(t: Instruction): number {
  const n = t.numSuccessors();
  if (n <= 1) return n;
  const first = t.successor(0);
  for (let k = 1; k < n; k++) if (t.successor(k) !== first) return 2;
  return 1;
}

export const outOfSSAPass = defineCountingPass({
  name: 'out-of-ssa',
  description: 'replace phis by parallel copies through stack slots on split edges',
  local: true,
  count: (fn) => outOfSSA(fn),
  stats: { criticalEdgesSplit: 'critical edges split', phisReplaced: 'phis replaced by copies', copies: 'copies', temporaries: 'temporaries for copy cycles' },
  changed: (s) => s.criticalEdgesSplit + s.phisReplaced > 0,
  preserves: (s) => (s.criticalEdgesSplit > 0 ? 'none' : 'cfg'),
});
