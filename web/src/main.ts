/**
 * The playground page: an editor, the pipeline view, graphs, the algorithm stepper and the
 * interpreter, all fed by the compiler worker (worker.ts). The page only renders; nothing
 * here parses or optimizes, so it stays responsive and a long job can be cancelled.
 */
import { EditorView, basicSetup } from 'codemirror';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { llvmIR } from './llvm-lang.js';
import { sysy } from './sysy-lang.js';
import { EXAMPLES, DEFAULT_EXAMPLE, type Example } from './examples.js';
import { decodeState, encodeState, type ShareState } from './share.js';
import { GraphLayout, LayoutCancelled } from './graphs.js';
import { DiffView } from './diff-view.js';
import type { Algorithm, CompileReply, Envelope, GraphKind, GraphReply, Lang, PassListReply, Reply, Request, RunReply, RunSide, SsaMode, StepReply, StepView, TraceEvent, TraceReply } from './protocol.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

// ---- the worker, with cancellation ----------------------------------------------------------

class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

class Compiler {
  private worker!: Worker;
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private busyTimer = 0;
  onBusy: (busy: boolean) => void = () => {};

  constructor() {
    this.start();
  }

  private start(): void {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (ev: MessageEvent<Envelope<Reply | { kind: 'error'; message: string }>>) => {
      const p = this.pending.get(ev.data.id);
      if (p === undefined) return;
      this.pending.delete(ev.data.id);
      const body = ev.data.body;
      if (body.kind === 'error') p.reject(new Error(body.message));
      else p.resolve(body);
      this.updateBusy();
    };
  }

  request<T extends Reply>(body: Request): Promise<T> {
    const id = this.nextId++;
    const p = new Promise<T>((resolve, reject) => this.pending.set(id, { resolve: resolve as (r: Reply) => void, reject }));
    this.worker.postMessage({ id, body } satisfies Envelope<Request>);
    this.updateBusy();
    return p;
  }

  /** A job that runs synchronously cannot be interrupted: end the worker, start a fresh one. */
  cancel(): void {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new Cancelled());
    this.pending.clear();
    this.start();
    this.updateBusy();
  }

  private updateBusy(): void {
    clearTimeout(this.busyTimer);
    if (this.pending.size === 0) this.onBusy(false);
    // only jobs that take noticeable time offer Cancel (no flicker on every keystroke)
    else this.busyTimer = window.setTimeout(() => this.onBusy(this.pending.size > 0), 150);
  }
}

const compiler = new Compiler();
let statusText = '';
compiler.onBusy = (busy) => {
  $<HTMLButtonElement>('cancel').disabled = !busy;
  const s = $('status');
  if (busy) s.textContent = 'working… (Cancel stops it)';
  else if (s.textContent!.startsWith('working')) s.textContent = statusText;
};

function setStatus(text: string, error = false): void {
  statusText = text;
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', error);
}

// ---- state ------------------------------------------------------------------------------------

const langSel = $<HTMLSelectElement>('lang');
const ssaSel = $<HTMLSelectElement>('ssa');
const levelSel = $<HTMLSelectElement>('level');
const pipelineInput = $<HTMLInputElement>('pipeline');
const fnSel = $<HTMLSelectElement>('fn');
const graphSel = $<HTMLSelectElement>('graph-kind');
const exampleSel = $<HTMLSelectElement>('example');
const stdinBox = $<HTMLTextAreaElement>('stdin');
let tab = 'pipeline';
let result: CompileReply | null = null;
/** The IR before and after the steps of `result` shown so far (the worker sends a step's texts when it is selected). */
let stepTexts = new Map<number, StepView>();
/** Index into result.steps of the step the pipeline view, graphs and stepper show; -1 = before the pipeline. */
let selectedStep = -1;
let passDescriptions = new Map<string, string>();
let compileGeneration = 0;
/** Counts pipeline-view updates (the bench and the tests wait on it). */
let pipelineVersion = 0;
/** The inputs of the program the views show: the tests wait until they are the page's current inputs. */
let compiledInputs = { source: '', lang: '', ssa: '', pipeline: '' };
(window as unknown as { __ssakitShowsCurrentInput: () => boolean }).__ssakitShowsCurrentInput = () =>
  compileTimer === 0 &&
  !compileInFlight &&
  compiledInputs.source === editor.state.doc.toString() &&
  compiledInputs.lang === langSel.value &&
  compiledInputs.ssa === ssaSel.value &&
  compiledInputs.pipeline === pipelineText();

