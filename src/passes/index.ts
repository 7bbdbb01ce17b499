/**
 * Every pass, registered by name, and the entry point that runs a pipeline string on a
 * module. Add a pass by declaring it with definePass (src/pm/define-pass.ts) in its file
 * under src/transforms/ (the group LLVM puts it in) and listing it here.
 */
import type { Module } from '../ir/module.js';
import { verifyFunction, verifyModule } from '../analysis/verifier.js';
import { dcePass } from '../transforms/scalar/dce.js';
import { simplifycfgPass } from '../transforms/scalar/simplifycfg.js';
import { loopSimplifyPass } from '../transforms/utils/loop-simplify.js';
import { licmPass } from '../transforms/loop/licm.js';
import { inlinePass } from '../transforms/ipo/inline.js';
import { tailcallelimPass } from '../transforms/scalar/tailcallelim.js';
import { indvarsPass } from '../transforms/loop/indvars.js';
import { jumpThreadingPass } from '../transforms/scalar/jump-threading.js';
import { loopRotatePass } from '../transforms/loop/loop-rotate.js';
import { instsimplifyPass } from '../transforms/scalar/instsimplify.js';
import { instcombinePass } from '../transforms/instcombine/instcombine.js';
import { sccpPass } from '../transforms/scalar/sccp.js';
import { constpropPass } from '../transforms/scalar/constprop.js';
import { adcePass } from '../transforms/scalar/adce.js';
import { copypropPass } from '../transforms/scalar/copyprop.js';
import { earlyCsePass } from '../transforms/scalar/early-cse.js';
import { lvnPass } from '../transforms/scalar/lvn.js';
import { gvnPass } from '../transforms/scalar/gvn.js';
import { prePass } from '../transforms/scalar/pre.js';
import { loopUnrollPass } from '../transforms/loop/loop-unroll.js';
import { loopIdiomPass } from '../transforms/loop/loop-idiom.js';
import { loopVectorizePass } from '../transforms/loop/loop-vectorize.js';
import { loopDeletionPass } from '../transforms/loop/loop-deletion.js';
import { functionAttrsPass } from '../transforms/ipo/function-attrs.js';
import { ipsccpPass } from '../transforms/ipo/ipsccp.js';
import { globaloptPass } from '../transforms/ipo/globalopt.js';
import { globaldcePass } from '../transforms/ipo/globaldce.js';
import { deadargelimPass } from '../transforms/ipo/deadargelim.js';
import { printPass } from '../transforms/loop/print-scev.js';
import { allocElimPass } from '../transforms/scalar/alloc-elim.js';
import { simplifyLibCallsPass } from '../transforms/scalar/simplify-libcalls.js';
import { correlatedPropagationPass } from '../transforms/scalar/correlated-propagation.js';
import { sroaPass } from '../transforms/scalar/sroa.js';
import { dsePass } from '../transforms/scalar/dse.js';
import { SSA_PASSES } from '../transforms/ssa/passes.js';
import { Instrumentation, PassManager } from '../pm/pass-manager.js';
import { registerStandardPipelines } from './pipelines.js';
import { parsePipeline } from '../pm/pipeline-parser.js';
import { registerPass, type PassInfo } from '../pm/registry.js';

const ALL_PASSES: PassInfo[] = [
  // one entry per pass file
  dcePass,
  simplifycfgPass,
  loopSimplifyPass,
  licmPass,
  inlinePass,
  tailcallelimPass,
  indvarsPass,
  jumpThreadingPass,
  loopRotatePass,
  instsimplifyPass,
  instcombinePass,
  sccpPass,
  constpropPass,
  adcePass,
  copypropPass,
  earlyCsePass,
  lvnPass,
  gvnPass,
  prePass,
  loopUnrollPass,
  loopIdiomPass,
  loopVectorizePass,
  loopDeletionPass,
  functionAttrsPass,
  ipsccpPass,
  globaloptPass,
  globaldcePass,
  deadargelimPass,
  printPass,
  allocElimPass,
  simplifyLibCallsPass,
  correlatedPropagationPass,
  sroaPass,
  dsePass,
  ...SSA_PASSES,
];

let registered = false;
export function ensureRegistered(): void {
  if (registered) return;
  registered = true;
  for (const p of ALL_PASSES) registerPass(p);
  registerStandardPipelines();
}

/** A pass manager for `m` with the verifier plugged in (for --verify-each). */
export function createPassManager(m: Module, instr: Instrumentation = {}): PassManager {
  return new PassManager(m, {
    verify: (mod, fn) => (fn !== undefined ? verifyFunction(fn) : verifyModule(mod)).map((e) => e.message),
    ...instr,
  });
}

/** Runs `pipeline` (opt syntax) on `m`; returns the manager (for stats and timings). */
export function runPipeline(m: Module, pipeline: string, instr: Instrumentation = {}): PassManager {
  ensureRegistered();
  const nodes = parsePipeline(pipeline);
  const pm = createPassManager(m, instr);
  pm.run(nodes);
  return pm;
}

export { parsePipeline, PipelineError } from '../pm/pipeline-parser.js';
export { passInfos } from '../pm/registry.js';
export { PassManager, VerifyEachError } from '../pm/pass-manager.js';
// The Node-only streaming optimizer (streaming.ts, streaming-parallel.ts) is not re-exported
// here: everything that imports this file must still bundle for a browser (src/index.ts and
// the CLI import those files directly).
