/**
 * Dominance frontiers by the "runner" walk of Cooper, Harvey and Kennedy, "A Simple, Fast
 * Dominance Algorithm" (2001), Figure 5.
 *
 * For every node b and every (reachable) predecessor p of b, a runner climbs the dominator
 * tree from p up to, but excluding, idom(b); b is in the frontier of every node it passes.
 * Invariant: `mark[r] === b` iff b was already added to DF(r), so each pair is added once
 * and the work is proportional to the output plus the edges. Nodes with a single predecessor
 * p have idom = p, so their walk is empty (the paper only visits join nodes; visiting all
 * nodes also covers a root with predecessors, which plain graphs may have).
 */
import { PairBuffer } from './csr.js';
import type { DominatorTree } from './dominators.js';
import type { Tracer } from './trace.js';

export function frontierPairsRunner(tree: DominatorTree, out: PairBuffer, trace: Tracer | null = null): void {
  const g = tree.graph;
  const n = g.n;
  const predOff = g.predOff;
  const pred = g.pred;
  const idom = tree.idom;
  const depth = tree.depth;
  const mark = new Int32Array(n).fill(-1);
  for (let b = 0; b < n; b++) {
    if (depth[b] < 0) continue;
    const stop = idom[b];
    if (trace !== null) {
      let np = 0;
      for (let j = predOff[b]; j < predOff[b + 1]; j++) if (depth[pred[j]] >= 0) np++;
      if (np < 2 && !(np === 1 && pred[predOff[b]] !== stop)) continue;
      const ps: string[] = [];
      for (let j = predOff[b]; j < predOff[b + 1]; j++) if (depth[pred[j]] >= 0) ps.push(trace.name(pred[j]));
      trace.log(`join ${trace.name(b)}: preds {${ps.join(', ')}}, idom ${stop < 0 ? '(none)' : trace.name(stop)}`);
    }
    for (let j = predOff[b]; j < predOff[b + 1]; j++) {
      let r = pred[j];
      if (depth[r] < 0) continue;
      let path = '';
      while (r !== stop && r >= 0) {
        if (mark[r] !== b) {
          mark[r] = b;
          out.push(r, b);
          if (trace !== null) path += ` ${trace.name(r)}(+)`;
        } else if (trace !== null) path += ` ${trace.name(r)}`;
        r = idom[r];
      }
      if (trace !== null) {
        const p = pred[j];
        trace.log(
          path === ''
            ? `  runner from ${trace.name(p)}: starts at idom ${trace.name(p)}, nothing to add`
            : `  runner from ${trace.name(p)}:${path} -> stops at ${stop < 0 ? 'the root' : trace.name(stop)}; ${trace.name(b)} added to DF of the (+) nodes`,
        );
      }
    }
  }
}
