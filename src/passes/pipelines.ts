/**
 * The standard pipelines, in one readable place (as Go's compiler keeps its pass list).
 *
 *   O0: nothing (parse, verify, print).
 *   O1: promote memory to registers, then the cheap scalar clean-ups.
 *   O2: O1 plus the interprocedural passes (ipsccp, globalopt, function-attrs, deadargelim,
 *       globaldce) around inlining, global value numbering, loop optimizations (rotation, LICM,
 *       induction variables with widening, loops computed at compile time, fill/copy loops
 *       to memset/memcpy, complete and partial unrolling of constant-trip loops) and
 *       partial redundancy elimination, iterated while they keep finding work.
 *
 * opt's other levels, mapped openly (`ssakit opt -O3 --print-pipeline-passes` shows each):
 *   O3: O2's pipeline. opt-19's -O3 differs from its -O2 by passes ssakit does not have
 *       (callsite-splitting, argpromotion, non-trivial loop unswitching, chr) and a higher
 *       inline threshold (250 against 225); none of ssakit's passes has an O3 setting.
 *   Os: O2 with the inliner's threshold scaled as opt-19 scales its own for -Os (75 against
 *       225: our 60 becomes 20). opt-19's -Os pipeline is its -O2 one less two passes ssakit
 *       does not have (openmp-opt-cgscc, libcalls-shrinkwrap).
 *   Oz: Os with opt-19's -Oz inline threshold (25 against 225: 7) and loop rotation without
 *       header duplication (opt-19's `loop-rotate<no-header-duplication>`: header-size=0).
 */
import { registerPipeline } from '../pm/registry.js';

/** The O2 pipeline, with the inliner's and loop rotation's parameters for Os and Oz. */
function o2(o: { inline?: string; rotate?: string } = {}): string {
  const inline = o.inline ?? 'inline';
  const rotate = o.rotate ?? 'loop-rotate';
  return [
    // build SSA; sroa splits the struct and constant-indexed array locals mem2reg cannot promote (LLVM's early SROA)
    'mem2reg,sroa',
    // constants across calls: arguments, return values, internal globals that keep their initializer (LLVM: IPSCCP first)
    'ipsccp',
    // internal globals: never-read ones and their stores go, never-written ones become constant (LLVM: GlobalOpt after IPSCCP)
    'globalopt',
    // clean up, so the inliner sees honest sizes (LLVM: instcombine and simplifycfg after GlobalOpt)
    'instcombine,simplifycfg,sccp,adce',
    // callee attributes before the callers are simplified (LLVM runs PostOrderFunctionAttrs in the inliner's SCC walk)
    'function-attrs',
    // bottom-up inlining over the call graph
    inline,
    // after inlining (LLVM: after the CGSCC walk): parameters and results the remaining calls do not use
    'deadargelim',
    // (LLVM: globalopt, globaldce after deadargelim) globals now used by main alone become locals,
    // never-read ones lose their stores, unreachable functions and globals go
    'globalopt,globaldce',
    // promote the new locals; attributes of what is left for the simplification below
    'mem2reg,function-attrs',
    // the function simplification pipeline, repeated while it finds work (usually 2-3 rounds;
    // a chain of calls through function pointers made direct one by one takes one round
    // each, hence the generous bound: rounds that find nothing are not run)
    'fixpoint<10>(' +
      [
        // sroa first: inlined callees bring struct locals and byval copies (LLVM's first function pass)
        'sroa',
        'instcombine',
        // malloc'd memory only written, compared with null or freed goes (LLVM: InstCombine's isAllocSiteRemovable)
        'alloc-elim',
        'simplify-libcalls', 'simplifycfg', 'sccp', 'early-cse', 'jump-threading',
        // a phi entry decided by the branch on its edge (LLVM: CorrelatedValuePropagation after JumpThreading)
        'correlated-propagation',
        'simplifycfg', 'tailcallelim',
        'loop-simplify', rotate, 'licm', 'indvars', 'loop-deletion', 'loop-idiom', 'loop-unroll',
        // sroa again after unrolling: array indices became constants (LLVM: SROA after full unroll)
        'sroa',
        'gvn',
        // dead stores after GVN has forwarded what they fed (LLVM: DSE after GVN and MemCpyOpt)
        'dse',
        'instcombine', 'adce', 'simplifycfg', 'dce',
        // calls made direct above (a function pointer stored into an object and loaded back,
        // forwarded by gvn) are inlined in the next round, as LLVM's CGSCC inliner revisits
        inline,
      ].join(',') +
      ')',
    // partial redundancy elimination once at the end (lazy code motion; in SSA after GVN it
    // finds little, and it is the most expensive pass per run), then dead code
    'pre,dce',
  ].join(',');
}

export const PIPELINES: Record<string, string> = {
  O0: '',
  O1: 'mem2reg,instsimplify,sccp,simplifycfg,early-cse,adce,simplifycfg',
  O2: o2(),
  O3: o2(),
  Os: o2({ inline: 'inline<threshold=20>' }),
  Oz: o2({ inline: 'inline<threshold=7>', rotate: 'loop-rotate<header-size=0>' }),
};

export function registerStandardPipelines(): void {
  for (const [name, text] of Object.entries(PIPELINES)) registerPipeline(name, () => text);
}
