/**
 * Partial redundancy elimination by lazy code motion: Knoop, Rüthing and Steffen, "Lazy
 * Code Motion" (PLDI 1992), in the formulation of Aho, Lam, Sethi and Ullman, "Compilers"
 * (2nd ed., §9.5.3–9.5.5), on the bit-vector framework of src/analysis/dataflow/.
 *
 * Expressions (the universe): lexically equal pure instructions — same opcode, flags, types
 * and the same SSA operands (src/analysis/dataflow/expressions.ts) — restricted to those
 * safe to execute anywhere (no division by a possibly zero or -1 divisor, no memory): LCM
 * inserts only where the expression is anticipated, but a trapping one would still move
 * above calls that may not return. An expression computed only once joins the universe
 * only when it sits in a loop: elsewhere there is nothing for LCM to do with it.
 *
 * In SSA an expression is never killed by an assignment to a variable; it is "killed"
 * only at the definition of one of its operands (which a loop can execute again: a header
 * phi gives every expression computed from it a new value). Per block B:
 *   kill(B)  = expressions with an operand defined in B;
 *   use(B)   = expressions computed in B with no operand defined in B (upward exposed —
 *              in SSA a computation cannot precede its operand's definition);
 *   comp(B)  = expressions computed in B at all (downward exposed).
 * The four passes of LCM:
 *   anticipated  backward ∩   in  = use ∪ (out − kill)
 *   available    forward  ∩   out = comp ∪ ((anticipated.in ∪ in) − kill)
 *   earliest     = anticipated.in − available.in
 *   postponable  forward  ∩   out = (earliest ∪ in) − use
 *   latest       = (earliest ∪ postponable.in) ∩ (use ∪ ¬⋂_{S∈succ} (earliest[S] ∪ postponable.in[S]))
 *   used         backward ∪   in  = (use ∪ out) − latest
 * (`available` adds comp(B) so that a computation after an operand's definition in B — kept
 * in place — counts as making the expression available below B.)
 * Then for each expression: insert a computation at the start of every B with
 * e ∈ latest[B] ∩ used.out[B]; every upward-exposed computation in a B with
 * e ∉ latest[B] or e ∈ used.out[B] is redundant. Kept and inserted computations are the
 * definitions of a temporary t; the redundant ones are its uses, rewritten to the reaching
 * definition through phis placed at the iterated dominance frontier of the definitions
 * (an SSA update, with unused phis deleted).
 *
 * Safety details: critical edges are split first (a new block on the edge is where LCM's
 * edge insertions land) and the split blocks that stay empty are removed again; blocks
 * that cannot reach an exit (infinite loops) or are unreachable kill everything, so that
 * anticipation is never assumed on paths that never compute the expression (the
 * intersection's maximal fixed point would otherwise claim it there, and the operands
 * might not even be available).
 */
import { BasicBlock } from '../../ir/basic-block.js';
import { UndefValue } from '../../ir/constants.js';
import { isSafeToSpeculate } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { Type, TypeKind } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { CFG, computeCFG } from '../../analysis/cfg.js';
import { BitMatrix } from '../../analysis/dataflow/bitset.js';
import { lexicalExpressions, type ExpressionUniverse } from '../../analysis/dataflow/expressions.js';
import { solve } from '../../analysis/dataflow/solver.js';
import { computeDominators, DominatorTree } from '../../analysis/dominators.js';
import { iteratedDominanceFrontier } from '../../analysis/idf.js';
import { findLoops, type LoopInfo } from '../../analysis/loops.js';
import type { PassContext } from '../../pm/pass.js';
import { defineCountingPass, reportStats } from '../../pm/define-pass.js';
import type { SolverVisitHook } from '../../analysis/dataflow/solver.js';

