/**
 * Iterated dominance frontiers, as LLVM's IDFCalculator: the blocks where a variable
 * defined in a given set of blocks needs a phi. Two strategies over one set of buffers:
 *
 *  - `calculate`: Sreedhar and Gao, "A Linear Time Algorithm for Placing φ-Nodes" (POPL
 *    1995), with the priority queue of Das and Ramakrishna. Definition nodes go into a
 *    max-priority queue keyed by (tree depth, DFS-in number). Popping a node `root`, we walk
 *    its dominator subtree; for every edge x→y out of that subtree with depth(y) <=
 *    depth(root) (a join edge leaving the subtree), y is in the IDF; y then joins the queue
 *    unless it is already a definition node. O(nodes + edges + k log k) for k queued nodes.
 *  - `calculateFromFrontiers`: Cytron et al.'s worklist over precomputed dominance frontiers
 *    (`frontiers`), cheaper for definitions high in the tree, whose frontiers are small.
 *
 * A calculator keeps its buffers between queries and clears nothing: every mark is an epoch
 * stamp, so a query costs what it visits, not the size of the function. mem2reg asks one
 * query per variable; with 100,000 variables in a function of 100,000 blocks, per-query
 * arrays would cost 10^10. `iteratedDominanceFrontier` is the one-query form.
 *
 * Invariants: within one query a node is walked at most once (`walked`) and reported at
 * most once (`added`); nodes are popped deepest level first, so a join node is found from
 * the deepest definition that reaches it; with a live-in set, blocks where the variable is
 * not live are never reported (pruned SSA, no dead phis), as in LLVM. On a post-dominator
 * tree the result is the reverse IDF (edges followed backwards), as control dependence needs.
 */
import type { DominatorTree } from './dominators.js';
import type { Tracer } from './trace.js';

export interface IdfOptions {
  trace?: Tracer;
}

/**
 * The IDF of `defs` (node ids) on `tree`'s graph, sorted by node id; with `liveIn`, only
 * nodes in it are reported (pruned SSA). `trace` explains each step.
 */
export function iteratedDominanceFrontier(
  tree: DominatorTree,
  defs: ArrayLike<number>,
  liveIn?: ArrayLike<number> | null,
  opts: IdfOptions = {},
): Int32Array {
  const n = tree.n;
  const calc = new IDFCalculator(tree);
  let live: Int32Array | null = null;
  if (liveIn != null) {
    live = new Int32Array(Math.max(1, n));
    for (let i = 0; i < liveIn.length; i++) live[liveIn[i]] = 1;
  }
  const d = Int32Array.from(defs);
  const trace = opts.trace ?? null;
  const k = calc.calculate(d, d.length, live, 1, trace);
  const out = calc.result.slice(0, k);
  out.sort();
  if (trace !== null) trace.log(`IDF = {${Array.from(out, (v) => trace.name(v)).join(', ')}}`);
  return out;
}

/** Dominance frontiers as CSR arrays: DF(v) = list[off[v] .. off[v+1]). */
export interface Frontiers {
  off: Int32Array;
  list: Int32Array;
}

export class IDFCalculator {
  tree: DominatorTree;
  private n = 0;
  private epoch = 0;
  private defStamp: Int32Array = new Int32Array(0);
  private walked: Int32Array = new Int32Array(0);
  private added: Int32Array = new Int32Array(0);
  private heapNode: Int32Array = new Int32Array(0);
  private heapKey: Float64Array = new Float64Array(0);
  private work: Int32Array = new Int32Array(0);
  private keyScale = 1;
  // the frontiers of the current tree (computed on request, into reused arrays)
  private dfOff: Int32Array = new Int32Array(0);
  private dfList: Int32Array = new Int32Array(0);
  private dfFor: DominatorTree | null = null;
  /** Result of the last query (block ids, unsorted), valid until the next query. */
  result: Int32Array;
  resultLength = 0;

  constructor(tree: DominatorTree) {
    this.tree = tree;
    this.result = new Int32Array(16);
    this.retarget(tree);
  }

