/**
 * Every pass, registered by name, and the entry point that runs a pipeline string on a
 * module. Add a pass by writing src/passes/NAME.ts exporting a PassInfo and listing it here.
 */
import type { Module } from '../ir/module.js';
import { verifyFunction, verifyModule } from '../ir/verifier.js';
import { dcePass } from './dce.js';
import { simplifycfgPass } from './simplifycfg.js';
import { loopSimplifyPass } from './loop-simplify.js';
import { licmPass } from './licm.js';
import { inlinePass } from './inline.js';
import { tailcallelimPass } from './tailcallelim.js';
import { indvarsPass } from './indvars.js';
import { jumpThreadingPass } from './jump-threading.js';
import { loopRotatePass } from './loop-rotate.js';
import { instsimplifyPass } from './instsimplify.js';
import { instcombinePass } from './instcombine.js';
import { sccpPass } from './sccp.js';
import { constpropPass } from './constprop.js';
import { adcePass } from './adce.js';
import { copypropPass } from './copyprop.js';
import { earlyCsePass } from './early-cse.js';
import { lvnPass } from './lvn.js';
import { gvnPass } from './gvn.js';
import { prePass } from './pre.js';
import { loopUnrollPass } from './loop-unroll.js';
import { loopIdiomPass } from './loop-idiom.js';
import { loopDeletionPass } from './loop-deletion.js';
import { functionAttrsPass } from './function-attrs.js';
import { ipsccpPass } from './ipsccp.js';
import { globaloptPass } from './globalopt.js';
import { globaldcePass } from './globaldce.js';
import { deadargelimPass } from './deadargelim.js';
import { printPass } from './print-scev.js';
import { allocElimPass } from './alloc-elim.js';
import { simplifyLibCallsPass } from './simplify-libcalls.js';
import { correlatedPropagationPass } from './correlated-propagation.js';
import { sroaPass } from './sroa.js';
import { dsePass } from './dse.js';
import { SSA_PASSES } from '../ssa/passes.js';
import { Instrumentation, PassManager } from './pass-manager.js';
import { registerStandardPipelines } from './pipelines.js';
import { parsePipeline, registerPass, type PassInfo } from './registry.js';

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

export { parsePipeline, passInfos, PipelineError } from './registry.js';
export { PassManager, VerifyEachError } from './pass-manager.js';
// The Node-only streaming optimizer (streaming.ts, streaming-parallel.ts) is not re-exported
// here: everything that imports this file must still bundle for a browser (src/index.ts and
// the CLI import those files directly).
