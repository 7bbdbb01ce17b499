/**
 * The worker's state and work, free of any browser API so that Node tests run it against
 * the library directly (test/web/session.test.ts): compile a program, run its pipeline
 * recording every pass execution, and rebuild the module as it was after any step.
 *
 * What a compile keeps, and why it is cheap enough to do on every edit:
 * - the module text at the start and after every module pass that changed it (and after a
 *   function pass that added a global or a declaration): the *snapshots*;
 * - the text of a function after every function pass that changed it (`fnAfter`).
 * Unchanged executions print nothing. The module after step k is the last snapshot at or
 * before k with, for each of its functions, the text of that function's last change in
 * between spliced in (the module printer prints a function exactly as printFunction does).
 * Every function is spliced, not only the one a graph is asked for: the text must parse as
 * the module was, and a later `replace` of a function that an earlier splice touched must
 * find its text.
 *
 * The compile reply carries each step's name, function, flag, time and counters, but the
 * IR before and after only of the step the page shows first; the page asks for another
 * step's texts when it is selected (`stepTexts`). Cloning every step's IR into the reply
 * cost more than the passes.
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
  runModule,
  traceFrontier,
  traceIdf,
  traceMem2Reg,
  traceAlgorithm,
  type Function,
  type Module,
} from '../../src/core.js';
import type { CompileReply, CompileRequest, GraphKind, PipelineStep, RunReply, RunRequest, RunSide, StepTexts, TraceEvent, TraceReply, TraceRequest } from './protocol.js';

interface Snapshot {
  step: number;
  text: string;
  /** Each function with a body, in module order, and its text in `text`. */
  fnText: Map<string, string>;
}

interface Compiled {
  snapshots: Snapshot[];
  /** Per step: the function it changed and its text after, or null. */
  fnAfter: ({ fn: string; text: string } | null)[];
  /**
   * Per step: the text of what it ran on before it ran (a function: the string of its last
   * change, shared), or null for a module pass: that is the module after the step before,
   * rebuilt when asked for (printing the module before every module pass costs more).
   */
  before: (string | null)[];
  /** Per step: the text after, or null when unchanged (the same as before). */
  after: (string | null)[];
  /** Per step: the trace lines its pass emitted. */
  traces: string[][];
  steps: PipelineStep[];
  final: string;
  initial: string;
}

/** Which step the page shows first: the last that changed the IR (what the pipeline did last). */
export function lastChanged(steps: { changed: boolean }[]): number {
  for (let k = steps.length - 1; k >= 0; k--) if (steps[k].changed) return k;
  return steps.length - 1;
}

export class Session {
  private last: Compiled | null = null;
  /** The module of the last `moduleAt`, reused while the same step is asked for again (a graph, then a trace). */
  private cached: { step: number; module: Module } | null = null;

