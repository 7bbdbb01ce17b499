/**
 * Redundant phi webs, Braun, Buchwald, Hack, Leißa, Mallon, Zwinkau, "Simple and Efficient
 * Construction of Static Single Assignment Form" (CC 2013), Algorithm 5: one implementation
 * for the redundant-phis pass (transforms/ssa) and copy propagation (transforms/scalar).
 *
 * A set of phis is redundant when, apart from referring to each other, its members refer to
 * exactly one other value v: all of them then always equal v (and v dominates them), so v
 * replaces them all. Trivial-phi removal (one phi at a time) misses such webs, which Braun's
 * construction leaves on irreducible control flow (two blocks entered separately that
 * branch to each other). We take the SCCs of the phi graph (phi → operand phi) in
 * topological order, operands first (Tarjan's order, analysis/scc.ts); an SCC with one
 * outer operand is replaced by it; one with several may still contain a redundant sub-web
 * among its "inner" phis (those whose operands all lie in the SCC), so the algorithm runs
 * again on them.
 *
 * The descent is the paper's, with one cut that changes no decision. Peeling inner sets is
 * quadratic on a chain: the headers of N nested loops form one SCC whose inner set loses
 * only its two ends per level, N/2 levels of N phis, and none is ever redundant (10,000
 * nested whiles took 41 s). So before descending into a top-level SCC S we compute, once,
 * which of its phis can lie in a redundant sub-web at all: a sub-web W ⊊ S with one outer
 * operand v has v ∈ S (S is strongly connected), so every operand path from a member of W
 * out of S passes through v — v dominates it in the graph of reversed operand edges rooted
 * at a virtual node X entering S's non-inner phis. Only phis whose immediate dominator
 * there is not X ("candidates") can ever be replaced during the descent, even after sibling
 * sub-webs are replaced (a replaced phi's paths out all pass through its replacement, and
 * that composes), so a sub-SCC whose inner phis include no candidate is kept without
 * looking inside: same replacements, in the same order, with the same webs.
 *
 * Invariants: Tarjan's algorithm, the dominators and the descent into inner sets all use
 * explicit stacks (a web is finished, sub-webs first, before the next one is looked at);
 * the caller's `replace` sees each web once, with the phis still in place.
 */
import { UndefValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { Value, ValueKind } from '../../ir/value.js';
import { stronglyConnectedComponents } from '../../analysis/scc.js';
import { CsrGraph } from '../../analysis/graph.js';
import { idomsSemiNCA } from '../../analysis/dominators-seminca.js';
import type { RedundantPhiTracer } from './phi-webs-trace.js';

export interface PhiWebOptions {
  /**
   * How undef and poison operands count. 'value' (Braun et al.): as any other value, so a
   * web of phis and undef is replaced by undef, and a web with no outer operand at all (a
   * cycle in unreachable code) by undef too. 'ignored' (copy propagation): left out of the
   * count, and then the web is replaced only by a constant or an argument — anything else
   * could be less defined than the undef it would stand for on some path.
   */
  undef: 'value' | 'ignored';
  /** Replaces every phi of `web` (all still in place) by `v`. */
  replace(web: readonly Instruction[], v: Value): void;
  /** Receives every SCC and decision (phi-webs-trace.ts); null: no cost. */
  trace?: RedundantPhiTracer | null;
  /**
   * Descend into every SCC with several outer operands, as the paper does, without the
   * dominator cut (the tests' reference that the cut changes nothing). Quadratic on deep nests.
   */
  exhaustive?: boolean;
}

/** Per-instruction-id scratch for the phi graph. */
class PhiGraphScratch {
  /** The stamp of the set or web being processed (membership). */
  readonly mark: Int32Array;
  /** The node number of a member in the current set. */
  readonly node: Int32Array;
  private stamp = 0;
  constructor(bound: number) {
    const n = Math.max(1, bound);
    this.mark = new Int32Array(n);
    this.node = new Int32Array(n);
    this.candidate = new Uint8Array(n);
  }
  /** Set (to 1) for the candidates of the current top-level SCC; see markCandidates. */
  readonly candidate: Uint8Array;
  next(): number {
    return ++this.stamp;
  }
  has(v: Value, stamp: number): v is Instruction {
    if (v.kind !== ValueKind.Instruction) return false;
    const i = v as Instruction;
    return i.op === Opcode.Phi && i.parent !== null && i.id >= 0 && i.id < this.mark.length && this.mark[i.id] === stamp;
  }
}

/** The SCCs of the phis in `set` (edges to operands inside `set`), operands before users. */
function phiSCCs(set: readonly Instruction[], s: PhiGraphScratch): Instruction[][] {
  const stamp = s.next();
  for (let k = 0; k < set.length; k++) {
    s.mark[set[k].id] = stamp;
    s.node[set[k].id] = k;
  }
  const off = new Int32Array(set.length + 1);
  const adj: number[] = [];
  for (let k = 0; k < set.length; k++) {
    for (const u of set[k].ops) if (s.has(u.value, stamp)) adj.push(s.node[(u.value as Instruction).id]);
    off[k + 1] = adj.length;
  }
  return stronglyConnectedComponents(set.length, off, adj).sccs.map((c) => c.map((k) => set[k]));
}

/**
 * Marks the candidates of the SCC `scc` (all members marked with stamp `sm`; `isInner[k]`
 * tells whether scc[k] has all its operands in it): the inner phis whose immediate dominator
 * is not the virtual root X in the graph X → each non-inner phi, operand → user inside the
 * SCC. Returns whether there is any.
 */
function markCandidates(scc: readonly Instruction[], isInner: Uint8Array, sm: number, s: PhiGraphScratch): boolean {
  const x = scc.length;
  for (let k = 0; k < x; k++) s.node[scc[k].id] = k;
  const edges: number[] = [];
  for (let k = 0; k < x; k++) {
    const p = scc[k];
    if (isInner[k] === 0) edges.push(x, k);
    for (const u of p.ops) if (u.value !== p && s.has(u.value, sm)) edges.push(s.node[(u.value as Instruction).id], k);
  }
  // every member reaches a non-inner one by operand edges (the SCC is strongly connected),
  // so X reaches every node
  const idom = idomsSemiNCA(CsrGraph.fromEdges(x + 1, x, edges));
  let any = false;
  for (let k = 0; k < x; k++) {
    const c = isInner[k] === 1 && idom[k] !== x;
    s.candidate[scc[k].id] = c ? 1 : 0;
    if (c) any = true;
  }
  return any;
}

/** Finds the redundant webs among `phis` (phis of `fn`) and hands each to `opts.replace`. */
export function removeRedundantPhiWebs(fn: Function, phis: readonly Instruction[], opts: PhiWebOptions): void {
  if (phis.length === 0) return;
  const s = new PhiGraphScratch(fn.instIdBound);
  const ignoreUndef = opts.undef === 'ignored';
  // the recursion of Algorithm 5 as an explicit stack of SCC lists
  const tasks: { sccs: Instruction[][]; next: number }[] = [{ sccs: phiSCCs(phis, s), next: 0 }];
  const trace = opts.trace ?? null;
  const exhaustive = opts.exhaustive === true;
  // whether a descent into `scc` can replace anything: at the top level the candidates are
  // computed (once per top-level SCC); below, the top-level ones stand
  const hasCandidate = (scc: readonly Instruction[], inner: readonly Instruction[], top: boolean, sm: number): boolean => {
    if (top) {
      const isInner = new Uint8Array(scc.length);
      for (let k = 0, j = 0; k < scc.length && j < inner.length; k++) if (scc[k] === inner[j]) (isInner[k] = 1), j++;
      return markCandidates(scc, isInner, sm, s);
    }
    for (const p of inner) if (s.candidate[p.id] === 1) return true;
    return false;
  };
  if (trace !== null) trace.sccs(phis, tasks[0].sccs, 0);
  while (tasks.length > 0) {
    const t = tasks[tasks.length - 1];
    if (t.next >= t.sccs.length) {
      tasks.pop();
      continue;
    }
    const scc = t.sccs[t.next++].filter((p) => p.parent !== null);
    if (scc.length === 0) continue;
    const sm = s.next();
    for (const p of scc) s.mark[p.id] = sm;
    // the outer operands: none, exactly one (`outer`), or several
    let outer: Value | null = null;
    let several = false;
    let sawUndef = false;
    const inner: Instruction[] = [];
    for (const p of scc) {
      let isInner = true;
      for (const u of p.ops) {
        const v = u.value;
        if (s.has(v, sm)) continue;
        isInner = false;
        if (ignoreUndef && (v.kind === ValueKind.Undef || v.kind === ValueKind.Poison)) {
          sawUndef = true;
          continue;
        }
        if (outer === null) outer = v;
        else if (v !== outer) several = true;
      }
      if (isInner) inner.push(p);
    }
    if (!several) {
      if (!ignoreUndef) {
        const v = outer ?? UndefValue.get(scc[0].type);
        if (trace !== null) trace.replace(scc, v, tasks.length - 1);
        opts.replace(scc, v);
      } else if (outer !== null && (!sawUndef || outer.kind >= ValueKind.ConstantInt || outer.kind === ValueKind.Argument)) {
        if (trace !== null) trace.replace(scc, outer, tasks.length - 1);
        opts.replace(scc, outer);
      } else if (trace !== null) trace.keep(scc, inner, tasks.length - 1);
    } else if (inner.length > 0 && inner.length < scc.length && !exhaustive && !hasCandidate(scc, inner, tasks.length === 1, sm)) {
      if (trace !== null) trace.cut(scc, inner, tasks.length - 1);
    } else if (inner.length > 0 && inner.length < scc.length) {
      tasks.push({ sccs: phiSCCs(inner, s), next: 0 });
      if (trace !== null) trace.descend(scc, inner, tasks[tasks.length - 1].sccs, tasks.length - 1);
    } else if (trace !== null) trace.keep(scc, inner, tasks.length - 1);
  }
}
