/**
 * The worker's state and work, free of any browser API so that Node tests run it against
 * the library directly (test/web/session.test.ts): compile a program, run its pipeline
 * recording every pass execution, and rebuild the module as it was after any step.
 *
 * Snapshots are lazy: a compile prints nothing of the steps in between. Printing each
 * changed function after every pass that changed it (and the whole module once metadata is
 * in play) took as long as the passes themselves, on every edit, for views of steps the user
 * mostly never opens. Instead the session keeps the compile's inputs and, when a step's IR is
 * asked for, compiles again and replays the pipeline up to that step (the passes are
 * deterministic: the replay checks that each execution is the recorded one), printing the
 * module at the steps asked for and the few around them, which are kept for the next request.
 *
 * The compile's own reply needs one step's IR, the step the page shows first (the last that
 * changed the IR). Its IR after is the final IR (nothing changed after it). Its IR before is
 * printed during the compile when the page's hint (the step it showed for the previous edit:
 * index, pass and function) turns out right, which it is for an edit that keeps the shape of
 * the pipeline; otherwise one replay gets it.
 */
import {
  SourceError,
  blockNames,
  cfgToDot,
  compileSysY,
  createPassManager,
  ensureRegistered,
  functionToDot,
  parseModule,
  parsePipeline,
  printFunction,
  printModule,
  traceFrontier,
  traceIdf,
  traceMem2Reg,
  traceAlgorithm,
  type Function,
  type Module,
  type PipelineNode,
} from '../../src/core.js';
import { lineChunks } from './step-diff.js';
import type { CompileReply, CompileRequest, GraphKind, PipelineStep, RunReply, RunRequest, RunSide, StepTexts, StepView, TraceEvent, TraceReply, TraceRequest } from './protocol.js';

interface Compiled {
  req: CompileRequest;
  /** Per step: the trace lines its pass emitted. */
  traces: string[][];
  steps: PipelineStep[];
  final: string;
  /** Step texts known without a replay (the shown step). */
  texts: Map<number, StepTexts>;
  /** The steps' texts with their line diffs, as sent to the page. */
  views: Map<number, StepView>;
  /**
   * The module text after step k (-1: before the pipeline), and the texts of the units
   * around it (the function or module a step ran on), printed by replays and kept.
   */
  modules: Map<number, string>;
  /** Key `${k}` of the unit step k runs on, printed after step k-1 (before) and after step k (after). */
  unitBefore: Map<number, string>;
  unitAfter: Map<number, string>;
}

/** Which step the page shows first: the last that changed the IR (what the pipeline did last). */
export function lastChanged(steps: { changed: boolean }[]): number {
  for (let k = steps.length - 1; k >= 0; k--) if (steps[k].changed) return k;
  return steps.length - 1;
}

/** How many steps after the one asked for a replay also prints (the next click is often a neighbour; the test walks them all). */
const REPLAY_AHEAD = 12;

/** Thrown from the pass manager's hook to stop a replay once it has printed what it was asked for. */
class ReplayDone extends Error {}

/** The module the frontend or the parser makes of a request (throws a SourceError on bad input). */
function frontend(req: CompileRequest): { module?: Module; errors: { line: number; col: number; message: string }[] } {
  if (req.lang === 'sysy') {
    const r = compileSysY(req.source, 'input.sy', { ssa: req.ssa });
    if (r.module === undefined) return { errors: r.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ line: d.line, col: d.col, message: d.message })) };
    return { module: r.module, errors: [] };
  }
  try {
    return { module: parseModule(req.source, 'input.ll'), errors: [] };
  } catch (e) {
    if (e instanceof SourceError) return { errors: [{ line: e.line, col: e.col, message: e.detail }] };
    throw e;
  }
}

/** The text of the unit a step runs on: its function alone, or the module for a module pass. */
function unitText(m: Module, fn: string): string {
  if (fn === '') return printModule(m);
  const f = m.functions.find((g) => g.name === fn);
  return f === undefined ? '' : printFunction(f);
}

export class Session {
  private last: Compiled | null = null;
  /** The module of the last `moduleAt`, reused while the same step is asked for again (a graph, then a trace). */
  private cached: { step: number; module: Module } | null = null;

