/**
 * Loop canonicalization, after LLVM's LoopSimplify (lib/Transforms/Utils/LoopSimplify.cpp):
 * afterwards every natural loop has
 *  - a preheader: the header's only predecessor outside the loop, ending in `br label %header`;
 *  - a single latch (one back edge), through a new `.backedge` block when there were several;
 *  - dedicated exits: every exit block has only predecessors inside the loop.
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
import { BasicBlock } from '../ir/basic-block.js';
import type { Function } from '../ir/function.js';
import { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { voidType } from '../ir/types.js';
import type { Value } from '../ir/value.js';
import { CFG } from '../analysis/cfg.js';
import { findLoops, Loop, LoopInfo } from '../analysis/loops.js';
import type { FunctionPass, PassContext, PassResult } from './pass.js';
import type { PassInfo } from './registry.js';
import { edgeCount, retargetEdges } from './simplifycfg.js';

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

/**
 * Splits the edge from → to with a new block (`from` keeps its other edges); when `from`
 * branches to `to` several times, all those edges go through the new block.
 */
export function splitEdge(from: BasicBlock, to: BasicBlock, name: string): BasicBlock {
  return splitBlockPredecessors(to, [from], name);
}

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
  preheaders: number;
  backedges: number;
  exits: number;
}

/** Puts every loop of `fn` in LoopSimplify form; returns what it inserted. */
export function simplifyLoops(fn: Function, info?: LoopInfo): LoopSimplifyStats {
  const stats: LoopSimplifyStats = { preheaders: 0, backedges: 0, exits: 0 };
  if (fn.isDeclaration()) return stats;
  const li = info ?? findLoops(new CFG(fn));
  if (li.loops.length === 0) return stats;
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
  for (let k = loops.length - 1; k >= 0; k--) {
    const l = loops[k];
    const exits: BasicBlock[] = [];
    const seen = new Set<BasicBlock>();
    for (const id of l.blocks()) {
      const b = cfg.blockOf(id)!;
      for (const s of b.successors()) {
        if (!mem.contains(l, s) && !seen.has(s)) {
          seen.add(s);
          exits.push(s);
        }
      }
    }
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
      if (!hasOutside || bad || inside.length === 0) continue;
      const nb = splitBlockPredecessors(e, inside, blockName(e, '.loopexit'));
      mem.add(nb, commonLoop(l, mem.loopOf(e)));
      stats.exits++;
    }
  }
  return stats;
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

export { edgeCount };

export const loopSimplifyPass: PassInfo = {
  name: 'loop-simplify',
  description: 'give every loop a preheader, a single latch and dedicated exit blocks',
  create(): FunctionPass {
    return {
      kind: 'function',
      name: 'loop-simplify',
      run(fn: Function, ctx: PassContext): PassResult {
        const s = simplifyLoops(fn);
        if (s.preheaders) ctx.stat('preheaders inserted', s.preheaders);
        if (s.backedges) ctx.stat('backedge blocks inserted', s.backedges);
        if (s.exits) ctx.stat('exit blocks split', s.exits);
        const changed = s.preheaders + s.backedges + s.exits > 0;
        return { changed, preserved: changed ? 'none' : 'all' };
      },
    };
  },
};
