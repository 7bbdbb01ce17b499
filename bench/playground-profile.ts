/**
 * Where the playground page's main thread spends an edit, in Chromium (Debian's, through
 * playwright-core and the DevTools protocol): `n` edits of examples/sort.sy at -O2, as
 * bench/playground.ts makes them, under a timeline trace and V8's sampling profiler.
 * Prints the renderer main thread's time per kind of work (script, style, layout, paint,
 * GC, ...), the forced layouts and the scripts that forced them, and the JavaScript
 * functions with the most self time, grouped by package. Time is per edit.
 *
 * `--fresh=SEED` edits a generated SysY program instead (as bench/playground.ts's fresh
 * sample does). SSAKIT_PLAYGROUND_PROFILE=1 builds the site unminified, with its names.
 *
 * Run: SSAKIT_PLAYGROUND_PROFILE=1 npx tsx bench/playground-profile.ts [--edits=N] [--top=N] [--fresh=SEED]
 */
import { readFileSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';
import { generateSysYProgram } from '../src/fuzz/sysy-gen.js';
import { CHROMIUM, SKIP_REASON, pipelineVersion, setEditorText, startSite, waitCompiled, waitGraph } from '../test/web/harness.js';

const arg = (name: string, dflt: number): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt);
const EDITS = arg('edits', 15);
const TOP = arg('top', 25);
const FRESH = arg('fresh', -1);
/** Where an edit changes a digit: sort.sy's array size, or a generated program's last `int acc = `. */
const NEEDLE = FRESH >= 0 ? { text: 'int acc = ', last: true } : { text: 'int a[100', last: false };

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** thread time (CPU) of the event: what the machine's load does not inflate */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { stackTrace?: { functionName: string; url: string; lineNumber: number }[] }; beginData?: { stackTrace?: { functionName: string; url: string; lineNumber: number }[] } };
}

/** One edit as the bench makes it, waited for until the graph beside the view is drawn. */
async function edit(page: Page, k: number): Promise<void> {
  await page.evaluate(async ({ k, needle }) => {
    const ed = (window as unknown as { __ssakitEditor: { state: { doc: { toString(): string } }; dispatch(tr: unknown): void } }).__ssakitEditor;
    const text = ed.state.doc.toString();
    const pos = (needle.last ? text.lastIndexOf(needle.text) : text.indexOf(needle.text)) + needle.text.length;
    const v0 = document.body.dataset.pipelineVersion;
    ed.dispatch({ changes: { from: pos, to: pos + 1, insert: String((k + 1) % 10) } });
    await new Promise<void>((resolve) => {
      const mo = new MutationObserver(() => {
        const g = document.getElementById('graph')!;
        if (document.body.dataset.pipelineVersion !== v0 && g.dataset.version === document.body.dataset.pipelineVersion) {
          mo.disconnect();
          requestAnimationFrame(() => setTimeout(resolve, 0));
        }
      });
      mo.observe(document.body, { attributes: true, subtree: true, attributeFilter: ['data-pipeline-version', 'data-version'] });
    });
  }, { k, needle: NEEDLE });
  await page.waitForTimeout(100);
}

