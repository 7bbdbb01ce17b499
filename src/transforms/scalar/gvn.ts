/**
 * gvn: dominator-based global value numbering — Briggs, Cooper and Simpson, "Value
 * Numbering" (Software: Practice and Experience, 1997), the DVNT algorithm — plus the
 * redundant-load elimination of LLVM's GVN (a memory-dependence walk with src/analysis/alias.ts).
 *
 * Invariants:
 *  - The dominator tree is walked in preorder (explicit stack) with a scoped hash table:
 *    an expression's first computation in a block dominates every later lookup that finds
 *    it. Since SSA values are replaced as soon as they are found redundant, a value's
 *    number is the value itself.
 *  - Phis: a phi whose operands all have one number is "meaningless" and takes it (unless
 *    undef entries make it unsafe); two phis of one block with the same operand on every
 *    incoming edge are equal ("phis of equal numbers are equal").
 *  - Every instruction is first simplified (src/analysis/instsimplify.ts); pure ones are
 *    hashed like early-cse (canonical commutative/compare operands, flags intersected on
 *    a hit).
 *  - A load is replaced when the value at its address is known: scanning back from it in
 *    its block, then up the dominator tree, finds a must-alias store of the same type (the
 *    stored value) or load (its value) with no possibly-aliasing write in between — in the
 *    scanned part of each block and in EVERY block from which the load's block can be
 *    reached without passing the dominator that holds the definition (so stores inside
 *    loops or on side paths are seen). Calls that may write memory clobber everything but
 *    non-escaping allocas. When no dominating definition exists but every predecessor of
 *    the load's block has one at its end, the load becomes a phi of those values (LLVM's
 *    non-local, fully redundant load). Each query has a budget of blocks and
 *    instructions, after which the load is left alone.
 *  - The walk's answer above a block is a function of the block and the location (pointer,
 *    type) alone, so it is cached per run, like the non-local cache of LLVM's
 *    MemoryDependenceAnalysis: "the value at the top of block B" for every block the walk
 *    went through. GVN adds no writer and deletes only loads and dead pure instructions,
 *    so a cached "no value" stays true, and a cached value is checked to be still in the
 *    function. Not cached: answers cut short by the budget, and walks that skipped the
 *    querying load itself (in a loop, the load's own block lies above its latch).
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { UndefValue } from '../../ir/constants.js';
import { callMemoryEffect, isTriviallyDead, mayWriteMemory } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { storeSize } from '../../ir/layout.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import type { Type } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { BY_VALUE, expressionHash } from '../../analysis/expression-equality.js';
import { AliasAnalysis, decomposePointer, type DecomposedPointer } from '../../analysis/alias.js';
import type { CFG } from '../../analysis/cfg.js';
import type { DominatorTree } from '../../analysis/dominators.js';
import { phiDominanceQuery, simplifyInstruction } from '../../analysis/instsimplify.js';
import { DominatorTreeAnalysis } from '../../pm/analyses.js';
import { ExpressionTable, intersectFlags, isPureCSE } from './early-cse.js';
import type { PassContext } from '../../pm/pass.js';
import { defineCountingPass, reportStats } from '../../pm/define-pass.js';
import { combineMetadataForCSE } from '../utils/metadata-merge.js';

/** What a backwards scan over a block segment found for a memory query. */
const NONE = 0;
const DEF = 1;
const CLOBBER = 2;

interface MemQuery {
  ptr: Value;
  /** decomposePointer(ptr), made once per query. */
  dec: DecomposedPointer;
  size: number;
  type: Type;
  /** The load being answered (never its own definition). */
  load: Instruction;
  /** Remaining work. */
  budget: number;
  /** A scan passed over the load itself: the answer is this load's, not the location's. */
  skippedSelf: boolean;
}

/** Cached answers for one location: the value at the top of each block (null: none known). */
interface LocationAnswers {
  type: Type;
  top: Map<number, Value | null>;
}

export interface GVNStats {
  simplified: number;
  expressions: number;
  phis: number;
  loads: number;
  loadPhis: number;
  deleted: number;
}

