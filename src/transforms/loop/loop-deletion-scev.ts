/**
 * Deletion of dead loops that scalar evolution proves finite (LLVM's LoopDeletion,
 * deleteLoopIfDead: no side effects, nothing used after the loop but values from outside it,
 * and a computable backedge-taken count, so removing it cannot remove an infinite loop). The
 * compile-time run of loop-deletion.ts handles loops whose inputs are all constants; this
 * handles the rest, e.g. a loop whose exit values indvars has rewritten in closed form.
 *
 * A loop qualifies when it has a preheader ending in an unconditional branch, its one
 * exiting block is the latch, the exit block's phis take from the latch only values defined
 * outside the loop, no instruction of the loop has side effects or is used outside it, every
 * loop inside it is finite too, and no block of it has its address taken or an entry from
 * outside. Then the preheader branches to the exit block, whose phis take their entry for
 * the loop from the preheader, and the loop's blocks go.
 *
 * Invariants: innermost loops first, and a deleted loop's blocks are never visited again;
 * the count is read before anything of the loop is changed.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { ValueKind } from '../../ir/value.js';
import type { Loop } from '../../analysis/loops.js';
import type { ScalarEvolution } from '../../analysis/scalar-evolution.js';
import { hasEffect, loopsInnermostFirst, singleExit } from './indvars-scev.js';

export function deleteDeadLoopsSCEV(fn: Function, se: ScalarEvolution): number {
  const cfg = se.li.cfg;
  const gone = new Set<BasicBlock>();
  let deleted = 0;
  const finite = (l: Loop): boolean => {
    const stack = [l];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (!gone.has(cfg.blockOf(x.header)!) && se.backedgeTakenCount(x) === null) return false;
      for (const c of x.subLoops) stack.push(c);
    }
    return true;
  };
  for (const loop of loopsInnermostFirst(se.li.topLevel)) {
    const header = cfg.blockOf(loop.header)!;
    if (gone.has(header)) continue;
    const ph = loop.preheader();
    const shape = singleExit(loop);
    if (ph < 0 || shape === null) continue;
    const preheader = cfg.blockOf(ph)!;
    const { latch, exit } = shape;
    const blocks = new Set<BasicBlock>();
    for (const id of loop.blocks()) {
      const b = cfg.blockOf(id)!;
      if (!gone.has(b)) blocks.add(b);
    }
    if (!canDelete(fn, blocks, header, preheader, exit, latch) || !finite(loop)) continue;
    const br = preheader.terminator()!;
    for (let k = 0; k < br.numSuccessors(); k++) if (br.successor(k) === header) br.setSuccessor(k, exit);
    exit.replacePhiIncomingBlock(latch, preheader);
    for (const b of blocks) b.eraseFromParent();
    for (const b of blocks) gone.add(b);
    deleted++;
  }
  return deleted;
}

function canDelete(fn: Function, blocks: Set<BasicBlock>, header: BasicBlock, preheader: BasicBlock, exit: BasicBlock, latch: BasicBlock): boolean {
  for (const b of blocks) {
    if (b.parent !== fn) return false;
    for (let u = b.firstUse; u !== null; u = u.next) if (u.user.kind !== ValueKind.Instruction) return false;
    for (const p of b.predecessors()) if (!blocks.has(p) && !(b === header && p === preheader)) return false;
    for (let i: Instruction | null = b.first; i !== null; i = i.next) {
      if (hasEffect(i)) return false;
      for (let u = i.firstUse; u !== null; u = u.next) {
        const user = u.user as Instruction;
        if (!blocks.has(user.parent!)) return false;
      }
    }
  }
  // the exit's phis must not take a loop value (checked above: a use outside) nor have two
  // entries from the latch (a switch with two edges)
  return latch.terminator()!.successors().filter((s) => s === exit).length === 1;
}