/** From an edit to its compile request (40 ms before compiles got fast: it was a fifth of the latency). */
const EDIT_DEBOUNCE_MS = 10;

const highlight = (lang: Lang): Extension => (lang === 'sysy' ? sysy : llvmIR);
const langConf = new Compartment();

const editor = new EditorView({
  parent: $('editor'),
  state: EditorState.create({
    doc: '',
    extensions: [
      basicSetup,
      langConf.of(highlight('sysy')),
      lintGutter(),
      EditorView.updateListener.of((u) => {
        // a short debounce only gathers the transactions of one input; typing does not pile
        // compiles up (one compile in flight, the edits meanwhile make one more: see compile())
        if (u.docChanged) scheduleCompile(EDIT_DEBOUNCE_MS);
      }),
    ],
  }),
});

// for the bench and the browser tests: the editor, to time an edit from the moment it is made
(window as unknown as { __ssakitEditor: EditorView }).__ssakitEditor = editor;

function pipelineText(): string {
  return levelSel.value === 'custom' ? pipelineInput.value : levelSel.value;
}

function setPipeline(p: string): void {
  const std = [...levelSel.options].find((o) => o.value === p);
  if (std !== undefined) {
    levelSel.value = p;
    pipelineInput.value = p;
  } else {
    levelSel.value = 'custom';
    pipelineInput.value = p;
  }
  pipelineInput.disabled = levelSel.value !== 'custom';
}

function setSource(text: string, lang: Lang): void {
  langSel.value = lang;
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text }, effects: langConf.reconfigure(highlight(lang)) });
}

function loadExample(ex: Example): void {
  exampleSel.value = ex.id;
  setPipeline(ex.pipeline);
  if (ex.ssa) ssaSel.value = ex.ssa;
  stdinBox.value = ex.stdin ?? '';
  setSource(ex.source, ex.lang);
  scheduleCompile(0);
}

// ---- compile and the pipeline view -------------------------------------------------------------

/** The pending compile's timer, 0 when none is waiting. */
let compileTimer = 0;
function scheduleCompile(ms: number): void {
  clearTimeout(compileTimer);
  compileTimer = window.setTimeout(() => {
    compileTimer = 0;
    void compile();
  }, ms);
}

let underlined = 0;
function underline(errors: { line: number; col: number; message: string }[]): void {
  // no transaction when there was and is nothing to underline: it would make the editor measure itself again
  if (errors.length === 0 && underlined === 0) return;
  underlined = errors.length;
  const doc = editor.state.doc;
  const diags: Diagnostic[] = errors.map((e) => {
    const line = doc.line(Math.min(Math.max(e.line, 1), doc.lines));
    const from = Math.min(line.from + Math.max(e.col - 1, 0), line.to);
    const word = /^[\w.%@$-]+/.exec(doc.sliceString(from, line.to));
    const to = Math.max(from + (word ? word[0].length : 1), from + 1);
    return { from: Math.min(from, doc.length), to: Math.min(to, doc.length), severity: 'error', message: e.message };
  });
  editor.dispatch(setDiagnostics(editor.state, diags));
  $('errors').textContent = errors.map((e) => `input:${e.line}:${e.col}: error: ${e.message}`).join('\n');
}

/** Where the time of the last compile went (the bench reads it). */
const timing = { requested: 0, replied: 0, rendered: 0, worker: 0, merge: 0, parts: {} as Record<string, number> };
(window as unknown as { __ssakitTiming: typeof timing }).__ssakitTiming = timing;

/**
 * One compile in flight at a time: edits made meanwhile ask for one more compile when it
 * returns (and its now stale reply is dropped), instead of queueing a compile per keystroke.
 */
let compileInFlight = false;
let compileAgain = false;
async function compile(): Promise<void> {
  if (compileInFlight) {
    compileAgain = true;
    return;
  }
  compileInFlight = true;
  try {
    await compileNow();
  } finally {
    compileInFlight = false;
    if (compileAgain) {
      compileAgain = false;
      scheduleCompile(0);
    }
  }
}

