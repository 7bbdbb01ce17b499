/**
 * Iterated dominance frontier of a set of nodes in linear time, as LLVM's IDFCalculator
 * does (Sreedhar and Gao, "A Linear Time Algorithm for Placing φ-Nodes", POPL 1995, with
 * the priority queue of Das and Ramakrishna's simplification).
 *
 * Definition nodes go into a max-priority queue keyed by (tree depth, DFS-in number). Popping
 * a node `root`, we walk its dominator subtree; for every edge x→y out of that subtree with
 * depth(y) <= depth(root) (a join edge leaving the subtree), y is in the IDF; y then joins
 * the queue unless it is already a definition node.
 *
 * Invariants: a node is walked at most once over the whole run (`walked`), and added to the
 * result at most once (`added`), so the cost is O(nodes + edges + k log k) for k queued nodes.
 * With `liveIn`, nodes that are not live-in are never added (pruned SSA), as in LLVM.
 */
import type { DominatorTree } from './dominators.js';
import type { Tracer } from './trace.js';

export interface IdfOptions {
  trace?: Tracer;
}

/**
 * The IDF of `defs` (node ids) on `tree`'s graph, sorted by node id. On a post-dominator tree
 * this is the reverse IDF (edges followed backwards), as control dependence needs.
 */
export function iteratedDominanceFrontier(
  tree: DominatorTree,
  defs: ArrayLike<number>,
  liveIn?: ArrayLike<number> | null,
  opts: IdfOptions = {},
): Int32Array {
  const g = tree.graph;
  const n = g.n;
  const succOff = g.succOff;
  const succ = g.succ;
  const depth = tree.depth;
  const dfsIn = tree.dfsIn;
  const childOff = tree.childOff;
  const child = tree.child;
  const trace = opts.trace ?? null;

  const isDef = new Uint8Array(n);
  const walked = new Uint8Array(n);
  const added = new Uint8Array(n);
  let live: Uint8Array | null = null;
  if (liveIn != null) {
    live = new Uint8Array(n);
    for (let i = 0; i < liveIn.length; i++) live[liveIn[i]] = 1;
  }

  // Max-heap of nodes keyed by depth * (2n + 2) + dfsIn (dfsIn < 2n; exact in a double).
  const heapNode = new Int32Array(Math.max(1, n));
  const heapKey = new Float64Array(Math.max(1, n));
  let hs = 0;
  const push = (v: number): void => {
    const key = depth[v] * (2 * n + 2) + dfsIn[v];
    let i = hs++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heapKey[p] >= key) break;
      heapKey[i] = heapKey[p];
      heapNode[i] = heapNode[p];
      i = p;
    }
    heapKey[i] = key;
    heapNode[i] = v;
  };
  const pop = (): number => {
    const top = heapNode[0];
    const lastKey = heapKey[--hs];
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
    return top;
  };

  for (let i = 0; i < defs.length; i++) {
    const v = defs[i];
    if (v < 0 || v >= n || depth[v] < 0 || isDef[v]) continue;
    isDef[v] = 1;
    walked[v] = 1;
    push(v);
  }
  if (trace !== null) {
    const names: string[] = [];
    for (let i = 0; i < hs; i++) names.push(trace.name(heapNode[i]));
    trace.log(`queue <- definition blocks {${names.join(', ')}} (keyed by dominator-tree level, deepest first)`);
  }

  const result: number[] = [];
  const work = new Int32Array(Math.max(1, n));
  while (hs > 0) {
    const root = pop();
    const rootLevel = depth[root];
    if (trace !== null) trace.log(`pop ${trace.name(root)} (level ${rootLevel}): walk its dominator subtree`);
    let sp = 0;
    work[sp++] = root;
    const walkedNames: string[] | null = trace !== null ? [] : null;
    while (sp > 0) {
      const x = work[--sp];
      if (walkedNames !== null) walkedNames.push(trace!.name(x));
      for (let j = succOff[x]; j < succOff[x + 1]; j++) {
        const y = succ[j];
        const ly = depth[y];
        if (ly > rootLevel) continue;
        if (added[y]) {
          if (trace !== null) trace.log(`  edge ${trace.name(x)} -> ${trace.name(y)}: ${trace.name(y)} already handled`);
          continue;
        }
        added[y] = 1;
        if (live !== null && !live[y]) {
          if (trace !== null) trace.log(`  edge ${trace.name(x)} -> ${trace.name(y)}: ${trace.name(y)} (level ${ly}) is not live-in, pruned`);
          continue;
        }
        result.push(y);
        if (!isDef[y]) {
          // walked from here on: popped as a root later, its subtree must not be walked again
          // by a shallower root (the "walked at most once" invariant)
          walked[y] = 1;
          push(y);
          if (trace !== null) trace.log(`  edge ${trace.name(x)} -> ${trace.name(y)}: level ${ly} <= ${rootLevel}, add ${trace.name(y)} to IDF and queue it`);
        } else if (trace !== null) {
          trace.log(`  edge ${trace.name(x)} -> ${trace.name(y)}: level ${ly} <= ${rootLevel}, add ${trace.name(y)} to IDF (already a definition block, not queued)`);
        }
      }
      for (let c = childOff[x]; c < childOff[x + 1]; c++) {
        const z = child[c];
        if (walked[z]) continue;
        walked[z] = 1;
        work[sp++] = z;
      }
    }
    if (walkedNames !== null) trace!.log(`  (walked ${walkedNames.join(', ')})`);
  }
  const out = Int32Array.from(result);
  out.sort();
  if (trace !== null) trace.log(`IDF = {${Array.from(out, (v) => trace.name(v)).join(', ')}}`);
  return out;
}
