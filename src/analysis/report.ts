/**
 * The analysis report behind `ssakit analyze`: every analysis of a function, keyed by the
 * names blocks and values print with, as one JSON document or as readable text.
 *
 * JSON contract (one object per defined function, declarations skipped):
 *  - "blocks": block names in layout order; an unnamed block is LLVM's number ("3"), no `%`.
 *  - every map below has one key per block, in layout order, and every list is in layout order
 *    (values: in definition order — arguments, then instructions in layout order);
 *  - "preds"/"succs": distinct CFG predecessors / successors;
 *  - "idom": immediate dominator, null for the entry and for blocks unreachable from it;
 *  - "df": dominance frontier (empty for unreachable blocks);
 *  - "ipdom": immediate post-dominator, null when it is the virtual exit (see postdom.ts for
 *    which blocks LLVM connects to it: returns/unreachables, and one block per infinite loop);
 *  - "cdeps": for each block Y, the blocks X that Y is control dependent on (Cytron: X ∈ RDF(Y),
 *    i.e. X's branch decides whether Y runs); blocks that always run have [];
 *  - "loops": natural loops, outer before inner (siblings by header position): "header",
 *    "blocks" (subloops included), "latches" (blocks with a back edge to the header),
 *    "depth" (1 = outermost), "parent" (header of the enclosing loop, or null);
 *  - "irreducible": whether some cycle is not a natural loop (has several entries);
 *  - "liveIn"/"liveOut": SSA values live at block entry / exit, printed with `%` ("%x", "%7").
 *    Phi operands are live-out of the incoming block only; phi results are not live-in.
 *  - "definitions": the memory definitions of reaching definitions (allocas and stores; see
 *    dataflow/reaching-definitions.ts), each {"id": "d0", "block", "inst"} (the printed
 *    instruction); "reachIn"/"reachOut": ids of the definitions reaching block entry / exit;
 *  - "availIn"/"availOut": expressions (lexically equal pure instructions, printed without
 *    their result: "add i32 %b, %c") available at block entry / exit.
 * docs/analyze.schema.json is the JSON Schema of this document (checked by a test).
 */
import type { Function } from '../ir/function.js';
import type { Value } from '../ir/value.js';
import type { Module } from '../ir/module.js';
import { functionSlots } from '../text/slots.js';
import { CFG } from './cfg.js';
import { controlDependence } from './control-dependence.js';
import { liveness } from './dataflow/liveness.js';
import { reachingDefinitions } from './dataflow/reaching-definitions.js';
import { availableExpressions } from './dataflow/available-expressions.js';
import { expressionNames } from './dataflow/solver-trace.js';
import { printInstruction } from '../text/printer.js';
import { DominatorAlgorithm, computeDominators } from './dominators.js';
import { FrontierAlgorithm, frontierOfTree } from './frontier.js';
import { findLoops } from './loops.js';
import { postDominators } from './postdom.js';
import { traceFrontierEvents, traceIdfEvents } from './trace-analyses.js';

export interface LoopReport {
  header: string;
  blocks: string[];
  latches: string[];
  depth: number;
  parent: string | null;
}

export interface FunctionReport {
  name: string;
  blocks: string[];
  preds: Record<string, string[]>;
  succs: Record<string, string[]>;
  idom: Record<string, string | null>;
  df: Record<string, string[]>;
  ipdom: Record<string, string | null>;
  cdeps: Record<string, string[]>;
  loops: LoopReport[];
  irreducible: boolean;
  liveIn: Record<string, string[]>;
  liveOut: Record<string, string[]>;
  definitions: { id: string; block: string; inst: string }[];
  reachIn: Record<string, string[]>;
  reachOut: Record<string, string[]>;
  availIn: Record<string, string[]>;
  availOut: Record<string, string[]>;
}

export interface AnalyzeOptions {
  dom?: DominatorAlgorithm;
  df?: FrontierAlgorithm;
}

/** A name for every block id (LLVM's printed name, without `%`). */
export function blockNames(fn: Function): string[] {
  const slots = functionSlots(fn);
  const names: string[] = new Array(fn.blockIdBound).fill('');
  for (let b = fn.firstBlock; b !== null; b = b.next) names[b.id] = slots.nameOf(b) ?? `<block ${b.id}>`;
  return names;
}

