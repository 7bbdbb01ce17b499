/**
 * Editing the CFG: edges, block merging and edge splitting, shared by the control-flow and
 * loop transforms (LLVM's Transforms/Utils/BasicBlockUtils.cpp: SplitEdge,
 * SplitBlockPredecessors, SplitCriticalEdge, MergeBlockIntoPredecessor).
 *
 * An edge P→S is critical when P has several successors and S several predecessors: code
 * that must run exactly when control goes from P to S (the copies of S's phis) can go
 * neither at the end of P nor at the start of S. A new block N with `br S` on the edge fixes
 * that. All of P's branch slots that name S (a `switch` with several cases to S) move to one
 * N, as LLVM's SplitCriticalEdge with MergeIdenticalEdges; S's phis then keep one entry for N
 * in place of P's (they were equal).
 *
 * Invariants: phis stay one-entry-per-edge (a predecessor branching twice to a block has two
 * equal entries); splitting one edge changes neither the number of successors of P nor the
 * number of predecessors of S, so all critical edges can be found first and split after.
 * Edges out of `indirectbr` cannot be split (the target is an address) and are left alone.
 */
import { BasicBlock } from '../../ir/basic-block.js';
import { UndefValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { voidType } from '../../ir/types.js';
import { metadataHooks, Value, ValueKind } from '../../ir/value.js';
import { computeCFG } from '../../analysis/cfg.js';
import { deleteIfDead } from './local.js';
import { removeRedundantDbgRecords } from './redundant-dbg-records.js';
import { assert } from '../../util/assert.js';

/** How many successor slots of `from`'s terminator name `to`. */
export function edgeCount(from: BasicBlock, to: BasicBlock): number {
  const t = from.terminator();
  if (t === null) return 0;
  let c = 0;
  const n = t.numSuccessors();
  for (let s = 0; s < n; s++) if (t.successor(s) === to) c++;
  return c;
}

/** Points every successor slot of `from`'s terminator that names `oldTo` at `newTo`. */
export function retargetEdges(from: BasicBlock, oldTo: BasicBlock, newTo: BasicBlock): number {
  const t = from.terminator();
  if (t === null) return 0;
  let c = 0;
  const n = t.numSuccessors();
  for (let s = 0; s < n; s++) {
    if (t.successor(s) === oldTo) {
      t.setSuccessor(s, newTo);
      c++;
    }
  }
  return c;
}

/** Replaces `bb`'s terminator by `br label %dest` (phi entries are the caller's business). */
export function replaceWithBranch(bb: BasicBlock, dest: BasicBlock): Instruction {
  const old = bb.terminator()!;
  const br = new Instruction(Opcode.Br, voidType, [dest]);
  bb.insertBefore(br, old);
  const cond = old.numOperands > 0 && old.op !== Opcode.Ret ? old.operand(0) : null;
  old.eraseFromParent();
  if (cond !== null && cond.kind === ValueKind.Instruction) deleteIfDead(cond as Instruction);
  return br;
}

/** Number of incoming edges of `bb` (with multiplicity), stopping early past `limit`. */
export function countIncomingEdges(bb: BasicBlock, limit = Infinity): number {
  let c = 0;
  for (let u = bb.firstUse; u !== null; u = u.next) {
    const user = u.user as Instruction;
    if (user.kind === ValueKind.Instruction && user.parent !== null && user.isTerminator()) {
      if (++c > limit) return c;
    }
  }
  return c;
}

/**
 * Merges `succ` into `bb` when `bb` ends in `br label %succ` and that is succ's only
 * incoming edge. Returns false (and changes nothing) when that is not the case.
 */
export function mergeSuccessorIntoBlock(bb: BasicBlock, succ: BasicBlock): boolean {
  const t = bb.terminator();
  if (t === null || t.op !== Opcode.Br || t.numOperands !== 1 || t.operand(0) !== succ) return false;
  if (succ === bb || succ.parent !== bb.parent || succ === bb.parent!.firstBlock) return false;
  // LLVM's MergeBlockIntoPredecessor: a block whose address is taken keeps its identity
  if (succ.hasAddressTaken()) return false;
  if (countIncomingEdges(succ, 1) !== 1) return false;
  for (let p = succ.first; p !== null && p.op === Opcode.Phi; ) {
    const next = p.next;
    const v = p.numIncoming > 0 ? p.incomingValue(0) : p;
    // A value of succ itself can only flow in when succ is unreachable: use undef there.
    p.replaceAllUsesWith(v === p || (v.kind === ValueKind.Instruction && (v as Instruction).parent === succ) ? UndefValue.get(p.type) : v);
    p.eraseFromParent();
    p = next;
  }
  // The records before bb's branch stay where they are: before succ's first instruction
  // (LLVM's trailing records, re-attached when the block grows again).
  const trailing = t.dbgRecords;
  t.dbgRecords = null;
  t.eraseFromParent();
  const firstMoved = succ.first;
  bb.spliceAllFrom(succ);
  if (trailing !== null && firstMoved !== null) {
    firstMoved.dbgRecords = firstMoved.dbgRecords === null ? trailing : trailing.concat(firstMoved.dbgRecords);
  }
  for (const s of bb.successors()) s.replacePhiIncomingBlock(succ, bb);
  succ.eraseFromParent();
  if (metadataHooks.active) removeRedundantDbgRecords(bb);
  return true;
}

/**
 * Moves the edges from `preds` into `bb` onto a new block placed before `bb` that branches
 * to `bb`; bb's phis get one entry for the new block (a new phi there when the moved entries
 * differ). Returns the new block.
 */
export function splitBlockPredecessors(bb: BasicBlock, preds: readonly BasicBlock[], name: string): BasicBlock {
  const fn = bb.parent!;
  const nb = new BasicBlock(name);
  fn.insertBlockBefore(nb, bb);
  const set = new Set(preds);
  for (let phi = bb.first; phi !== null && phi.op === Opcode.Phi; phi = phi.next) {
    let same: Value | null = null;
    let differ = false;
    let moved = 0;
    for (let k = 0; k < phi.numIncoming; k++) {
      if (!set.has(phi.incomingBlock(k))) continue;
      const v = phi.incomingValue(k);
      if (moved > 0 && v !== same) differ = true;
      same = v;
      moved++;
    }
    if (moved === 0) continue;
    let nv: Value = same!;
    if (differ) {
      const np = new Instruction(Opcode.Phi, phi.type, []);
      np.blocks = [];
      np.name = phi.name;
      for (let k = 0; k < phi.numIncoming; k++) if (set.has(phi.incomingBlock(k))) np.addIncoming(phi.incomingValue(k), phi.incomingBlock(k));
      nb.append(np);
      nv = np;
    }
    for (let k = phi.numIncoming - 1; k >= 0; k--) if (set.has(phi.incomingBlock(k))) phi.removeIncoming(k);
    phi.addIncoming(nv, nb);
  }
  nb.append(new Instruction(Opcode.Br, voidType, [bb]));
  for (const p of set) retargetEdges(p, bb, nb);
  return nb;
}

export interface SplitEdgeOptions {
  /** The new block's name (default: none). */
  name?: string;
  /**
   * Where the new block goes, and where the destination's phi entry for it ends up:
   * 'after-source' (the default, LLVM's SplitCriticalEdge) places it right after the source
   * and renames the source's entry in place; 'before-dest' (SplitBlockPredecessors, what the
   * loop transforms use) places it right before the destination and moves the entry last.
   */
  at?: 'after-source' | 'before-dest';
}

/**
 * Splits the edge `p → s` with a new block branching to `s`; when `p` branches to `s`
 * several times, all those edges go through the new block. Returns the new block.
 */
export function splitEdge(p: BasicBlock, s: BasicBlock, opts: SplitEdgeOptions = {}): BasicBlock {
  if (opts.at === 'before-dest') return splitBlockPredecessors(s, [p], opts.name ?? '');
  const fn = p.parent!;
  const t = p.terminator();
  assert(t !== null, 'splitEdge: the source block has no terminator');
  const nb = new BasicBlock(opts.name ?? '');
  fn.insertBlockAfter(nb, p);
  nb.append(new Instruction(Opcode.Br, voidType, [s]));
  const ns = t.numSuccessors();
  for (let k = 0; k < ns; k++) if (t.successor(k) === s) t.setSuccessor(k, nb);
  for (let i = s.first; i !== null && i.op === Opcode.Phi; i = i.next) {
    let kept = false;
    for (let k = i.blocks!.length - 1; k >= 0; k--) {
      if (i.blocks![k] !== p) continue;
      // one entry (the last) now names the new block, the others (equal values) go
      if (!kept) {
        i.blocks![k] = nb;
        kept = true;
      } else i.removeIncoming(k);
    }
  }
  return nb;
}

export interface SplitOptions {
  /** Split only edges into blocks that start with phis (what out-of-SSA needs). */
  onlyIntoPhiBlocks?: boolean;
}

/** Splits every critical edge of `fn` (or those into phi blocks); returns how many. */
export function splitCriticalEdges(fn: Function, opts: SplitOptions = {}): number {
  if (fn.isDeclaration()) return 0;
  const cfg = computeCFG(fn);
  const edges = cfg.criticalEdges();
  let n = 0;
  for (let k = 0; k < edges.length; k += 2) {
    const p = cfg.blocks[edges[k]]!;
    const s = cfg.blocks[edges[k + 1]]!;
    const t = p.terminator();
    if (t === null || t.op === Opcode.IndirectBr) continue;
    if (opts.onlyIntoPhiBlocks && (s.first === null || s.first.op !== Opcode.Phi)) continue;
    splitEdge(p, s);
    n++;
  }
  return n;
}
