/**
 * The dominator tree, built from immediate dominators computed by either algorithm:
 * Cooper–Harvey–Kennedy's iterative one (dominators-chk.ts) or Semi-NCA (dominators-seminca.ts).
 *
 * Invariants:
 *  - Only nodes reachable from the root are in the tree: `depth[v] === -1` otherwise.
 *  - `dfsIn`/`dfsOut` number a DFS of the tree (one counter for both), so
 *    `a` dominates `b` iff dfsIn[a] <= dfsIn[b] && dfsOut[b] <= dfsOut[a]: O(1) queries.
 *  - Children are listed in increasing node id (layout order after `fn.renumber()`).
 *  - Queries follow LLVM's convention: an unreachable block is dominated by every block and
 *    dominates none but itself.
 *
 * The same class holds post-dominator trees (postdom.ts): there the graph is the reverse CFG
 * with an extra virtual-exit node (`virtualRoot`) as root.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { Function } from '../ir/function.js';
import { CFG } from './cfg.js';
import { idomsCHK } from './dominators-chk.js';
import { idomsSemiNCA } from './dominators-seminca.js';
import { DepthFirst, Graph } from './graph.js';

export type DominatorAlgorithm = 'chk' | 'seminca';

export interface DominatorOptions {
  /** 'seminca' (default; near-linear) or 'chk' (iterative). */
  algorithm?: DominatorAlgorithm;
}

export class DominatorTree {
  /** The graph the tree was computed on (the CFG, or the reverse CFG for post-dominators). */
  readonly graph: Graph;
  /** The function's CFG (null for trees built on plain graphs). */
  readonly cfg: CFG | null;
  readonly n: number;
  readonly root: number;
  /** Immediate dominator of each node (-1 for the root and unreachable nodes). */
  readonly idom: Int32Array;
  /** Depth in the tree (root = 0; -1 = not in the tree). LLVM calls it the level. */
  readonly depth: Int32Array;
  readonly dfsIn: Int32Array;
  readonly dfsOut: Int32Array;
  readonly childOff: Int32Array;
  readonly child: Int32Array;
  /** Nodes of the tree in DFS preorder (children in increasing id). */
  readonly preorder: Int32Array;
  /** True for a post-dominator tree. */
  readonly isPostDom: boolean;
  /** The virtual exit node of a post-dominator tree (-1 for dominator trees). */
  readonly virtualRoot: number;

  constructor(graph: Graph, idom: Int32Array, cfg: CFG | null = null, isPostDom = false) {
    const n = graph.n;
    this.graph = graph;
    this.cfg = cfg;
    this.n = n;
    this.root = graph.root;
    this.idom = idom;
    this.isPostDom = isPostDom;
    this.virtualRoot = isPostDom ? graph.root : -1;
    const root = graph.root;

    const childOff = new Int32Array(n + 1);
    for (let v = 0; v < n; v++) if (idom[v] >= 0) childOff[idom[v] + 1]++;
    for (let v = 0; v < n; v++) childOff[v + 1] += childOff[v];
    const child = new Int32Array(childOff[n]);
    const fill = childOff.slice(0, n);
    for (let v = 0; v < n; v++) if (idom[v] >= 0) child[fill[idom[v]]++] = v;
    this.childOff = childOff;
    this.child = child;

    const depth = new Int32Array(n).fill(-1);
    const dfsIn = new Int32Array(n).fill(-1);
    const dfsOut = new Int32Array(n).fill(-1);
    const preorder = new Int32Array(child.length + 1);
    let pn = 0;
    if (root >= 0 && root < n) {
      const stack = new Int32Array(child.length + 1);
      const cursor = new Int32Array(child.length + 1);
      let sp = 0;
      let clock = 0;
      depth[root] = 0;
      dfsIn[root] = clock++;
      preorder[pn++] = root;
      stack[0] = root;
      cursor[0] = childOff[root];
      sp = 1;
      while (sp > 0) {
        const top = sp - 1;
        const v = stack[top];
        const c = cursor[top];
        if (c < childOff[v + 1]) {
          cursor[top] = c + 1;
          const w = child[c];
          depth[w] = depth[v] + 1;
          dfsIn[w] = clock++;
          preorder[pn++] = w;
          stack[sp] = w;
          cursor[sp] = childOff[w];
          sp++;
        } else {
          dfsOut[v] = clock++;
          sp--;
        }
      }
    }
    this.depth = depth;
    this.dfsIn = dfsIn;
    this.dfsOut = dfsOut;
    this.preorder = pn === preorder.length ? preorder : preorder.slice(0, pn);
  }

  /** Whether node `v` is in the tree (reachable from the root). */
  isReachable(v: number): boolean {
    return this.depth[v] >= 0;
  }

  /** Whether `a` dominates `b` (reflexive). Unreachable `b`: true; unreachable `a` (≠ b): false. */
  dominates(a: number, b: number): boolean {
    if (a === b) return true;
    const dfsIn = this.dfsIn;
    if (dfsIn[b] < 0) return true;
    if (dfsIn[a] < 0) return false;
    return dfsIn[a] < dfsIn[b] && this.dfsOut[b] < this.dfsOut[a];
  }

  /** Whether `a` dominates `b` and a !== b. */
  strictlyDominates(a: number, b: number): boolean {
    return a !== b && this.dominates(a, b);
  }

  /** `dominates` on blocks of the tree's function. */
  dominatesBlock(a: BasicBlock, b: BasicBlock): boolean {
    return this.dominates(a.id, b.id);
  }

  /** The tree children of `v` (in increasing id). */
  children(v: number): Int32Array {
    return this.child.subarray(this.childOff[v], this.childOff[v + 1]);
  }

  /**
   * The deepest node dominating both `a` and `b` (LLVM's findNearestCommonDominator), or -1
   * when either is not in the tree. O(depth).
   */
  nearestCommonDominator(a: number, b: number): number {
    const depth = this.depth;
    const idom = this.idom;
    if (depth[a] < 0 || depth[b] < 0) return -1;
    while (depth[a] > depth[b]) a = idom[a];
    while (depth[b] > depth[a]) b = idom[b];
    while (a !== b) {
      a = idom[a];
      b = idom[b];
    }
    return a;
  }

  /** The block of node `v` (null for holes, the virtual exit, or graph-only trees). */
  blockOf(v: number): BasicBlock | null {
    return this.cfg === null ? null : this.cfg.blockOf(v);
  }
}

/** Immediate dominators of a plain graph by the chosen algorithm. */
export function computeIdoms(g: Graph, algorithm: DominatorAlgorithm = 'seminca', dfs?: DepthFirst): Int32Array {
  switch (algorithm) {
    case 'chk':
      return idomsCHK(g, dfs);
    case 'seminca':
      return idomsSemiNCA(g, dfs);
    default:
      throw new Error(`unknown dominator algorithm '${algorithm as string}' (expected chk or seminca)`);
  }
}

/** The dominator tree of a plain graph (tests, benchmarks). */
export function dominatorTreeOfGraph(g: Graph, opts: DominatorOptions = {}): DominatorTree {
  return new DominatorTree(g, computeIdoms(g, opts.algorithm));
}

/** The dominator tree of a function (or of an already computed CFG). */
export function computeDominators(fn: Function | CFG, opts: DominatorOptions = {}): DominatorTree {
  const cfg = fn instanceof CFG ? fn : new CFG(fn);
  return new DominatorTree(cfg, computeIdoms(cfg, opts.algorithm, cfg.dfs), cfg);
}