async function compileNow(): Promise<void> {
  const gen = ++compileGeneration;
  const lang = langSel.value as Lang;
  let r: CompileReply;
  timing.requested = performance.now();
  // the step shown for the last program: most edits keep the pipeline's shape, and the worker
  // then prints that step's IR while compiling (no replay, see session.ts)
  const prev = result?.shown?.step;
  const hint = prev !== undefined && result !== null ? { step: prev, pass: result.steps[prev].pass, fn: result.steps[prev].fn } : undefined;
  const req = { kind: 'compile', source: editor.state.doc.toString(), lang, ssa: ssaSel.value as SsaMode, pipeline: pipelineText(), hint } as const;
  try {
    r = await compiler.request<CompileReply>(req);
  } catch (e) {
    if (gen === compileGeneration) setStatus(e instanceof Cancelled ? 'cancelled' : `internal error: ${(e as Error).message}`, !(e instanceof Cancelled));
    return;
  }
  if (gen !== compileGeneration || compileAgain) return; // a newer edit is on its way
  timing.replied = performance.now();
  timing.worker = r.ms;
  timing.parts = r.timing ?? {};
  underline(r.errors);
  pipelineInput.classList.toggle('invalid', r.pipelineError !== undefined);
  if (r.pipelineError !== undefined) {
    document.body.classList.add('stale');
    setStatus(`pipeline: ${r.pipelineError}`, true);
    return;
  }
  // the views keep the last program that compiled, dimmed until the input compiles again
  document.body.classList.toggle('stale', r.errors.length > 0);
  if (r.errors.length > 0) {
    setStatus(`${r.errors.length} error${r.errors.length > 1 ? 's' : ''} (the views show the last program that compiled)`, true);
    return;
  }
  result = r;
  compiledInputs = { source: req.source, lang: req.lang, ssa: req.ssa, pipeline: req.pipeline };
  stepTexts = new Map(r.shown !== null ? [[r.shown.step, r.shown]] : []);
  const changed = r.steps.filter((s) => s.changed).length;
  setStatus(`compiled in ${r.ms.toFixed(0)} ms: ${r.steps.length} pass runs, ${changed} changed the IR`);
  const prevFn = fnSel.value;
  fnSel.replaceChildren(...r.functions.map((f) => new Option(`@${f}`, f)));
  fnSel.value = r.functions.includes(prevFn) ? prevFn : r.functions.includes('main') ? 'main' : r.functions[0] ?? '';
  $('final-ir').textContent = r.final;
  // show the last step that changed something: what the pipeline did last
  selectedStep = r.shown?.step ?? lastChanged(r);
  renderPipeline();
  // the graph after the pipeline view has been painted: the view the user edits for comes
  // first; and not at all when another edit is already waiting to compile (the worker
  // would draw a graph nobody sees before it compiles that edit)
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (result === r && !compileAgain && !compileInFlight && compileTimer === 0) void refreshGraph();
    }, 0),
  );
  if (tab === 'stepper') void loadTrace();
}

function lastChanged(r: CompileReply): number {
  for (let k = r.steps.length - 1; k >= 0; k--) if (r.steps[k].changed) return k;
  return r.steps.length - 1;
}

/** The IR before and after the selected step (diff-view.ts). */
const diffView = new DiffView($('merge'));

function renderPipeline(): void {
  const r = result;
  if (r === null) return;
  const only = $<HTMLInputElement>('only-changed').checked;
  const list = $('steps');
  const items: HTMLElement[] = [];
  r.steps.forEach((s, k) => {
    if (only && !s.changed && k !== selectedStep) return;
    const li = document.createElement('li');
    li.value = k + 1;
    li.className = (s.changed ? 'changed' : 'unchanged') + (k === selectedStep ? ' selected' : '');
    li.dataset.step = String(k);
    li.title = passDescriptions.get(s.pass) ?? '';
    li.innerHTML = `${s.changed ? '✓' : '·'} ${esc(s.pass)}${s.fn ? ` on @${esc(s.fn)}` : ''} <span class="ms">${s.ms.toFixed(2)} ms${s.traceLines > 0 ? `, ${s.traceLines}-step trace` : ''}</span>`;
    items.push(li);
  });
  list.replaceChildren(...items);
  $('pipeline-summary').textContent = `${r.steps.length} runs, ${r.steps.filter((s) => s.changed).length} changed, ${r.steps.reduce((t, s) => t + s.ms, 0).toFixed(1)} ms in passes`;
  renderStep();
  timing.rendered = performance.now();
  pipelineVersion++;
  document.body.dataset.pipelineVersion = String(pipelineVersion);
}

