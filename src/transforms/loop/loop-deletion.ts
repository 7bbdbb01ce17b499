/**
 * loop-deletion: loops whose whole run is known at compile time are run by the compiler;
 * their values used after the loop become constants, and the loop, now without effect, is
 * deleted. After LLVM's ScalarEvolution brute-force evaluation
 * (getConstantEvolutionLoopExitValue, computeExitCountExhaustively: the loop's phis evolved
 * through constant folding, up to MaxBruteForceIterations) as IndVarSimplify uses it for exit
 * values, and LLVM's LoopDeletion (a loop with no side effects whose results are unused).
 *
 * A loop (in LoopSimplify form: a preheader) qualifies when every instruction in it is pure
 * (arithmetic, casts, compares, select, phis, branches and switches; no memory access, no
 * call), every value it reads from outside is a constant, and its header phis start from
 * constants. Such a loop computes the same thing every time it runs, so it is run here by a
 * small interpreter over its blocks (constant folding with LLVM's semantics,
 * src/analysis/instsimplify.ts), following the branches its constants decide, for at most
 * `max-iterations` (default 256) trips and `budget` (default 20000) instructions. A run that
 * meets poison or undef, or an operation the folder declines, gives up.
 *
 * When the run leaves the loop (which also proves that the loop terminates), every use after
 * the loop of a loop value takes the value it had when the loop left: those reached from the
 * exit the run took are exactly right, and the others never run. The loop then has no effect
 * at all: the preheader branches straight to that exit, whose phis take their entries for
 * the loop from the preheader; other exits lose the loop's entries; the loop's blocks go.
 *
 * Invariants: nothing is changed unless the run left the loop within the budget; the
 * interpreter is iterative (a loop over blocks and instructions, no recursion); loops are
 * taken innermost first, and a deleted loop's blocks are never visited again.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { UndefValue, type Constant, type ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { isBinaryOp, isCastOp, Opcode } from '../../ir/opcodes.js';
import { Value, ValueKind } from '../../ir/value.js';
import { CFG } from '../../analysis/cfg.js';
import { constantFoldInstruction } from '../../analysis/instsimplify.js';
import { findLoops, type LoopInfo } from '../../analysis/loops.js';
import { LoopAnalysis, ScalarEvolutionAnalysis } from '../../pm/analyses.js';
import { deleteDeadLoopsSCEV } from './loop-deletion-scev.js';
import { freshScalarEvolution } from '../../analysis/scalar-evolution.js';
import { simplifyLoops } from '../utils/loop-simplify.js';
import { definePass, param, reportStats } from '../../pm/define-pass.js';

export interface LoopDeletionOptions {
  /** Most trips run. */
  maxIterations: number;
  /** Most instructions evaluated per loop. */
  budget: number;
}

export const DEFAULT_LOOP_DELETION_OPTIONS: LoopDeletionOptions = { maxIterations: 256, budget: 20_000 };

export interface LoopDeletionStats {
  deleted: number;
  exitValues: number;
  changed: boolean;
}

/** A value the interpreter can hold. */
function isKnown(v: Value): boolean {
  return v.kind === ValueKind.ConstantInt || v.kind === ValueKind.ConstantFP;
}

function isPure(i: Instruction): boolean {
  const op = i.op;
  if (isBinaryOp(op) || isCastOp(op)) return op !== Opcode.PtrToInt && op !== Opcode.IntToPtr;
  switch (op) {
    case Opcode.ICmp:
    case Opcode.FCmp:
    case Opcode.Select:
    case Opcode.FNeg:
    case Opcode.Phi:
    case Opcode.Br:
    case Opcode.Switch:
      return true;
    default:
      return false;
  }
}

/** How a run of the loop left it: the edge, and the value of each loop instruction then. */
interface Run {
  from: BasicBlock;
  to: BasicBlock;
  values: Map<Instruction, Constant>;
  steps: number;
}

/**
 * Runs loop `l` from its preheader's values; null when it is not a closed computation or
 * does not leave within the limits.
 */
