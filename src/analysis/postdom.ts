/**
 * Post-dominators: dominators of the reverse CFG rooted at a virtual exit, with LLVM's choice
 * of which blocks the virtual exit connects to (GenericDomTreeConstruction.h, FindRoots and
 * RemoveRedundantRoots), so our trees equal `opt -passes='print<postdomtree>'`.
 *
 * Roots (the virtual exit's children in the reverse graph):
 *  1. trivial roots: every block without successors (ret, unreachable), in layout order;
 *     everything that reaches one of them is "covered";
 *  2. for every block (in layout order) still not covered — it lies on or leads into an
 *     infinite loop — a forward DFS from it (successors visited highest layout position
 *     first, as LLVM's sorted worklist does) finds the last block it numbers, the
 *     "furthest away" one; that block becomes a root and everything reaching it is covered;
 *  3. a non-trivial root from which another root is reachable is dropped (it is covered
 *     through that root); with the order of step 2 this keeps exactly the roots that reach
 *     no other root.
 * Every block of the function is therefore in the tree, unreachable ones included.
 *
 * Node ids: blocks keep their ids; the virtual exit is node `cfg.n` (`tree.virtualRoot`).
 */
import type { Function } from '../ir/function.js';
import { CFG } from './cfg.js';
import { DominatorAlgorithm, DominatorTree, computeIdoms } from './dominators.js';
import { CsrGraph, Graph } from './graph.js';

export interface PostDominatorOptions {
  algorithm?: DominatorAlgorithm;
}

export class PostDominatorTree extends DominatorTree {
  /** The blocks the virtual exit is connected to (LLVM's `Roots`). */
  readonly roots: Int32Array;

  constructor(graph: Graph, idom: Int32Array, cfg: CFG, roots: Int32Array) {
    super(graph, idom, cfg, true);
    this.roots = roots;
  }

  /** The immediate post-dominator of block `b`, or -1 when it is the virtual exit. */
  ipdom(b: number): number {
    const p = this.idom[b];
    return p === this.virtualRoot ? -1 : p;
  }

  /** Whether `a` post-dominates `b` (reflexive). */
  postDominates(a: number, b: number): boolean {
    return this.dominates(a, b);
  }
}

/** LLVM's post-dominator tree roots, in the order LLVM lists them. */
export function postDominatorRoots(cfg: CFG): Int32Array {
  const n = cfg.n;
  const order = cfg.order;
  const succOff = cfg.succOff;
  const succ = cfg.succ;
  const predOff = cfg.predOff;
  const pred = cfg.pred;
  const layout = cfg.layoutIndex;
  const covered = new Uint8Array(n);
  const roots: number[] = [];
  let stack = new Int32Array(Math.max(16, n));
  let sp = 0;
  const pushStack = (v: number): void => {
    if (sp === stack.length) {
      const s2 = new Int32Array(sp * 2);
      s2.set(stack);
      stack = s2;
    }
    stack[sp++] = v;
  };
  const coverBackwards = (r: number): void => {
    sp = 0;
    if (covered[r]) return;
    covered[r] = 1;
    pushStack(r);
    while (sp > 0) {
      const v = stack[--sp];
      for (let j = predOff[v]; j < predOff[v + 1]; j++) {
        const p = pred[j];
        if (!covered[p]) {
          covered[p] = 1;
          pushStack(p);
        }
      }
    }
  };

  for (const b of order) {
    if (succOff[b + 1] === succOff[b]) {
      roots.push(b);
      coverBackwards(b);
    }
  }
  let nonTrivial = false;
  const seen = new Int32Array(n).fill(-1);
  const sorted: number[] = [];
  for (const start of order) {
    if (covered[start]) continue;
    nonTrivial = true;
    // Forward preorder DFS as LLVM's runDFS: a node is numbered when popped; successors are
    // pushed in increasing layout position, so the highest one is explored first.
    let last = start;
    sp = 0;
    pushStack(start);
    while (sp > 0) {
      const v = stack[--sp];
      if (seen[v] === start || covered[v]) continue;
      seen[v] = start;
      last = v;
      const s0 = succOff[v];
      const s1 = succOff[v + 1];
      if (s1 - s0 > 1) {
        sorted.length = 0;
        for (let j = s0; j < s1; j++) sorted.push(succ[j]);
        sorted.sort((a, b) => layout[a] - layout[b]);
        for (const w of sorted) pushStack(w);
      } else if (s1 > s0) {
        pushStack(succ[s0]);
      }
    }
    roots.push(last);
    coverBackwards(last);
  }
  if (!nonTrivial) return Int32Array.from(roots);

  // Remove redundant non-trivial roots (LLVM: swap with the last root and pop).
  const isRoot = new Uint8Array(n);
  for (const r of roots) isRoot[r] = 1;
  const mark = new Int32Array(n).fill(-1);
  for (let i = 0; i < roots.length; i++) {
    const r = roots[i];
    if (succOff[r + 1] === succOff[r]) continue;
    let reachesOther = false;
    sp = 0;
    mark[r] = r;
    pushStack(r);
    while (sp > 0 && !reachesOther) {
      const v = stack[--sp];
      for (let j = succOff[v]; j < succOff[v + 1]; j++) {
        const w = succ[j];
        if (mark[w] === r) continue;
        mark[w] = r;
        if (isRoot[w]) {
          reachesOther = true;
          break;
        }
        pushStack(w);
      }
    }
    if (reachesOther) {
      isRoot[r] = 0;
      roots[i] = roots[roots.length - 1];
      roots.pop();
      i--;
    }
  }
  return Int32Array.from(roots);
}

/**
 * The reverse CFG plus a virtual exit node `cfg.n` whose successors (in the reverse graph)
 * are `roots`: node v's successors are its CFG predecessors.
 */
export function reverseGraphWithExit(cfg: CFG, roots: Int32Array): CsrGraph {
  const n = cfg.n;
  const N = n + 1;
  const m = cfg.succ.length + roots.length;
  // reverse successors = CFG preds (+ nothing); virtual exit's successors = roots
  const rSuccOff = new Int32Array(N + 1);
  rSuccOff.set(cfg.predOff);
  rSuccOff[N] = m;
  const rSucc = new Int32Array(m);
  rSucc.set(cfg.pred);
  rSucc.set(roots, cfg.pred.length);
  // reverse predecessors = CFG succs, plus the virtual exit for each root
  const isRoot = new Uint8Array(n);
  for (const r of roots) isRoot[r] = 1;
  const rPredOff = new Int32Array(N + 1);
  for (let v = 0; v < n; v++) rPredOff[v + 1] = rPredOff[v] + (cfg.succOff[v + 1] - cfg.succOff[v]) + isRoot[v];
  rPredOff[N] = rPredOff[n];
  const rPred = new Int32Array(m);
  for (let v = 0; v < n; v++) {
    let k = rPredOff[v];
    for (let j = cfg.succOff[v]; j < cfg.succOff[v + 1]; j++) rPred[k++] = cfg.succ[j];
    if (isRoot[v]) rPred[k++] = n;
  }
  return new CsrGraph(N, n, rSuccOff, rSucc, rPredOff, rPred);
}

/** The post-dominator tree of a function (LLVM's roots; every block is in it). */
export function postDominators(fn: Function | CFG, opts: PostDominatorOptions = {}): PostDominatorTree {
  const cfg = fn instanceof CFG ? fn : new CFG(fn);
  const roots = postDominatorRoots(cfg);
  const g = reverseGraphWithExit(cfg, roots);
  return new PostDominatorTree(g, computeIdoms(g, opts.algorithm), cfg, roots);
}