function renderStep(): void {
  const r = result;
  const head = $('step-head');
  if (r === null || selectedStep < 0 || selectedStep >= r.steps.length) {
    diffView.clear();
    head.textContent = r !== null && r.steps.length === 0 ? 'The pipeline is empty: the IR as parsed (see Output IR).' : '';
    return;
  }
  const s = r.steps[selectedStep];
  const stats = s.stats.length > 0 ? `<table>${s.stats.map(([c, n]) => `<tr><td>${n}</td><td>${esc(c)}</td></tr>`).join('')}</table>` : '';
  head.innerHTML = `<b>${selectedStep + 1}. ${esc(s.pass)}</b>${s.fn ? ` on @${esc(s.fn)}` : ' on the module'} — ${s.changed ? '<span style="color:#1a7f37">changed</span>' : 'unchanged'}, ${s.ms.toFixed(3)} ms <i>${esc(passDescriptions.get(s.pass) ?? '')}</i>${stats}`;
  const texts = stepTexts.get(selectedStep);
  if (texts !== undefined) {
    renderMerge(texts);
    return;
  }
  // this step's IR comes from the worker; the view shows it when it arrives, if still wanted
  const want = selectedStep;
  $('merge').dataset.step = '';
  void compiler.request<StepReply>({ kind: 'step', step: want }).then(
    (t) => {
      if (result !== r) return;
      stepTexts.set(t.step, t);
      if (selectedStep === t.step) renderMerge(t);
    },
    (e) => {
      if (!(e instanceof Cancelled) && result === r && selectedStep === want) {
        diffView.clear();
        $('merge').textContent = (e as Error).message;
      }
    },
  );
}

/** The IR before and after a step, side by side, changes highlighted. */
function renderMerge(t: StepView): void {
  const t0 = performance.now();
  diffView.show(t.step, t.before, t.after, t.chunks);
  // the step the view shows (the tests wait on it)
  $('merge').dataset.step = String(t.step);
  timing.merge = performance.now() - t0;
}

$('steps').addEventListener('click', (ev) => {
  const li = (ev.target as HTMLElement).closest('li');
  if (li === null) return;
  selectedStep = Number(li.dataset.step);
  // the graphs follow the function the step ran on (a module pass keeps the one selected)
  const fn = result?.steps[selectedStep]?.fn ?? '';
  if (fn !== '' && [...fnSel.options].some((o) => o.value === fn)) fnSel.value = fn;
  renderPipeline();
  void refreshGraph();
  if (tab === 'stepper') void loadTrace();
});
$('only-changed').addEventListener('change', renderPipeline);

// ---- graphs -------------------------------------------------------------------------------------

let graphBlocks: Record<string, string> = {};
let graphShownStep = NaN;

/** Phi placement and mem2reg are about allocas: their traces are of the IR before the pipeline. */
// the traces of SSA construction run on the allocas, that is on the IR before the pipeline
const ON_ALLOCAS = new Set(['idf', 'mem2reg', 'trace:idf', 'trace:idf-sg', 'trace:mem2reg', 'trace:braun', 'trace:braun-marker', 'trace:reaching-defs']);

/** The step the graph shows: the selected one, or the stepper's (see ON_ALLOCAS). */
function graphStep(): number {
  return tab === 'stepper' && ON_ALLOCAS.has($<HTMLSelectElement>('algorithm').value) ? -1 : selectedStep;
}
let irBlockOfLine: string[] = [];

/** The DOT of the graph drawn ('' when none is). */
let graphDotShown = '';
/** Counts graph requests: only the reply to the latest is drawn (an earlier one is of a step or function no longer selected). */
let graphGeneration = 0;
/** Graphviz, in its own worker (started with the first graph). */
const layout = new GraphLayout();