  compile(req: CompileRequest): CompileReply {
    const t0 = performance.now();
    const reply: CompileReply = { kind: 'compile', errors: [], final: '', steps: [], functions: [], ms: 0, shown: null };
    const fe = frontend(req);
    if (fe.module === undefined) {
      reply.errors = fe.errors;
      return reply;
    }
    const m = fe.module;
    ensureRegistered();
    let nodes: PipelineNode[];
    try {
      nodes = parsePipeline(req.pipeline.trim() === '' ? 'default<O0>' : req.pipeline);
    } catch (e) {
      reply.pipelineError = (e as Error).message;
      return reply;
    }
    const tFront = performance.now();
    let recordMs = 0;
    const functions = m.functions.filter((f) => !f.isDeclaration()).map((f) => f.name);
    const c: Compiled = { req, traces: [], steps: reply.steps, final: '', texts: new Map(), views: new Map(), modules: new Map(), unitBefore: new Map(), unitAfter: new Map() };
    // the hinted step's IR before it runs (see the header)
    const hint = req.hint;
    let hintBefore: string | null = hint !== undefined && hint.step === 0 ? unitText(m, hint.fn) : null;
    const seen = new Map<string, Map<string, number>>();
    let traceBuf: string[] = [];
    const pm = createPassManager(m, {
      trace: (line) => traceBuf.push(line),
      afterPass: (e) => {
        const tr0 = performance.now();
        c.traces.push(traceBuf);
        traceBuf = [];
        const step = reply.steps.length;
        // the counters this execution added (pm.stats is cumulative per pass)
        const now = pm.stats.get(e.pass);
        const stats: [string, number][] = [];
        if (now !== undefined) {
          const prev = seen.get(e.pass);
          let moved = false;
          for (const [k, n] of now) {
            const p = prev?.get(k) ?? 0;
            if (n !== p) {
              stats.push([k, n - p]);
              moved = true;
            }
          }
          if (moved || prev === undefined) seen.set(e.pass, new Map(now));
        }
        reply.steps.push({ pass: e.pass, fn: e.fn?.name ?? '', changed: e.changed, ms: e.ms, stats, traceLines: c.traces[step].length });
        if (hint !== undefined && step === hint.step - 1) hintBefore = unitText(m, hint.fn);
        recordMs += performance.now() - tr0;
      },
    });
    pm.run(nodes);
    const tRun = performance.now();
    c.final = printModule(m);
    reply.final = c.final;
    // every function with a body at some step: those of the start (in order), then those added
    reply.functions = [...new Set([...functions, ...m.functions.filter((f) => !f.isDeclaration()).map((f) => f.name)])];
    this.last = c;
    this.cached = null;
    const shown = lastChanged(reply.steps);
    const tShown = performance.now();
    if (shown >= 0) {
      const s = reply.steps[shown];
      // nothing changed after the shown step: its unit's IR after is the final one
      if (hintBefore !== null && hint!.step === shown && hint!.pass === s.pass && hint!.fn === s.fn) {
        const after = s.changed ? unitText(m, s.fn) : hintBefore;
        c.texts.set(shown, { step: shown, before: hintBefore, after });
      }
      reply.shown = this.stepView(shown);
    }
    reply.ms = performance.now() - t0;
    const passMs = reply.steps.reduce((t, st) => t + st.ms, 0);
    reply.timing = { frontend: tFront - t0, passes: passMs, record: recordMs, manager: tRun - tFront - passMs - recordMs, final: tShown - tRun, shown: performance.now() - tShown, replays: this.replays };
    return reply;
  }

  /** Replays run so far (the bench and the tests count them). */
  replays = 0;

  /** The IR a step ran on, before and after. */
  stepTexts(step: number): StepTexts {
    const c = this.compiled();
    if (step < 0 || step >= c.steps.length) throw new Error(`no step ${step + 1}`);
    const known = c.texts.get(step);
    if (known !== undefined) return known;
    if (!c.unitBefore.has(step) || !c.unitAfter.has(step)) this.replay(step);
    const t: StepTexts = { step, before: c.unitBefore.get(step)!, after: c.unitAfter.get(step)! };
    c.texts.set(step, t);
    return t;
  }