async function readTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const done = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (e: { stream?: string }) => resolve(e.stream!)));
  await cdp.send('Tracing.end');
  const stream = await done;
  let text = '';
  for (;;) {
    const r = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    text += r.base64Encoded ? Buffer.from(r.data, 'base64').toString('utf8') : r.data;
    if (r.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const j = JSON.parse(text) as { traceEvents: TraceEvent[] } | TraceEvent[];
  return Array.isArray(j) ? j : j.traceEvents;
}

function where(st: { functionName: string; url: string; lineNumber: number }[] | undefined): string {
  if (st === undefined || st.length === 0) return '(no stack)';
  const f = st[0];
  return `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber}`;
}

if (CHROMIUM === null) {
  console.log(SKIP_REASON);
  process.exit(0);
}
const site = await startSite();
try {
  const page = await site.browser.newPage({ viewport: { width: 1600, height: 900 } });
  await page.goto(site.url);
  await waitGraph(page, undefined, 60_000);
  if (FRESH >= 0) {
    const v = await pipelineVersion(page);
    await setEditorText(page, generateSysYProgram(FRESH, { size: 'small', functions: 2, maxStmts: 4, globals: 4 }));
    await waitCompiled(page, v, 120_000);
    await waitGraph(page, undefined, 120_000);
  }
  for (let k = 0; k < 3; k++) await edit(page, k); // warm up
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'] },
  });
  await cdp.send('Profiler.start');
  for (let k = 0; k < EDITS; k++) await edit(page, k + 3);
  const { profile } = await cdp.send('Profiler.stop');
  const events = await readTrace(cdp);

  // the renderer's main thread: the thread named CrRendererMain of the page's process
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((x) => x.pid === e.pid && x.name === 'FunctionCall'));
  if (main === undefined) throw new Error('no renderer main thread in the trace');
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
  // time per top-level task and the kinds of work nested in them (a kind counted once where nested in itself)
  const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const taskMs = tasks.reduce((t, e) => t + e.dur!, 0) / 1000;
  const taskCpu = tasks.reduce((t, e) => t + (e.tdur ?? 0), 0) / 1000;
  const kinds = ['FunctionCall', 'EvaluateScript', 'TimerFire', 'FireAnimationFrame', 'EventDispatch', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'UpdateLayer', 'CompositeLayers', 'HitTest', 'MinorGC', 'MajorGC', 'V8.GC_SCAVENGER', 'ParseHTML', 'v8.compile', 'V8.CompileCode', 'v8.compileModule'];
  console.log(`renderer main thread over ${EDITS} edits, per edit: tasks ${(taskMs / EDITS).toFixed(1)} ms wall, ${(taskCpu / EDITS).toFixed(1)} ms CPU (load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}); per kind of work, wall and CPU:`);
  const sorted = onMain.slice().sort((a, b) => a.ts - b.ts);
  for (const kind of kinds) {
    let total = 0;
    let cpu = 0;
    let end = -1;
    for (const e of sorted) {
      if (e.name !== kind) continue;
      if (e.ts < end) continue; // nested in one already counted
      total += e.dur!;
      cpu += e.tdur ?? 0;
      end = e.ts + e.dur!;
    }
    if (total > 0) console.log(`  ${kind.padEnd(22)} ${(total / 1000 / EDITS).toFixed(1).padStart(7)} ms ${(cpu / 1000 / EDITS).toFixed(1).padStart(7)} ms CPU`);
  }
  // forced layouts and style recalcs: those inside a script, with the JS frame that asked
  const forced = new Map<string, { n: number; us: number }>();
  const scripts = sorted.filter((e) => e.name === 'FunctionCall' || e.name === 'TimerFire' || e.name === 'FireAnimationFrame' || e.name === 'EvaluateScript');
  for (const e of sorted) {
    if (e.name !== 'Layout' && e.name !== 'UpdateLayoutTree') continue;
    const inScript = scripts.some((s) => s.ts <= e.ts && e.ts + e.dur! <= s.ts + s.dur!);
    if (!inScript) continue;
    const key = `${e.name} <- ${where(e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace)}`;
    const f = forced.get(key) ?? { n: 0, us: 0 };
    f.n++;
    f.us += e.dur!;
    forced.set(key, f);
  }
  if (process.argv.includes('--layouts')) {
    // each layout: how many objects it had to lay out, of how many
    for (const e of sorted.filter((x) => x.name === 'Layout').slice(0, 40)) console.log(`  layout ${(e.dur! / 1000).toFixed(1)} ms (${((e.tdur ?? 0) / 1000).toFixed(1)} CPU): ${JSON.stringify(e.args?.beginData)?.slice(0, 200)} ${JSON.stringify((e.args as { endData?: unknown })?.endData)?.slice(0, 300)}`);
  }
  console.log('forced (inside a script) layouts and style recalcs, per edit:');
  for (const [k, f] of [...forced].sort((a, b) => b[1].us - a[1].us).slice(0, 15)) console.log(`  ${(f.us / 1000 / EDITS).toFixed(1).padStart(6)} ms  ${(f.n / EDITS).toFixed(1).padStart(5)}x  ${k}`);

  // JS self time from the sampling profile
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0)));
  const byFn = new Map<string, number>();
  const byPkg = new Map<string, number>();
  for (const n of profile.nodes) {
    const us = self.get(n.id) ?? 0;
    if (us === 0) continue;
    const cf = n.callFrame;
    const file = cf.url.replace(/^.*\//, '');
    const fn = `${cf.functionName || '(anonymous)'} ${file}${file ? `:${cf.lineNumber + 1}` : ''}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    const pkg = cf.url === '' ? cf.functionName : file.replace(/-[\w-]{8}\.js$/, '.js');
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
  }
  console.log('JavaScript self time (sampling profiler, main thread), per edit:');
  for (const [k, us] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${(us / 1000 / EDITS).toFixed(1).padStart(6)} ms  ${k}`);
  console.log('top functions (and the callers of the first few):');
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const label = (id: number): string => {
    const cf = byId.get(id)!.callFrame;
    return `${cf.functionName || '(anonymous)'}:${cf.lineNumber + 1}`;
  };
  [...byFn].sort((a, b) => b[1] - a[1]).slice(0, TOP).forEach(([k, us], rank) => {
    console.log(`  ${(us / 1000 / EDITS).toFixed(2).padStart(6)} ms  ${k}`);
    if (rank >= 6 || k.startsWith('(')) return;
    // the call chains (5 frames up) that account for this function's self time
    const chains = new Map<string, number>();
    for (const n of profile.nodes) {
      const cf = n.callFrame;
      const file = cf.url.replace(/^.*\//, '');
      if (`${cf.functionName || '(anonymous)'} ${file}${file ? `:${cf.lineNumber + 1}` : ''}` !== k) continue;
      const path: string[] = [];
      for (let p = parent.get(n.id), d = 0; p !== undefined && d < 6; p = parent.get(p), d++) path.push(label(p));
      chains.set(path.join(' < '), (chains.get(path.join(' < ')) ?? 0) + (self.get(n.id) ?? 0));
    }
    for (const [c, t] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 4)) console.log(`           ${(t / 1000 / EDITS).toFixed(2)} ms < ${c}`);
  });
} finally {
  await site.close();
}