async function refreshGraph(): Promise<void> {
  const r = result;
  if (r === null) return;
  const gen = ++graphGeneration;
  const version = pipelineVersion;
  let g: GraphReply;
  graphShownStep = graphStep();
  const kind = graphSel.value as GraphKind;
  try {
    g = await compiler.request<GraphReply>({ kind: 'graph', step: graphShownStep, fn: fnSel.value, graph: kind });
  } catch (e) {
    if (!(e instanceof Cancelled) && gen === graphGeneration) {
      $('graph').textContent = (e as Error).message;
      graphDotShown = '';
    }
    return;
  }
  if (gen !== graphGeneration || result !== r) return;
  // the IR at once; the graph when Graphviz has laid it out (a large CFG takes it a while)
  $('graph-step').textContent = g.step < 0 ? 'before the pipeline' : `after step ${g.step + 1} (${r.steps[g.step]?.pass ?? ''})`;
  renderGraphIR(g, version);
  const host = $('graph');
  // the same graph again (an edit that changed nothing of this function at this step): no
  // layout, no new SVG, only what it is of (below)
  if (g.dot !== graphDotShown) {
    host.classList.add('pending');
    let svg: string;
    try {
      svg = await layout.render(g.dot);
    } catch (e) {
      if (!(e instanceof LayoutCancelled) && gen === graphGeneration) {
        host.textContent = (e as Error).message;
        graphDotShown = '';
      }
      return;
    }
    if (gen !== graphGeneration || result !== r) return;
    host.innerHTML = svg;
    graphDotShown = g.dot;
  }
  host.classList.remove('pending');
  graphBlocks = g.blocks;
  host.dataset.blockCount = String(g.blockCount);
  // what is drawn, for the tests to wait on: the step, the function and the kind of graph
  host.dataset.step = String(g.step);
  host.dataset.fn = g.fn;
  host.dataset.kind = kind;
  host.dataset.version = String(version);
  for (const node of host.querySelectorAll<SVGGElement>('g.node')) {
    const title = node.querySelector('title')?.textContent ?? '';
    const block = g.blocks[title.replace(/:.*$/, '')];
    if (block !== undefined) node.dataset.block = block;
  }
  applyHighlight();
}

/** Lines of the graph's IR per group: a group off screen is skipped by layout and paint (content-visibility). */
const IR_GROUP = 64;
/** The IR the graph's panel shows (the same IR again is not drawn again). */
let graphIRShown = '';

/** The IR of the graph's function, one line per div, each knowing its block. */
function renderGraphIR(g: GraphReply, version: number): void {
  const pre = $('graph-ir');
  if (g.ir !== graphIRShown) {
    graphIRShown = g.ir;
    const lines = g.ir.split('\n');
    irBlockOfLine = [];
    let cur = g.order[0] ?? '';
    let html = '';
    lines.forEach((text, k) => {
      const m = /^([-\w.$]+|"[^"]*"):/.exec(text);
      if (m) cur = m[1];
      const block = text.startsWith('define') || text === '}' ? '' : cur;
      irBlockOfLine.push(block);
      // (not <p>: the HTML parser closes a <p> at the first <div> in it)
      if (k % IR_GROUP === 0) html += k === 0 ? '<ir-lines>' : '</ir-lines><ir-lines>';
      html += `<div data-block="${esc(block).replace(/"/g, '&quot;')}">${esc(text) || ' '}</div>`;
    });
    pre.innerHTML = html + '</ir-lines>';
  }
  // what it shows, for the tests to wait on
  pre.dataset.step = String(g.step);
  pre.dataset.fn = g.fn;
  pre.dataset.version = String(version);
  applyHighlight();
}

let selectedBlock = '';
let stepperBlocks: string[] = [];

function applyHighlight(): void {
  for (const n of $('graph').querySelectorAll<SVGGElement>('g.node')) {
    const b = n.dataset.block ?? '';
    n.classList.toggle('sel', b !== '' && b === selectedBlock);
    n.classList.toggle('hl', b !== '' && (tab === 'stepper' ? stepperBlocks.includes(b) : b === selectedBlock));
  }
  let first: HTMLElement | null = null;
  for (const d of $('graph-ir').querySelectorAll<HTMLElement>('div')) {
    const on = d.dataset.block !== '' && (d.dataset.block === selectedBlock || (tab === 'stepper' && stepperBlocks.includes(d.dataset.block ?? '')));
    d.classList.toggle('hl', on);
    if (on && first === null) first = d;
  }
  first?.scrollIntoView({ block: 'nearest' });
}

$('graph').addEventListener('click', (ev) => {
  const node = (ev.target as Element).closest('g.node') as SVGGElement | null;
  selectedBlock = node?.dataset.block ?? '';
  applyHighlight();
});
$('graph-ir').addEventListener('click', (ev) => {
  const d = (ev.target as HTMLElement).closest('div');
  selectedBlock = d?.dataset.block ?? '';
  applyHighlight();
});
fnSel.addEventListener('change', () => {
  void refreshGraph();
  if (tab === 'stepper') void loadTrace();
});
graphSel.addEventListener('change', () => void refreshGraph());

