/**
 * The standard pipelines, one pass per line with the reason it is there (as LLVM comments
 * every addPass in PassBuilderPipelines.cpp), and the order constraints they must keep (as
 * Go's compiler checks its passOrder): test/passes/pipelines.test.ts checks every standard
 * pipeline against ORDER_CONSTRAINTS, so a reordering that breaks one fails there.
 *
 *   O0: nothing (parse, verify, print).
 *   O1: promote memory to registers, then the cheap scalar clean-ups.
 *   O2: SSA and scalar replacement, the interprocedural passes (ipsccp, globalopt,
 *       function-attrs, deadargelim, globaldce) around inlining, then the function
 *       simplification pipeline iterated while it finds work (scalar clean-ups, loop
 *       passes, GVN, DSE, re-inlining of calls made direct), then PRE.
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

/** A step of a standard pipeline: a pass (with its `<params>`, if any), or a fixpoint<N> around steps. */
export type PipelineStep = { pass: string; params?: string; why: string } | { fixpoint: number; why: string; body: PipelineStep[] };

/** Both standard pipelines start by building SSA. */
const MEM2REG: PipelineStep = { pass: 'mem2reg', why: "SSA first: every later pass works on registers, not the frontend's stack slots" };

const O1: PipelineStep[] = [
  MEM2REG,
  { pass: 'instsimplify', why: 'fold what mem2reg exposed (constants through former loads, trivial phis) without creating anything' },
  { pass: 'sccp', why: 'constants along executable paths only; marks branches whose outcome is known' },
  { pass: 'simplifycfg', why: "delete the blocks and fold the branches sccp proved dead, merge what's left" },
  { pass: 'early-cse', why: 'common subexpressions and redundant loads over the dominator tree, now that the CFG is small' },
  { pass: 'adce', why: 'what is left without a live effect, dead branches included' },
  { pass: 'simplifycfg', why: 'adce leaves empty blocks and branches to one place' },
];