export function analyzeFunction(fn: Function, opts: AnalyzeOptions = {}): FunctionReport {
  const cfg = new CFG(fn);
  const slots = functionSlots(fn);
  const names = blockNames(fn);
  const dt = computeDominators(cfg, { algorithm: opts.dom });
  const df = frontierOfTree(dt, { algorithm: opts.df });
  const pdt = postDominators(cfg, { algorithm: opts.dom });
  const cd = controlDependence(cfg, { postDomTree: pdt, algorithm: opts.df });
  const li = findLoops(cfg, dt);
  const live = liveness(cfg);
  const rd = reachingDefinitions(cfg);
  const av = availableExpressions(cfg);
  const exprs = expressionNames(av.universe.representatives);
  const lay = cfg.layoutIndex;
  const list = (ids: ArrayLike<number>): string[] => Array.from(ids).sort((a, b) => lay[a] - lay[b]).map((id) => names[id]);
  const valueName = (v: Value): string => '%' + (slots.nameOf(v) ?? '?');

  const r: FunctionReport = {
    name: fn.name,
    blocks: Array.from(cfg.order, (id) => names[id]),
    preds: {},
    succs: {},
    idom: {},
    df: {},
    ipdom: {},
    cdeps: {},
    loops: [],
    irreducible: li.irreducible,
    liveIn: {},
    liveOut: {},
    definitions: rd.defs.map((d, k) => ({ id: `d${k}`, block: d.inst.parent === null ? '?' : names[d.inst.parent.id], inst: printInstruction(d.inst).trim() })),
    reachIn: {},
    reachOut: {},
    availIn: {},
    availOut: {},
  };
  const defId = new Map(rd.defs.map((d, k) => [d, `d${k}`]));
  for (const id of cfg.order) {
    const nm = names[id];
    r.preds[nm] = list(cfg.predecessors(id));
    r.succs[nm] = list(cfg.successors(id));
    r.idom[nm] = dt.idom[id] < 0 ? null : names[dt.idom[id]];
    r.df[nm] = list(df.get(id));
    const ip = pdt.ipdom(id);
    r.ipdom[nm] = ip < 0 ? null : names[ip];
    r.cdeps[nm] = list(cd.dependsOn(id));
    r.liveIn[nm] = live.liveIn(id).map(valueName);
    r.liveOut[nm] = live.liveOut(id).map(valueName);
    r.reachIn[nm] = rd.reachIn(id).map((d) => defId.get(d)!);
    r.reachOut[nm] = rd.reachOut(id).map((d) => defId.get(d)!);
    r.availIn[nm] = av.in(id).map((e) => exprs[e]);
    r.availOut[nm] = av.out(id).map((e) => exprs[e]);
  }
  for (const l of li.loops) {
    r.loops.push({
      header: names[l.header],
      blocks: list(l.blocks()),
      latches: list(l.latches()),
      depth: l.depth,
      parent: l.parent === null ? null : names[l.parent.header],
    });
  }
  return r;
}

export function analyzeModule(m: Module, opts: AnalyzeOptions & { functionName?: string } = {}): FunctionReport[] {
  return selectFunctions(m, opts.functionName).map((f) => analyzeFunction(f, opts));
}

/** The defined functions to report on: all, or the one named (error if missing or a declaration). */
export function selectFunctions(m: Module, name?: string): Function[] {
  if (name === undefined) return m.definedFunctions();
  const f = m.getFunction(name.startsWith('@') ? name.slice(1) : name);
  if (f === undefined) throw new Error(`no function named '@${name}' (defined: ${m.definedFunctions().map((g) => '@' + g.name).join(', ') || 'none'})`);
  if (f.isDeclaration()) throw new Error(`'@${f.name}' is a declaration: it has no body to analyze`);
  return [f];
}

// ---- output -------------------------------------------------------------------------------

const str = JSON.stringify;