export class GVN {
  readonly aa = new AliasAnalysis();
  stats: GVNStats = { simplified: 0, expressions: 0, phis: 0, loads: 0, loadPhis: 0, deleted: 0 };
  /** Phis by their incoming (block, value) pairs. */
  private readonly phis = new Map<string, Value>();
  /** Pure instructions by value. */
  private readonly exprs = new ExpressionTable<Value>();
  /** Undo log of both tables: a phi key with the entry it replaced, or an expression hash. */
  private readonly log: [string | number, Value | undefined][] = [];
  private found: Value | null = null;
  /** Per block id, its loads, stores, calls and other writers, and the writers alone (listMemory). */
  private readonly memory: (Instruction[] | undefined)[] = [];
  private readonly writers: (Instruction[] | undefined)[] = [];
  /** Each listed load's index in its block's memory list. */
  private readonly position = new Map<Instruction, number>();
  /** dominatingDef's region, as a stamp per block id (the query's number). */
  private regionStamp: Int32Array;
  private query = 0;
  /** dominatingDef's answers by pointer, then type (see the header). */
  private readonly answers = new Map<Value, LocationAnswers[]>();
  private readonly cfg: CFG;
  private readonly dominatesPhi: (v: Value, bb: BasicBlock) => boolean;

  constructor(
    readonly fn: Function,
    private readonly dt: DominatorTree,
    private readonly trace: ((line: string) => void) | null,
    /** Budget (instructions + blocks examined) per load query. */
    private readonly loadBudget = 4000,
  ) {
    this.cfg = dt.cfg!;
    this.dominatesPhi = phiDominanceQuery(dt);
    this.regionStamp = new Int32Array(this.cfg.n);
  }

  run(): void {
    const dt = this.dt;
    const node: number[] = [dt.root];
    const childPos: number[] = [dt.childOff[dt.root]];
    const marks: number[] = [this.log.length];
    this.processBlock(this.cfg.blocks[dt.root]!);
    while (node.length > 0) {
      const top = node.length - 1;
      const v = node[top];
      if (childPos[top] < dt.childOff[v + 1]) {
        const w = dt.child[childPos[top]++];
        node.push(w);
        childPos.push(dt.childOff[w]);
        marks.push(this.log.length);
        this.processBlock(this.cfg.blocks[w]!);
        continue;
      }
      this.undo(marks[top]);
      node.pop();
      childPos.pop();
      marks.pop();
    }
  }

  private undo(to: number): void {
    while (this.log.length > to) {
      const [k, old] = this.log.pop()!;
      if (typeof k === 'number') this.exprs.pop(k);
      else if (old === undefined) this.phis.delete(k);
      else this.phis.set(k, old);
    }
  }

  private replace(i: Instruction, v: Value, what: string): void {
    this.trace?.(`gvn: ${what} %${i.name || i.opcodeName} → ${v.name ? '%' + v.name : ValueKind[v.kind]}`);
    i.replaceAllUsesWith(v);
    // an expression equal to a dominating one is redundant even when it is a pure call not
    // known to return (reaching it means the dominating call returned)
    if (isTriviallyDead(i) || i.op === Opcode.Phi || what === 'expression') i.eraseFromParent();
  }

  private processBlock(bb: BasicBlock): void {
    for (let i = bb.first; i !== null; ) {
      const next = i.next;
      this.processInstruction(i);
      i = next;
    }
  }

