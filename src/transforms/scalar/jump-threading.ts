/**
 * Jump threading, after LLVM's JumpThreading (lib/Transforms/Scalar/JumpThreading.cpp:
 * ProcessBlock, ComputeValueKnownInPredecessors, ThreadEdge) without LazyValueInfo.
 *
 * A block B ending in a conditional branch or switch is threaded along an incoming edge
 * P→B when the condition is known on that edge:
 *  - it is computed in B from B's phis and P's incoming values make it a constant
 *    (B's instructions are evaluated with src/analysis/instsimplify.ts), or
 *  - P ends in `br i1 %c` with B on exactly one side and B branches on the same %c.
 * The edge then goes to a copy of B (its non-phi instructions, phis replaced by P's incoming
 * values) ending in `br label %T`, T the successor the known value selects; predecessors
 * that select the same T are first gathered into one block (splitBlockPredecessors). The
 * values B defines are then defined twice (in B and in the copy): their uses beyond B are
 * rewritten by SSA repair (src/transforms/utils/ssa-repair.ts, Braun et al.'s reconstruction).
 *
 * Bounds: B holds at most `threshold` instructions besides phis and the terminator (default
 * 6, as LLVM's BBDuplicateThreshold), no alloca; loop headers are never threaded (that would
 * turn loops irreducible); at most 8 threads per block per function run.
 */
import { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { mayHaveSideEffects, mayReadMemory } from '../../ir/effects.js';
import { simplifyWithOperands } from '../../analysis/instsimplify.js';
import { voidType } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { CFG } from '../../analysis/cfg.js';
import { computeDominators } from '../../analysis/dominators.js';
import { repairSSA } from '../utils/ssa-repair.js';
import { defineCountingPass, param } from '../../pm/define-pass.js';
import { retargetEdges, splitBlockPredecessors } from '../utils/basic-block-utils.js';
import { removeUnreachableBlocks } from '../utils/local.js';
import { cloneRecords, remapRecords } from '../utils/debug-info.js';

// ---- constant evaluation of a block's condition along one edge ---------------------------------

/** The condition of B's terminator when entered from P, if it is a known constant. */
function conditionAlongEdge(b: BasicBlock, p: BasicBlock, cond: Value): ConstantInt | null {
  // the same condition decided P's branch to B
  const pt = p.terminator();
  if (pt !== null && pt.isConditionalBranch() && pt.operand(0) === cond && pt.successor(0) !== pt.successor(1)) {
    if (pt.successor(0) === b) return ConstantInt.true();
    if (pt.successor(1) === b) return ConstantInt.false();
  }
  if (cond.kind === ValueKind.ConstantInt) return null;
  if (cond.kind !== ValueKind.Instruction || (cond as Instruction).parent !== b) return null;
  // evaluate B's instructions with its phis replaced by P's incoming values
  const known = new Map<Value, Value>();
  for (let i = b.first; i !== null; i = i.next) {
    if (i.op === Opcode.Phi) {
      const v = i.incomingValueFor(p);
      if (v !== undefined && v.kind >= ValueKind.ConstantInt) known.set(i, v);
      continue;
    }
    if (i === b.last) break;
    if (!mayHaveSideEffects(i) && !mayReadMemory(i)) {
      let any = false;
      const ops = i.operands().map((v) => {
        const k = known.get(v);
        if (k !== undefined) any = true;
        return k ?? v;
      });
      if (any) {
        const r = simplifyWithOperands(i, ops);
        if (r !== null && r !== i && r.kind >= ValueKind.ConstantInt) known.set(i, r);
      }
    }
    if (i === cond) break;
  }
  const r = known.get(cond);
  return r !== undefined && r.kind === ValueKind.ConstantInt ? (r as ConstantInt) : null;
}

function targetFor(t: Instruction, c: ConstantInt): BasicBlock {
  if (t.op === Opcode.Br) return c.isZero() ? t.successor(1) : t.successor(0);
  for (let k = 0; k < t.numCases; k++) if (t.caseValue(k) === c) return t.caseDest(k);
  return t.successor(0);
}

// ---- the pass -------------------------------------------------------------------------------

export interface JumpThreadingOptions {
  /** Most instructions (besides phis and the terminator) of a block copied to thread an edge. */
  threshold: number;
}

export const DEFAULT_JUMP_THREADING_OPTIONS: JumpThreadingOptions = { threshold: 6 };

class JumpThreading {
  threads = 0;
  private perBlock = new Map<BasicBlock, number>();

  constructor(
    readonly fn: Function,
    readonly opts: JumpThreadingOptions,
  ) {}

  run(): boolean {
    let changed = false;
    for (let round = 0; round < 50; round++) {
      if (removeUnreachableBlocks(this.fn) > 0) changed = true;
      const cfg = new CFG(this.fn);
      const dt = computeDominators(cfg);
      const headers = new Set<BasicBlock>();
      for (const id of cfg.order) {
        for (const p of cfg.predecessors(id)) if (dt.dominates(id, p)) headers.add(cfg.blockOf(id)!);
      }
      let local = false;
      for (const b of this.fn.blocks()) {
        if (b.parent === null || headers.has(b) || b === this.fn.firstBlock) continue;
        if ((this.perBlock.get(b) ?? 0) >= 8) continue;
        if (this.tryThread(b)) {
          this.perBlock.set(b, (this.perBlock.get(b) ?? 0) + 1);
          local = true;
        }
      }
      if (!local) break;
      changed = true;
    }
    if (changed) removeUnreachableBlocks(this.fn);
    return changed;
  }

  private duplicable(b: BasicBlock): boolean {
    let n = 0;
    for (let i = b.firstNonPhi(); i !== null && i !== b.last; i = i.next) {
      if (i.op === Opcode.Alloca) return false;
      if (++n > this.opts.threshold) return false;
    }
    return true;
  }

  private tryThread(b: BasicBlock): boolean {
    const t = b.terminator();
    if (t === null) return false;
    let cond: Value;
    if (t.isConditionalBranch()) cond = t.operand(0);
    else if (t.op === Opcode.Switch) cond = t.operand(0);
    else return false;
    if (!this.duplicable(b)) return false;
    const preds = b.predecessors();
    if (preds.length < 2 && !(preds.length === 1 && preds[0].terminator()?.isConditionalBranch())) return false;
    const groups = new Map<BasicBlock, BasicBlock[]>();
    for (const p of preds) {
      if (p === b) continue;
      const pt = p.terminator();
      if (pt === null || (pt.op !== Opcode.Br && pt.op !== Opcode.Switch)) continue;
      const c = conditionAlongEdge(b, p, cond);
      if (c === null) continue;
      const dest = targetFor(t, c);
      if (dest === b) continue;
      let g = groups.get(dest);
      if (g === undefined) groups.set(dest, (g = []));
      g.push(p);
    }
    for (const [dest, group] of groups) {
      // threading every predecessor to one place is just folding the branch: simplifycfg's job
      if (group.length === preds.length && preds.length > 1) continue;
      let p = group[0];
      if (group.length > 1) p = splitBlockPredecessors(b, group, b.name === '' ? '' : b.name + '.thread.preds');
      this.threadEdge(p, b, dest);
      this.threads++;
      return true;
    }
    return false;
  }

  /** Sends the edge(s) p→b to a copy of b that ends in `br label %dest`. */
  private threadEdge(p: BasicBlock, b: BasicBlock, dest: BasicBlock): void {
    const nb = new BasicBlock(b.name === '' ? '' : b.name + '.thread');
    this.fn.insertBlockAfter(nb, b);
    const map = new Map<Value, Value>();
    for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) {
      const v = i.incomingValueFor(p)!;
      map.set(i, v);
    }
    const term = b.last!;
    for (let i = b.firstNonPhi(); i !== null && i !== term; i = i.next) {
      const c = i.clone();
      cloneRecords(i, c);
      for (let k = 0; k < c.numOperands; k++) {
        const m = map.get(c.operand(k));
        if (m !== undefined) c.setOperand(k, m);
      }
      nb.append(c);
      map.set(i, c);
      if (c.dbgRecords !== null) remapRecords([c], map);
    }
    const nbr = new Instruction(Opcode.Br, voidType, [dest]);
    cloneRecords(term, nbr);
    remapRecords([nbr], map);
    nb.append(nbr);
    // dest gets an entry for the copy: what came from b, as seen from the copy
    for (let phi = dest.first; phi !== null && phi.op === Opcode.Phi; phi = phi.next) {
      const v = phi.incomingValueFor(b)!;
      phi.addIncoming(map.get(v) ?? v, nb);
    }
    retargetEdges(p, b, nb);
    b.removePredecessorFromPhis(p, true);
    // values of b used beyond it now have two definitions (src/transforms/utils/ssa-repair.ts)
    const twice: Instruction[] = [];
    for (let i = b.first; i !== null && i !== term; i = i.next) {
      for (let u = i.firstUse; u !== null; u = u.next) {
        const user = u.user as Instruction;
        if (user.parent !== b || user.op === Opcode.Phi) {
          twice.push(i);
          break;
        }
      }
    }
    for (const i of twice) repairSSA(this.fn, i, [{ block: nb, value: map.get(i)! }]);
  }
}

/** Threads jumps in `fn`; returns how many edges were threaded. */
export function threadJumps(fn: Function, opts: Partial<JumpThreadingOptions> = {}): number {
  const jt = new JumpThreading(fn, { ...DEFAULT_JUMP_THREADING_OPTIONS, ...opts });
  jt.run();
  return jt.threads;
}

export const jumpThreadingPass = defineCountingPass({
  name: 'jump-threading',
  description: 'thread edges whose branch outcome is known through a copy of the branch block',
  params: {
    threshold: param.int('threshold', DEFAULT_JUMP_THREADING_OPTIONS.threshold, 'most instructions of a block copied to thread an edge'),
  },
  count: (fn, ctx, opts) => ({ threaded: threadJumps(fn, opts) }),
  stats: { threaded: 'edges threaded' },
});