/** JSON with map keys in block order (JS objects would put numeric keys first). */
export function reportToJson(reports: FunctionReport[]): string {
  const fns = reports.map((r) => {
    const map = <T>(m: Record<string, T>, show: (v: T) => string): string =>
      '{' + r.blocks.map((b) => `${str(b)}:${show(m[b])}`).join(',') + '}';
    const arr = (a: string[]): string => '[' + a.map((x) => str(x)).join(',') + ']';
    const opt = (x: string | null): string => (x === null ? 'null' : str(x));
    const loops =
      '[' +
      r.loops
        .map((l) => `{"header":${str(l.header)},"blocks":${arr(l.blocks)},"latches":${arr(l.latches)},"depth":${l.depth},"parent":${opt(l.parent)}}`)
        .join(',') +
      ']';
    return (
      `{"name":${str(r.name)},"blocks":${arr(r.blocks)},"preds":${map(r.preds, arr)},"succs":${map(r.succs, arr)},` +
      `"idom":${map(r.idom, opt)},"df":${map(r.df, arr)},"ipdom":${map(r.ipdom, opt)},"cdeps":${map(r.cdeps, arr)},` +
      `"loops":${loops},"irreducible":${r.irreducible},"liveIn":${map(r.liveIn, arr)},"liveOut":${map(r.liveOut, arr)},` +
      `"definitions":[${r.definitions.map((d) => `{"id":${str(d.id)},"block":${str(d.block)},"inst":${str(d.inst)}}`).join(',')}],` +
      `"reachIn":${map(r.reachIn, arr)},"reachOut":${map(r.reachOut, arr)},"availIn":${map(r.availIn, arr)},"availOut":${map(r.availOut, arr)}}`
    );
  });
  return `{"functions":[${fns.join(',\n')}]}\n`;
}

/** The same content as readable text. */
export function reportToText(reports: FunctionReport[]): string {
  const out: string[] = [];
  const set = (a: string[]): string => `{${a.join(', ')}}`;
  for (const r of reports) {
    if (out.length > 0) out.push('');
    out.push(`function @${r.name}: ${r.blocks.length} block${r.blocks.length === 1 ? '' : 's'}`);
    const w = Math.max(5, ...r.blocks.map((b) => b.length));
    for (const b of r.blocks) {
      out.push(`  ${b.padEnd(w)}  preds ${set(r.preds[b])}  succs ${set(r.succs[b])}`);
      out.push(`  ${''.padEnd(w)}  idom ${r.idom[b] ?? '-'}  df ${set(r.df[b])}  ipdom ${r.ipdom[b] ?? '<exit>'}  cdeps ${set(r.cdeps[b])}`);
      out.push(`  ${''.padEnd(w)}  live-in ${set(r.liveIn[b])}  live-out ${set(r.liveOut[b])}`);
      out.push(`  ${''.padEnd(w)}  reach-in ${set(r.reachIn[b])}  reach-out ${set(r.reachOut[b])}  avail-in ${set(r.availIn[b])}  avail-out ${set(r.availOut[b])}`);
    }
    if (r.loops.length === 0) out.push('  loops: none');
    for (const l of r.loops) {
      out.push(`  ${'  '.repeat(l.depth)}loop ${l.header} (depth ${l.depth}${l.parent === null ? '' : `, in loop ${l.parent}`}): blocks ${set(l.blocks)}, latches ${set(l.latches)}`);
    }
    out.push(`  irreducible: ${r.irreducible ? 'yes' : 'no'}`);
    for (const d of r.definitions) out.push(`  ${d.id}: ${d.inst} (in ${d.block})`);
  }
  return out.join('\n') + '\n';
}

// ---- traces -------------------------------------------------------------------------------

/** The dominance-frontier algorithm, step by step (lines of src/analysis/trace-analyses.ts). */
export function traceFrontier(fn: Function, opts: AnalyzeOptions = {}): string[] {
  return traceFrontierEvents(fn, opts).map((e) => e.text);
}

/**
 * The iterated dominance frontier by Sreedhar and Gao, step by step (the `idf-sg` trace;
 * src/analysis/trace-analyses.ts has both algorithms).
 */
export function traceIdf(fn: Function, defs?: string[], opts: AnalyzeOptions = {}): string[] {
  return traceIdfEvents(fn, 'sreedhar-gao', { ...opts, defs }).map((e) => e.text);
}