  private processInstruction(i: Instruction): void {
    if (isTriviallyDead(i)) {
      i.eraseFromParent();
      this.stats.deleted++;
      return;
    }
    const s = simplifyInstruction(i, { dominatesPhi: this.dominatesPhi });
    if (s !== null) {
      this.replace(i, s, 'simplify');
      this.stats.simplified++;
      return;
    }
    if (i.op === Opcode.Phi) {
      const key = phiKey(i);
      const prev = this.phis.get(key);
      if (prev !== undefined) {
        this.replace(i, prev, 'phi');
        this.stats.phis++;
      } else {
        this.log.push([key, undefined]);
        this.phis.set(key, i);
      }
      return;
    }
    if (isPureCSE(i)) {
      const h = expressionHash(i, BY_VALUE);
      const prev = this.exprs.get(h, i);
      if (prev !== undefined) {
        intersectFlags(prev as Instruction, i);
        combineMetadataForCSE(prev as Instruction, i, false);
        this.replace(i, prev, 'expression');
        this.stats.expressions++;
      } else {
        this.log.push([h, undefined]);
        this.exprs.push(h, i, i);
      }
      return;
    }
    if (i.op === Opcode.Load && (i.flags & (Flag.Volatile | Flag.Atomic)) === 0 && i.type.isFirstClass()) {
      const v = this.availableLoad(i);
      if (v !== null) {
        // a load answered by another load: LLVM's MaterializeAdjustedValue combines their metadata
        if (v.kind === ValueKind.Instruction && (v as Instruction).op === Opcode.Load) combineMetadataForCSE(v as Instruction, i, false);
        this.replace(i, v, 'load');
        this.stats.loads++;
      }
    }
  }

  // ---- loads ------------------------------------------------------------------------------

  /** The value `load` reads when it is known without executing it, or null. */
  availableLoad(load: Instruction): Value | null {
    const ptr = load.ops[0].value;
    const q: MemQuery = { ptr, dec: decomposePointer(ptr), size: storeSize(load.type), type: load.type, load, budget: this.loadBudget, skippedSelf: false };
    const bb = load.parent!;
    const r = this.scanBefore(load, q);
    if (r === DEF) return this.found;
    if (r === CLOBBER) return null;
    const v = this.dominatingDef(bb, q, true);
    if (v !== null) return v;
    if (q.budget <= 0) return null;
    return this.phiOfPredecessors(bb, q);
  }

  private classify(i: Instruction, q: MemQuery): number {
    switch (i.op) {
      case Opcode.Store: {
        if (i.flags & (Flag.Volatile | Flag.Atomic)) return CLOBBER;
        const v = i.ops[0].value;
        const r = this.aa.aliasDecomposed(i.ops[1].value, storeSize(v.type), q.ptr, q.dec, q.size);
        if (r === 'no') return NONE;
        if (r === 'must' && v.type === q.type) {
          this.found = v;
          return DEF;
        }
        return CLOBBER;
      }
      case Opcode.Load: {
        if (i.flags & Flag.Atomic) return CLOBBER;
        // a volatile load is ordered only against volatile accesses (LLVM's MemoryDependence:
        // "volatile doesn't imply any special ordering" for a non-volatile query): a load of
        // a location it cannot alias passes it
        if (i.flags & Flag.Volatile) return this.aa.aliasDecomposed(i.ops[0].value, storeSize(i.type), q.ptr, q.dec, q.size) === 'no' ? NONE : CLOBBER;
        if (i === q.load) {
          q.skippedSelf = true;
          return NONE;
        }
        if (i.type !== q.type) return NONE;
        if (this.aa.aliasDecomposed(i.ops[0].value, storeSize(i.type), q.ptr, q.dec, q.size) === 'must') {
          this.found = i;
          return DEF;
        }
        return NONE;
      }
      case Opcode.Call: {
        const e = callMemoryEffect(i);
        if (e === 'none' || e === 'read') return NONE;
        return this.aa.isLocalUnreachableFromCalls(q.ptr) ? NONE : CLOBBER;
      }
      default:
        return mayWriteMemory(i) ? CLOBBER : NONE;
    }
  }

  /**
   * Whether a whole block may write the queried location. A block's writers are listed
   * once per run: GVN adds no writer (it inserts phis and deletes loads and dead pure
   * instructions), so the list stays true; erased entries are skipped all the same.
   */
  private blockWrites(bb: BasicBlock, q: MemQuery): boolean {
    const w = this.writers[bb.id] ?? this.listMemory(bb).writers;
    q.budget -= w.length;
    if (q.budget < 0) return true;
    for (let k = 0; k < w.length; k++) {
      const i = w[k];
      if (i.parent === bb && this.classify(i, q) !== NONE) return true;
    }
    return false;
  }

