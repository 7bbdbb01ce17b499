/**
 * Loop peeling to eliminate compares, after LLVM's LoopPeel.cpp (countToEliminateCompares,
 * peelLoop): a test inside the loop on an induction variable against a constant that
 * changes its outcome in the first few iterations and never again (`if (i > 0)` in a loop
 * from i = 0, the guard of an inner loop over j < i) is decided by running those iterations
 * in front of the loop, as a copy; the loop that follows sees the test constant.
 *
 * Which tests: `icmp pred X, C` in the loop, X an affine recurrence {s,+,c}<L> with constant
 * s and c and the no-wrap flag its predicate needs (nsw for signed, nuw for unsigned,
 * either for eq/ne), C constant. Without wrap the recurrence is monotone, so a relational
 * test switches at most once and eq holds at most once: the peel count k is the first
 * iteration from which the outcome never changes again, if 1 ≤ k ≤ maxPeel.
 *
 * Invariants: the peeled copy is the loop body with its header phis replaced by their
 * preheader values; its latch leaves to the exit or enters the loop, whose header phis then
 * take the copy's values; every use after the loop goes through a phi of the (dedicated)
 * exit block (LCSSA first), which gets an entry from the copy. In the loop that remains the
 * recurrence starts k iterations later, so the test is replaced by its constant outcome.
 */
import { ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, Pred } from '../../ir/opcodes.js';
import type { Value } from '../../ir/value.js';
import { evalICmp } from '../../analysis/constant-folding.js';
import type { Loop } from '../../analysis/loops.js';
import type { ScalarEvolution } from '../../analysis/scalar-evolution.js';
import { NW, SK } from '../../analysis/scev-expr.js';
import { cloneLoop, formLCSSA } from './loop-unroll-runtime.js';
import type { Shape } from './unroll-loop.js';

/** A test the peeling decides: `cmp` is `outcome` in every iteration from `k` on. */
export interface PeelPlan {
  k: number;
  tests: { cmp: Instruction; outcome: boolean }[];
}

const SIGNED = new Set([Pred.SLT, Pred.SLE, Pred.SGT, Pred.SGE]);
const UNSIGNED = new Set([Pred.ULT, Pred.ULE, Pred.UGT, Pred.UGE]);

/** How many iterations to peel so that tests in `l` become constant (null: none qualifies). */
export function peelCount(se: ScalarEvolution, l: Loop, s: Shape, maxPeel: number): PeelPlan | null {
  const latchTest = s.latch.terminator()?.operand(0);
  const found: { cmp: Instruction; k: number; outcome: boolean }[] = [];
  for (const b of s.blocks) {
    const t = b.terminator();
    if (t === null || !t.isConditionalBranch()) continue;
    const cmp = t.operand(0);
    if (!(cmp instanceof Instruction) || cmp === latchTest || cmp.op !== Opcode.ICmp || !cmp.operand(0).type.isInt()) continue;
    if (cmp.parent === null || !s.blocks.includes(cmp.parent)) continue;
    let x = se.get(cmp.operand(0));
    let y = se.get(cmp.operand(1));
    let pred = cmp.pred;
    if (x.kind !== SK.AddRec) {
      [x, y] = [y, x];
      pred = swapped(pred);
    }
    if (x.kind !== SK.AddRec || x.loop !== l || !x.isAffine() || x.start.kind !== SK.Const || x.step.kind !== SK.Const || x.step.c === 0n || y.kind !== SK.Const) continue;
    const nsw = (x.flags & NW.NSW) !== 0;
    const nuw = (x.flags & NW.NUW) !== 0;
    if (SIGNED.has(pred) ? !nsw : UNSIGNED.has(pred) ? !nuw : !(nsw || nuw)) continue;
    const w = x.bits;
    const at = (j: number) => evalICmp(pred, w, BigInt.asIntN(w, x.start.c + x.step.c * BigInt(j)), y.c);
    const first = at(0);
    let k = 0;
    if (pred === Pred.EQ || pred === Pred.NE) {
      // without wrap the value equals C at one iteration at most: only the first is peeled
      if (x.start.c === y.c) k = 1;
    } else {
      for (let j = 1; j <= maxPeel; j++) {
        if (at(j) !== first) {
          k = j;
          break;
        }
      }
    }
    if (k > 0) found.push({ cmp, k, outcome: at(k) });
  }
  if (found.length === 0) return null;
  // peel enough for every test (each stays decided once decided)
  const k = Math.max(...found.map((f) => f.k));
  return { k, tests: found.map((f) => ({ cmp: f.cmp, outcome: f.outcome })) };
}

function swapped(p: Pred): Pred {
  switch (p) {
    case Pred.SLT: return Pred.SGT;
    case Pred.SGT: return Pred.SLT;
    case Pred.SLE: return Pred.SGE;
    case Pred.SGE: return Pred.SLE;
    case Pred.ULT: return Pred.UGT;
    case Pred.UGT: return Pred.ULT;
    case Pred.ULE: return Pred.UGE;
    case Pred.UGE: return Pred.ULE;
    default: return p;
  }
}

/** Peels one iteration of loop `s` in front of it. */
function peelOnce(fn: Function, s: Shape, n: number): void {
  const { header, latch, exit } = s;
  const preheader = header.predecessors().find((p) => p !== latch)!;
  const exitPhis = exit.phis();
  const exitValues = exitPhis.map((p) => p.incomingValueFor(latch)!);
  const copy = cloneLoop(fn, s, `peel${n}`);
  const phis = header.phis();
  // the copy runs first: its header phis are the values from the preheader
  for (const p of phis) {
    const c = copy.map.get(p) as Instruction;
    const v = c.incomingValueFor(preheader)!;
    c.replaceAllUsesWith(v);
    c.eraseFromParent();
    copy.map.set(p, v);
  }
  const look = (v: Value): Value => copy.map.get(v) ?? v;
  // the copy's back edge enters the loop; the preheader enters the copy
  const ct = copy.latch.terminator()!;
  for (let j = 0; j < ct.numSuccessors(); j++) if (ct.successor(j) === copy.header) ct.setSuccessor(j, header);
  ct.md = null;
  const pt = preheader.terminator()!;
  for (let j = 0; j < pt.numSuccessors(); j++) if (pt.successor(j) === header) pt.setSuccessor(j, copy.header);
  for (const p of phis) {
    const j = p.blockIndex(preheader);
    p.setIncomingValue(j, look(p.incomingValueFor(latch)!));
    p.setIncomingBlock(j, copy.latch);
  }
  for (let k = 0; k < exitPhis.length; k++) exitPhis[k].addIncoming(look(exitValues[k]), copy.latch);
}

/** Peels `plan.k` iterations of loop `s` and makes its decided tests constant. */
export function peelLoop(fn: Function, s: Shape, plan: PeelPlan): void {
  formLCSSA(s);
  for (let n = 0; n < plan.k; n++) peelOnce(fn, s, n);
  for (const { cmp, outcome } of plan.tests) {
    cmp.replaceAllUsesWith(ConstantInt.bool(outcome));
    cmp.eraseFromParent();
  }
}