  /** A step's texts with their line diff, as the page draws them (kept: a step is often shown again). */
  stepView(step: number): StepView {
    const c = this.compiled();
    const known = c.views.get(step);
    if (known !== undefined) return known;
    const t = this.stepTexts(step);
    const v: StepView = { ...t, chunks: lineChunks(t.before, t.after) };
    c.views.set(step, v);
    return v;
  }

  /** The module text after `step` (-1: before the pipeline). */
  moduleTextAt(step: number): string {
    const c = this.compiled();
    // nothing changes after the last step that changed something
    if (step >= lastChanged(c.steps)) return c.final;
    const known = c.modules.get(step);
    if (known !== undefined) return known;
    this.replay(step);
    return c.modules.get(step)!;
  }

  /**
   * Compiles the last request again and runs its pipeline up to step `from` + REPLAY_AHEAD,
   * printing from step `from` - 1 on: the module after each step, and the unit each step ran
   * on, before and after it. What it prints is kept (the texts of a few earlier replays).
   */
  private replay(from: number): void {
    const c = this.compiled();
    this.replays++;
    const m = frontend(c.req).module!;
    const lo = Math.max(from - 1, -1);
    const hi = Math.min(from + REPLAY_AHEAD, c.steps.length - 1);
    // a bound on what is kept: the texts of the last few replays
    if (c.modules.size > 8 * REPLAY_AHEAD) {
      c.modules.clear();
      c.unitBefore.clear();
      c.unitAfter.clear();
    }
    const at = (k: number): void => {
      c.modules.set(k, printModule(m));
      if (k >= 0) c.unitAfter.set(k, unitText(m, c.steps[k].fn));
      if (k + 1 < c.steps.length) c.unitBefore.set(k + 1, unitText(m, c.steps[k + 1].fn));
    };
    if (lo < 0) at(-1);
    if (hi < 0) return;
    let step = 0;
    const pm = createPassManager(m, {
      trace: () => {},
      afterPass: (e) => {
        const want = c.steps[step];
        if (want === undefined || want.pass !== e.pass || want.fn !== (e.fn?.name ?? '') || want.changed !== e.changed)
          throw new Error(`internal: the replay of step ${step + 1} ran ${e.pass}${e.fn ? ` on @${e.fn.name}` : ''}, not the recorded ${want?.pass ?? 'end'}`);
        if (step >= lo) at(step);
        if (step++ >= hi) throw new ReplayDone();
      },
    });
    try {
      pm.run(parsePipeline(c.req.pipeline.trim() === '' ? 'default<O0>' : c.req.pipeline));
    } catch (e) {
      if (!(e instanceof ReplayDone)) throw e;
    }
  }

  moduleAt(step: number): Module {
    if (this.cached !== null && this.cached.step === step) return this.cached.module;
    const module = parseModule(this.moduleTextAt(step), 'step.ll');
    this.cached = { step, module };
    return module;
  }

  /** The function named `name` with a body at `step` (else @main, else the first). */
  functionAt(step: number, name: string): Function {
    const fns = this.moduleAt(step).functions.filter((f) => !f.isDeclaration());
    const f = fns.find((g) => g.name === name) ?? fns.find((g) => g.name === 'main') ?? fns[0];
    if (f === undefined) throw new Error(`no function with a body${name ? ` named @${name}` : ''} at this step`);
    return f;
  }

  /** The DOT of a graph of a function at a step, its block names and its IR. */
  graph(step: number, fn: string, kind: GraphKind): { dot: string; blocks: Record<string, string>; blockCount: number; ir: string; order: string[]; fn: string } {
    const f = this.functionAt(step, fn);
    // block names only in CFG nodes: the IR is beside the graph, and the graph stays readable
    const dot = kind === 'cfg' ? cfgToDot(f, { instructions: false }) : functionToDot(f, kind);
    const names = blockNames(f);
    const blocks: Record<string, string> = {};
    let blockCount = 0;
    const order: string[] = [];
    for (let b = f.firstBlock; b !== null; b = b.next) {
      blocks[`b${b.id}`] = names[b.id];
      order.push(names[b.id]);
      blockCount++;
    }
    return { dot: blockCount > LARGE_GRAPH ? quickLayout(dot) : dot, blocks, blockCount, ir: printFunction(f), order, fn: f.name };
  }

