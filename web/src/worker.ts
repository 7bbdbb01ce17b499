/**
 * The compiler worker: every compile, pass pipeline, graph, trace and run happens here, so
 * the page never freezes; the page cancels a long job by terminating this worker and
 * starting another (a synchronous job cannot be interrupted any other way).
 *
 * It keeps the last compile: the module text before the pipeline and after every pass
 * execution, so a graph or a trace "at step k" re-parses that text.
 */
import {
  PIPELINES,
  SourceError,
  blockNames,
  compileSysY,
  createPassManager,
  ensureRegistered,
  functionToDot,
  cfgToDot,
  parseModule,
  parsePipeline,
  passInfos,
  printFunction,
  printModule,
  runModule,
  traceFrontier,
  traceIdf,
  traceMem2Reg,
  type Function,
  type Module,
} from '../../src/core.js';
import type { Envelope, Reply, Request, CompileRequest, CompileReply, GraphRequest, GraphReply, TraceRequest, TraceReply, RunRequest, RunReply, RunSide, PipelineStep, TraceEvent, PassListReply } from './protocol.js';

/**
 * The last compile, kept so a graph or a trace "at step k" can rebuild the module as it
 * was. Printing the whole module after every pass would cost more than the passes; so the
 * module is printed only where its shape may change (the start, module passes, a pass that
 * adds a declaration or a global), and each function pass keeps the text of the one
 * function it changed. The module at step k is the last snapshot with that function's
 * latest text spliced in (the module printer prints a function exactly as printFunction).
 */
interface Snapshot {
  step: number;
  text: string;
  fnText: Map<string, string>;
}
interface Compiled {
  snapshots: Snapshot[];
  /** Per step: the function it changed and its text after, or null. */
  fnAfter: ({ fn: string; text: string } | null)[];
  /** Per step: the trace lines its pass emitted. */
  traces: string[][];
  final: string;
  initial: string;
}
let last: Compiled | null = null;

function moduleAt(step: number, fnName: string): Module {
  if (last === null) throw new Error('nothing compiled yet');
  let snap = last.snapshots[0];
  for (const s of last.snapshots) if (s.step <= step) snap = s;
  if (!snap.fnText.has(fnName)) fnName = snap.fnText.has('main') ? 'main' : [...snap.fnText.keys()][0] ?? '';
  let text = snap.text;
  for (let k = Math.min(step, last.fnAfter.length - 1); k > snap.step; k--) {
    const fa = last.fnAfter[k];
    if (fa !== null && fa.fn === fnName) {
      const old = snap.fnText.get(fnName);
      if (old !== undefined) text = text.replace(old, () => fa.text);
      break;
    }
  }
  return parseModule(text, 'step.ll');
}

function findFn(m: Module, name: string): Function {
  const fns = m.functions.filter((f) => !f.isDeclaration());
  const f = fns.find((g) => g.name === name) ?? fns.find((g) => g.name === 'main') ?? fns[0];
  if (f === undefined) throw new Error(`no function with a body${name ? ` named @${name}` : ''} at this step`);
  return f;
}

