/**
 * ssakit's platform-neutral library API: the IR, the LLVM text reader and writer, the
 * verifier, the analyses and their reports and traces, SSA construction, the pass manager
 * and passes, the SysY frontend, the interpreter, DOT and SVG. It imports nothing from
 * Node (src/platform/ is the only place that looks for a host), so it bundles for a
 * browser as is; src/index.ts adds the Node-only streaming optimizer.
 */
export * from './ir/index.js';
export { verifyFunction, verifyModule, assertValid, VerifierError } from './analysis/verifier.js';
export * from './ir/effects.js';
export { parseModule } from './text/parser.js';
export { printModule, printFunction, printInstruction, printValue } from './text/printer.js';
export { functionSlots, FunctionSlots } from './text/slots.js';
export * from './analysis/index.js';
export { runPipeline, parsePipeline, passInfos, PassManager, VerifyEachError, PipelineError, ensureRegistered, createPassManager } from './passes/index.js';
export type { Instrumentation, PassExecution, PipelineNode, PassTiming } from './pm/pass-manager.js';
export { pipelineNames, type PassInfo } from './pm/registry.js';
export type { FunctionPass, ModulePass, PassResult, PassContext, Analysis, Preserved } from './pm/pass.js';
export { registerPass } from './pm/registry.js';
export { PIPELINES } from './passes/pipelines.js';
export { runModule, callFunction, Interpreter, InterpError } from './interp/index.js';
export type { RunOptions, RunResult, RunStats } from './interp/index.js';
export { SourceError, RuntimeError } from './util/diagnostic.js';
export { analyzeFunction, analyzeModule, selectFunctions, blockNames, reportToJson, reportToText, traceFrontier, traceIdf } from './analysis/report.js';
export type { FunctionReport, LoopReport, AnalyzeOptions } from './analysis/report.js';
export { traceMem2Reg } from './transforms/ssa/mem2reg.js';
export { traceAlgorithm, traceNames, TRACES, type TraceInfo, type TraceOptions } from './passes/traces.js';
export { traceToText, traceToJsonLines, type TraceEvent } from './analysis/trace.js';
export { GRAPH_KINDS, functionToDot, cfgToDot, domTreeToDot, postDomTreeToDot, frontierToDot, loopsToDot } from './viz/dot.js';
export type { GraphKind } from './viz/dot.js';
export { renderSvg } from './viz/svg.js';
export { parseSysY, analyzeSysY, checkSysY, compileSysY, compileSysYToAst, generateIR, dumpAst, SysYError, formatDiagnostic, formatDiagnostics } from './frontend/sysy/index.js';
export type { SysYResult, CompileSysYOptions, CompileSysYResult, IRGenOptions, IRGenStats, SSAMode, Diagnostic, Severity, SourceLoc } from './frontend/sysy/index.js';
export { setFdIO, type FdIO } from './platform/index.js';