  trace(req: TraceRequest): TraceReply {
    const f = this.functionAt(req.step, req.fn);
    const names = blockNames(f);
    let lines: string[];
    if (req.algorithm.startsWith('trace:')) {
      // a structured trace: its events name their blocks already (IR names, as the graph's)
      const known = new Set(names);
      const evs = traceAlgorithm(req.algorithm.slice('trace:'.length), f);
      return { kind: 'trace', events: evs.map((e) => ({ text: e.text, blocks: e.blocks.filter((b) => known.has(b)) })) };
    }
    switch (req.algorithm) {
      case 'df-runner':
        lines = traceFrontier(f, { df: 'runner' });
        break;
      case 'df-cytron':
        lines = traceFrontier(f, { df: 'cytron' });
        break;
      case 'idf':
        lines = traceIdf(f);
        break;
      case 'pass': {
        const c = this.compiled();
        const k = req.step;
        if (k < 0 || k >= c.traces.length) throw new Error('select a step of the pipeline first');
        lines = c.traces[k];
        if (lines.length === 0) throw new Error('this pass wrote no trace at this step (gvn, early-cse, lvn, loop-unroll, loop-idiom and loop-deletion explain themselves)');
        break;
      }
      case 'mem2reg': {
        // the function body printed at the end is the result, not a step
        const text = traceMem2Reg(f);
        lines = text.slice(0, text.indexOf('\n\n') < 0 ? undefined : text.indexOf('\n\n')).split('\n');
        break;
      }
      default:
        throw new Error(`unknown algorithm '${req.algorithm}'`);
    }
    return { kind: 'trace', events: eventsOf(lines, names) };
  }

  async run(req: RunRequest): Promise<RunReply> {
    const c = this.compiled();
    // the interpreter is a chunk of its own, loaded with the first run: the page's first load
    // stays under the issue's 400 KB of JavaScript before the first graph
    const { runModule } = await import('../../src/interp/index.js');
    return { kind: 'run', before: runOne(runModule, this.moduleTextAt(-1), req), after: runOne(runModule, c.final, req) };
  }

  private compiled(): Compiled {
    if (this.last === null) throw new Error('nothing compiled yet');
    return this.last;
  }
}

/** Above this many blocks, Graphviz is asked for a quicker layout (see quickLayout). */
const LARGE_GRAPH = 60;

/**
 * Bounds Graphviz's network-simplex passes (ranking and x placement) and its crossing
 * minimisation: sort.sy's @main after -O2 (216 blocks) took Graphviz 5 s under load and 0.3 s
 * with these bounds; the layout is a little less straight, and a graph that size is read by
 * scrolling anyway.
 */
function quickLayout(dot: string): string {
  return dot.replace('{', '{\n  nslimit=1; nslimit1=1; mclimit=0.3;');
}

/** Block names a trace line mentions: `%name`, or a bare name of the function's blocks. */
function eventsOf(lines: string[], names: string[]): TraceEvent[] {
  const known = new Set(names.filter((n) => n !== ''));
  return lines
    .filter((l) => l.trim() !== '')
    .map((text) => {
      const blocks: string[] = [];
      for (const tok of text.match(/%?[A-Za-z0-9_.$-]+/g) ?? []) {
        const k = tok.startsWith('%') ? tok.slice(1) : tok;
        if (known.has(k) && !blocks.includes(k)) blocks.push(k);
      }
      return { text, blocks };
    });
}

function runOne(runModule: typeof import('../../src/interp/index.js').runModule, text: string, req: RunRequest): RunSide {
  try {
    const r = runModule(parseModule(text, 'run.ll'), { stdin: req.stdin, stdout: 'collect', stderr: 'collect', stats: true, maxSteps: req.maxSteps });
    return { stdout: (r.stdout ?? '') + (r.stderr ?? ''), exitCode: r.exitCode, steps: r.stats?.total ?? 0, byOpcode: r.stats?.byOpcode ?? {} };
  } catch (e) {
    const ie = e as Error & { stdout?: string; stats?: { total: number; byOpcode: Record<string, number> } };
    return { stdout: ie.stdout ?? '', exitCode: 1, steps: ie.stats?.total ?? 0, byOpcode: ie.stats?.byOpcode ?? {}, error: ie.message };
  }
}