  /**
   * Scans a block backwards over its memory instructions only (listed once per run, like
   * the writers; loads GVN deletes are skipped), from its end. NONE: nothing relevant;
   * DEF: `this.found` holds the value; CLOBBER: a write that may alias.
   */
  private scanBlock(bb: BasicBlock, q: MemQuery): number {
    const m = this.memory[bb.id] ?? this.listMemory(bb).memory;
    return this.scanMemory(bb, m, m.length - 1, q);
  }

  /** `scanBlock` from just above `load` in its block: the instructions before it only. */
  private scanBefore(load: Instruction, q: MemQuery): number {
    const bb = load.parent!;
    const m = this.memory[bb.id] ?? this.listMemory(bb).memory;
    return this.scanMemory(bb, m, this.position.get(load)! - 1, q);
  }

  private scanMemory(bb: BasicBlock, m: Instruction[], from: number, q: MemQuery): number {
    for (let k = from; k >= 0; k--) {
      const i = m[k];
      if (i.parent !== bb) continue;
      if (--q.budget < 0) return CLOBBER;
      const r = this.classify(i, q);
      if (r !== NONE) return r;
    }
    return NONE;
  }

  /** Lists bb's memory instructions and, among them, its writers (once per run). */
  private listMemory(bb: BasicBlock): { memory: Instruction[]; writers: Instruction[] } {
    const memory: Instruction[] = [];
    const writers: Instruction[] = [];
    for (let i = bb.first; i !== null; i = i.next) {
      const op = i.op;
      const writes = mayWriteMemory(i);
      if (writes) writers.push(i);
      if (op === Opcode.Load) this.position.set(i, memory.length);
      if (writes || op === Opcode.Load || op === Opcode.Store || op === Opcode.Call) memory.push(i);
    }
    this.memory[bb.id] = memory;
    this.writers[bb.id] = writers;
    return { memory, writers };
  }

  /**
   * Walks up the dominators of `bb` looking for a definition of the location whose value
   * reaches the point (the end of bb when `!fromInside`, else bb's top) along every path.
   */
  private dominatingDef(bb: BasicBlock, q: MemQuery, fromInside: boolean): Value | null {
    if (!fromInside) {
      const r = this.scanBlock(bb, q);
      if (r === DEF) return this.found;
      if (r === CLOBBER) return null;
    }
    const answers = this.answersFor(q);
    const known = this.cached(answers, bb.id, q);
    if (known !== undefined) return known;
    const skipped = q.skippedSelf;
    q.skippedSelf = false;
    const tops = [bb.id];
    const v = this.walkUp(bb.id, q, answers, tops);
    // the answer holds at the top of every block the walk went through
    if (!q.skippedSelf && q.budget >= 0) for (const b of tops) answers.top.set(b, v);
    q.skippedSelf ||= skipped;
    return v;
  }

  /** The cached value at the top of block `b` for q's location, if any still holds. */
  private cached(answers: LocationAnswers, b: number, q: MemQuery): Value | null | undefined {
    const v = answers.top.get(b);
    if (v === undefined || v === null) return v;
    // a value GVN has since deleted, or the querying load (its own answer skips it)
    if ((v.kind === ValueKind.Instruction && (v as Instruction).parent === null) || v === q.load) return undefined;
    return v;
  }

  private answersFor(q: MemQuery): LocationAnswers {
    let list = this.answers.get(q.ptr);
    if (list === undefined) this.answers.set(q.ptr, (list = []));
    for (const a of list) if (a.type === q.type) return a;
    const a: LocationAnswers = { type: q.type, top: new Map() };
    list.push(a);
    return a;
  }

