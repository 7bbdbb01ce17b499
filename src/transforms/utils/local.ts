/**
 * Local clean-ups shared by the transforms (LLVM's Transforms/Utils/Local.cpp):
 * deleting trivially dead instructions recursively, deleting unreachable blocks, folding
 * trivial phis.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { UndefValue } from '../../ir/constants.js';
import { isTriviallyDead } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { Value, ValueKind } from '../../ir/value.js';

/** Deletes `inst` if it is trivially dead, then its operands that became so (a worklist). */
export function deleteIfDead(inst: Instruction): number {
  return deleteDeadInstructions([inst]);
}

/**
 * Deletes the trivially dead instructions of `work`, then the operands that became so, until
 * none is left (LLVM's RecursivelyDeleteTriviallyDeadInstructions); returns how many went.
 * `work` is used as the worklist.
 */
export function deleteDeadInstructions(work: Instruction[]): number {
  let n = 0;
  while (work.length > 0) {
    const i = work.pop()!;
    if (i.parent === null || !isTriviallyDead(i)) continue;
    const ops = i.operands();
    i.eraseFromParent();
    n++;
    for (const o of ops) if (o.kind === ValueKind.Instruction && o.firstUse === null) work.push(o as Instruction);
  }
  return n;
}

/**
 * Deletes the blocks the entry cannot reach (an iterative DFS), removing their entries
 * from the phis of reachable blocks first. Returns how many were deleted.
 */
export function removeUnreachableBlocks(fn: Function): number {
  if (fn.firstBlock === null) return 0;
  // reached blocks by id (ids are unique and below blockIdBound in a function)
  const seen = new Uint8Array(fn.blockIdBound);
  const reached = (b: BasicBlock): boolean => b.parent === fn && seen[b.id] === 1;
  const stack: BasicBlock[] = [fn.firstBlock];
  seen[fn.firstBlock.id] = 1;
  let count = 1;
  while (stack.length > 0) {
    const b = stack.pop()!;
    const t = b.terminator();
    if (t === null) continue;
    const n = t.numSuccessors();
    for (let s = 0; s < n; s++) {
      const d = t.successor(s);
      if (d.parent === fn && seen[d.id] === 0) {
        seen[d.id] = 1;
        count++;
        stack.push(d);
      }
    }
  }
  if (count === fn.numBlocks) return 0;
  const dead: BasicBlock[] = [];
  for (let b: BasicBlock | null = fn.firstBlock; b !== null; b = b.next) if (!reached(b)) dead.push(b);
  for (const b of dead) {
    const t = b.terminator();
    if (t === null) continue;
    for (const s of t.successors()) if (reached(s)) s.removePredecessorFromPhis(b, true);
  }
  for (const b of dead) for (let i = b.first; i !== null; i = i.next) i.dropAllReferences();
  for (const b of dead) b.eraseFromParent();
  return dead.length;
}

/**
 * Replaces phis that have a single entry, or whose entries are all one value (or the phi
 * itself), by that value. Only valid in blocks reachable from the entry.
 */
export function foldTrivialPhis(bb: BasicBlock): number {
  let n = 0;
  for (let i = bb.first; i !== null && i.op === Opcode.Phi; ) {
    const next = i.next;
    let same: Value | null = null;
    let trivial = true;
    for (let k = 0; k < i.numIncoming; k++) {
      const v = i.incomingValue(k);
      if (v === i || v === same) continue;
      if (same !== null) {
        trivial = false;
        break;
      }
      same = v;
    }
    if (trivial) {
      // A non-phi of bb itself can only flow in when bb is unreachable: use undef there.
      const own = same !== null && same.kind === ValueKind.Instruction && (same as Instruction).parent === bb && (same as Instruction).op !== Opcode.Phi;
      i.replaceAllUsesWith(same === null || own ? UndefValue.get(i.type) : same);
      i.eraseFromParent();
      n++;
    }
    i = next;
  }
  return n;
}