// ---- the algorithm stepper ------------------------------------------------------------------------

let events: TraceEvent[] = [];
let eventPos = 0;

/** Counts trace requests: only the reply to the latest is shown. */
let traceGeneration = 0;

async function loadTrace(): Promise<void> {
  const r = result;
  if (r === null) return;
  const gen = ++traceGeneration;
  const algorithm = $<HTMLSelectElement>('algorithm').value as Algorithm;
  const step = ON_ALLOCAS.has(algorithm) ? -1 : selectedStep;
  const fn = fnSel.value;
  if (graphStep() !== graphShownStep) void refreshGraph();
  // until the reply comes, the list is of another request: say so (the tests wait on it)
  $('events').dataset.loaded = '';
  let t: TraceReply;
  try {
    t = await compiler.request<TraceReply>({ kind: 'trace', algorithm, step, fn });
  } catch (e) {
    if (e instanceof Cancelled || gen !== traceGeneration) return;
    events = [{ text: (e as Error).message, blocks: [] }];
    eventPos = 0;
    renderEvents();
    $('events').dataset.loaded = `${algorithm} ${step} ${fn}`;
    return;
  }
  if (gen !== traceGeneration || result !== r) return;
  events = t.events;
  eventPos = 0;
  renderEvents();
  $('events').dataset.loaded = `${algorithm} ${step} ${fn}`;
}

function renderEvents(): void {
  const ev = events[eventPos];
  $('step-text').textContent = ev?.text ?? '';
  $('step-pos').textContent = events.length > 0 ? `step ${eventPos + 1} of ${events.length}` : '';
  const items = events.map((e, k) => {
    const li = document.createElement('li');
    li.textContent = e.text;
    li.className = k === eventPos ? 'current' : k > eventPos ? 'future' : '';
    li.dataset.k = String(k);
    return li;
  });
  $('events').replaceChildren(...items);
  items[eventPos]?.scrollIntoView({ block: 'nearest' });
  stepperBlocks = ev?.blocks ?? [];
  applyHighlight();
}

function go(k: number): void {
  eventPos = Math.max(0, Math.min(events.length - 1, k));
  renderEvents();
}
$('step-first').addEventListener('click', () => go(0));
$('step-prev').addEventListener('click', () => go(eventPos - 1));
$('step-next').addEventListener('click', () => go(eventPos + 1));
$('step-last').addEventListener('click', () => go(events.length - 1));
$('events').addEventListener('click', (e) => {
  const li = (e.target as HTMLElement).closest('li');
  if (li) go(Number(li.dataset.k));
});
$('algorithm').addEventListener('change', () => void loadTrace());
document.addEventListener('keydown', (e) => {
  if (tab !== 'stepper' || (e.target as HTMLElement).closest('.cm-editor, input, textarea')) return;
  if (e.key === 'ArrowRight') go(eventPos + 1);
  if (e.key === 'ArrowLeft') go(eventPos - 1);
});

// ---- run --------------------------------------------------------------------------------------------

function side(title: string, s: RunSide): string {
  return `<div><h4>${title}</h4><div>exit code <b class="exit">${s.exitCode}</b>, <b class="steps">${s.steps}</b> instructions executed</div>${s.error ? `<div class="run-error" style="color:#b00020">${esc(s.error)}</div>` : ''}<pre class="stdout">${esc(s.stdout)}</pre></div>`;
}

$('run').addEventListener('click', async () => {
  const out = $('run-out');
  out.textContent = 'running…';
  let r: RunReply;
  try {
    r = await compiler.request<RunReply>({ kind: 'run', stdin: stdinBox.value });
  } catch (e) {
    out.textContent = e instanceof Cancelled ? 'cancelled' : (e as Error).message;
    if (e instanceof Cancelled) scheduleCompile(0); // the fresh worker has not compiled anything yet
    return;
  }
  const ops = new Set([...Object.keys(r.before.byOpcode), ...Object.keys(r.after.byOpcode)]);
  const rows = [...ops]
    .map((op) => [op, r.before.byOpcode[op] ?? 0, r.after.byOpcode[op] ?? 0] as const)
    .sort((a, b) => b[1] - a[1] || b[2] - a[2])
    .map(([op, a, b]) => `<tr><td>${esc(op)}</td><td>${a}</td><td>${b}</td><td>${b - a > 0 ? '+' : ''}${b - a}</td></tr>`);
  out.innerHTML =
    `<div class="runs">${side('before the pipeline', r.before)}${side('after the pipeline', r.after)}</div>` +
    `<table id="opcodes"><tr><th>opcode</th><th>before</th><th>after</th><th>Δ</th></tr>${rows.join('')}<tr><th>total</th><th>${r.before.steps}</th><th>${r.after.steps}</th><th>${r.after.steps - r.before.steps}</th></tr></table>`;
});

