/**
 * Dominance frontiers bottom-up over the dominator tree: Cytron, Ferrante, Rosen, Wegman and
 * Zadeck, "Efficiently Computing Static Single Assignment Form and the Control Dependence
 * Graph" (TOPLAS 1991), Figure 10:
 *
 *   DF(X) = DF_local(X) ∪ ⋃_{Z child of X} DF_up(Z)
 *   DF_local(X) = { Y ∈ succ(X) : idom(Y) ≠ X }
 *   DF_up(Z)    = { Y ∈ DF(Z)   : idom(Y) ≠ X }        (X = idom(Z))
 *
 * Invariants: nodes are finished in reverse tree preorder, so every child's frontier is
 * complete before its parent's; each node's frontier is a contiguous run of the pair buffer;
 * `mark[y] === x` dedups members of DF(x).
 */
import { PairBuffer } from './csr.js';
import type { DominatorTree } from './dominators.js';
import type { Tracer } from './trace.js';

export function frontierPairsCytron(tree: DominatorTree, out: PairBuffer, trace: Tracer | null = null): void {
  const g = tree.graph;
  const n = g.n;
  const succOff = g.succOff;
  const succ = g.succ;
  const idom = tree.idom;
  const childOff = tree.childOff;
  const child = tree.child;
  const pre = tree.preorder;
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  const mark = new Int32Array(n).fill(-1);
  for (let k = pre.length - 1; k >= 0; k--) {
    const x = pre[k];
    start[x] = out.length;
    let local = '';
    for (let j = succOff[x]; j < succOff[x + 1]; j++) {
      const y = succ[j];
      if (idom[y] !== x && mark[y] !== x) {
        mark[y] = x;
        out.push(x, y);
        if (trace !== null) local += (local ? ', ' : '') + trace.name(y);
      }
    }
    let up = '';
    for (let c = childOff[x]; c < childOff[x + 1]; c++) {
      const z = child[c];
      for (let i = start[z]; i < end[z]; i++) {
        const y = out.member[i];
        if (idom[y] !== x && mark[y] !== x) {
          mark[y] = x;
          out.push(x, y);
          if (trace !== null) up += (up ? ', ' : '') + `${trace.name(y)} (from ${trace.name(z)})`;
        }
      }
    }
    end[x] = out.length;
    if (trace !== null) {
      const all: string[] = [];
      for (let i = start[x]; i < end[x]; i++) all.push(trace.name(out.member[i]));
      trace.log(`DF(${trace.name(x)}): local {${local}} up {${up}} => {${all.join(', ')}}`);
    }
  }
}
