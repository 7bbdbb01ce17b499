/**
 * Test helper: the block duplication of jump threading, repaired with repairSSA.
 */
import { computeDominators } from '../../src/analysis/dominators.js';
import { BasicBlock } from '../../src/ir/basic-block.js';
import type { Function } from '../../src/ir/function.js';
import type { Instruction } from '../../src/ir/instruction.js';
import { Opcode } from '../../src/ir/opcodes.js';
import type { Value } from '../../src/ir/value.js';
import { repairSSA } from '../../src/transforms/utils/ssa-repair.js';

/**
 * Jump threading's duplication: B gets a copy B2 that only `p` branches to; every value of B
 * is then repaired with its copy as a new definition. Returns B2.
 */
export function duplicateForPredecessor(fn: Function, b: BasicBlock, p: BasicBlock): BasicBlock {
  const b2 = new BasicBlock(b.name === '' ? '' : `${b.name}.dup`);
  fn.insertBlockAfter(b2, b);
  const map = new Map<Value, Value>();
  const phis = b.phis();
  for (const phi of phis) map.set(phi, phi.incomingValueFor(p)!);
  const originals: Instruction[] = [];
  for (let i = b.firstNonPhi(); i !== null; i = i.next) {
    const c = i.clone();
    for (let k = 0; k < c.numOperands; k++) {
      const r = map.get(c.operand(k));
      if (r !== undefined) c.setOperand(k, r);
    }
    b2.append(c);
    if (i.hasResult()) {
      map.set(i, c);
      originals.push(i);
    }
  }
  const t = p.terminator()!;
  for (let k = 0; k < t.numSuccessors(); k++) if (t.successor(k) === b) t.setSuccessor(k, b2);
  b.removePredecessorFromPhis(p);
  // successors of the copy: one phi entry per edge, naming the original values for now
  const t2 = b2.terminator()!;
  for (let k = 0; k < t2.numSuccessors(); k++) {
    const s = t2.successor(k);
    for (let phi = s.first; phi !== null && phi.op === Opcode.Phi; phi = phi.next) phi.addIncoming(phi.incomingValueFor(b)!, b2);
  }
  for (const phi of phis) repairSSA(fn, phi, [{ block: b2, value: map.get(phi)! }]);
  for (const i of originals) repairSSA(fn, i, [{ block: b2, value: map.get(i)! }]);
  return b2;
}

/**
 * Blocks that can be duplicated for a predecessor: not the entry, no allocas, the predecessor
 * not ending in indirectbr, and not a back edge (B dominates P): there B's phis would carry
 * B's own values from the previous iteration, which the copy cannot name — jump threading
 * does not thread across loop headers for that reason.
 */
export function candidates(fn: Function): [BasicBlock, BasicBlock][] {
  const dt = computeDominators(fn);
  const out: [BasicBlock, BasicBlock][] = [];
  for (const b of fn) {
    if (b === fn.entry || b.instructions().some((i) => i.op === Opcode.Alloca)) continue;
    const preds = b.predecessors();
    if (preds.length < 2) continue;
    for (const p of preds) if (p !== b && p.terminator()?.op !== Opcode.IndirectBr && !dt.dominates(b.id, p.id)) out.push([b, p]);
  }
  return out;
}