$('cancel').addEventListener('click', () => {
  compiler.cancel();
  layout.cancel();
  setStatus('cancelled');
});

// ---- tabs, options, share ---------------------------------------------------------------------------

function showTab(name: string): void {
  tab = name;
  for (const b of $('tabs').querySelectorAll('button')) b.classList.toggle('active', b.dataset.tab === name);
  for (const t of document.querySelectorAll<HTMLElement>('.tab')) t.hidden = t.id !== `tab-${name}`;
  if (name === 'stepper') void loadTrace();
  else if (graphStep() !== graphShownStep) void refreshGraph();
  else applyHighlight();
}
$('tabs').addEventListener('click', (e) => {
  const b = (e.target as HTMLElement).closest('button');
  if (b?.dataset.tab) showTab(b.dataset.tab);
});

langSel.addEventListener('change', () => {
  editor.dispatch({ effects: langConf.reconfigure(highlight(langSel.value as Lang)) });
  scheduleCompile(0);
});
ssaSel.addEventListener('change', () => scheduleCompile(0));
levelSel.addEventListener('change', () => {
  if (levelSel.value !== 'custom') pipelineInput.value = levelSel.value;
  pipelineInput.disabled = levelSel.value !== 'custom';
  scheduleCompile(0);
});
pipelineInput.addEventListener('input', () => scheduleCompile(150));
$<HTMLSelectElement>('pass-picker').addEventListener('change', (e) => {
  const sel = e.target as HTMLSelectElement;
  if (sel.value === '') return;
  const cur = pipelineText().trim();
  levelSel.value = 'custom';
  pipelineInput.disabled = false;
  pipelineInput.value = cur === '' || cur === 'default<O0>' ? sel.value : `${cur},${sel.value}`;
  sel.value = '';
  scheduleCompile(0);
});
exampleSel.addEventListener('change', () => {
  const ex = EXAMPLES.find((x) => x.id === exampleSel.value);
  if (ex) loadExample(ex);
});

function currentState(): ShareState {
  return { source: editor.state.doc.toString(), lang: langSel.value as Lang, ssa: ssaSel.value as SsaMode, pipeline: pipelineText(), tab, stdin: stdinBox.value, example: exampleSel.value };
}

$('share').addEventListener('click', async () => {
  const url = `${location.origin}${location.pathname}#s=${await encodeState(currentState())}`;
  history.replaceState(null, '', url);
  try {
    await navigator.clipboard.writeText(url);
    setStatus('link copied to the clipboard');
  } catch {
    setStatus('link in the address bar');
  }
});

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// ---- start ------------------------------------------------------------------------------------------

async function start(): Promise<void> {
  exampleSel.replaceChildren(...EXAMPLES.map((e) => new Option(e.title, e.id)));
  void compiler.request<PassListReply>({ kind: 'passes' }).then((p) => {
    passDescriptions = new Map(p.passes.map((x) => [x.name, x.description]));
    $('pass-picker').append(...p.passes.map((x) => Object.assign(new Option(x.name, x.name), { title: x.description })));
    // every structured trace of the library, after the page's own views
    const sel = $<HTMLSelectElement>('algorithm');
    const pass = sel.querySelector('option[value="pass"]');
    for (const t of p.traces) sel.insertBefore(Object.assign(new Option(`${t.name}: ${t.description}`, `trace:${t.name}`), { title: t.description }), pass);
  });
  const m = /#s=([-\w]+)/.exec(location.hash);
  if (m) {
    try {
      const st = await decodeState(m[1]);
      if (EXAMPLES.some((e) => e.id === st.example)) exampleSel.value = st.example!;
      ssaSel.value = st.ssa;
      setPipeline(st.pipeline);
      stdinBox.value = st.stdin;
      setSource(st.source, st.lang);
      showTab(st.tab);
      scheduleCompile(0);
      return;
    } catch (e) {
      setStatus(`could not read the shared state: ${(e as Error).message}`, true);
    }
  }
  loadExample(DEFAULT_EXAMPLE);
}

void start();
