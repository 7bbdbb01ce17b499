/**
 * Every traced algorithm by name: `ssakit analyze --trace=NAME` (text) / `--trace-json`
 * (JSON lines), the library's `traceAlgorithm`, and the playground's stepper all come here.
 * Each entry runs the real implementation with a tracer (src/analysis/trace.ts); traces of
 * transforms work on a copy of the module, so the caller's function is not changed.
 */
import type { Function } from '../ir/function.js';
import type { TraceEvent } from '../analysis/trace.js';
import { type AnalysisTraceOptions, traceDataflowEvents, traceDominatorsCHK, traceDominatorsSemiNCA, traceFrontierEvents, traceIdfEvents } from '../analysis/trace-analyses.js';
import { traceMem2RegEvents } from '../transforms/ssa/mem2reg-trace.js';
import { traceSCCPEvents } from '../transforms/scalar/sccp-trace.js';
import { traceLCMEvents } from '../transforms/scalar/pre-trace.js';
import { traceBraunEvents } from '../transforms/ssa/mem2reg-braun-trace.js';
import { traceRedundantPhisEvents } from '../transforms/ssa/redundant-phis-trace.js';
import { traceOutOfSSAEvents } from '../transforms/ssa/out-of-ssa-trace.js';

export interface TraceOptions extends AnalysisTraceOptions {}

export interface TraceInfo {
  name: string;
  description: string;
  run(fn: Function, opts: TraceOptions): TraceEvent[];
}

export const TRACES: readonly TraceInfo[] = [
  { name: 'dom', description: "Cooper-Harvey-Kennedy iterative dominators: every round's intersections and Dom sets", run: (fn) => traceDominatorsCHK(fn) },
  { name: 'dom-seminca', description: 'Semi-NCA dominators: semidominators in reverse DFS preorder, then each idom by climbing from the DFS parent', run: (fn) => traceDominatorsSemiNCA(fn) },
  { name: 'df', description: 'dominance frontiers: the CHK runner walk, or with --df=cytron the DF_local/DF_up table', run: (fn, o) => traceFrontierEvents(fn, o) },
  { name: 'idf', description: "iterated dominance frontier by Cytron et al.'s worklist (Figure 11); --defs=B1,B2 or each alloca's store blocks", run: (fn, o) => traceIdfEvents(fn, 'cytron', o) },
  { name: 'idf-sg', description: "iterated dominance frontier by Sreedhar and Gao's dominator-subtree walk (LLVM's IDFCalculator)", run: (fn, o) => traceIdfEvents(fn, 'sreedhar-gao', o) },
  { name: 'liveness', description: 'liveness by the bit-vector solver: every round, every block visited, its in and out sets', run: (fn) => traceDataflowEvents(fn, 'liveness') },
  { name: 'reaching-defs', description: 'reaching definitions of memory (stores, allocas) by the bit-vector solver, round by round', run: (fn) => traceDataflowEvents(fn, 'reaching-defs') },
  { name: 'available-exprs', description: 'available expressions by the bit-vector solver, round by round', run: (fn) => traceDataflowEvents(fn, 'available-exprs') },
  { name: 'mem2reg', description: 'mem2reg: phi placement per variable, then the renaming walk of the dominator tree (stacks, counters)', run: (fn) => traceMem2RegEvents(fn) },
  { name: 'braun', description: "Braun et al.'s construction: readVariable/readVariableRecursive, incomplete phis, sealBlock, tryRemoveTrivialPhi and its re-examination of users, then Algorithm 5", run: (fn) => traceBraunEvents(fn) },
  { name: 'braun-marker', description: "Braun et al.'s construction with §3.3's marker algorithm: joins are marked, a phi only where the predecessors disagree or the lookup comes round a cycle", run: (fn) => traceBraunEvents(fn, 'marker') },
  { name: 'redundant-phis', description: "Braun et al.'s Algorithm 5: SCCs of the phi graph, their outer operands, replacement or descent into inner phis", run: (fn) => traceRedundantPhisEvents(fn) },
  { name: 'out-of-ssa', description: 'out-of-SSA: the parallel copy on each edge and its sequentialization (a temporary per cycle)', run: (fn) => traceOutOfSSAEvents(fn) },
  { name: 'sccp', description: 'Wegman-Zadeck SCCP: lattice values, executable edges, FlowWorkList and SSAWorkList', run: (fn) => traceSCCPEvents(fn) },
  { name: 'lcm', description: 'lazy code motion: use/kill, the four data-flow problems round by round, the six sets, insertions and deletions', run: (fn) => traceLCMEvents(fn) },
];

export function traceNames(): string[] {
  return TRACES.map((t) => t.name);
}

/** The events of algorithm `name` on `fn`; an unknown name is an error listing the known ones. */
export function traceAlgorithm(name: string, fn: Function, opts: TraceOptions = {}): TraceEvent[] {
  const t = TRACES.find((x) => x.name === name);
  if (t === undefined) throw new Error(`unknown trace '${name}' (known: ${traceNames().join(', ')})`);
  if (fn.isDeclaration()) throw new Error(`@${fn.name} is a declaration`);
  return t.run(fn, opts);
}