const O2: PipelineStep[] = [
  // build SSA and clean up, so the inliner sees honest sizes
  MEM2REG,
  { pass: 'sroa', why: "split the struct and constant-indexed array locals mem2reg cannot promote (LLVM's early SROA)" },
  { pass: 'ipsccp', why: 'constants across calls: arguments, return values, internal globals that keep their initializer (LLVM: IPSCCP first)' },
  { pass: 'globalopt', why: 'internal globals: never-read ones and their stores go, never-written ones become constant (LLVM: GlobalOpt after IPSCCP)' },
  { pass: 'instcombine', why: 'canonical forms and peepholes, so the inliner measures callees as they will end up' },
  { pass: 'simplifycfg', why: 'fold the branches instcombine made constant' },
  { pass: 'sccp', why: 'constants along executable paths, before sizes are measured' },
  { pass: 'adce', why: 'drop dead code so callees look as small as they are' },
  { pass: 'function-attrs', why: "callee attributes before the callers are simplified (LLVM runs PostOrderFunctionAttrs in the inliner's SCC walk)" },
  { pass: 'inline', why: 'bottom-up over the call graph: callers then see their callees, already simplified' },
  { pass: 'deadargelim', why: 'after inlining (LLVM: after the CGSCC walk): parameters and results the remaining calls do not use' },
  { pass: 'globalopt', why: 'globals now used by main alone become locals, never-read ones lose their stores (LLVM: globalopt after deadargelim)' },
  { pass: 'globaldce', why: 'unreachable functions and globals go' },
  { pass: 'mem2reg', why: 'promote the locals globalopt made' },
  { pass: 'function-attrs', why: 'attributes of what is left, for the simplification below' },
  {
    fixpoint: 10,
    why: 'the function simplification pipeline, repeated while it finds work (usually 2-3 rounds; a chain of calls through function pointers made direct one by one takes one round each, hence the generous bound: rounds that find nothing are not run)',
    body: [
      { pass: 'sroa', why: "inlined callees bring struct locals and byval copies (LLVM's first function pass)" },
      { pass: 'instcombine', why: 'clean up the inlined bodies' },
      { pass: 'alloc-elim', why: "malloc'd memory only written, compared with null or freed goes (LLVM: InstCombine's isAllocSiteRemovable)" },
      { pass: 'simplify-libcalls', why: 'library calls with known arguments become simpler calls or constants' },
      { pass: 'simplifycfg', why: 'merge the blocks inlining split' },
      { pass: 'sccp', why: 'constant arguments propagated through the inlined code' },
      { pass: 'early-cse', why: 'cheap redundancy elimination before the loop passes' },
      { pass: 'jump-threading', why: 'thread branches whose outcome a predecessor decides' },
      { pass: 'correlated-propagation', why: 'a phi entry decided by the branch on its edge, compares decided by the ranges of their operands (LLVM: CorrelatedValuePropagation after JumpThreading)' },
      { pass: 'simplifycfg', why: 'jump threading leaves forwarding blocks' },
      { pass: 'tailcallelim', why: 'self-recursive tail calls become loops, which the loop passes then see' },
      { pass: 'loop-simplify', why: 'preheaders, one latch, dedicated exits: the form every loop pass expects' },
      { pass: 'loop-rotate', why: 'while loops become guarded do-while loops, so the preheader runs only when the body does' },
      { pass: 'licm', why: 'hoist invariants to the preheader, sink what only the exit uses, keep memory locations in registers' },
      { pass: 'indvars', why: 'canonical induction variables, exit values, test replacement and widening' },
      { pass: 'loop-deletion', why: 'loops whose whole computation is known at compile time, and dead finite loops, go' },
      { pass: 'loop-idiom', why: 'fill and copy loops become memset and memcpy' },
      { pass: 'loop-unroll', why: "constant-trip loops, now in canonical form, are unrolled, whole nests too, inner loops first (LLVM's LoopFullUnrollPass, after loop-deletion)" },
      { pass: 'sroa', why: 'array indices became constants after unrolling (LLVM: SROA after full unroll)' },
      { pass: 'gvn', why: 'global redundancy elimination over the simplified loops (loads included)' },
      { pass: 'dse', why: 'dead stores after GVN has forwarded what they fed (LLVM: DSE after GVN and MemCpyOpt)' },
      { pass: 'instcombine', why: 'peepholes exposed by GVN and unrolling' },
      { pass: 'adce', why: 'dead code and dead branches left by all of the above' },
      { pass: 'simplifycfg', why: 'the final CFG clean-up of a round' },
      { pass: 'dce', why: 'trivially dead instructions simplifycfg left' },
      { pass: 'inline', why: "calls made direct above (a function pointer stored and loaded back, forwarded by gvn) are inlined in the next round, as LLVM's CGSCC inliner revisits" },
    ],
  },
  { pass: 'deadargelim', why: 'parameters and results the simplified bodies stopped using (LLVM runs DeadArgumentElimination after the CGSCC walk, on simplified functions; the dce below drops what the callers computed for them)' },
  // loops whose trip count is known only at run time, once, after the rounds above solved
  // what scalar evolution can (an unrolled inner loop has two exits and hides its exit values
  // from indvars; LLVM too runs its runtime LoopUnrollPass late, in the optimization pipeline)
  { pass: 'loop-vectorize', why: "innermost counted loops with consecutive accesses run four iterations at a time in <4 x T> (LLVM's LoopVectorize, in its optimization pipeline after the simplification rounds, before the runtime unroller)" },
  { pass: 'loop-simplify', why: 'the unroller expects preheaders, one latch and dedicated exits' },
  { pass: 'loop-unroll<runtime-count=8>', why: 'symbolic trip counts: unrolled by up to 8 around a remainder loop, both marked llvm.loop.unroll.disable' },
  { pass: 'instcombine', why: 'fold the copies (IV steps chain up) and the trip-count arithmetic' },
  { pass: 'simplifycfg', why: 'merge the straight chain of copied blocks' },
  // partial redundancy elimination once at the end (lazy code motion; in SSA after GVN it
  // finds little, and it is the most expensive pass per run), then dead code
  { pass: 'pre', why: 'lazy code motion once at the end: after GVN it finds little and it costs the most per run' },
  { pass: 'dce', why: 'what PRE made dead' },
];

/** The text of a pipeline in opt syntax. */
export function pipelineString(steps: readonly PipelineStep[]): string {
  return steps.map((s) => ('pass' in s ? (s.params ? `${s.pass}<${s.params}>` : s.pass) : `fixpoint<${s.fixpoint}>(${pipelineString(s.body)})`)).join(',');
}

/** `steps` with the parameters `params` gives (by pass name) on every step of those passes. */
function withParams(steps: readonly PipelineStep[], params: Readonly<Record<string, string>>, why: string): PipelineStep[] {
  return steps.map((s) => {
    if (!('pass' in s)) return { ...s, body: withParams(s.body, params, why) };
    const p = params[s.pass];
    return p === undefined ? s : { ...s, params: p, why: `${s.why} (${why})` };
  });
}

/** -Os: inline less, as opt-19 does (its -Os threshold is 75 against 225 at -O2: our 60 becomes 20). */
const Os = withParams(O2, { inline: 'threshold=20' }, "-Os: opt-19's size threshold ratio");
/** -Oz: inline still less (25 against 225: 7), and rotate loops only when no header instruction is copied. */
const Oz = withParams(O2, { inline: 'threshold=7', 'loop-rotate': 'header-size=0' }, "-Oz: opt-19's minimum-size settings");

