/**
 * Loop unrolling, after LLVM's LoopUnrollPass (lib/Transforms/Scalar/LoopUnrollPass.cpp,
 * computeUnrollCount / tryToUnrollLoop, and lib/Transforms/Utils/LoopUnroll.cpp, UnrollLoop)
 * and Cooper & Torczon, "Engineering a Compiler" §10.4 (loop unrolling; the trip count known
 * at compile time): full unrolling of loops with a small constant trip count, and partial
 * unrolling of longer ones by a factor that divides their trip count.
 *
 * A loop is unrolled when
 *  - it is innermost (or, completely only, a nest: below), in LoopSimplify form (`simplifyLoops` runs first: a preheader, one
 *    latch, dedicated exits) and rotated: the latch is the only exiting block and ends in
 *    `br i1 %c, label %header, label %exit` (or the successors swapped);
 *  - %c is `icmp pred A, K` (either operand order) where K is a constant and A is a basic IV
 *    of the header, `i = phi [C0, preheader], [i.next, latch]`, or its increment
 *    `i.next = add i, C` / `add C, i` / `sub i, C`, C0 and C constants of any integer width;
 *  - no instruction forbids duplication (indirectbr, `noduplicate` calls) and no loop block's
 *    address is taken.
 * Completely, when the trip count, found by simulating the IV with exact arithmetic mod
 * 2^bits (nsw/nuw flags do not matter: an execution that wraps would have met poison, but
 * the simulation follows the wrapped values, which is what the IR computes), is at most
 * `max-trip-count` (default 256) and trip count × instructions of the loop ≤ `threshold`
 * (default 400). Otherwise partially, by the largest count k ≤ `max-partial-count` (default 8)
 * with k × instructions ≤ `partial-threshold` (default 150) that divides the exact trip count
 * of an IV stepping by one (src/analysis/trip-count.ts): the exit is then taken only at the
 * end of every k-th run, so only the last copy keeps the test.
 *
 * The loop's blocks stay as copy 0 and are cloned k − 1 times (trip count − 1 when complete)
 * with a value map per copy: the header phis of copy j are not cloned but map to the
 * latch-incoming value of copy j − 1. Each copy's latch branches unconditionally to the next
 * copy's header. Completely unrolled: copy 0's header phis become their preheader values and
 * the last latch branches to the exit. Partially: the last latch keeps its test, branching
 * back to copy 0's header, whose phis take the last copy's values from it. Either way the
 * exit's phis take the last copy's values from the last copy's latch, and every other use
 * outside the loop of a loop value takes the last copy's clone. That is sound because the
 * only way out is the last latch → exit edge: a use outside the loop dominated by a
 * definition in it is dominated by that edge, so the definition dominates the latch (it runs
 * in every iteration, the last one included), and its clone in the last copy dominates the
 * last latch and so the use. The tests left without a branch are erased when unused; the
 * straight-line chain of blocks is left for simplifycfg to merge and constant IVs for
 * instcombine/sccp to fold.
 *
 * Invariants: every loop is read from the IR (blocks, phis, terminators) after one
 * LoopSimplify and one LoopInfo; the loops changed in one run are disjoint (a nest is taken
 * only when no loop inside it is) and unrolling one touches only its own blocks, its exit's
 * phis and uses after it, so the other candidates stay valid.
 * Iterative throughout (no recursion), cost O(copies × loop size) per loop.
 * Where the IV reader gives up (a step other than one against `ne`, a test on another
 * recurrence), a constant backedge-taken count from scalar evolution gives the trip count.
 * With `runtime-count=K` (K ≥ 2; -O2 asks for 8 once, late), a loop whose backedge-taken count
 * scalar evolution knows only as an expression (cheap to compute in the preheader) is unrolled
 * by a power of two around a remainder loop (src/transforms/utils/loop-unroll-runtime.ts).
 * Loops marked `llvm.loop.unroll.disable` (runtime unrolling marks both of its loops, partial
 * unrolling the loop it leaves, as LLVM does) are left alone.
 * The mechanics (shape, cloning) are in src/transforms/utils/unroll-loop.ts.
 * A loop not unrolled completely whose tests on an IV change outcome only in the first ≤
 * `peel-count` iterations gets those peeled in front, the tests constant after
 * (src/transforms/utils/loop-peel.ts).
 * Nests (LLVM's LoopFullUnrollPass visits every loop of a nest, innermost first): a loop with
 * inner loops, none of which changes in this run, whose latch is its only exiting block and
 * whose trip count is constant, is unrolled completely when trip count × instructions of the
 * whole nest ≤ `nest-threshold` (default 300): the inner loops are cloned whole, one nest per
 * copy, and each copy sees its own constant outer IV (loads from constant arrays at
 * IV-indexed offsets then fold, a later run may unroll the copies of the inner loops). The
 * estimate is the plain size, as LLVM's for a non-innermost loop (its analyzeLoopUnrollCost,
 * which credits what folds, looks at innermost loops only), so a nest that does not simplify
 * grows by at most the threshold. Never partially, peeled or at run time.
 * Not done: loops with several exits or exiting blocks other than the latch.
 */
