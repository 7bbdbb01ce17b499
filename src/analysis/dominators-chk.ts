/**
 * Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm" (2001); the iterative
 * algorithm of Engineering a Compiler, §9.2.
 *
 * Invariants: nodes are visited in reverse postorder; `idom` holds, for every processed node,
 * a dominator of it that only moves up the tree between passes; `intersect` walks two fingers
 * up by postorder number (a dominator always has a larger postorder number than the nodes it
 * dominates) until they meet. The loop stops when a pass changes nothing. Unreachable
 * predecessors (idom still unset) are ignored.
 */
import { DepthFirst, Graph } from './graph.js';
import type { Tracer } from './trace.js';
import { traceChkNode, traceChkRound, traceChkRoundStart } from './dominators-chk-trace.js';

/**
 * Immediate dominators of the nodes reachable from `g.root`: `idom[v]` is a node id, -1 for the
 * root and for unreachable nodes.
 */
export function idomsCHK(g: Graph, dfs: DepthFirst = new DepthFirst(g), trace: Tracer | null = null): Int32Array {
  const n = g.n;
  const rpo = dfs.rpo;
  const post = dfs.post;
  const predOff = g.predOff;
  const pred = g.pred;
  const idom = new Int32Array(n).fill(-1);
  const root = g.root;
  if (rpo.length === 0) return idom;
  idom[root] = root;
  let changed = true;
  let round = 0;
  while (changed) {
    changed = false;
    round++;
    if (trace !== null) traceChkRoundStart(trace, rpo, round);
    for (let i = 1; i < rpo.length; i++) {
      const b = rpo[i];
      let newIdom = -1;
      for (let j = predOff[b]; j < predOff[b + 1]; j++) {
        const p = pred[j];
        if (idom[p] < 0) continue;
        if (newIdom < 0) {
          newIdom = p;
          continue;
        }
        // intersect(p, newIdom)
        let f1 = p;
        let f2 = newIdom;
        while (f1 !== f2) {
          while (post[f1] < post[f2]) f1 = idom[f1];
          while (post[f2] < post[f1]) f2 = idom[f2];
        }
        newIdom = f1;
      }
      if (trace !== null) traceChkNode(trace, g, idom, b, newIdom);
      if (idom[b] !== newIdom) {
        idom[b] = newIdom;
        changed = true;
      }
    }
    if (trace !== null) traceChkRound(trace, rpo, idom, root, round, changed);
  }
  idom[root] = -1;
  return idom;
}
