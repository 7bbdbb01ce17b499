/**
 * Traces of the analyses, as events (src/analysis/trace.ts): CHK's iterative dominators,
 * the two frontier walks, and the iterated frontier both ways — Cytron et al.'s worklist
 * over frontiers (Figure 11, what mem2reg runs) and Sreedhar–Gao's priority queue over
 * dominator subtrees (LLVM's IDFCalculator). Each runs the real implementation with a tracer.
 */
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { functionSlots } from '../text/slots.js';
import { CFG } from './cfg.js';
import { idomsCHK } from './dominators-chk.js';
import { idomsSemiNCA } from './dominators-seminca.js';
import { type DominatorAlgorithm, computeDominators } from './dominators.js';
import { type FrontierAlgorithm, frontierOfTree } from './frontier.js';
import { IDFCalculator, iteratedDominanceFrontier } from './idf.js';
import { LineTracer, type TraceEvent } from './trace.js';
import { liveness } from './dataflow/liveness.js';
import { reachingDefinitions } from './dataflow/reaching-definitions.js';
import { availableExpressions } from './dataflow/available-expressions.js';

export interface AnalysisTraceOptions {
  dom?: DominatorAlgorithm;
  df?: FrontierAlgorithm;
  /** Definition blocks for the IDF traces (names, with or without `%`). */
  defs?: string[];
}

/** A name for every block id (LLVM's printed name, without `%`). */
function namesOf(fn: Function): string[] {
  const slots = functionSlots(fn);
  const names: string[] = new Array(fn.blockIdBound).fill('');
  for (let b = fn.firstBlock; b !== null; b = b.next) names[b.id] = slots.nameOf(b) ?? `<block ${b.id}>`;
  return names;
}

function tracerFor(fn: Function, algorithm: string): { t: LineTracer; names: string[] } {
  const names = namesOf(fn);
  return { t: new LineTracer((v) => names[v] ?? '<exit>', algorithm, names), names };
}

/** Cooper–Harvey–Kennedy's iterative dominators: every node of every round, then the Dom sets. */
export function traceDominatorsCHK(fn: Function): TraceEvent[] {
  const { t, names } = tracerFor(fn, 'dom');
  const cfg = new CFG(fn);
  t.step('start', `dominators of @${fn.name} by Cooper-Harvey-Kennedy's iterative algorithm: idom(root) = root, the others undefined; a node takes the intersection of its processed predecessors' dominator chains`, [cfg.root]);
  const idom = idomsCHK(cfg, cfg.dfs, t);
  const parts: string[] = [];
  for (const b of cfg.order) if (idom[b] >= 0) parts.push(`idom(${names[b]}) = ${names[idom[b]]}`);
  t.step('result', `dominator tree: ${parts.join(', ')}`);
  return t.events;
}

/** The dominance-frontier algorithm (runner or Cytron's DF_local/DF_up), step by step. */
export function traceFrontierEvents(fn: Function, opts: AnalysisTraceOptions = {}): TraceEvent[] {
  const alg = opts.df ?? 'runner';
  const { t, names } = tracerFor(fn, alg === 'runner' ? 'df' : 'df-cytron');
  const cfg = new CFG(fn);
  const dt = computeDominators(cfg, { algorithm: opts.dom });
  t.log(`dominance frontiers of @${fn.name} by the ${alg === 'runner' ? 'Cooper-Harvey-Kennedy runner walk' : 'Cytron et al. bottom-up DF_local/DF_up walk'}`);
  const idoms = Array.from(cfg.order).filter((b) => dt.idom[b] >= 0).map((b) => `idom(${names[b]}) = ${names[dt.idom[b]]}`);
  t.log(`dominator tree rooted at ${names[cfg.root]}: ${idoms.join(', ')}`);
  const df = frontierOfTree(dt, { algorithm: alg, trace: t });
  t.log('result:');
  for (const b of cfg.order) t.log(`  DF(${names[b]}) = {${Array.from(df.get(b)).sort((x, y) => cfg.layoutIndex[x] - cfg.layoutIndex[y]).map((x) => names[x]).join(', ')}}`);
  return t.events;
}

/**
 * The iterated dominance frontier, step by step, for the given definition blocks (names);
 * without them, for every alloca of the function, the blocks that store to it (the blocks
 * mem2reg would place phis for). `algorithm`: Cytron's worklist (`idf`) or Sreedhar–Gao (`idf-sg`).
 */