import type { Function } from '../../ir/function.js';
import { evalICmp } from '../../analysis/constant-folding.js';
import { closedTripCount, readCountedIV, type CountedIV } from '../../analysis/trip-count.js';
import { CFG } from '../../analysis/cfg.js';
import { findLoops, type Loop, type LoopInfo } from '../../analysis/loops.js';
import { LoopAnalysis } from '../../pm/analyses.js';
import { ScalarEvolution } from '../../analysis/scalar-evolution.js';
import { SK, type SCEV } from '../../analysis/scev-expr.js';
import { simplifyLoops } from '../utils/loop-simplify.js';
import { readShape, unroll, type Shape } from '../utils/unroll-loop.js';
import { unrollRuntime } from '../utils/loop-unroll-runtime.js';
import { peelCount, peelLoop, type PeelPlan } from '../utils/loop-peel.js';
import { hasLoopFlag, hasUnrollDisable, setUnrollDisable } from '../utils/loop-metadata.js';
import { RUNTIME_DISABLE } from './loop-vectorize.js';
import { dominatesPoint, expansionCost, SCEVExpander } from '../utils/scev-expander.js';
import { defineCountingPass, param } from '../../pm/define-pass.js';

export interface LoopUnrollOptions {
  /** Largest unrolled size (trip count × instructions of the loop) that is unrolled. */
  threshold: number;
  /** Largest trip count simulated. */
  maxTripCount: number;
  /** Partial unrolling: largest size of the unrolled body (copies × instructions of the loop). */
  partialThreshold: number;
  /** Partial unrolling: most copies (below 2: no partial unrolling). */
  maxPartialCount: number;
  /**
   * Runtime unrolling (a symbolic trip count): most copies, a power of two (below 2: none, the
   * default; -O2 asks for 8 once, after the simplification rounds, as LLVM runs its runtime
   * LoopUnrollPass late in the optimization pipeline, after indvars solved what it can).
   */
  runtimeCount: number;
  /** Peeling: most iterations peeled to make tests in the loop constant (0: none). */
  maxPeel: number;
  /**
   * Complete unrolling of a loop with inner loops (the whole nest cloned): largest unrolled
   * size, trip count × instructions of the nest (0: innermost loops only).
   */
  nestThreshold: number;
}

export const DEFAULT_LOOP_UNROLL_OPTIONS: LoopUnrollOptions = { threshold: 400, maxTripCount: 256, partialThreshold: 150, maxPartialCount: 8, runtimeCount: 0, maxPeel: 3, nestThreshold: 300 };

/**
 * The number of times the body runs (≥ 1: the loop is bottom-tested), found by simulating the
 * latch test's IV; null when the test is not on a constant IV or does not exit within `limit`.
 */
function constantTripCount(iv: CountedIV, limit: number): number | null {
  const { bits: w, step, pred, bound, testsNext, stayOnTrue } = iv;
  let i = iv.start;
  for (let trip = 1; trip <= limit; trip++) {
    const n = BigInt.asIntN(w, i + step);
    const stays = evalICmp(pred, w, testsNext ? n : i, bound) === stayOnTrue;
    if (!stays) return trip;
    i = n;
  }
  return null;
}


export interface LoopUnrollStats {
  unrolled: number;
  /** Loops unrolled partially. */
  partial: number;
  /** Loops unrolled at run time (a remainder loop after them). */
  runtime: number;
  /** Loops whose first iterations were peeled. */
  peeled: number;
  changed: boolean;
}

/**
 * How many copies a loop too long to unroll completely is unrolled into: the most, up to
 * `maxPartialCount` and `partialThreshold / size`, that divides its exact trip count (so no
 * copy but the last needs the exit test; LLVM's partial unrolling with a known trip count,
 * computeUnrollCount). Null when fewer than two.
 */
function partialCount(trip: bigint | null, size: number, o: LoopUnrollOptions): number | null {
  if (trip === null) return null;
  for (let k = Math.min(o.maxPartialCount, Math.floor(o.partialThreshold / Math.max(1, size))); k >= 2; k--) {
    if (trip % BigInt(k) === 0n) return k;
  }
  return null;
}

/**
 * The trip count (runs of the body) from scalar evolution's backedge-taken count when that
 * is a constant (LLVM's getSmallConstantTripCount): it covers tests the IV reader does not
 * (a count of any step against `ne`, a test on another recurrence than the header's phi).
 * Null when unknown, or when the count + 1 wraps (2^bits runs).
 */
