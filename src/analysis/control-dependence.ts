/**
 * Control dependence as Cytron et al. define it ("Efficiently Computing Static Single
 * Assignment Form and the Control Dependence Graph", TOPLAS 1991, §6): block Y is control
 * dependent on block X iff X ∈ RDF(Y), the dominance frontier of Y in the reverse CFG, i.e.
 * Y post-dominates a successor of X but does not strictly post-dominate X. So X ends in a
 * branch that decides whether Y runs.
 *
 * We use the post-dominator tree of postdom.ts (LLVM's virtual exit and roots) and do not add
 * Cytron's artificial Entry→Exit edge: blocks that always run (the entry, blocks that
 * post-dominate it) depend on nothing and have an empty set. The virtual exit never appears.
 */
import type { Function } from '../ir/function.js';
import { CFG } from './cfg.js';
import { NodeSets } from './csr.js';
import { DominanceFrontier, FrontierAlgorithm, frontierOfTree } from './frontier.js';
import { PostDominatorTree, postDominators } from './postdom.js';

export class ControlDependence {
  constructor(
    readonly postDomTree: PostDominatorTree,
    /** Post-dominance frontiers: `pdf.get(y)` = the blocks y is control dependent on. */
    readonly pdf: DominanceFrontier,
  ) {}

  /** The blocks that `b` is control dependent on (ids in increasing order). */
  dependsOn(b: number): Int32Array {
    return this.pdf.get(b);
  }

  /** The inverse relation: for every block x, the blocks control dependent on x. */
  dependents(): NodeSets {
    const n = this.pdf.n;
    const off = this.pdf.off;
    const list = this.pdf.list;
    const owner = new Int32Array(list.length);
    const member = new Int32Array(list.length);
    let m = 0;
    for (let y = 0; y < n; y++) for (let j = off[y]; j < off[y + 1]; j++) {
      owner[m] = list[j];
      member[m++] = y;
    }
    return NodeSets.fromPairs(n, owner, member, m);
  }
}

export interface ControlDependenceOptions {
  postDomTree?: PostDominatorTree;
  algorithm?: FrontierAlgorithm;
}

export function controlDependence(fn: Function | CFG, opts: ControlDependenceOptions = {}): ControlDependence {
  const pdt = opts.postDomTree ?? postDominators(fn);
  return new ControlDependence(pdt, frontierOfTree(pdt, { algorithm: opts.algorithm }));
}
