/**
 * The standard pipelines, in one readable place (as Go's compiler keeps its pass list).
 *
 *   O0: nothing (parse, verify, print).
 *   O1: promote memory to registers, then the cheap scalar clean-ups.
 *   O2: O1 plus inlining, global value numbering, loop optimizations (rotation, LICM,
 *       induction variables with widening, loops computed at compile time, fill/copy loops
 *       to memset/memcpy, complete and partial unrolling of constant-trip loops) and
 *       partial redundancy elimination, iterated while they keep finding work.
 */
import { registerPipeline } from './registry.js';

export const PIPELINES: Record<string, string> = {
  O0: '',
  O1: 'mem2reg,instsimplify,sccp,simplifycfg,early-cse,adce,simplifycfg',
  O2: [
    // build SSA and clean up, so the inliner sees honest sizes; sroa splits the struct and
    // constant-indexed array locals mem2reg cannot promote (LLVM's early SROA)
    'mem2reg,sroa,instcombine,simplifycfg,sccp,adce',
    // bottom-up inlining over the call graph
    'inline',
    // the function simplification pipeline, repeated while it finds work
    'fixpoint<3>(' +
      [
        // sroa first: inlined callees bring struct locals and byval copies (LLVM's first function pass)
        'sroa',
        'instcombine', 'simplifycfg', 'sccp', 'early-cse', 'jump-threading', 'simplifycfg', 'tailcallelim',
        'loop-simplify', 'loop-rotate', 'licm', 'indvars', 'loop-deletion', 'loop-idiom', 'loop-unroll',
        // sroa again after unrolling: array indices became constants (LLVM: SROA after full unroll)
        'sroa',
        'gvn',
        // dead stores after GVN has forwarded what they fed (LLVM: DSE after GVN and MemCpyOpt)
        'dse',
        'instcombine', 'adce', 'simplifycfg', 'dce',
      ].join(',') +
      ')',
    // partial redundancy elimination once at the end (lazy code motion; in SSA after GVN it
    // finds little, and it is the most expensive pass per run), then dead code
    'pre,dce',
  ].join(','),
};

export function registerStandardPipelines(): void {
  for (const [name, text] of Object.entries(PIPELINES)) registerPipeline(name, () => text);
}
