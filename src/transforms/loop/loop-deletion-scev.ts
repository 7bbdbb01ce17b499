/**
 * Deletion of dead loops that scalar evolution proves finite (LLVM's LoopDeletion,
 * deleteLoopIfDead: no side effects, nothing used after the loop but values from outside it,
 * and a computable backedge-taken count, so removing it cannot remove an infinite loop). The
 * compile-time run of loop-deletion.ts handles loops whose inputs are all constants; this
 * handles the rest, e.g. a loop whose exit values indvars has rewritten in closed form.
 *
 * A loop qualifies when it has a preheader ending in an unconditional branch, all its exits
 * lead to one exit block with no other predecessor, each of that block's phis takes one
 * value (defined outside the loop) from all the loop's edges, no instruction of the loop has
 * side effects or is used outside it, it and every loop inside it is finite (a known count
 * for one of its exits, or finite by assumption: loop-finite.ts), and no block of it has its
 * address taken or an entry from outside. Then the preheader branches to the exit block,
 * whose phis take their entry for the loop from the preheader, and the loop's blocks go.
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
import { hasEffect, loopsInnermostFirst } from './indvars-scev.js';
import { backedgeTakenInfo } from '../../analysis/scev-exits.js';
import { loopIsFiniteByAssumption } from '../../analysis/loop-finite.js';

/**
 * The loop's one exit block, when every exit edge goes there and it has no predecessor
 * outside the loop (loop-simplify's dedicated exits).
 */
function uniqueExit(loop: Loop, blocks: Set<BasicBlock>): { exit: BasicBlock } | null {
  const cfg = loop.info.cfg;
  const exits = loop.exitBlocks();
  if (exits.length !== 1) return null;
  const exit = cfg.blockOf(exits[0])!;
  if (exit.predecessors().some((p) => !blocks.has(p))) return null;
  return { exit };
}

export function deleteDeadLoopsSCEV(fn: Function, se: ScalarEvolution): number {
  const cfg = se.li.cfg;
  const gone = new Set<BasicBlock>();
  let deleted = 0;
  // a known count for any exit bounds the loop (LLVM: a constant max backedge-taken count),
  // and so does being finite by assumption (loop-finite.ts)
  const finite = (l: Loop): boolean => {
    const stack = [l];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (!gone.has(cfg.blockOf(x.header)!) && se.backedgeTakenCount(x) === null && backedgeTakenInfo(se, x).symbolicMax === null && !loopIsFiniteByAssumption(fn, x)) return false;
      for (const c of x.subLoops) stack.push(c);
    }
    return true;
  };
  for (const loop of loopsInnermostFirst(se.li.topLevel)) {
    const header = cfg.blockOf(loop.header)!;
    if (gone.has(header)) continue;
    const ph = loop.preheader();
    if (ph < 0) continue;
    const preheader = cfg.blockOf(ph)!;
    const blocks = new Set<BasicBlock>();
    for (const id of loop.blocks()) {
      const b = cfg.blockOf(id)!;
      if (!gone.has(b)) blocks.add(b);
    }
    const shape = uniqueExit(loop, blocks);
    if (shape === null) continue;
    const { exit } = shape;
    if (!canDelete(fn, blocks, header, preheader, exit) || !finite(loop)) continue;
    const br = preheader.terminator()!;
    for (let k = 0; k < br.numSuccessors(); k++) if (br.successor(k) === header) br.setSuccessor(k, exit);
    // each exit phi takes the one value all its loop entries agree on from the preheader
    for (const p of exit.phis()) {
      let v = null;
      for (let k = p.numIncoming - 1; k >= 0; k--) {
        if (!blocks.has(p.incomingBlock(k))) continue;
        v = p.incomingValue(k);
        p.removeIncoming(k);
      }
      if (v !== null) p.addIncoming(v, preheader);
    }
    for (const b of blocks) b.eraseFromParent();
    for (const b of blocks) gone.add(b);
    deleted++;
  }
  return deleted;
}

function canDelete(fn: Function, blocks: Set<BasicBlock>, header: BasicBlock, preheader: BasicBlock, exit: BasicBlock): boolean {
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
  // the exit's phis take one value from all of the loop's edges (a value from outside it:
  // a loop value used there was refused above)
  for (const p of exit.phis()) {
    let v = null;
    for (let k = 0; k < p.numIncoming; k++) {
      if (!blocks.has(p.incomingBlock(k))) continue;
      if (v !== null && p.incomingValue(k) !== v) return false;
      v = p.incomingValue(k);
    }
  }
  return true;
}
