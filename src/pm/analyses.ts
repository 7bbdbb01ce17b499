/**
 * The analyses passes ask the pass manager for, wrapping src/analysis so results are
 * cached per function and dropped when a pass does not preserve them. CFG-shaped
 * analyses (dominators, post-dominators, frontiers, loops) survive passes that preserve
 * the CFG; liveness does not.
 */
import { computeCFG, CFG } from '../analysis/cfg.js';
import { computeDominators, DominatorTree } from '../analysis/dominators.js';
import { dominanceFrontier, DominanceFrontier } from '../analysis/frontier.js';
import { findLoops, LoopInfo } from '../analysis/loops.js';
import { postDominators, PostDominatorTree } from '../analysis/postdom.js';
import { ScalarEvolution } from '../analysis/scalar-evolution.js';
import type { Analysis } from './pass.js';

export const CFGAnalysis: Analysis<CFG> = {
  name: 'cfg',
  cfgOnly: true,
  compute: (fn) => computeCFG(fn),
};

export const DominatorTreeAnalysis: Analysis<DominatorTree> = {
  name: 'domtree',
  cfgOnly: true,
  compute: (_fn, am) => computeDominators(am.get(CFGAnalysis)),
};

export const PostDominatorTreeAnalysis: Analysis<PostDominatorTree> = {
  name: 'postdomtree',
  cfgOnly: true,
  compute: (_fn, am) => postDominators(am.get(CFGAnalysis)),
};

export const DominanceFrontierAnalysis: Analysis<DominanceFrontier> = {
  name: 'domfrontier',
  cfgOnly: true,
  compute: (fn, am) => dominanceFrontier(fn, am.get(DominatorTreeAnalysis)),
};

export const LoopAnalysis: Analysis<LoopInfo> = {
  name: 'loops',
  cfgOnly: true,
  compute: (_fn, am) => findLoops(am.get(CFGAnalysis), am.get(DominatorTreeAnalysis)),
};

/** Scalar evolution (src/analysis/scalar-evolution.ts): dropped by any change to the function. */
export const ScalarEvolutionAnalysis: Analysis<ScalarEvolution> = {
  name: 'scalar-evolution',
  cfgOnly: false,
  compute: (fn, am) => new ScalarEvolution(fn, am.get(LoopAnalysis), am.get(DominatorTreeAnalysis)),
};