function runLoop(blocks: ReadonlySet<BasicBlock>, header: BasicBlock, preheader: BasicBlock, o: LoopDeletionOptions): Run | null {
  for (const b of blocks) {
    for (let i = b.first; i !== null; i = i.next) {
      if (!isPure(i)) return null;
      for (let k = 0; k < i.ops.length; k++) {
        const v = i.ops[k].value;
        if (v.kind === ValueKind.BasicBlock) continue;
        if (v.kind === ValueKind.Instruction ? !blocks.has((v as Instruction).parent!) : !isKnown(v)) {
          // every value from outside the loop must be a constant (the header phis' entries
          // from the preheader included)
          return null;
        }
      }
    }
  }
  let values = new Map<Instruction, Constant>();
  for (let p = header.first; p !== null && p.op === Opcode.Phi; p = p.next) {
    const v = p.incomingValueFor(preheader);
    if (v === undefined || !isKnown(v)) return null;
    values.set(p, v as Constant);
  }
  const operand = (v: Value): Constant | null => (v.kind === ValueKind.Instruction ? (values.get(v as Instruction) ?? null) : (v as Constant));
  let steps = 0;
  let trips = 0;
  let cur = header;
  let prev: BasicBlock | null = null;
  const ops: Constant[] = [];
  for (;;) {
    for (let i = cur.first; i !== null; i = i.next) {
      if (++steps > o.budget) return null;
      if (i.op === Opcode.Phi) {
        if (prev === null) continue; // the header on entry: set above
        const v = i.incomingValueFor(prev);
        const c = v === undefined ? null : operand(v);
        if (c === null) return null;
        values.set(i, c);
        continue;
      }
      if (i.op === Opcode.Br || i.op === Opcode.Switch) {
        let next: BasicBlock;
        if (i.op === Opcode.Br && i.numOperands === 1) next = i.successor(0);
        else {
          const c = operand(i.operand(0));
          if (c === null || c.kind !== ValueKind.ConstantInt) return null;
          const x = (c as ConstantInt).value;
          if (i.op === Opcode.Br) next = x !== 0n ? i.successor(0) : i.successor(1);
          else {
            next = i.successor(0);
            for (let k = 0; k < i.numCases; k++) if ((i.caseValue(k) as ConstantInt).value === x) next = i.caseDest(k);
          }
        }
        if (!blocks.has(next)) return { from: cur, to: next, values, steps };
        if (next === header) {
          // the back edge: the header phis take the values of this trip, all at once
          if (++trips >= o.maxIterations) return null;
          const fresh = new Map<Instruction, Constant>();
          for (let p = header.first; p !== null && p.op === Opcode.Phi; p = p.next) {
            const v = p.incomingValueFor(cur);
            const c = v === undefined ? null : operand(v);
            if (c === null) return null;
            fresh.set(p, c);
          }
          values = fresh;
          prev = null;
        } else prev = cur;
        cur = next;
        break;
      }
      ops.length = 0;
      for (let k = 0; k < i.ops.length; k++) {
        const c = operand(i.ops[k].value);
        if (c === null) return null;
        ops.push(c);
      }
      const r = constantFoldInstruction(i, ops);
      if (r === null || !isKnown(r)) return null;
      values.set(i, r);
    }
  }
}

/** Replaces the loop's values used after it by their constants; deletes the loop. */
function evaluateAway(blocks: ReadonlySet<BasicBlock>, preheader: BasicBlock, header: BasicBlock, run: Run): number {
  let replaced = 0;
  for (const b of blocks) {
    for (let i = b.first; i !== null; i = i.next) {
      for (let u = i.firstUse; u !== null; ) {
        const next = u.next;
        const user = u.user as Instruction;
        if (!blocks.has(user.parent!)) {
          // a use the run's exit cannot reach (the value was not computed on the way out)
          // never runs: undef lets the loop go
          user.setOperand(u.index, run.values.get(i) ?? UndefValue.get(i.type));
          replaced++;
        }
        u = next;
      }
    }
  }
  // the preheader goes straight to the exit the run took
  const br = preheader.terminator()!;
  for (let k = 0; k < br.numSuccessors(); k++) if (br.successor(k) === header) br.setSuccessor(k, run.to);
  for (const b of blocks) {
    for (const s of b.successors()) {
      if (blocks.has(s)) continue;
      if (s === run.to && b === run.from) s.replacePhiIncomingBlock(b, preheader);
      else s.removePredecessorFromPhis(b);
    }
  }
  for (const b of blocks) b.eraseFromParent();
  return replaced;
}