function scevTripCount(se: ScalarEvolution, l: Loop): bigint | null {
  const btc = se.backedgeTakenCount(l);
  if (btc === null || btc.kind !== SK.Const) return null;
  const n = BigInt.asUintN(btc.bits, btc.c) + 1n;
  return n < 1n << BigInt(btc.bits) ? n : null;
}

/** Largest cost of the trip count's expansion for runtime unrolling (LLVM: SCEVCheapExpansionBudget, 4, with a division counted 4 here). */
const RUNTIME_BUDGET = 6;

/** The runtime unroll count: the largest power of two ≤ runtimeCount with copies × size ≤ partialThreshold (LLVM: DefaultUnrollRuntimeCount, 8). */
function runtimeCount(size: number, o: LoopUnrollOptions): number {
  let k = 1;
  while (k * 2 <= o.runtimeCount && k * 2 * Math.max(1, size) <= o.partialThreshold) k *= 2;
  return k;
}

/** Unrolls the loops of `fn` with constant trip counts, peels and runtime-unrolls innermost ones (LoopSimplify first). */
export function unrollLoops(fn: Function, opts: Partial<LoopUnrollOptions> = {}, cached?: LoopInfo, trace: ((line: string) => void) | null = null): LoopUnrollStats {
  const o: LoopUnrollOptions = { ...DEFAULT_LOOP_UNROLL_OPTIONS, ...opts };
  const s = simplifyLoops(fn, cached);
  let changed = s.nested + s.preheaders + s.backedges + s.exits > 0;
  const li = !changed && cached !== undefined ? cached : findLoops(new CFG(fn));
  // read every candidate first: unrolling one innermost loop leaves the others' blocks alone
  const todo: { shape: Shape; trip: number; partial: boolean }[] = [];
  let se: ScalarEvolution | undefined;
  const runtime: { shape: Shape; k: number; btc: SCEV }[] = [];
  const peels: { shape: Shape; plan: PeelPlan }[] = [];
  // inner loops first (reverse preorder of the loop tree), as LLVM's LoopFullUnrollPass
  // visits them: a loop with inner loops is considered only when none of them changes in
  // this run (they stay as they are inside each copy), and only for complete unrolling
  const picked = new Uint8Array(li.loops.length);
  const pickedInside = (l: Loop): boolean => picked.subarray(l.index + 1, l.subtreeEnd).includes(1);
  for (let n = li.loops.length - 1; n >= 0; n--) {
    const l = li.loops[n];
    const nest = l.subLoops.length > 0;
    if (nest && (o.nestThreshold <= 0 || pickedInside(l))) continue;
    const name = li.cfg.blockOf(l.header)!.name;
    const shape = readShape(l, li, nest);
    if (typeof shape === 'string') {
      trace?.(`loop-unroll: %${name}: ${shape}`);
      continue;
    }
    if (hasUnrollDisable(shape.latch.terminator()!, fn.parent)) {
      trace?.(`loop-unroll: %${name}: marked llvm.loop.unroll.disable`);
      continue;
    }
    const iv = readCountedIV(shape.header, shape.preheader, shape.latch);
    const limit = Math.min(o.maxTripCount, Math.floor((nest ? o.nestThreshold : o.threshold) / Math.max(1, shape.size)));
    let trip = iv === null ? null : constantTripCount(iv, limit);
    // the IV reader's simulation first (it knows exact counts of any width); scalar
    // evolution where it gives up
    const closed = iv === null ? null : closedTripCount(iv);
    const fromSE = trip === null && closed === null ? scevTripCount((se ??= new ScalarEvolution(fn, li, li.domTree)), l) : null;
    if (trip === null && fromSE !== null && fromSE <= BigInt(limit)) trip = Number(fromSE);
    if (trip !== null) {
      trace?.(`loop-unroll: %${name}: trip count ${trip}, ${shape.size} instructions${nest ? ` with ${l.subLoops.length} inner loop(s)` : ''}: unrolled`);
      todo.push({ shape, trip, partial: false });
      picked[l.index] = 1;
      continue;
    }
    if (nest) {
      trace?.(`loop-unroll: %${name}: loop nest without a constant trip count ≤ ${limit}`);
      continue;
    }
    // a test that changes its outcome only in the first iterations: those run in front (LLVM
    // computes the peel count before partial and runtime unrolling too)
    const plan = o.maxPeel > 0 ? peelCount((se ??= new ScalarEvolution(fn, li, li.domTree)), l, shape, o.maxPeel) : null;
    if (plan !== null && plan.k * shape.size <= o.partialThreshold) {
      trace?.(`loop-unroll: %${name}: ${plan.tests.length} test(s) constant after ${plan.k} iteration(s): peeled`);
      peels.push({ shape, plan });
      picked[l.index] = 1;
      continue;
    }
    const count = partialCount(closed ?? fromSE, shape.size, o);
    if (count === null) {
      // a symbolic trip count: unrolled at run time, around a remainder loop (its unknowns
      // dominate the header: defined before the preheader's end, where it is expanded)
      const k = closed === null && fromSE === null && !hasLoopFlag(shape.latch.terminator()!, RUNTIME_DISABLE) ? runtimeCount(shape.size, o) : 0;
      const btc = k >= 2 ? (se ??= new ScalarEvolution(fn, li, li.domTree)).backedgeTakenCount(l) : null;
      if (btc !== null && btc.kind !== SK.Const && expansionCost(btc) <= RUNTIME_BUDGET && dominatesPoint(btc, shape.header, li.domTree)) {
        trace?.(`loop-unroll: %${name}: ${shape.size} instructions, trip count unknown until run time: unrolled by ${k} with a remainder loop`);
        runtime.push({ shape, k, btc });
        picked[l.index] = 1;
        continue;
      }
      trace?.(`loop-unroll: %${name}: no constant trip count ≤ ${limit}, none that ${shape.size} instructions can be unrolled by`);
      continue;
    }
    trace?.(`loop-unroll: %${name}: ${shape.size} instructions, trip count a multiple of ${count}: unrolled by ${count}`);
    todo.push({ shape, trip: count, partial: true });
    picked[l.index] = 1;
  }
  // the trip counts are expanded before any loop changes (an unknown of one may be a value of
  // another loop, which unrolling that loop renames for the uses after it, these included)
  const counts = runtime.map((r) => new SCEVExpander(r.shape.preheader.terminator()!, se!).expand(r.btc));
  for (const { shape, trip, partial } of todo) {
    const { lastLatch } = unroll(fn, shape, trip, partial);
    // a partially unrolled loop is not unrolled again (LLVM's setLoopAlreadyUnrolled): a later
    // round would otherwise unroll the k-fold body completely, a size no single decision allowed
    if (partial) setUnrollDisable(lastLatch.terminator()!, fn.parent);
  }
  for (const { shape, plan } of peels) peelLoop(fn, shape, plan);
  for (let n = 0; n < runtime.length; n++) if (counts[n] !== null) unrollRuntime(fn, runtime[n].shape, runtime[n].k, counts[n]!);
  const rt = counts.filter((c) => c !== null).length;
  if (todo.length + rt + peels.length > 0) changed = true;
  const partial = todo.filter((t) => t.partial).length;
  return { unrolled: todo.length - partial, partial, runtime: rt, peeled: peels.length, changed };
}