/** What the LCM trace (pre-trace.ts) is told while lazy code motion runs. */
export interface LCMTraceHooks {
  local(cfg: CFG, expressions: Instruction[], use: BitMatrix, kill: BitMatrix, comp: BitMatrix): void;
  solver(problem: string, expressions: Instruction[]): SolverVisitHook;
  round(k: number): void;
  sets(s: LCMSets): void;
  /** A computation of expression e: `insert` at the start of its block, `keep` (defines t), or `redundant` (replaced by t). */
  decide(what: 'insert' | 'redundant' | 'keep', i: Instruction, e: number): void;
}
import { splitEdge } from '../utils/basic-block-utils.js';

/** Functions whose blocks × expressions exceed this are left alone (bit matrices would be huge). */
const MAX_MATRIX_BITS = 40_000_000;

export interface PREStats {
  inserted: number;
  replaced: number;
  splitKept: number;
  skipped: number;
}

/** The LCM sets of a function, per block id (exposed for tests and teaching). */
export interface LCMSets {
  cfg: CFG;
  /** Representative instruction of each expression. */
  expressions: Instruction[];
  use: BitMatrix;
  kill: BitMatrix;
  anticipatedIn: BitMatrix;
  availableIn: BitMatrix;
  earliest: BitMatrix;
  postponableIn: BitMatrix;
  latest: BitMatrix;
  usedOut: BitMatrix;
  /** Expression of each instruction (by InstructionNumbering position), -1 if none. */
  exprOfInst: (i: Instruction) => number;
}

/** Whether the expression represented by `rep` may be moved by PRE. */
function isCandidate(rep: Instruction): boolean {
  if (!rep.hasResult() || rep.type.kind === TypeKind.Vector) return false;
  if (!isSafeToSpeculate(rep)) return false;
  // expressions of constants only are constant folding's business
  let allConst = true;
  for (const u of rep.ops) if (u.value.kind < ValueKind.ConstantInt) allConst = false;
  return !allConst;
}

/** Blocks from which some block without successors can be reached. */
function reachesExit(cfg: CFG): Uint8Array {
  const r = new Uint8Array(cfg.n);
  const stack: number[] = [];
  for (const b of cfg.order) {
    if (cfg.numSuccessors(b) === 0) {
      r[b] = 1;
      stack.push(b);
    }
  }
  while (stack.length > 0) {
    const b = stack.pop()!;
    for (const p of cfg.predecessors(b)) {
      if (!r[p]) {
        r[p] = 1;
        stack.push(p);
      }
    }
  }
  return r;
}

/** Computes the LCM sets (no mutation). Returns null when the function is too large. */
export function computeLCM(fn: Function, cfg: CFG = computeCFG(fn), trace: LCMTraceHooks | null = null): LCMSets | null {
  // (Each loop below is its own function: V8 optimizes small functions as they get hot,
  // where one big function of many loops was compiled on stack and thrown away again at
  // each loop it had not run yet, once per function PRE visited.)
  const u = lexicalExpressions(fn);
  const index = universeIndex(u, cfg);
  const reps: Instruction[] = [];
  for (let e = 0; e < index.length; e++) if (index[e] >= 0) reps.push(u.representatives[e]);
  const E = reps.length;
  const n = cfg.n;
  if (n * E > MAX_MATRIX_BITS) return null;
  const exprOfInst = (i: Instruction): number => {
    const e = u.expressionOf(i);
    return e < 0 ? -1 : index[e];
  };

  const kill = new BitMatrix(n, E);
  const use = new BitMatrix(n, E);
  const comp = new BitMatrix(n, E);
  localSets(cfg, u, index, kill, use, comp);

  // anticipated: backward, intersection
  if (trace !== null) trace.local(cfg, reps, use, kill, comp);
  const ant = solve(cfg, { direction: 'backward', meet: 'intersection', bits: E, gen: use, kill, trace: trace?.solver('anticipated', reps) });
  // available (LCM): forward, intersection; gen = comp ∪ (ant.in − kill)
  const avGen = new BitMatrix(n, E);
  rowsOrAndNot(cfg, avGen, comp, ant.in, kill, false);
  const av = solve(cfg, { direction: 'forward', meet: 'intersection', bits: E, gen: avGen, kill, trace: trace?.solver('available', reps) });
  // earliest = ant.in − av.in (only reachable blocks matter)
  const earliest = new BitMatrix(n, E);
  rowsOrAndNot(cfg, earliest, null, ant.in, av.in, true);
  // postponable: forward, intersection; out = (earliest ∪ in) − use
  const postGen = new BitMatrix(n, E);
  rowsOrAndNot(cfg, postGen, null, earliest, use, false);
  const post = solve(cfg, { direction: 'forward', meet: 'intersection', bits: E, gen: postGen, kill: use, trace: trace?.solver('postponable', reps) });
  const latest = latestSets(cfg, earliest, post.in, use);
  // used: backward, union; in = (use ∪ out) − latest
  const usedGen = new BitMatrix(n, E);
  rowsOrAndNot(cfg, usedGen, null, use, latest, false);
  const used = solve(cfg, { direction: 'backward', meet: 'union', bits: E, gen: usedGen, kill: latest, trace: trace?.solver('used', reps) });
  return {
    cfg,
    expressions: reps,
    use,
    kill,
    anticipatedIn: ant.in,
    availableIn: av.in,
    earliest,
    postponableIn: post.in,
    latest,
    usedOut: used.out,
    exprOfInst,
  };
}

