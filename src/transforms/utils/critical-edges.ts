/**
 * Critical-edge splitting. An edge P→S is critical when P has several successors and S
 * several predecessors: code that must run exactly when control goes from P to S (the
 * copies of S's phis) can go neither at the end of P nor at the start of S. A new block
 * N with `br S` on the edge fixes that. All of P's branch slots that name S (a `switch` with
 * several cases to S) move to one N, as LLVM's SplitCriticalEdge with MergeIdenticalEdges;
 * S's phis then keep one entry for N in place of P's (they were equal).
 *
 * Invariant: splitting one edge changes neither the number of successors of P nor the
 * number of predecessors of S, so all critical edges can be found first and split after.
 * Edges out of `indirectbr` cannot be split (the target is an address) and are left alone.
 */
import { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { voidType } from '../../ir/types.js';
import { computeCFG } from '../../analysis/cfg.js';

export interface SplitOptions {
  /** Split only edges into blocks that start with phis (what out-of-SSA needs). */
  onlyIntoPhiBlocks?: boolean;
}

/** Splits `p → s` with a new block placed after `p`; returns it. */
export function splitEdge(p: BasicBlock, s: BasicBlock): BasicBlock {
  const fn = p.parent!;
  const t = p.terminator();
  if (t === null) throw new Error('splitEdge: the source block has no terminator');
  const nb = new BasicBlock('');
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