  /**
   * The value at the top of block `start`: grows the region of blocks that reach it without
   * passing its immediate dominator d, which must not write the location; then d is scanned
   * from its end, and the walk goes on above d. Pushes each dominator passed onto `tops`.
   */
  private walkUp(start: number, q: MemQuery, answers: LocationAnswers, tops: number[]): Value | null {
    const cfg = this.cfg;
    const dt = this.dt;
    const stamp = this.regionStamp;
    const query = ++this.query;
    const frontier: number[] = [];
    for (const p of cfg.predecessors(start)) frontier.push(p);
    let d = dt.idom[start];
    while (d >= 0) {
      // grow the region backwards from the frontier, stopping at d
      while (frontier.length > 0) {
        const x = frontier.pop()!;
        if (x === d || stamp[x] === query) continue;
        if (!cfg.isReachable(x)) continue;
        stamp[x] = query;
        if (--q.budget < 0) return null;
        if (this.blockWrites(cfg.blocks[x]!, q)) return null;
        for (const p of cfg.predecessors(x)) frontier.push(p);
      }
      const r = this.scanBlock(cfg.blocks[d]!, q);
      if (r === DEF) return this.found;
      if (r === CLOBBER) return null;
      // d is clean: the answer at its top is the answer here
      const known = this.cached(answers, d, q);
      if (known !== undefined) return known;
      tops.push(d);
      stamp[d] = query;
      for (const p of cfg.predecessors(d)) frontier.push(p);
      d = dt.idom[d];
    }
    return null;
  }

  /** Every predecessor has the value at its end: a phi of them replaces the load. */
  private phiOfPredecessors(bb: BasicBlock, q: MemQuery): Value | null {
    const cfg = this.cfg;
    const preds = cfg.predecessors(bb.id);
    if (preds.length < 2) return null;
    const vals: Value[] = [];
    for (const p of preds) {
      if (!cfg.isReachable(p)) {
        vals.push(UndefValue.get(q.type));
        continue;
      }
      const v = this.dominatingDef(cfg.blocks[p]!, q, false);
      if (v === null || v === q.load) return null;
      vals.push(v);
    }
    // one value everywhere: it dominates every predecessor, hence bb
    let same = true;
    for (const v of vals) if (v !== vals[0] || v.kind === ValueKind.Undef) same = false;
    for (let k = 0; k < vals.length; k++) {
      const v = vals[k];
      if (v.kind === ValueKind.Instruction && (v as Instruction).op === Opcode.Load && vals.indexOf(v) === k && !same) combineMetadataForCSE(v as Instruction, q.load, false);
    }
    if (same) return vals[0];
    const phi = new Instruction(Opcode.Phi, q.type, []);
    phi.blocks = [];
    phi.name = q.load.name !== '' ? q.load.name + '.pre' : '';
    for (let k = 0; k < preds.length; k++) {
      const p = cfg.blocks[preds[k]]!;
      const n = cfg.edgeCount(preds[k], bb.id);
      for (let e = 0; e < n; e++) phi.addIncoming(vals[k], p);
    }
    bb.insertBefore(phi, bb.first!);
    this.stats.loadPhis++;
    return phi;
  }
}

function phiKey(i: Instruction): string {
  const pairs: string[] = [];
  for (let k = 0; k < i.ops.length; k++) pairs.push(`${i.blocks![k].id}:${i.ops[k].value.uid}`);
  pairs.sort();
  return `phi|${i.parent!.id}|${i.type.toString()}|${pairs.join(',')}`;
}

export function globalValueNumbering(fn: Function, ctx: PassContext): GVNStats {
  const dt = ctx.analyses.get(DominatorTreeAnalysis);
  const g = new GVN(fn, dt, ctx.trace);
  g.run();
  const s = g.stats;
  reportStats(ctx, { 'instructions simplified': s.simplified, 'redundant expressions': s.expressions, 'redundant phis': s.phis, 'loads deleted': s.loads, 'loads turned into phis': s.loadPhis, 'dead instructions deleted': s.deleted });
  return s;
}

export const gvnPass = defineCountingPass({
  name: 'gvn',
  description: 'global value numbering over the dominator tree (DVNT) with phi numbering and alias-aware redundant load elimination',
  count: (fn, ctx) => globalValueNumbering(fn, ctx),
  changed: (s) => s.simplified + s.expressions + s.phis + s.loads + s.deleted > 0,
  preserves: 'cfg',
});
