/**
 * Unrolling a loop in place (LLVM's lib/Transforms/Utils/LoopUnroll.cpp, UnrollLoop), the
 * mechanics shared by loop-unroll's complete and partial unrolling and by runtime unrolling
 * (loop-unroll-runtime.ts): what loop shape qualifies, and the cloning. The reasoning for
 * why it is sound is in src/transforms/loop/loop-unroll.ts.
 *
 * Invariants: the loop is in LoopSimplify form and its latch is its only exiting block with a
 * dedicated exit; it is innermost, or (complete unrolling of a nest, `nest`) its inner loops,
 * whose blocks are its blocks too, are cloned whole with it, each copy a nest of its own;
 * copies are chained in a row and only the last keeps the exit; iterative throughout, cost
 * O(copies × loop size).
 */
import { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { voidType } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import type { Loop, LoopInfo } from '../../analysis/loops.js';
import { cloneRecords, remapRecords } from './debug-info.js';

/** A candidate loop, read from the IR. */
export interface Shape {
  header: BasicBlock;
  preheader: BasicBlock;
  latch: BasicBlock;
  exit: BasicBlock;
  /** The loop's blocks in layout order. */
  blocks: BasicBlock[];
  /** Instructions in the loop. */
  size: number;
}

/**
 * The shape of loop `l`, or why it cannot be unrolled: an innermost loop, or with `nest` a
 * loop with inner loops (whose exits into `l` need nothing: they are cloned with it; an
 * exit of an inner loop that leaves `l` too makes `l` exit other than at its latch).
 */
export function readShape(l: Loop, li: LoopInfo, nest = false): Shape | string {
  if (l.subLoops.length > 0 && !nest) return 'not innermost';
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
 * Copies `blocks` after `after`, each name suffixed `.suffix`, and points the copies'
 * operands and phi entries at the copies through `map` (which may map values already: the
 * header phis of an unrolled copy map to their values from the previous copy). The phis of
 * `skipPhisOf` are not copied. A copied phi's entry from outside `blocks` names an edge that
 * reaches the original, not the copy (only an unreachable block can branch into a non-header
 * block of a loop): it is dropped, except in the copy of `outsideEntriesOf`, whose entry from
 * the preheader the caller rewires. Returns the new blocks in order.
 */
export function cloneBlocks(
  fn: Function,
  blocks: readonly BasicBlock[],
  after: BasicBlock,
  suffix: string,
  map: Map<Value, Value>,
  skipPhisOf: BasicBlock | null,
  outsideEntriesOf: BasicBlock | null,
): BasicBlock[] {
  const cloned: Instruction[] = [];
  const made: BasicBlock[] = [];
  for (const b of blocks) {
    const nb = new BasicBlock(b.name === '' ? '' : `${b.name}.${suffix}`);
    fn.insertBlockAfter(nb, after);
    after = nb;
    map.set(b, nb);
    made.push(nb);
    for (let i = b === skipPhisOf ? b.firstNonPhi() : b.first; i !== null; i = i.next) {
      const c = i.clone();
      cloneRecords(i, c);
      if (c.name !== '') c.name = `${c.name}.${suffix}`;
      nb.append(c);
      map.set(i, c);
      cloned.push(c);
    }
  }
  const keep = outsideEntriesOf === null ? null : map.get(outsideEntriesOf);
  for (const c of cloned) {
    for (let j = 0; j < c.numOperands; j++) {
      const v = map.get(c.operand(j));
      if (v !== undefined) c.setOperand(j, v);
    }
    if (c.op === Opcode.Phi) {
      for (let j = c.numIncoming - 1; j >= 0; j--) {
        const from = map.get(c.incomingBlock(j));
        if (from !== undefined) c.setIncomingBlock(j, from as BasicBlock);
        else if (c.parent !== keep) c.removeIncoming(j);
      }
    }
  }
  // the copies' debug records describe the copies' values (LLVM's CloneBasicBlock + remap)
  remapRecords(cloned, map);
  return made;
}

/**
 * Unrolls the loop `s`, `trip` copies of the body in all: completely, or with `partial` (the
 * trip count a multiple of `trip`) into a loop whose body is the copies in a row, which
 * takes the back edge from the last copy only.
 */
export function unroll(fn: Function, s: Shape, trip: number, partial = false): { lastLatch: BasicBlock; last: (v: Value) => Value } {
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
    const made = cloneBlocks(fn, blocks, after, String(k), map, header, null);
    for (const nb of made) copies.add(nb);
    after = made[made.length - 1];
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
  const final = prev;
  return { lastLatch, last: (v: Value) => look(final, v) };
}

/** Replaces `bb`'s conditional branch by `br to`; returns the old condition. */
function replaceTerminator(bb: BasicBlock, to: BasicBlock): Instruction {
  const t = bb.terminator()!;
  const cond = t.operand(0) as Instruction;
  bb.append(new Instruction(Opcode.Br, voidType, [to]));
  t.eraseFromParent();
  return cond;
}

