/**
 * Dominance frontiers (and, on a post-dominator tree, post-dominance frontiers):
 * DF(x) = { y : x dominates a predecessor of y and x does not strictly dominate y }.
 * Two algorithms: the CHK runner (frontier-runner.ts) and Cytron's bottom-up walk
 * (frontier-cytron.ts); both give each set sorted by node id.
 */
import type { Function } from '../ir/function.js';
import { NodeSets, PairBuffer } from './csr.js';
import { DominatorTree, computeDominators } from './dominators.js';
import { frontierPairsCytron } from './frontier-cytron.js';
import { frontierPairsRunner } from './frontier-runner.js';
import type { Tracer } from './trace.js';

export type FrontierAlgorithm = 'runner' | 'cytron';

export interface FrontierOptions {
  /** 'runner' (default) or 'cytron'. */
  algorithm?: FrontierAlgorithm;
  /** Receives the algorithm's steps (slow; for teaching). */
  trace?: Tracer;
}

export class DominanceFrontier extends NodeSets {
  constructor(
    readonly tree: DominatorTree,
    sets: NodeSets,
  ) {
    super(sets.n, sets.off, sets.list);
  }

  /** DF(v): node ids in increasing order. */
  frontier(v: number): Int32Array {
    return this.get(v);
  }
}

/** The frontier of every node of a dominator (or post-dominator) tree. */
export function frontierOfTree(tree: DominatorTree, opts: FrontierOptions = {}): DominanceFrontier {
  const out = new PairBuffer(Math.max(64, tree.n));
  const alg = opts.algorithm ?? 'runner';
  const trace = opts.trace ?? null;
  if (alg === 'runner') frontierPairsRunner(tree, out, trace);
  else if (alg === 'cytron') frontierPairsCytron(tree, out, trace);
  else throw new Error(`unknown frontier algorithm '${alg as string}' (expected runner or cytron)`);
  return new DominanceFrontier(tree, out.toSets(tree.n));
}

/** The dominance frontier of `fn` (computing its dominator tree when not given). */
export function dominanceFrontier(fn: Function, domTree?: DominatorTree, opts: FrontierOptions = {}): DominanceFrontier {
  const tree = domTree ?? computeDominators(fn);
  if (tree.cfg !== null && tree.cfg.fn !== fn) throw new Error('dominanceFrontier: the tree belongs to another function');
  return frontierOfTree(tree, opts);
}