function compile(req: CompileRequest): CompileReply {
  const t0 = performance.now();
  const reply: CompileReply = { kind: 'compile', errors: [], initial: '', final: '', steps: [], functions: [], ms: 0 };
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
  reply.initial = initial;
  const fnTexts = (): Map<string, string> => new Map(m.functions.filter((f) => !f.isDeclaration()).map((f) => [f.name, printFunction(f)]));
  // what each function looked like after the last step that touched it
  let fnText = fnTexts();
  const snapshots: Snapshot[] = [{ step: -1, text: initial, fnText: new Map(fnText) }];
  const fnAfter: Compiled['fnAfter'] = [];
  let shape = m.functions.length + m.globals.length;
  let moduleText = initial;
  const seen = new Map<string, Map<string, number>>();
  const traces: string[][] = [];
  let traceBuf: string[] = [];
  const pm = createPassManager(m, {
    trace: (line) => traceBuf.push(line),
    afterPass: (e) => {
      traces.push(traceBuf);
      traceBuf = [];
      const step = reply.steps.length;
      // the counters this execution added (pm.stats is cumulative per pass)
      const now = pm.stats.get(e.pass);
      const prev = seen.get(e.pass) ?? new Map<string, number>();
      const stats: [string, number][] = [];
      if (now !== undefined) for (const [c, n] of now) if (n !== (prev.get(c) ?? 0)) stats.push([c, n - (prev.get(c) ?? 0)]);
      seen.set(e.pass, new Map(now ?? []));
      let before: string;
      let after: string;
      if (e.fn !== undefined) {
        before = fnText.get(e.fn.name) ?? '';
        after = e.changed ? printFunction(e.fn) : before;
        fnText.set(e.fn.name, after);
        fnAfter.push(e.changed ? { fn: e.fn.name, text: after } : null);
      } else {
        before = moduleText;
        after = e.changed ? printModule(m) : before;
        fnAfter.push(null);
      }
      const newShape = m.functions.length + m.globals.length;
      if (e.changed && (e.fn === undefined || newShape !== shape)) {
        shape = newShape;
        moduleText = e.fn === undefined ? after : printModule(m);
        fnText = fnTexts();
        snapshots.push({ step, text: moduleText, fnText: new Map(fnText) });
      }
      reply.steps.push({ pass: e.pass, fn: e.fn?.name ?? '', changed: e.changed, ms: e.ms, before, after, stats, traceLines: traces[step].length } satisfies PipelineStep);
    },
  });
  pm.run(nodes);
  reply.final = printModule(m);
  reply.functions = m.functions.filter((f) => !f.isDeclaration()).map((f) => f.name);
  last = { snapshots, fnAfter, traces, final: reply.final, initial };
  reply.ms = performance.now() - t0;
  return reply;
}

interface VizInstance {
  renderString(src: string, opts: { format: string; engine?: string }): string;
}
let viz: Promise<VizInstance> | null = null;

async function graph(req: GraphRequest): Promise<GraphReply> {
  const m = moduleAt(req.step, req.fn);
  const f = findFn(m, req.fn);
  // block names only in CFG nodes: the IR is beside the graph, and the graph stays readable
  const dot = req.graph === 'cfg' ? cfgToDot(f, { instructions: false }) : functionToDot(f, req.graph);
  const names = blockNames(f);
  const blocks: Record<string, string> = {};
  let blockCount = 0;
  const order: string[] = [];
  for (let b = f.firstBlock; b !== null; b = b.next) {
    blocks[`b${b.id}`] = names[b.id];
    order.push(names[b.id]);
    blockCount++;
  }
  // Graphviz (WebAssembly, ~1.4 MB) loads on the first graph only
  viz ??= import('@viz-js/viz').then((v) => v.instance());
  const svg = (await viz).renderString(dot, { format: 'svg', engine: 'dot' });
  return { kind: 'graph', svg, blocks, blockCount, ir: printFunction(f), order };
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

function trace(req: TraceRequest): TraceReply {
  const m = moduleAt(req.step, req.fn);
  const f = findFn(m, req.fn);
  const names = blockNames(f);
  let lines: string[];
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
      const k = req.step;
      if (k < 0 || last === null || k >= last.traces.length) throw new Error('select a step of the pipeline first');
      lines = last.traces[k];
      if (lines.length === 0) throw new Error('this pass wrote no trace at this step (gvn, early-cse, lvn, loop-unroll, loop-idiom and loop-deletion explain themselves)');
      break;
    }
    case 'mem2reg': {
      // the function body printed at the end is the result, not a step
      const text = traceMem2Reg(f);
      lines = text.slice(0, text.indexOf('\n\n') < 0 ? undefined : text.indexOf('\n\n')).split('\n');
      break;
    }
  }
  return { kind: 'trace', events: eventsOf(lines, names) };
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

function run(req: RunRequest): RunReply {
  if (last === null) throw new Error('nothing compiled yet');
  return { kind: 'run', before: runOne(last.initial, req), after: runOne(last.final, req) };
}

function passes(): PassListReply {
  ensureRegistered();
  return { kind: 'passes', passes: passInfos().map((p) => ({ name: p.name, description: p.description })), pipelines: { ...PIPELINES } };
}

async function handle(req: Request): Promise<Reply> {
  switch (req.kind) {
    case 'compile':
      return compile(req);
    case 'graph':
      return graph(req);
    case 'trace':
      return trace(req);
    case 'run':
      return run(req);
    case 'passes':
      return passes();
  }
}

self.onmessage = async (ev: MessageEvent<Envelope<Request>>) => {
  const { id, body } = ev.data;
  try {
    self.postMessage({ id, body: await handle(body) });
  } catch (e) {
    self.postMessage({ id, body: { kind: 'error', message: e instanceof Error ? e.message : String(e) } });
  }
};