export const loopUnrollPass = defineCountingPass({
  name: 'loop-unroll',
  description: 'unroll loops with a constant trip count: fully when small (nests too), else innermost ones partially by a divisor of it',
  params: {
    threshold: param.int('threshold', DEFAULT_LOOP_UNROLL_OPTIONS.threshold, 'largest unrolled size (trip count × loop instructions) unrolled fully'),
    maxTripCount: param.int('max-trip-count', DEFAULT_LOOP_UNROLL_OPTIONS.maxTripCount, 'largest trip count simulated'),
    partialThreshold: param.int('partial-threshold', DEFAULT_LOOP_UNROLL_OPTIONS.partialThreshold, 'largest unrolled body (copies × loop instructions) when unrolling partially'),
    maxPartialCount: param.int('max-partial-count', DEFAULT_LOOP_UNROLL_OPTIONS.maxPartialCount, 'most copies when unrolling partially (below 2: none)'),
    runtimeCount: param.int('runtime-count', DEFAULT_LOOP_UNROLL_OPTIONS.runtimeCount, 'most copies when unrolling a symbolic trip count around a remainder loop, a power of two (below 2: none)'),
    maxPeel: param.int('peel-count', DEFAULT_LOOP_UNROLL_OPTIONS.maxPeel, 'most iterations peeled to make tests on an IV constant (0: none)'),
    nestThreshold: param.int('nest-threshold', DEFAULT_LOOP_UNROLL_OPTIONS.nestThreshold, 'largest unrolled size (trip count × instructions of the nest) of a loop with inner loops unrolled fully (0: innermost loops only)'),
  },
  count: (fn, ctx, opts) => unrollLoops(fn, opts, ctx.analyses.get(LoopAnalysis), ctx.trace),
  stats: { unrolled: 'loops unrolled', partial: 'loops unrolled partially', runtime: 'loops unrolled at run time', peeled: 'loops peeled' },
  changed: (r) => r.changed,
});