/**
 * The universe: candidate expressions that LCM can improve, as each expression's index in
 * the bit vectors (-1 when left out). In SSA form most expressions are computed once; such a
 * computation is redundant with nothing, and LCM can only move it when it sits in a loop
 * (hoisting, when down-safe). The others stay out of the bit vectors, which keeps the
 * matrices small (blocks × expressions was quadratic in practice).
 */
function universeIndex(u: ExpressionUniverse, cfg: CFG): Int32Array {
  const all = u.size;
  const count = new Int32Array(all);
  const where = new Int32Array(all).fill(-1);
  countOccurrences(u, cfg, count, where);
  let loops: LoopInfo | null = null;
  const index = new Int32Array(all).fill(-1);
  let next = 0;
  for (let e = 0; e < all; e++) {
    if (count[e] === 0 || !isCandidate(u.representatives[e])) continue;
    if (count[e] === 1) {
      loops ??= findLoops(cfg);
      if (loops.loopFor(where[e]) === null) continue;
    }
    index[e] = next++;
  }
  return index;
}

/** How many times each expression is computed, and in which block (the last one seen). */
function countOccurrences(u: ExpressionUniverse, cfg: CFG, count: Int32Array, where: Int32Array): void {
  for (const b of cfg.order) {
    for (let i = cfg.blocks[b]!.first; i !== null; i = i.next) {
      const e = u.expressionOf(i);
      if (e < 0) continue;
      count[e]++;
      where[e] = b;
    }
  }
}

/** kill, use (upward exposed) and comp (computed) per block; see the file comment. */
function localSets(cfg: CFG, u: ExpressionUniverse, index: Int32Array, kill: BitMatrix, use: BitMatrix, comp: BitMatrix): void {
  const exitReach = reachesExit(cfg);
  const num = u.numbering;
  for (const b of cfg.order) {
    const bb = cfg.blocks[b]!;
    if (!cfg.isReachable(b) || !exitReach[b]) kill.fillRow(b);
    for (let i = bb.first; i !== null; i = i.next) {
      const k = num.indexOf(i);
      if (k < 0) continue;
      for (let j = u.usersOff[k]; j < u.usersOff[k + 1]; j++) {
        const e = index[u.users[j]];
        if (e >= 0) kill.set(b, e);
      }
      const e0 = u.exprOf[k];
      const e = e0 < 0 ? -1 : index[e0];
      if (e < 0 || !cfg.isReachable(b)) continue;
      comp.set(b, e);
      if (!kill.get(b, e)) use.set(b, e);
    }
  }
}