  /** Serves queries on another tree, keeping (and growing) the buffers. */
  retarget(tree: DominatorTree): void {
    this.tree = tree;
    const n = tree.n;
    this.n = n;
    const m = Math.max(1, n);
    if (this.defStamp.length < m) {
      // fresh arrays start at 0, below every epoch handed out so far
      const cap = Math.max(m, this.defStamp.length * 2);
      this.defStamp = new Int32Array(cap);
      this.walked = new Int32Array(cap);
      this.added = new Int32Array(cap);
      this.heapNode = new Int32Array(cap);
      this.heapKey = new Float64Array(cap);
      this.work = new Int32Array(cap);
    }
    // dfsIn counts entries and exits with one clock, so it ranges up to 2n.
    this.keyScale = 2 * n + 1;
  }

  /**
   * The dominance frontier of every node of the current tree, by the "runner" walk of
   * Cooper, Harvey and Kennedy (as src/analysis/frontier-runner.ts), counted first and then
   * filled, into arrays reused from one function to the next.
   */
  frontiers(): Frontiers {
    const tree = this.tree;
    if (this.dfFor === tree) return { off: this.dfOff, list: this.dfList };
    const g = tree.graph;
    const n = this.n;
    const predOff = g.predOff;
    const pred = g.pred;
    const idom = tree.idom;
    const depth = tree.depth;
    if (this.dfOff.length < n + 1) this.dfOff = new Int32Array(Math.max(n + 1, this.dfOff.length * 2));
    const off = this.dfOff;
    off.fill(0, 0, n + 1);
    const mark = this.added; // stamps: the epoch of node b's visit
    for (let pass = 0; pass < 2; pass++) {
      const fill = pass === 1;
      for (let b = 0; b < n; b++) {
        if (depth[b] < 0) continue;
        const e0 = predOff[b];
        const e1 = predOff[b + 1];
        if (e1 - e0 < 2) continue; // a single predecessor is b's idom: nothing to add
        const stop = idom[b];
        const stamp = ++this.epoch;
        for (let j = e0; j < e1; j++) {
          let r = pred[j];
          if (depth[r] < 0) continue;
          while (r !== stop && r >= 0) {
            if (mark[r] !== stamp) {
              mark[r] = stamp;
              if (fill) this.dfList[off[r]++] = b;
              else off[r + 1]++;
            }
            r = idom[r];
          }
        }
      }
      if (!fill) {
        for (let v = 0; v < n; v++) off[v + 1] += off[v];
        if (this.dfList.length < off[n]) this.dfList = new Int32Array(Math.max(off[n], this.dfList.length * 2));
      } else {
        // off[v] advanced to the end of v's range: shift back
        for (let v = n; v > 0; v--) off[v] = off[v - 1];
        off[0] = 0;
      }
    }
    this.dfFor = tree;
    return { off: this.dfOff, list: this.dfList };
  }

