/**
 * Loop unrolling, after LLVM's LoopUnrollPass (lib/Transforms/Scalar/LoopUnrollPass.cpp,
 * computeUnrollCount / tryToUnrollLoop, and lib/Transforms/Utils/LoopUnroll.cpp, UnrollLoop)
 * and Cooper & Torczon, "Engineering a Compiler" §10.4 (loop unrolling; the trip count known
 * at compile time): full unrolling of loops with a small constant trip count, and partial
 * unrolling of longer ones by a factor that divides their trip count.
 *
 * A loop is unrolled when
 *  - it is innermost, in LoopSimplify form (`simplifyLoops` runs first: a preheader, one
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
 * LoopSimplify and one LoopInfo; innermost loops are disjoint and unrolling one touches only
 * its own blocks, its exit's phis and uses after it, so the other candidates stay valid.
 * Iterative throughout (no recursion), cost O(copies × loop size) per loop.
 * Not done: runtime unrolling (a remainder loop for unknown trip counts), peeling, loops with
 * several exits or exiting blocks other than the latch, SCEV-derived trip counts, outer
 * loops in the same run (they become innermost once their inner loops are gone: a later run
 * sees them).
 */
import { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { voidType } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { evalICmp } from '../../analysis/constant-folding.js';
import { closedTripCount, readCountedIV, type CountedIV } from '../../analysis/trip-count.js';
import { CFG } from '../../analysis/cfg.js';
import { findLoops, type Loop, type LoopInfo } from '../../analysis/loops.js';
import { LoopAnalysis } from '../../pm/analyses.js';
import { simplifyLoops } from '../utils/loop-simplify.js';
import { definePass, param, reportStats } from '../../pm/define-pass.js';

export interface LoopUnrollOptions {
  /** Largest unrolled size (trip count × instructions of the loop) that is unrolled. */
  threshold: number;
  /** Largest trip count simulated. */
  maxTripCount: number;
  /** Partial unrolling: largest size of the unrolled body (copies × instructions of the loop). */
  partialThreshold: number;
  /** Partial unrolling: most copies (below 2: no partial unrolling). */
  maxPartialCount: number;
}

export const DEFAULT_LOOP_UNROLL_OPTIONS: LoopUnrollOptions = { threshold: 400, maxTripCount: 256, partialThreshold: 150, maxPartialCount: 8 };

/** A candidate loop, read from the IR. */
interface Shape {
  header: BasicBlock;
  preheader: BasicBlock;
  latch: BasicBlock;
  exit: BasicBlock;
  /** The loop's blocks in layout order. */
  blocks: BasicBlock[];
  /** Instructions in the loop. */
  size: number;
}

/** The shape of innermost loop `l`, or why it cannot be unrolled. */
function readShape(l: Loop, li: LoopInfo): Shape | string {
  if (l.subLoops.length > 0) return 'not innermost';
  const cfg = li.cfg;
  const header = cfg.blockOf(l.header)!;
  const phId = l.preheader();
  const latches = l.latches();
  if (phId < 0 || latches.length !== 1) return 'not in simplify form';
  const latch = cfg.blockOf(latches[0])!;
  const exiting = l.exitingBlocks();
  if (exiting.length !== 1 || exiting[0] !== latches[0]) return 'latch is not the only exiting block';
  const t = latch.terminator();
  if (t === null || !t.isConditionalBranch()) return 'latch does not branch conditionally';
  const s0 = t.successor(0);
  const s1 = t.successor(1);
  if (!((s0 === header) !== (s1 === header))) return 'latch does not branch to the header and out';
  const exit = s0 === header ? s1 : s0;
  if (exit.predecessors().some((p) => p !== latch)) return 'exit is not dedicated';
  const blocks: BasicBlock[] = [];
  let size = 0;
  for (const id of l.blocks()) {
    const b = cfg.blockOf(id)!;
    blocks.push(b);
    size += b.size;
    for (let u = b.firstUse; u !== null; u = u.next) if (u.user.kind !== ValueKind.Instruction) return 'block address taken';
    for (let i = b.first; i !== null; i = i.next) {
      if (i.op === Opcode.IndirectBr) return 'indirectbr';
      if (i.op === Opcode.Call && /\b(noduplicate|convergent)\b/.test((i.callAttrs?.fn ?? '') + ' ' + (i.calledFunction()?.attrs.suffix ?? ''))) return 'call that must not be duplicated';
    }
  }
  for (let p = header.first; p !== null && p.op === Opcode.Phi; p = p.next) if (p.numIncoming !== 2) return 'header phi with more than two entries';
  return { header, preheader: cfg.blockOf(phId)!, latch, exit, blocks, size };
}

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

/**
 * Unrolls the loop `s`, `trip` copies of the body in all: completely, or with `partial` (the
 * trip count a multiple of `trip`) into a loop whose body is the copies in a row, which
 * takes the back edge from the last copy only.
 */
function unroll(fn: Function, s: Shape, trip: number, partial = false): void {
  const { header, preheader, latch, exit, blocks } = s;
  const inLoop = new Set(blocks);
  const phis: Instruction[] = [];
  for (let p = header.first; p !== null && p.op === Opcode.Phi; p = p.next) phis.push(p);
  // values of the previous copy (copy 0: the original instructions themselves)
  let prev: Map<Value, Value> | null = null;
  const look = (m: Map<Value, Value> | null, v: Value): Value => (m === null ? v : (m.get(v) ?? v));
  const headers: BasicBlock[] = [header];
  const latches: BasicBlock[] = [latch];
  let after = blocks[blocks.length - 1];
  const copies = new Set<BasicBlock>();
  for (let k = 1; k < trip; k++) {
    const map = new Map<Value, Value>();
    for (const p of phis) map.set(p, look(prev, p.incomingValueFor(latch)!));
    const cloned: Instruction[] = [];
    for (const b of blocks) {
      const nb = new BasicBlock(b.name === '' ? '' : `${b.name}.${k}`);
      fn.insertBlockAfter(nb, after);
      copies.add(nb);
      after = nb;
      map.set(b, nb);
      for (let i = b === header ? b.firstNonPhi() : b.first; i !== null; i = i.next) {
        const c = i.clone();
        if (c.name !== '') c.name = `${c.name}.${k}`;
        nb.append(c);
        map.set(i, c);
        cloned.push(c);
      }
    }
    for (const c of cloned) {
      for (let j = 0; j < c.numOperands; j++) {
        const v = map.get(c.operand(j));
        if (v !== undefined) c.setOperand(j, v);
      }
      if (c.op === Opcode.Phi) {
        for (let j = c.numIncoming - 1; j >= 0; j--) {
          const from = map.get(c.incomingBlock(j));
          // an entry from outside the loop (only an unreachable block can branch into a
          // non-header block of it) names an edge that reaches the original, not the copy
          if (from === undefined) c.removeIncoming(j);
          else c.setIncomingBlock(j, from as BasicBlock);
        }
      }
    }
    headers.push(map.get(header) as BasicBlock);
    latches.push(map.get(latch) as BasicBlock);
    prev = map;
  }
  // each copy's latch falls through to the next copy's header (after the cloning: copy 0 is
  // cloned each time and must keep its test until then), the last one to the exit; unrolled
  // partially, the last one keeps its test and goes back to copy 0's header
  headers.push(exit);
  const conds: Instruction[] = [];
  const falls = partial ? trip - 1 : trip;
  for (let k = 0; k < falls; k++) conds.push(replaceTerminator(latches[k], headers[k + 1]));
  const lastLatch = latches[trip - 1];
  if (partial) {
    const t = lastLatch.terminator()!;
    for (let j = 0; j < t.numSuccessors(); j++) if (t.successor(j) === headers[trip - 1]) t.setSuccessor(j, header);
  }
  // uses after the loop take the last copy's values (collected first: a last value may be an
  // original instruction whose own uses are being replaced); the exit's phis come from the last latch
  const replace: { user: Instruction; index: number; value: Value }[] = [];
  for (const b of blocks) {
    for (let i = b.first; i !== null; i = i.next) {
      const last = look(prev, i);
      if (last === i) continue;
      for (let u = i.firstUse; u !== null; u = u.next) {
        const user = u.user as Instruction;
        const at = user.parent;
        if (at !== null && !inLoop.has(at) && !copies.has(at)) replace.push({ user, index: u.index, value: last });
      }
    }
  }
  for (const r of replace) r.user.setOperand(r.index, r.value);
  if (lastLatch !== latch) exit.replacePhiIncomingBlock(latch, lastLatch);
  if (partial) {
    // copy 0's header phis: the back edge now comes from the last copy, with its values
    for (const p of phis) {
      const j = p.blockIndex(latch);
      p.setIncomingValue(j, look(prev, p.incomingValue(j)));
      p.setIncomingBlock(j, lastLatch);
    }
  } else {
    // copy 0 runs first: its header phis are the preheader's values
    for (const p of phis) {
      p.replaceAllUsesWith(p.incomingValueFor(preheader)!);
      p.eraseFromParent();
    }
  }
  for (const c of conds) if (!c.hasUses() && c.op === Opcode.ICmp) c.eraseFromParent();
}

/** Replaces `bb`'s conditional branch by `br to`; returns the old condition. */
function replaceTerminator(bb: BasicBlock, to: BasicBlock): Instruction {
  const t = bb.terminator()!;
  const cond = t.operand(0) as Instruction;
  bb.append(new Instruction(Opcode.Br, voidType, [to]));
  t.eraseFromParent();
  return cond;
}

export interface LoopUnrollStats {
  unrolled: number;
  /** Loops unrolled partially. */
  partial: number;
  changed: boolean;
}

/**
 * How many copies a loop too long to unroll completely is unrolled into: the most, up to
 * `maxPartialCount` and `partialThreshold / size`, that divides its exact trip count (so no
 * copy but the last needs the exit test; LLVM's partial unrolling with a known trip count,
 * computeUnrollCount). Null when fewer than two.
 */
function partialCount(iv: CountedIV, size: number, o: LoopUnrollOptions): number | null {
  const trip = closedTripCount(iv);
  if (trip === null) return null;
  for (let k = Math.min(o.maxPartialCount, Math.floor(o.partialThreshold / Math.max(1, size))); k >= 2; k--) {
    if (trip % BigInt(k) === 0n) return k;
  }
  return null;
}

/** Fully unrolls the innermost loops of `fn` with small constant trip counts (LoopSimplify first). */
export function unrollLoops(fn: Function, opts: Partial<LoopUnrollOptions> = {}, cached?: LoopInfo, trace: ((line: string) => void) | null = null): LoopUnrollStats {
  const o: LoopUnrollOptions = { ...DEFAULT_LOOP_UNROLL_OPTIONS, ...opts };
  const s = simplifyLoops(fn, cached);
  let changed = s.preheaders + s.backedges + s.exits > 0;
  const li = !changed && cached !== undefined ? cached : findLoops(new CFG(fn));
  // read every candidate first: unrolling one innermost loop leaves the others' blocks alone
  const todo: { shape: Shape; trip: number; partial: boolean }[] = [];
  for (const l of li.loops) {
    if (l.subLoops.length > 0) continue;
    const name = li.cfg.blockOf(l.header)!.name;
    const shape = readShape(l, li);
    if (typeof shape === 'string') {
      trace?.(`loop-unroll: %${name}: ${shape}`);
      continue;
    }
    const iv = readCountedIV(shape.header, shape.preheader, shape.latch);
    if (iv === null) {
      trace?.(`loop-unroll: %${name}: no counted IV against a constant`);
      continue;
    }
    const limit = Math.min(o.maxTripCount, Math.floor(o.threshold / Math.max(1, shape.size)));
    const trip = constantTripCount(iv, limit);
    if (trip !== null) {
      trace?.(`loop-unroll: %${name}: trip count ${trip}, ${shape.size} instructions: unrolled`);
      todo.push({ shape, trip, partial: false });
      continue;
    }
    const count = partialCount(iv, shape.size, o);
    if (count === null) {
      trace?.(`loop-unroll: %${name}: no constant trip count ≤ ${limit}, none that ${shape.size} instructions can be unrolled by`);
      continue;
    }
    trace?.(`loop-unroll: %${name}: ${shape.size} instructions, trip count a multiple of ${count}: unrolled by ${count}`);
    todo.push({ shape, trip: count, partial: true });
  }
  for (const { shape, trip, partial } of todo) unroll(fn, shape, trip, partial);
  if (todo.length > 0) changed = true;
  const partial = todo.filter((t) => t.partial).length;
  return { unrolled: todo.length - partial, partial, changed };
}

export const loopUnrollPass = definePass({
  name: 'loop-unroll',
  description: 'unroll innermost loops with a constant trip count: fully when small, else partially by a divisor of it',
  params: {
    threshold: param.int('threshold', DEFAULT_LOOP_UNROLL_OPTIONS.threshold, 'largest unrolled size (trip count × loop instructions) unrolled fully'),
    maxTripCount: param.int('max-trip-count', DEFAULT_LOOP_UNROLL_OPTIONS.maxTripCount, 'largest trip count simulated'),
    partialThreshold: param.int('partial-threshold', DEFAULT_LOOP_UNROLL_OPTIONS.partialThreshold, 'largest unrolled body (copies × loop instructions) when unrolling partially'),
    maxPartialCount: param.int('max-partial-count', DEFAULT_LOOP_UNROLL_OPTIONS.maxPartialCount, 'most copies when unrolling partially (below 2: none)'),
  },
  run(fn, ctx, opts) {
    const r = unrollLoops(fn, opts, ctx.analyses.get(LoopAnalysis), ctx.trace);
    reportStats(ctx, { 'loops unrolled': r.unrolled, 'loops unrolled partially': r.partial });
    return { changed: r.changed };
  },
});