export function deleteLoops(fn: Function, opts: Partial<LoopDeletionOptions> = {}, cached?: LoopInfo, trace: ((line: string) => void) | null = null): LoopDeletionStats {
  const o: LoopDeletionOptions = { ...DEFAULT_LOOP_DELETION_OPTIONS, ...opts };
  const s = simplifyLoops(fn, cached);
  const stats: LoopDeletionStats = { deleted: 0, exitValues: 0, changed: s.nested + s.preheaders + s.backedges + s.exits > 0 };
  const li = !stats.changed && cached !== undefined ? cached : findLoops(new CFG(fn));
  const cfg = li.cfg;
  const gone = new Set<BasicBlock>();
  // innermost first: an outer loop's run then sees its inner loops gone or not
  const loops = [...li.loops].sort((a, b) => b.depth - a.depth);
  for (const l of loops) {
    const header = cfg.blockOf(l.header)!;
    if (gone.has(header)) continue;
    const ph = l.preheader();
    if (ph < 0) continue;
    const preheader = cfg.blockOf(ph)!;
    if (preheader.terminator()?.numSuccessors() !== 1) continue;
    const blocks = new Set<BasicBlock>();
    for (const id of l.blocks()) blocks.add(cfg.blockOf(id)!);
    let skip = false;
    for (const b of blocks) {
      if (gone.has(b) || b.parent !== fn) skip = true;
      // a block whose address is taken must stay
      for (let u = b.firstUse; u !== null; u = u.next) if (u.user.kind !== ValueKind.Instruction) skip = true;
      // an entry from outside but the preheader (an unreachable block can branch into a loop
      // body) would be left branching to a deleted block
      for (const p of b.predecessors()) if (!blocks.has(p) && !(b === header && p === preheader)) skip = true;
    }
    if (skip) continue;
    const run = runLoop(blocks, header, preheader, o);
    if (run === null) continue;
    // two edges from the exiting block to the exit would leave the exit's phis two entries
    // for the one edge from the preheader
    if (run.from.terminator()!.successors().filter((b) => b === run.to).length !== 1) continue;
    trace?.(`loop-deletion: %${header.name}: runs ${run.steps} instructions and leaves from %${run.from.name} to %${run.to.name}: deleted`);
    stats.exitValues += evaluateAway(blocks, preheader, header, run);
    for (const b of blocks) gone.add(b);
    stats.deleted++;
    stats.changed = true;
  }
  return stats;
}

export const loopDeletionPass = definePass({
  name: 'loop-deletion',
  description: 'run loops whose whole computation is constant at compile time; their results become constants and the loops go',
  params: {
    maxIterations: param.int('max-iterations', DEFAULT_LOOP_DELETION_OPTIONS.maxIterations, 'most trips run at compile time'),
    budget: param.int('budget', DEFAULT_LOOP_DELETION_OPTIONS.budget, 'most instructions evaluated per loop'),
  },
  run(fn, ctx, opts) {
    const loops = ctx.analyses.get(LoopAnalysis);
    const r = deleteLoops(fn, opts, loops, ctx.trace);
    // then dead loops scalar evolution proves finite (loop-deletion-scev.ts)
    const dead = loops.loops.length === 0 ? 0 : deleteDeadLoopsSCEV(fn, r.changed ? freshScalarEvolution(fn) : ctx.analyses.get(ScalarEvolutionAnalysis));
    if (dead) {
      ctx.stat('dead finite loops deleted', dead);
      r.changed = true;
    }
    reportStats(ctx, { 'loops deleted': r.deleted, 'uses after loops replaced by constants': r.exitValues });
    return { changed: r.changed };
  },
});
