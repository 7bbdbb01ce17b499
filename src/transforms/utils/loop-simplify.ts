/**
 * Loop canonicalization, after LLVM's LoopSimplify (lib/Transforms/Utils/LoopSimplify.cpp):
 * afterwards every natural loop has
 *  - a preheader: the header's only predecessor outside the loop, ending in `br label %header`;
 *  - a single latch (one back edge), through a new `.backedge` block when there were several;
 *  - dedicated exits: every exit block has only predecessors inside the loop.
 * Before that, a loop whose header has several back edges and a phi that keeps its own value
 * on some of them is two loops sharing a header (`br %c, %loop, %next` ... `br %c2, %loop,
 * %out`): the header's other predecessors move to a new `.outer` block, the outer loop's
 * header, as LLVM's separateNestedLoop does (its findPHIToPartitionLoops), so the inner loop
 * is a loop of its own that the loop passes can unroll, delete or hoist out of.
 * The loop passes (licm, loop-rotate, indvars) call `simplifyLoops` first, as LLVM's loop
 * pass manager requires LoopSimplify form.
 *
 * One LoopInfo is computed per call; the blocks added are assigned to loops as they are
 * made (a preheader belongs to the parent loop, a backedge block to the loop, an exit block
 * to the innermost loop containing both the loop and the old exit), so membership queries
 * stay exact without recomputing. Three phases: preheaders, backedges, then exits inner loops
 * first (a block split off for an inner loop's exit may be an exit of the outer loop).
 *
 * Invariant kept: phis stay one-entry-per-edge; `splitBlockPredecessors` moves the entries of
 * the moved edges into phis of the new block (or one shared value when they agree).
 */
import { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import type { Value } from '../../ir/value.js';
import { CFG } from '../../analysis/cfg.js';
import { findLoops, Loop, LoopInfo } from '../../analysis/loops.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { splitBlockPredecessors } from './basic-block-utils.js';

/** Loop membership that also knows the blocks added since the LoopInfo was computed. */
export class LoopMembership {
  private readonly added = new Map<BasicBlock, Loop | null>();
  constructor(readonly info: LoopInfo) {}

  private known(bb: BasicBlock): boolean {
    const cfg = this.info.cfg;
    return bb.id >= 0 && bb.id < cfg.n && cfg.blocks[bb.id] === bb;
  }

  /** The innermost loop of `bb` (null: in no loop). */
  loopOf(bb: BasicBlock): Loop | null {
    if (this.known(bb)) return this.info.loopFor(bb.id);
    return this.added.get(bb) ?? null;
  }

  contains(l: Loop, bb: BasicBlock): boolean {
    const m = this.loopOf(bb);
    return m !== null && l.containsLoop(m);
  }

  add(bb: BasicBlock, l: Loop | null): void {
    this.added.set(bb, l);
  }
}

/** The innermost loop containing both (null when none). */
export function commonLoop(a: Loop | null, b: Loop | null): Loop | null {
  while (a !== null && b !== null && a !== b) {
    if (a.depth > b.depth) a = a.parent;
    else if (b.depth > a.depth) b = b.parent;
    else {
      a = a.parent;
      b = b.parent;
    }
  }
  return a === b ? a : null;
}

function blockName(bb: BasicBlock, suffix: string): string {
  return bb.name === '' ? suffix.slice(1) : bb.name + suffix;
}

export interface LoopSimplifyStats {
  nested: number;
  preheaders: number;
  backedges: number;
  exits: number;
}

/** Puts every loop of `fn` in LoopSimplify form; returns what it inserted. */
export function simplifyLoops(fn: Function, info?: LoopInfo): LoopSimplifyStats {
  const stats: LoopSimplifyStats = { nested: 0, preheaders: 0, backedges: 0, exits: 0 };
  if (fn.isDeclaration()) return stats;
  let li = info ?? findLoops(new CFG(fn));
  if (li.loops.length === 0) return stats;
  // Phase 0: nested loops sharing a header come apart (each round can expose another level)
  for (let round = 0; round < 8; round++) {
    const n = separateNestedLoops(li);
    if (n === 0) break;
    stats.nested += n;
    li = findLoops(new CFG(fn));
  }
  const cfg = li.cfg;
  const mem = new LoopMembership(li);
  const loops = li.loops;

  // Phase 1: preheaders. New preheaders only ever precede their own header.
  for (const l of loops) {
    const h = cfg.blockOf(l.header)!;
    const outside: BasicBlock[] = [];
    let badTerm = false;
    for (const p of h.predecessors()) {
      if (mem.contains(l, p)) continue;
      outside.push(p);
      const t = p.terminator();
      if (t === null || t.op === Opcode.IndirectBr) badTerm = true;
    }
    if (outside.length === 0 || badTerm) continue;
    if (outside.length === 1) {
      const t = outside[0].terminator()!;
      if (t.numSuccessors() === 1) continue;
    }
    const ph = splitBlockPredecessors(h, outside, blockName(h, '.preheader'));
    mem.add(ph, l.parent);
    stats.preheaders++;
  }

  // Phase 2: a single back edge.
  for (const l of loops) {
    const h = cfg.blockOf(l.header)!;
    const latches: BasicBlock[] = [];
    let bad = false;
    for (const p of h.predecessors()) {
      if (!mem.contains(l, p)) continue;
      latches.push(p);
      if (p.terminator()?.op === Opcode.IndirectBr) bad = true;
    }
    if (latches.length < 2 || bad) continue;
    const be = splitBlockPredecessors(h, latches, blockName(h, '.backedge'));
    // keep the layout readable: the backedge block after the last latch
    be.removeFromParent();
    fn.insertBlockAfter(be, latches[latches.length - 1]);
    mem.add(be, l);
    stats.backedges++;
  }

  // Phase 3: dedicated exits, inner loops first (reverse preorder visits children first).
  // A loop's exit edges leave from its own blocks or are exits of a child loop that also
  // leave this loop, so each loop looks at its own blocks and its children's exit lists
  // only: linear in the function plus the exits, even for deep nests.
  const exitsOf: BasicBlock[][] = new Array(loops.length);
  for (let k = loops.length - 1; k >= 0; k--) {
    const l = loops[k];
    const exits: BasicBlock[] = [];
    const seen = new Set<BasicBlock>();
    const consider = (s: BasicBlock): void => {
      if (!seen.has(s) && !mem.contains(l, s)) {
        seen.add(s);
        exits.push(s);
      }
    };
    for (let j = li.rangeStart[l.index]; j < li.rangeStart[l.index + 1]; j++) {
      const t = cfg.blockOf(li.blockList[j])!.terminator();
      if (t === null) continue;
      const n = t.numSuccessors();
      for (let q = 0; q < n; q++) consider(t.successor(q));
    }
    for (const c of l.subLoops) for (const e of exitsOf[c.index]) consider(e);
    const final: BasicBlock[] = [];
    for (const e of exits) {
      const inside: BasicBlock[] = [];
      let hasOutside = false;
      let bad = false;
      for (const p of e.predecessors()) {
        if (mem.contains(l, p)) {
          inside.push(p);
          if (p.terminator()?.op === Opcode.IndirectBr) bad = true;
        } else hasOutside = true;
      }
      if (!hasOutside || bad || inside.length === 0) {
        final.push(e);
        continue;
      }
      const nb = splitBlockPredecessors(e, inside, blockName(e, '.loopexit'));
      mem.add(nb, commonLoop(l, mem.loopOf(e)));
      final.push(nb);
      stats.exits++;
    }
    exitsOf[l.index] = final;
  }
  return stats;
}

/**
 * LLVM's findPHIToPartitionLoops: a header phi whose value some back edges keep (it is its
 * own incoming value there) while others change it; null when there is none. A phi whose
 * entries other than itself all agree is a copy, not a partition (LLVM simplifies it away).
 */
function partitionPhi(l: Loop, h: BasicBlock, inLoop: (b: BasicBlock) => boolean): Instruction | null {
  for (let i = h.first; i !== null && i.op === Opcode.Phi; i = i.next) {
    let self = false;
    let other: Value | null = null;
    let several = false;
    for (let k = 0; k < i.ops.length; k++) {
      const v: Value = i.ops[k].value;
      if (v === i) {
        if (inLoop(i.blocks![k])) self = true;
        continue;
      }
      if (other === null) other = v;
      else if (other !== v) several = true;
    }
    if (self && several) return i;
  }
  return null;
}

/** Splits every loop of `li` that is two loops sharing a header (see the file comment); returns how many. */
function separateNestedLoops(li: LoopInfo): number {
  const cfg = li.cfg;
  let n = 0;
  for (const l of li.loops) {
    const h = cfg.blockOf(l.header)!;
    const inLoop = (b: BasicBlock): boolean => b.id >= 0 && b.id < cfg.n && cfg.blocks[b.id] === b && l.contains(b.id);
    let backEdges = 0;
    for (const p of h.predecessors()) if (inLoop(p)) backEdges++;
    // LLVM: not for loops with a giant number of back edges (they share one backedge block)
    if (backEdges < 2 || backEdges >= 8) continue;
    const pn = partitionPhi(l, h, inLoop);
    if (pn === null) continue;
    const outer: BasicBlock[] = [];
    let bad = false;
    for (let k = 0; k < pn.ops.length; k++) {
      const p = pn.blocks![k];
      if (pn.ops[k].value === pn && inLoop(p)) continue;
      const t = p.terminator();
      if (t === null || t.op === Opcode.IndirectBr) bad = true;
      if (!outer.includes(p)) outer.push(p);
    }
    if (bad) continue;
    splitBlockPredecessors(h, outer, blockName(h, '.outer'));
    n++;
  }
  return n;
}

/** Exiting blocks (inside, with an edge out) and exit blocks (outside, with an edge in) of every loop, by loop index. */
export interface LoopExits {
  exiting: BasicBlock[][];
  exits: BasicBlock[][];
}

/**
 * The exits of every loop of `li`, for passes that do not change the CFG. Computed bottom-up
 * from each loop's own blocks and its children's lists (an exit edge of a child that also
 * leaves the parent is the parent's), so deep nests cost linear time, not quadratic as a
 * walk over every loop's blocks would.
 */
export function computeLoopExits(li: LoopInfo): LoopExits {
  const cfg = li.cfg;
  const n = li.loops.length;
  const exiting: BasicBlock[][] = new Array(n);
  const exits: BasicBlock[][] = new Array(n);
  for (let k = n - 1; k >= 0; k--) {
    const l = li.loops[k];
    const ing: BasicBlock[] = [];
    const out: BasicBlock[] = [];
    const seenOut = new Set<number>();
    const scan = (b: BasicBlock): void => {
      const t = b.terminator();
      if (t === null) return;
      let leaves = false;
      const ns = t.numSuccessors();
      for (let q = 0; q < ns; q++) {
        const s = t.successor(q);
        if (l.contains(s.id)) continue;
        leaves = true;
        if (!seenOut.has(s.id)) {
          seenOut.add(s.id);
          out.push(s);
        }
      }
      if (leaves) ing.push(b);
    };
    for (let j = li.rangeStart[l.index]; j < li.rangeStart[l.index + 1]; j++) scan(cfg.blockOf(li.blockList[j])!);
    for (const c of l.subLoops) for (const b of exiting[c.index]) scan(b);
    exiting[l.index] = ing;
    exits[l.index] = out;
  }
  return { exiting, exits };
}

/** Whether every loop of `li` is in LoopSimplify form (used by tests and assertions). */
export function isInSimplifyForm(li: LoopInfo): boolean {
  const cfg = li.cfg;
  for (const l of li.loops) {
    if (l.preheader() < 0) return false;
    if (l.latches().length !== 1) return false;
    for (const e of l.exitBlocks()) for (const p of cfg.predecessors(e)) if (!l.contains(p)) return false;
  }
  return true;
}

export const loopSimplifyPass = defineCountingPass({
  name: 'loop-simplify',
  description: 'give every loop a preheader, a single latch and dedicated exit blocks',
  count: (fn) => simplifyLoops(fn),
  stats: { nested: 'nested loops split out of a shared header', preheaders: 'preheaders inserted', backedges: 'backedge blocks inserted', exits: 'exit blocks split' },
});
