/**
 * Runtime unrolling: a loop whose trip count is known only as an expression (scalar
 * evolution's backedge-taken count, expanded in the preheader) is unrolled by a power of two
 * k, and the tc mod k iterations left over run in a copy of the original loop after it.
 * After LLVM's UnrollRuntimeLoopRemainder (lib/Transforms/Utils/LoopUnrollRuntime.cpp) with
 * an epilog remainder:
 *
 *   preheader:  tc = btc + 1; xtra = tc & (k-1); br (btc <u k-1), epil.ph, main.ph
 *   main.ph:    unroll_iter = tc - xtra; br header
 *   main loop:  k copies of the body (loop-unroll.ts `unroll`, partially), one test at the end
 *               on a new counter: niter += k; exit when niter == unroll_iter
 *   main.exit:  br (xtra == 0), exit, epil.ph
 *   epil.ph:    a phi per header phi: its preheader value, or the main loop's last value
 *   epilog:     the original loop (its own exit test ends it exactly after xtra runs)
 *   exit:       its phis take the main loop's values from main.exit, the epilog's from its latch
 *
 * Invariants: the main loop runs tc - xtra times (a multiple of k, at least k when entered)
 * and the epilog the remaining xtra ≥ 1 times, or is skipped when xtra = 0; a trip count of
 * 2^bits (btc all ones) wraps tc to 0, so xtra = 0 and niter meets unroll_iter = 0 after 2^bits
 * runs: still exact. Every value used after the loop first gets a phi in the exit block
 * (LCSSA), so the two ways out only need entries in those phis. Both loops are marked
 * `llvm.loop.unroll.disable`, as LLVM marks them, so later rounds leave them alone.
 */
import { BasicBlock } from '../../ir/basic-block.js';
import { IRBuilder } from '../../ir/builder.js';
import { ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, Pred } from '../../ir/opcodes.js';
import type { Value } from '../../ir/value.js';
import { setUnrollDisable } from './loop-metadata.js';
import { cloneBlocks, unroll, type Shape } from './unroll-loop.js';

/** Gives every value of the loop used after it a phi in the (dedicated) exit block. */
export function formLCSSA(s: Shape): void {
  const inLoop = new Set(s.blocks);
  for (const b of s.blocks) {
    for (let i = b.first; i !== null; i = i.next) {
      let phi: Instruction | null = null;
      for (let u = i.firstUse; u !== null; ) {
        const next = u.next;
        const user = u.user as Instruction;
        const at = user.parent;
        if (at !== null && !inLoop.has(at) && !(user.op === Opcode.Phi && at === s.exit)) {
          if (phi === null) {
            phi = new IRBuilder(s.exit).phi(i.type);
            // a phi is inserted after the existing ones: before any user in the exit block
            phi.addIncoming(i, s.latch);
          }
          user.setOperand(u.index, phi);
        }
        u = next;
      }
    }
  }
}

/** A copy of the loop's blocks placed after them, with its value map (its header phis keep their preheader entries). */
export function cloneLoop(fn: Function, s: Shape, suffix = 'epil'): { map: Map<Value, Value>; header: BasicBlock; latch: BasicBlock; blocks: BasicBlock[] } {
  const map = new Map<Value, Value>();
  // the header's entry from the preheader is rewired by the caller
  const blocks = cloneBlocks(fn, s.blocks, s.blocks[s.blocks.length - 1], suffix, map, null, s.header);
  return { map, header: map.get(s.header) as BasicBlock, latch: map.get(s.latch) as BasicBlock, blocks };
}

/**
 * Unrolls loop `s` by `k` (a power of two ≥ 2) around a remainder loop; `btc` is its
 * backedge-taken count, already computed in (or before) the preheader.
 */
export function unrollRuntime(fn: Function, s: Shape, k: number, btc: Value): void {
  const { header, preheader, latch, exit } = s;
  const m = fn.parent;
  formLCSSA(s);
  // the exit phis' values from the latch, as they are before unrolling renames them
  const exitPhis = exit.phis();
  const exitValues = exitPhis.map((p) => p.incomingValueFor(latch)!);
  const epil = cloneLoop(fn, s);
  const ty = btc.type;
  const K = (n: number) => ConstantInt.get(ty, n);
  // the counts, at the end of the preheader
  const pt = preheader.terminator()!;
  const b = new IRBuilder().setInsertPointBefore(pt);
  const tc = b.add(btc, K(1), 'tc');
  const xtra = b.and(tc, K(k - 1), 'xtraiter');
  const few = b.icmp(Pred.ULT, btc, K(k - 1));
  const mainPh = new BasicBlock(`${header.name === '' ? 'loop' : header.name}.unr.ph`);
  fn.insertBlockBefore(mainPh, header);
  const epilPh = new BasicBlock(`${header.name === '' ? 'loop' : header.name}.epil.ph`);
  fn.insertBlockBefore(epilPh, epil.header);
  const mainExit = new BasicBlock(`${header.name === '' ? 'loop' : header.name}.unr.exit`);
  fn.insertBlockBefore(mainExit, epilPh);
  b.setInsertPoint(mainPh);
  const unrollIter = b.sub(tc, xtra, 'unroll_iter');
  b.br(header);
  // the original header phis, before unroll() rewires their latch entries
  const phis = header.phis();
  for (const p of phis) p.setIncomingBlock(p.blockIndex(preheader), mainPh);
  b.setInsertPointBefore(pt);
  b.condBr(few, epilPh, mainPh);
  pt.eraseFromParent();
  // the main loop: k copies, then its own counter in place of the last copy's test
  const { lastLatch, last } = unroll(fn, s, k, true);
  const niter = new IRBuilder(header).phi(ty, 'niter');
  const lt = lastLatch.terminator()!;
  b.setInsertPointBefore(lt);
  const niterNext = b.add(niter, K(k), 'niter.next');
  const done = b.icmp(Pred.EQ, niterNext, unrollIter, 'niter.ncmp');
  const br = b.condBr(done, mainExit, header);
  br.md = lt.md;
  const oldCond = lt.operand(0);
  lt.eraseFromParent();
  if (oldCond instanceof Instruction && !oldCond.hasUses()) oldCond.eraseFromParent();
  niter.addIncoming(K(0), mainPh);
  niter.addIncoming(niterNext, lastLatch);
  exit.replacePhiIncomingBlock(lastLatch, mainExit);
  b.setInsertPoint(mainExit);
  b.condBr(b.icmp(Pred.EQ, xtra, K(0)), exit, epilPh);
  // the remainder starts from the preheader's values or where the main loop stopped
  b.setInsertPoint(epilPh);
  for (const p of phis) {
    const ep = epil.map.get(p) as Instruction;
    const start = b.phi(p.type, p.name === '' ? '' : `${p.name}.unr`);
    start.addIncoming(p.incomingValueFor(mainPh)!, preheader);
    start.addIncoming(p.incomingValueFor(lastLatch)!, mainExit);
    const j = ep.blockIndex(preheader);
    ep.setIncomingValue(j, start);
    ep.setIncomingBlock(j, epilPh);
  }
  b.br(epil.header);
  for (let n = 0; n < exitPhis.length; n++) exitPhis[n].addIncoming(epil.map.get(exitValues[n]) ?? exitValues[n], epil.latch);
  void last;
  setUnrollDisable(br, m);
  setUnrollDisable(epil.latch.terminator()!, m);
}
