/**
 * Semi-NCA: Georgiadis, "Linear-Time Algorithms for Dominators and Related Problems"
 * (2005), as in LLVM's GenericDomTreeConstruction.h. Semidominators are computed as in
 * Lengauer and Tarjan ("A Fast Algorithm for Finding Dominators in a Flowgraph", 1979) with
 * simple path compression; immediate dominators then come from one pass in preorder:
 * idom(w) is the nearest common ancestor, in the partially built tree, of sdom(w) and
 * the DFS parent of w.
 *
 * Invariants: nodes are handled by DFS preorder number (1-based; 0 = none); while computing
 * semi(w) for number i, exactly the nodes numbered > i are "linked", and `anc` is their
 * compressed ancestor pointer; `label[v]` is the vertex of minimal semi on the compressed
 * path. `eval` keeps its own explicit stack, so deep paths cannot overflow the call stack.
 */
import { DepthFirst, Graph } from './graph.js';
import type { Tracer } from './trace.js';

/** Immediate dominators (node ids; -1 for the root and unreachable nodes). */
export function idomsSemiNCA(g: Graph, dfs: DepthFirst = new DepthFirst(g), trace: Tracer | null = null): Int32Array {
  const n = g.n;
  const count = dfs.count;
  const idom = new Int32Array(n).fill(-1);
  if (count === 0) return idom;
  const predOff = g.predOff;
  const pred = g.pred;
  const preNum = dfs.pre; // 0-based; we use num = pre + 1
  const vertex = dfs.preorder; // vertex[num - 1]
  const parentNode = dfs.parent;
  const size = count + 1;
  const semi = new Int32Array(size);
  const label = new Int32Array(size);
  const anc = new Int32Array(size);
  const idomNum = new Int32Array(size);
  const stack = new Int32Array(size);
  for (let i = 1; i <= count; i++) {
    const v = vertex[i - 1];
    semi[i] = i;
    label[i] = i;
    const p = parentNode[v];
    anc[i] = p < 0 ? 0 : preNum[p] + 1;
    idomNum[i] = anc[i];
  }

  for (let i = count; i >= 2; i--) {
    const w = vertex[i - 1];
    // Start from the DFS parent (idomNum still holds it; w's own anc is not compressed yet).
    let s = idomNum[i];
    for (let j = predOff[w]; j < predOff[w + 1]; j++) {
      const pv = preNum[pred[j]];
      if (pv < 0) continue; // unreachable predecessor
      const v = pv + 1;
      // eval(v, lastLinked = i + 1)
      let res: number;
      if (anc[v] < i + 1) {
        res = label[v];
      } else {
        let sp = 0;
        let x = v;
        do {
          stack[sp++] = x;
          x = anc[x];
        } while (anc[x] >= i + 1);
        // x is the root of the virtual tree; compress the path below it.
        let pInfo = x;
        let pLabel = label[pInfo];
        let cur = x;
        do {
          cur = stack[--sp];
          anc[cur] = anc[pInfo];
          const vLabel = label[cur];
          if (semi[pLabel] < semi[vLabel]) label[cur] = label[pInfo];
          else pLabel = vLabel;
          pInfo = cur;
        } while (sp > 0);
        res = label[cur];
      }
      const su = semi[res];
      if (su < s) s = su;
    }
    semi[i] = s;
    if (trace !== null) trace.step('semi', `  sdom(${trace.name(w)}) = ${trace.name(vertex[s - 1])} (preorder ${i}: the lowest-numbered start of a path to it through higher numbers)`, [w, vertex[s - 1]], { node: trace.name(w), sdom: trace.name(vertex[s - 1]) });
  }
  if (trace !== null) trace.step('phase', 'idoms in preorder: idom(w) = the nearest ancestor of parent(w) in the tree built so far whose number is <= sdom(w)');

  for (let i = 2; i <= count; i++) {
    const sdom = semi[i];
    let c = idomNum[i];
    const parentNum = c;
    while (c > sdom) c = idomNum[c];
    idomNum[i] = c;
    if (trace !== null) {
      const w = vertex[i - 1];
      trace.step('idom', `  idom(${trace.name(w)}) = ${trace.name(vertex[c - 1])} (climbing from parent ${trace.name(vertex[parentNum - 1])} to sdom ${trace.name(vertex[sdom - 1])} or above)`, [w, vertex[c - 1]], { node: trace.name(w), idom: trace.name(vertex[c - 1]) });
    }
  }
  for (let i = 2; i <= count; i++) idom[vertex[i - 1]] = vertex[idomNum[i] - 1];
  return idom;
}