/** The standard pipelines by name, as pipeline strings. */
export const PIPELINES: Record<string, string> = {
  O0: '',
  O1: pipelineString(O1),
  O2: pipelineString(O2),
  // opt-19's -O3 adds only passes ssakit does not have: the same pipeline (see the file comment)
  O3: pipelineString(O2),
  Os: pipelineString(Os),
  Oz: pipelineString(Oz),
};

/** The standard pipelines as steps (with their reasons). */
export const PIPELINE_STEPS: Record<string, readonly PipelineStep[]> = { O0: [], O1, O2, O3: O2, Os, Oz };

/**
 * What must come before what, in a pipeline that runs `first` at all. 'before': every
 * occurrence of a pass of `then` has a `first` earlier (inside a fixpoint: earlier in the
 * same round, or before the fixpoint). 'followedBy': every occurrence of `first` has each
 * pass of `then` later (inside a fixpoint: anywhere in the same round, which repeats while it
 * changes something, or after the fixpoint).
 */
export interface OrderConstraint {
  first: string;
  then: readonly string[];
  kind: 'before' | 'followedBy';
  why: string;
}

export const ORDER_CONSTRAINTS: readonly OrderConstraint[] = [
  { first: 'mem2reg', kind: 'before', then: ['instsimplify', 'instcombine', 'sccp', 'early-cse', 'gvn', 'inline', 'licm', 'indvars', 'pre', 'adce'], why: 'the scalar passes see through registers only: memory is opaque to them' },
  { first: 'loop-simplify', kind: 'before', then: ['loop-rotate', 'licm', 'indvars', 'loop-deletion', 'loop-idiom', 'loop-unroll'], why: 'the loop passes expect preheaders, one latch and dedicated exits' },
  { first: 'loop-rotate', kind: 'before', then: ['licm', 'indvars', 'loop-unroll'], why: 'hoisting into the preheader of a rotated loop runs only when the body does; indvars and unroll read the latch test' },
  { first: 'licm', kind: 'before', then: ['indvars'], why: 'invariant operands hoisted first make IV expressions recognizable' },
  { first: 'indvars', kind: 'before', then: ['loop-deletion', 'loop-idiom', 'loop-unroll'], why: 'they read the canonical IV and exit test indvars produces' },
  { first: 'inline', kind: 'before', then: ['gvn', 'pre', 'licm'], why: 'the global passes should see the inlined code' },
  { first: 'gvn', kind: 'before', then: ['pre'], why: 'PRE finds what GVN left, and is the more expensive' },
  { first: 'sccp', kind: 'followedBy', then: ['simplifycfg'], why: 'sccp leaves constant branches and dead blocks for simplifycfg to remove' },
  { first: 'jump-threading', kind: 'followedBy', then: ['simplifycfg'], why: 'jump threading leaves forwarding blocks' },
  { first: 'inline', kind: 'followedBy', then: ['instcombine', 'simplifycfg'], why: 'inlined bodies need their clean-up' },
];

/** The passes of a pipeline in execution order of one round, with the fixpoint each is in. */
function flatten(steps: readonly PipelineStep[], round: number, out: { pass: string; round: number }[], next: { round: number }): void {
  for (const s of steps) {
    if ('pass' in s) out.push({ pass: s.pass, round });
    else flatten(s.body, ++next.round, out, next);
  }
}

/** The constraints `steps` breaks, as readable lines (none for a good pipeline). */
export function orderViolations(steps: readonly PipelineStep[], constraints: readonly OrderConstraint[] = ORDER_CONSTRAINTS): string[] {
  const seq: { pass: string; round: number }[] = [];
  flatten(steps, 0, seq, { round: 0 });
  const out: string[] = [];
  for (const c of constraints) {
    if (!seq.some((p) => p.pass === c.first)) continue;
    for (let k = 0; k < seq.length; k++) {
      const here = seq[k];
      if (c.kind === 'before') {
        if (!c.then.includes(here.pass)) continue;
        // an earlier `first`: at top level, in the same fixpoint round, or anywhere when `here` is at top level
        const ok = seq.slice(0, k).some((p) => p.pass === c.first && (p.round === 0 || p.round === here.round || here.round === 0));
        if (!ok) out.push(`${here.pass} (step ${k + 1}) runs without ${c.first} before it: ${c.why}`);
      } else if (here.pass === c.first) {
        // in a fixpoint the round repeats while it changes something: its start follows its end
        const later = seq.slice(k + 1).filter((p) => here.round === 0 || p.round === here.round || p.round === 0);
        const rest = here.round === 0 ? later : later.concat(seq.slice(0, k).filter((p) => p.round === here.round));
        for (const t of c.then) if (!rest.some((p) => p.pass === t)) out.push(`${c.first} (step ${k + 1}) is not followed by ${t}: ${c.why}`);
      }
    }
  }
  return out;
}

export function registerStandardPipelines(): void {
  for (const [name, text] of Object.entries(PIPELINES)) registerPipeline(name, () => text);
}