  /**
   * The IDF of `defs[0..nDefs)` (block ids). When `live` is given, only blocks `b` with
   * `live[b] === liveMark` are reported (and they alone join the queue as new definitions).
   * Returns the number of blocks in `this.result`.
   */
  calculate(defs: Int32Array, nDefs: number, live: Int32Array | null, liveMark: number, trace: Tracer | null = null): number {
    const tree = this.tree;
    const g = tree.graph;
    const succOff = g.succOff;
    const succ = g.succ;
    const depth = tree.depth;
    const dfsIn = tree.dfsIn;
    const childOff = tree.childOff;
    const child = tree.child;
    const defStamp = this.defStamp;
    const walked = this.walked;
    const added = this.added;
    const heapNode = this.heapNode;
    const heapKey = this.heapKey;
    const work = this.work;
    const scale = this.keyScale;
    const n = this.n;
    const epoch = ++this.epoch;
    let hs = 0;
    let out = 0;

    for (let i = 0; i < nDefs; i++) {
      const v = defs[i];
      if (v < 0 || v >= n || depth[v] < 0 || defStamp[v] === epoch) continue;
      defStamp[v] = epoch;
      walked[v] = epoch;
      hs = this.push(hs, v, depth[v] * scale + dfsIn[v]);
    }
    if (trace !== null) {
      const names: string[] = [];
      for (let i = 0; i < hs; i++) names.push(trace.name(heapNode[i]));
      trace.log(`queue <- definition blocks {${names.join(', ')}} (keyed by dominator-tree level, deepest first)`);
    }

    while (hs > 0) {
      // pop the max
      const root = heapNode[0];
      hs--;
      if (hs > 0) {
        const lastKey = heapKey[hs];
        const lastNode = heapNode[hs];
        let i = 0;
        for (;;) {
          let c = 2 * i + 1;
          if (c >= hs) break;
          if (c + 1 < hs && heapKey[c + 1] > heapKey[c]) c++;
          if (heapKey[c] <= lastKey) break;
          heapKey[i] = heapKey[c];
          heapNode[i] = heapNode[c];
          i = c;
        }
        heapKey[i] = lastKey;
        heapNode[i] = lastNode;
      }
      const rootLevel = depth[root];
      if (trace !== null) trace.log(`pop ${trace.name(root)} (level ${rootLevel}): walk its dominator subtree`);
      const walkedNames: string[] | null = trace !== null ? [] : null;
      let sp = 0;
      work[sp++] = root;
      while (sp > 0) {
        const x = work[--sp];
        if (walkedNames !== null) walkedNames.push(trace!.name(x));
        for (let j = succOff[x], e = succOff[x + 1]; j < e; j++) {
          const y = succ[j];
          const ly = depth[y];
          if (ly > rootLevel) continue;
          if (added[y] === epoch) {
            if (trace !== null) trace.log(`  edge ${trace.name(x)} -> ${trace.name(y)}: ${trace.name(y)} already handled`);
            continue;
          }
          added[y] = epoch;
          if (live !== null && live[y] !== liveMark) {
            if (trace !== null) trace.log(`  edge ${trace.name(x)} -> ${trace.name(y)}: ${trace.name(y)} (level ${ly}) is not live-in, pruned`);
            continue;
          }
          if (out === this.result.length) {
            const grown = new Int32Array(out * 2);
            grown.set(this.result);
            this.result = grown;
          }
          this.result[out++] = y;
          if (defStamp[y] !== epoch) {
            hs = this.push(hs, y, ly * scale + dfsIn[y]);
            if (trace !== null) trace.log(`  edge ${trace.name(x)} -> ${trace.name(y)}: level ${ly} <= ${rootLevel}, add ${trace.name(y)} to IDF and queue it`);
          } else if (trace !== null) {
            trace.log(`  edge ${trace.name(x)} -> ${trace.name(y)}: level ${ly} <= ${rootLevel}, add ${trace.name(y)} to IDF (already a definition block, not queued)`);
          }
        }
        for (let c = childOff[x], e = childOff[x + 1]; c < e; c++) {
          const z = child[c];
          if (walked[z] === epoch) continue;
          walked[z] = epoch;
          work[sp++] = z;
        }
      }
      if (walkedNames !== null) trace!.log(`  (walked ${walkedNames.join(', ')})`);
    }
    this.resultLength = out;
    return out;
  }

  /**
   * The same set by Cytron et al.'s worklist over precomputed dominance frontiers: a node
   * joins the result (and the worklist) when it is in the frontier of a definition or of a
   * node already in the result, and is live-in. The cost is the size of the frontiers it
   * reads — nothing for a definition in the entry block, whose frontier is empty, while the
   * tree walk of `calculate` visits every block below each definition.
   */
  calculateFromFrontiers(df: Frontiers, defs: Int32Array, nDefs: number, live: Int32Array | null, liveMark: number): number {
    const depth = this.tree.depth;
    const defStamp = this.defStamp;
    const added = this.added;
    const work = this.work;
    const off = df.off;
    const list = df.list;
    const n = this.n;
    const epoch = ++this.epoch;
    let sp = 0;
    let out = 0;
    for (let i = 0; i < nDefs; i++) {
      const v = defs[i];
      if (v < 0 || v >= n || depth[v] < 0 || defStamp[v] === epoch) continue;
      defStamp[v] = epoch;
      work[sp++] = v;
    }
    while (sp > 0) {
      const x = work[--sp];
      for (let j = off[x], e = off[x + 1]; j < e; j++) {
        const y = list[j];
        if (added[y] === epoch) continue;
        added[y] = epoch;
        if (live !== null && live[y] !== liveMark) continue;
        if (out === this.result.length) {
          const grown = new Int32Array(out * 2);
          grown.set(this.result);
          this.result = grown;
        }
        this.result[out++] = y;
        if (defStamp[y] !== epoch) work[sp++] = y;
      }
    }
    this.resultLength = out;
    return out;
  }

  private push(hs: number, v: number, key: number): number {
    const heapNode = this.heapNode;
    const heapKey = this.heapKey;
    let i = hs;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heapKey[p] >= key) break;
      heapKey[i] = heapKey[p];
      heapNode[i] = heapNode[p];
      i = p;
    }
    heapKey[i] = key;
    heapNode[i] = v;
    return hs + 1;
  }
}