/** dst = x ∪ (y − z) row by row (x null: y − z), over the blocks (reachable ones only when asked). */
function rowsOrAndNot(cfg: CFG, dst: BitMatrix, x: BitMatrix | null, y: BitMatrix, z: BitMatrix, reachableOnly: boolean): void {
  const w = dst.words;
  const d = dst.data;
  const xd = x === null ? null : x.data;
  const yd = y.data;
  const zd = z.data;
  for (const b of cfg.order) {
    if (reachableOnly && !cfg.isReachable(b)) continue;
    const base = b * w;
    for (let k = 0; k < w; k++) d[base + k] = (xd === null ? 0 : xd[base + k]) | (yd[base + k] & ~zd[base + k]);
  }
}

/** latest = (earliest ∪ post.in) ∩ (use ∪ ¬⋂_{S∈succ} (earliest[S] ∪ post.in[S])). */
function latestSets(cfg: CFG, earliest: BitMatrix, postIn: BitMatrix, use: BitMatrix): BitMatrix {
  const w = earliest.words;
  const latest = new BitMatrix(cfg.n, earliest.bits);
  const acc = new Uint32Array(w);
  for (const b of cfg.order) {
    if (!cfg.isReachable(b)) continue;
    const base = b * w;
    acc.fill(0xffffffff);
    for (const s of cfg.successors(b)) {
      const sb = s * w;
      for (let k = 0; k < w; k++) acc[k] &= earliest.data[sb + k] | postIn.data[sb + k];
    }
    for (let k = 0; k < w; k++) {
      latest.data[base + k] = (earliest.data[base + k] | postIn.data[base + k]) & (use.data[base + k] | ~acc[k]);
    }
  }
  return latest;
}

/** Splits critical edges P→S where P names S in exactly one successor slot; returns the new blocks. */
function splitCriticalEdges(fn: Function): BasicBlock[] {
  const cfg = computeCFG(fn);
  const edges = cfg.criticalEdges();
  const made: BasicBlock[] = [];
  for (let k = 0; k < edges.length; k += 2) {
    const p = cfg.blocks[edges[k]]!;
    const s = cfg.blocks[edges[k + 1]]!;
    const t = p.terminator()!;
    if (t.op !== Opcode.Br && t.op !== Opcode.Switch) continue;
    if (cfg.edgeCount(edges[k], edges[k + 1]) !== 1) continue;
    // LLVM's name for such blocks
    made.push(splitEdge(p, s, { name: p.name !== '' && s.name !== '' ? `${p.name}.${s.name}_crit_edge` : '' }));
  }
  return made;
}

/** Removes split blocks that received nothing: P → N → S becomes P → S again. */
function unsplit(blocks: BasicBlock[]): number {
  let kept = 0;
  for (const nb of blocks) {
    if (nb.parent === null) continue;
    if (nb.first !== nb.last) {
      kept++;
      continue;
    }
    const s = nb.first!.successor(0);
    const p = nb.singlePredecessor()!;
    const t = p.terminator()!;
    for (let j = 0; j < t.numSuccessors(); j++) if (t.successor(j) === nb) t.setSuccessor(j, s);
    s.replacePhiIncomingBlock(nb, p);
    nb.first!.eraseFromParent();
    nb.eraseFromParent();
  }
  return kept;
}

/**
 * Rewrites uses of the temporary: `defsIn` are the definitions per block (instructions in
 * block order), `uses` the redundant computations to replace and delete.
 */
class TempSSA {
  private readonly startValue = new Map<number, Value>();
  private readonly phiAt = new Map<number, Instruction>();
  private readonly created: Instruction[] = [];

