/**
 * ssakit's library API: the IR, the LLVM text reader and writer, the verifier, the
 * analyses, SSA construction, the pass manager and passes, the SysY frontend and the
 * interpreter. Everything a tool built on ssakit needs is exported from here.
 */
export * from './ir/index.js';
export { verifyFunction, verifyModule, assertValid, VerifierError } from './ir/verifier.js';
export * from './ir/effects.js';
export { parseModule } from './text/parser.js';
export { printModule, printFunction, printInstruction, printValue } from './text/printer.js';
export { functionSlots, FunctionSlots } from './text/slots.js';
export * from './analysis/index.js';
export { runPipeline, parsePipeline, passInfos, PassManager, VerifyEachError, PipelineError, optimizeText, canStream, optimizeTextParallel, findBodies, splitBodies, startWorkers, stopWorkers, likelyWorkers } from './passes/index.js';
export type { OptimizeTextOptions, OptimizeTextResult, ParallelOptions } from './passes/index.js';
export type { FunctionPass, ModulePass, PassResult, PassContext, Analysis, Preserved } from './passes/pass.js';
export { registerPass } from './passes/registry.js';
export { PIPELINES } from './passes/pipelines.js';
export { runModule, callFunction, Interpreter, InterpError } from './interp/index.js';
export type { RunOptions, RunResult, RunStats } from './interp/index.js';
export { SourceError, RuntimeError } from './util/diagnostic.js';