  compile(req: CompileRequest): CompileReply {
    const t0 = performance.now();
    const reply: CompileReply = { kind: 'compile', errors: [], initial: '', final: '', steps: [], functions: [], ms: 0, shown: null };
    let m: Module;
    if (req.lang === 'sysy') {
      const r = compileSysY(req.source, 'input.sy', { ssa: req.ssa });
      if (r.module === undefined) {
        reply.errors = r.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ line: d.line, col: d.col, message: d.message }));
        return reply;
      }
      m = r.module;
    } else {
      try {
        m = parseModule(req.source, 'input.ll');
      } catch (e) {
        if (e instanceof SourceError) {
          reply.errors = [{ line: e.line, col: e.col, message: e.detail }];
          return reply;
        }
        throw e;
      }
    }
    ensureRegistered();
    let nodes;
    try {
      nodes = parsePipeline(req.pipeline.trim() === '' ? 'default<O0>' : req.pipeline);
    } catch (e) {
      reply.pipelineError = (e as Error).message;
      return reply;
    }
    const initial = printModule(m);
    const fnTexts = (): Map<string, string> => new Map(m.functions.filter((f) => !f.isDeclaration()).map((f) => [f.name, printFunction(f)]));
    // what each function looked like after the last step that touched it
    const fnText = fnTexts();
    const snapshots: Snapshot[] = [{ step: -1, text: initial, fnText: new Map(fnText) }];
    const c: Compiled = { snapshots, fnAfter: [], before: [], after: [], traces: [], steps: reply.steps, final: '', initial };
    let shape = m.functions.length + m.globals.length;
    let withMetadata = /!\d/.test(initial);
    const seen = new Map<string, Map<string, number>>();
    let traceBuf: string[] = [];
    const pm = createPassManager(m, {
      trace: (line) => traceBuf.push(line),
      afterPass: (e) => {
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
        let before: string | null;
        let after: string | null;
        if (e.fn !== undefined) {
          before = fnText.get(e.fn.name) ?? '';
          after = e.changed ? printFunction(e.fn) : before;
          if (e.changed) fnText.set(e.fn.name, after);
          c.fnAfter.push(e.changed ? { fn: e.fn.name, text: after } : null);
        } else {
          before = null;
          after = e.changed ? printModule(m) : null;
          c.fnAfter.push(null);
        }
        const newShape = m.functions.length + m.globals.length;
        // a function printed alone numbers its metadata (`!llvm.loop !0`) on its own, without
        // the nodes: once any metadata is in play, every changed step is a whole-module snapshot
        if (!withMetadata && after !== null && /!\d/.test(after)) withMetadata = true;
        if (e.changed && (e.fn === undefined || newShape !== shape || withMetadata)) {
          shape = newShape;
          const texts = fnTexts();
          fnText.clear();
          for (const [k, v] of texts) fnText.set(k, v);
          snapshots.push({ step, text: after !== null && e.fn === undefined ? after : printModule(m), fnText: texts });
        }
        c.before.push(before);
        c.after.push(after);
        reply.steps.push({ pass: e.pass, fn: e.fn?.name ?? '', changed: e.changed, ms: e.ms, stats, traceLines: c.traces[step].length });
      },
    });
    pm.run(nodes);
    c.final = printModule(m);
    reply.initial = initial;
    reply.final = c.final;
    // every function with a body at some step: those of the start (in order), then those added
    reply.functions = [...new Set([...snapshots[0].fnText.keys(), ...m.functions.filter((f) => !f.isDeclaration()).map((f) => f.name)])];
    this.last = c;
    this.cached = null;
    const shown = lastChanged(reply.steps);
    reply.shown = shown < 0 ? null : this.stepTexts(shown);
    reply.ms = performance.now() - t0;
    return reply;
  }

  /** The IR a step ran on, before and after. */
  stepTexts(step: number): StepTexts {
    const c = this.compiled();
    if (step < 0 || step >= c.steps.length) throw new Error(`no step ${step + 1}`);
    const before = c.before[step] ?? this.moduleTextAt(step - 1);
    return { step, before, after: c.after[step] ?? before };
  }

  /** The module text after `step` (-1: before the pipeline). */
  moduleTextAt(step: number): string {
    const c = this.compiled();
    if (step >= c.steps.length - 1) return c.final;
    let snap = c.snapshots[0];
    for (const s of c.snapshots) if (s.step <= step) snap = s;
    // each function's latest text after the snapshot, up to `step`
    const latest = new Map<string, string>();
    for (let k = snap.step + 1; k <= step; k++) {
      const fa = c.fnAfter[k];
      if (fa !== null) latest.set(fa.fn, fa.text);
    }
    if (latest.size === 0) return snap.text;
    // splice in module order, each function's old text found after the previous one's
    let out = '';
    let at = 0;
    for (const [name, old] of snap.fnText) {
      const now = latest.get(name);
      if (now === undefined) continue;
      const i = snap.text.indexOf(old, at);
      if (i < 0) throw new Error(`internal: the text of @${name} is not in the module snapshot`);
      out += snap.text.slice(at, i) + now;
      at = i + old.length;
    }
    return out + snap.text.slice(at);
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

  run(req: RunRequest): RunReply {
    const c = this.compiled();
    return { kind: 'run', before: runOne(c.initial, req), after: runOne(c.final, req) };
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

function runOne(text: string, req: RunRequest): RunSide {
  try {
    const r = runModule(parseModule(text, 'run.ll'), { stdin: req.stdin, stdout: 'collect', stderr: 'collect', stats: true, maxSteps: req.maxSteps });
    return { stdout: (r.stdout ?? '') + (r.stderr ?? ''), exitCode: r.exitCode, steps: r.stats?.total ?? 0, byOpcode: r.stats?.byOpcode ?? {} };
  } catch (e) {
    const ie = e as Error & { stdout?: string; stats?: { total: number; byOpcode: Record<string, number> } };
    return { stdout: ie.stdout ?? '', exitCode: 1, steps: ie.stats?.total ?? 0, byOpcode: ie.stats?.byOpcode ?? {}, error: ie.message };
  }
}