  constructor(
    private readonly cfg: CFG,
    private readonly dt: DominatorTree,
    private readonly defsIn: Map<number, Instruction[]>,
    private readonly type: Type,
    private readonly name: string,
  ) {
    const defBlocks = [...defsIn.keys()];
    for (const b of iteratedDominanceFrontier(dt, defBlocks)) {
      if (!cfg.isReachable(b)) continue;
      const bb = cfg.blocks[b]!;
      const phi = new Instruction(Opcode.Phi, type, []);
      phi.blocks = [];
      if (name !== '') phi.name = `${name}.pre-phi`;
      bb.insertBefore(phi, bb.first!);
      this.phiAt.set(b, phi);
      this.created.push(phi);
    }
  }

  /** The temporary's value at the end of block b. */
  endValue(b: number): Value {
    const l = this.defsIn.get(b);
    if (l !== undefined && l.length > 0) return l[l.length - 1];
    return this.valueAtStart(b);
  }

  /** The temporary's value on entry to block b (walking up the dominator tree). */
  valueAtStart(b: number): Value {
    const chain: number[] = [];
    let x = b;
    let v: Value | null = null;
    for (;;) {
      const memo = this.startValue.get(x);
      if (memo !== undefined) {
        v = memo;
        break;
      }
      const phi = this.phiAt.get(x);
      if (phi !== undefined) {
        v = phi;
        break;
      }
      chain.push(x);
      const d = this.dt.idom[x];
      if (d < 0) {
        v = UndefValue.get(this.type);
        break;
      }
      const l = this.defsIn.get(d);
      if (l !== undefined && l.length > 0) {
        v = l[l.length - 1];
        break;
      }
      x = d;
    }
    for (const c of chain) this.startValue.set(c, v);
    if (this.phiAt.has(x)) this.startValue.set(x, v);
    return v;
  }

  /** The value a use at instruction `i` (about to be replaced) reads. */
  valueAt(i: Instruction): Value {
    const b = i.parent!.id;
    const l = this.defsIn.get(b);
    let best: Instruction | null = null;
    if (l !== undefined) {
      for (const d of l) {
        if (d.parent !== i.parent) continue;
        if (comesBefore(d, i)) best = d;
      }
    }
    return best ?? this.valueAtStart(b);
  }

  /** Fills the phis' incoming values and deletes the unused ones. */
  finish(): number {
    for (const [b, phi] of this.phiAt) {
      for (const p of this.cfg.predecessors(b)) {
        const pb = this.cfg.blocks[p]!;
        const v = this.cfg.isReachable(p) ? this.endValue(p) : UndefValue.get(this.type);
        const n = this.cfg.edgeCount(p, b);
        for (let e = 0; e < n; e++) phi.addIncoming(v, pb);
      }
    }
    // keep the phis some real instruction needs (directly or through other new phis)
    const mine = new Set(this.created);
    const live = new Set<Instruction>();
    const work: Instruction[] = [];
    for (const phi of this.created) {
      for (let u = phi.firstUse; u !== null; u = u.next) {
        if (!mine.has(u.user as Instruction)) {
          live.add(phi);
          work.push(phi);
          break;
        }
      }
    }
    while (work.length > 0) {
      const phi = work.pop()!;
      for (const u of phi.ops) {
        const v = u.value as Instruction;
        if (mine.has(v) && !live.has(v)) {
          live.add(v);
          work.push(v);
        }
      }
    }
    for (const phi of this.created) if (!live.has(phi)) phi.dropAllReferences();
    for (const phi of this.created) {
      if (live.has(phi)) continue;
      phi.replaceAllUsesWith(UndefValue.get(this.type));
      phi.eraseFromParent();
    }
    return this.created.filter((p) => p.parent !== null).length;
  }
}

function comesBefore(a: Instruction, b: Instruction): boolean {
  for (let i = a.next; i !== null; i = i.next) if (i === b) return true;
  return false;
}