export function traceIdfEvents(fn: Function, algorithm: 'cytron' | 'sreedhar-gao', opts: AnalysisTraceOptions = {}): TraceEvent[] {
  const { t, names } = tracerFor(fn, algorithm === 'cytron' ? 'idf' : 'idf-sg');
  const cfg = new CFG(fn);
  const dt = computeDominators(cfg, { algorithm: opts.dom });
  const byName = new Map<string, number>();
  for (const id of cfg.order) byName.set(names[id], id);
  const sets: { label: string; blocks: number[] }[] = [];
  const defs = opts.defs;
  if (defs !== undefined && defs.length > 0) {
    const ids = defs.map((d) => {
      const k = d.startsWith('%') ? d.slice(1) : d;
      const id = byName.get(k);
      if (id === undefined) throw new Error(`--defs: no block named '${d}' in @${fn.name} (blocks: ${Array.from(cfg.order, (b) => names[b]).join(', ')})`);
      return id;
    });
    sets.push({ label: `blocks {${defs.join(', ')}}`, blocks: ids });
  } else {
    const slots = functionSlots(fn);
    for (let b = fn.firstBlock; b !== null; b = b.next) {
      for (let i = b.first; i !== null; i = i.next) {
        if (i.op !== Opcode.Alloca) continue;
        const blocks: number[] = [];
        for (let u = i.firstUse; u !== null; u = u.next) {
          const user = u.user as Instruction;
          if (user.op === Opcode.Store && u.index === 1 && user.parent !== null && !blocks.includes(user.parent.id)) blocks.push(user.parent.id);
        }
        if (blocks.length > 0) sets.push({ label: `stores to %${slots.nameOf(i)}`, blocks: blocks.sort((x, y) => cfg.layoutIndex[x] - cfg.layoutIndex[y]) });
      }
    }
    if (sets.length === 0) throw new Error(`@${fn.name} has no allocas with stores: give the definition blocks with --defs=b1,b2`);
  }
  const calc = algorithm === 'cytron' ? new IDFCalculator(dt) : null;
  const frontiers = calc !== null ? calc.frontiers() : null;
  for (const s of sets) {
    t.step(
      'query',
      `IDF of ${s.label} in @${fn.name} by ${algorithm === 'cytron' ? "Cytron et al.'s worklist over dominance frontiers (Figure 11)" : "Sreedhar and Gao's walk of dominator subtrees, deepest level first"}: definition blocks {${s.blocks.map((b) => names[b]).join(', ')}}`,
      s.blocks,
    );
    if (calc !== null) calc.calculateFromFrontiers(frontiers!, Int32Array.from(s.blocks), s.blocks.length, null, 0, t);
    else iteratedDominanceFrontier(dt, s.blocks, null, { trace: t });
  }
  return t.events;
}

/** A data-flow problem solved round by round (solver-trace.ts): liveness, reaching definitions or available expressions. */
export function traceDataflowEvents(fn: Function, problem: 'liveness' | 'reaching-defs' | 'available-exprs'): TraceEvent[] {
  const { t } = tracerFor(fn, problem);
  const cfg = new CFG(fn);
  const what = {
    liveness: 'liveness (backward, union): in = use ∪ (out − def), out = ∪ in(succ) ∪ the phi operands on the edge; blocks in postorder',
    'reaching-defs': 'reaching definitions of memory (forward, union): out = gen ∪ (in − kill), in = ∪ out(pred); blocks in reverse postorder',
    'available-exprs': 'available expressions (forward, intersection): out = e_gen ∪ (in − e_kill), in = ∩ out(pred), ∅ at the entry; blocks in reverse postorder',
  }[problem];
  t.step('start', `${what}, on @${fn.name}; only blocks whose input changed are visited again`);
  if (problem === 'liveness') liveness(cfg, t);
  else if (problem === 'reaching-defs') reachingDefinitions(cfg, undefined, t);
  else availableExpressions(cfg, undefined, t);
  return t.events;
}

/** Semi-NCA (Georgiadis 2005): semidominators in reverse preorder, then idoms by nearest common ancestor. */
export function traceDominatorsSemiNCA(fn: Function): TraceEvent[] {
  const { t, names } = tracerFor(fn, 'dom-seminca');
  const cfg = new CFG(fn);
  const dfs = cfg.dfs;
  t.step('start', `dominators of @${fn.name} by Semi-NCA: DFS preorder ${Array.from(dfs.preorder, (b) => names[b]).join(' ')}; semidominators from the last node to the second`, [cfg.root]);
  const idom = idomsSemiNCA(cfg, dfs, t);
  const parts: string[] = [];
  for (const b of cfg.order) if (idom[b] >= 0) parts.push(`idom(${names[b]}) = ${names[idom[b]]}`);
  t.step('result', `dominator tree: ${parts.join(', ')}`);
  return t.events;
}