export function lazyCodeMotion(fn: Function, ctx?: PassContext, trace: LCMTraceHooks | null = null): PREStats {
  const stats: PREStats = { inserted: 0, replaced: 0, splitKept: 0, skipped: 0 };
  // Rewriting one expression changes the operands of expressions built on it, so their
  // sets (computed for the old operands) are stale: they wait for the next round.
  for (let round = 0; round < 8; round++) {
    const split = splitCriticalEdges(fn);
    if (trace !== null) trace.round(round + 1);
    const r = lcmRound(fn, stats, trace);
    stats.splitKept += unsplit(split);
    if (!r) break;
  }
  if (ctx) {
    reportStats(ctx, { 'computations inserted': stats.inserted, 'redundant computations removed': stats.replaced, 'critical edges split': stats.splitKept, 'functions too large (skipped)': stats.skipped });
  }
  return stats;
}

/** One round of LCM over all expressions whose operands are untouched; returns whether it changed anything. */
function lcmRound(fn: Function, stats: PREStats, trace: LCMTraceHooks | null): boolean {
  const cfg = computeCFG(fn);
  const sets = computeLCM(fn, cfg, trace);
  if (sets === null) {
    stats.skipped++;
    return false;
  }
  if (trace !== null) trace.sets(sets);
  const dt = computeDominators(cfg);
  const E = sets.expressions.length;
  const compsOf: Instruction[][] = Array.from({ length: E }, () => []);
  for (const b of cfg.rpo) {
    for (let i = cfg.blocks[b]!.first; i !== null; i = i.next) {
      const e = sets.exprOfInst(i);
      if (e >= 0) compsOf[e].push(i);
    }
  }
  const dirty = new Set<Value>();
  let changed = false;
  for (let e = 0; e < E; e++) {
    const comps = compsOf[e];
    if (comps.length === 0) continue;
    const rep = sets.expressions[e];
    let stale = false;
    for (const c of comps) for (const u of c.ops) if (dirty.has(u.value)) stale = true;
    if (stale) continue;
    // Redundant computations: upward-exposed ones where t arrives from above. Where t
    // would be inserted at the start of a block that computes e anyway, that first
    // computation serves as the insertion. Otherwise the first computation in a block
    // defines t and later ones there use it.
    const redundant: Instruction[] = [];
    const defsIn = new Map<number, Instruction[]>();
    for (const c of comps) {
      const b = c.parent!.id;
      if (sets.use.get(b, e) && !sets.latest.get(b, e)) redundant.push(c);
      else if (defsIn.has(b)) redundant.push(c);
      else defsIn.set(b, [c]);
    }
    if (redundant.length === 0) continue;
    if (trace !== null) for (const d of defsIn.values()) trace.decide('keep', d[0], e);
    for (const b of cfg.rpo) {
      if (!sets.latest.get(b, e) || !sets.usedOut.get(b, e) || defsIn.has(b)) continue;
      const bb = cfg.blocks[b]!;
      const t = rep.clone();
      t.name = rep.name !== '' ? `${rep.name}.pre` : '';
      bb.insertBefore(t, bb.firstNonPhi()!);
      defsIn.set(b, [t]);
      stats.inserted++;
      if (trace !== null) trace.decide('insert', t, e);
    }
    const ssa = new TempSSA(cfg, dt, defsIn, rep.type, rep.name);
    for (const r of redundant) {
      if (trace !== null) trace.decide('redundant', r, e);
      r.replaceAllUsesWith(ssa.valueAt(r));
      dirty.add(r);
      stats.replaced++;
    }
    for (const r of redundant) r.eraseFromParent();
    ssa.finish();
    changed = true;
  }
  return changed;
}

export const prePass = defineCountingPass({
  name: 'pre',
  description: 'partial redundancy elimination by lazy code motion (Knoop-Rüthing-Steffen) on bit-vector data flow',
  count: (fn, ctx) => lazyCodeMotion(fn, ctx),
  // edges split for insertions and kept change the CFG even when nothing moved
  changed: (s) => s.inserted + s.replaced > 0 || s.splitKept > 0,
  preserves: (s) => (s.splitKept > 0 ? 'none' : 'cfg'),
});
