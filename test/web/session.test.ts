/**
 * The playground worker's reconstruction of the IR at every pipeline step (web/src/session.ts),
 * against the library's own run of the same pipeline in Node: after every pass execution,
 * the whole module as the library prints it then must equal the module the session rebuilds
 * for that step from its snapshots, and each step's before/after texts must be what the
 * library printed before and after that execution. Every step, every example program.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileSysY, createPassManager, ensureRegistered, parseModule, parsePipeline, printFunction, printModule, type Module } from '../../src/index.js';
import { Session } from '../../web/src/session.js';
import { lineChunks } from '../../web/src/step-diff.js';

const programs: { path: string; pipelines: string[]; ssa?: 'braun' | 'alloca' }[] = [
  { path: 'examples/sort.sy', pipelines: ['default<O2>', 'default<O1>'] },
  { path: 'examples/sort.sy', pipelines: ['default<O2>'], ssa: 'alloca' },
  { path: 'examples/hello.ll', pipelines: ['default<O2>'] },
  { path: 'test/analysis/fixtures/textbook.ll', pipelines: ['default<O2>'] },
  { path: 'test/analysis/fixtures/cytron.ll', pipelines: ['default<O2>'] },
  ...readdirSync('web/examples').map((f) => ({ path: `web/examples/${f}`, pipelines: ['default<O2>', 'mem2reg,loop-simplify,loop-rotate,licm,pre,out-of-ssa'] })),
];

function load(path: string, ssa: 'braun' | 'alloca'): Module {
  const src = readFileSync(path, 'utf8');
  return path.endsWith('.sy') ? compileSysY(src, 'input.sy', { ssa }).module! : parseModule(src, 'input.ll');
}

describe('the playground session rebuilds the IR of every pipeline step as the library has it', () => {
  for (const { path, pipelines, ssa = 'braun' } of programs) {
    for (const pipeline of pipelines) {
      it(`${path}${ssa === 'alloca' ? ' (allocas)' : ''} at ${pipeline}`, async () => {
        ensureRegistered();
        // the oracle: the library's own run, the whole module printed after every execution
        const m = load(path, ssa);
        const modules: string[] = [];
        const texts: { before: string; after: string }[] = [];
        let prevModule = printModule(m);
        const fnText = new Map(m.functions.filter((f) => !f.isDeclaration()).map((f) => [f.name, printFunction(f)]));
        createPassManager(m, {
          afterPass: (e) => {
            const now = printModule(m);
            if (e.fn !== undefined) {
              const before = fnText.get(e.fn.name) ?? '';
              const after = printFunction(e.fn);
              // a pass that says "unchanged" must not have changed its function
              if (!e.changed) expect(after, `${e.pass} on @${e.fn.name} says unchanged`).toBe(before);
              fnText.set(e.fn.name, after);
              texts.push({ before, after });
            } else {
              texts.push({ before: prevModule, after: now });
              for (const f of m.functions) if (!f.isDeclaration()) fnText.set(f.name, printFunction(f));
            }
            modules.push(now);
            prevModule = now;
          },
        }).run(parsePipeline(pipeline));

        const source = readFileSync(path, 'utf8');
        const s = new Session();
        const r = s.compile({ kind: 'compile', source, lang: path.endsWith('.sy') ? 'sysy' : 'llvm', ssa, pipeline });
        expect(r.errors).toEqual([]);
        expect(r.steps.length).toBe(modules.length);
        expect(r.final).toBe(modules.at(-1) ?? s.moduleTextAt(-1));
        for (let k = 0; k < modules.length; k++) {
          // let vitest's worker answer its runner now and then (a long synchronous test times its RPC out)
          if (k % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
          expect(s.moduleTextAt(k), `module after step ${k + 1} (${r.steps[k].pass} ${r.steps[k].fn})`).toBe(modules[k]);
          // and it reads back (a function printed alone has metadata references without their nodes)
          expect(() => s.moduleAt(k), `module after step ${k + 1} parses`).not.toThrow();
          const t = s.stepTexts(k);
          expect(t.before, `before step ${k + 1}`).toBe(texts[k].before);
          expect(t.after, `after step ${k + 1}`).toBe(texts[k].after);
        }
        // the page's first view is the last step that changed the IR
        const lastChanged = r.steps.map((x) => x.changed).lastIndexOf(true);
        if (lastChanged >= 0) expect(r.shown).toEqual({ step: lastChanged, ...texts[lastChanged], chunks: lineChunks(texts[lastChanged].before, texts[lastChanged].after) });
      });
    }
  }
});

describe('the shown step: printed while compiling when the hint is right, replayed when not', () => {
  it('sort.sy at -O2, edited: the same texts with a right hint (no replay), a wrong one and none', () => {
    const source = readFileSync('examples/sort.sy', 'utf8');
    const req = { kind: 'compile', source, lang: 'sysy', ssa: 'braun', pipeline: 'default<O2>' } as const;
    const s = new Session();
    const r0 = s.compile(req);
    const k = r0.shown!.step;
    // an edit that keeps the pipeline's shape: the size of the array
    const edited = { ...req, source: source.replace('int a[1000]', 'int a[1003]') };
    const oracle = new Session().compile(edited).shown;
    expect(oracle!.before).not.toBe(r0.shown!.before);
    const right = s.compile({ ...edited, hint: { step: k, pass: r0.steps[k].pass, fn: r0.steps[k].fn } });
    expect(right.shown).toEqual(oracle);
    expect(right.timing!.replays, 'a right hint needs no replay').toBe(r0.timing!.replays);
    for (const hint of [{ step: k - 1, pass: r0.steps[k - 1].pass, fn: r0.steps[k - 1].fn }, { step: k, pass: 'gvn', fn: 'main' }]) {
      const wrong = s.compile({ ...edited, hint });
      expect(wrong.shown, JSON.stringify(hint)).toEqual(oracle);
      expect(wrong.timing!.replays).toBeGreaterThan(right.timing!.replays);
    }
  });
});

describe("the stepper's structured traces are the library's (traceAlgorithm), with the graph's block names", () => {
  it('every trace on sort.sy: before the pipeline for SSA construction, at its last step otherwise', async () => {
    const { TRACES, traceAlgorithm } = await import('../../src/index.js');
    const source = readFileSync('examples/sort.sy', 'utf8');
    const s = new Session();
    const r = s.compile({ kind: 'compile', source, lang: 'sysy', ssa: 'alloca', pipeline: 'default<O2>' });
    expect(r.errors).toEqual([]);
    // the page runs the traces of SSA construction on the allocas (main.ts ON_ALLOCAS), the others on a step
    const onAllocas = new Set(['idf', 'idf-sg', 'mem2reg', 'braun', 'reaching-defs']);
    const naming = new Set<string>();
    for (const t of TRACES) {
      for (const step of onAllocas.has(t.name) ? [-1] : [-1, r.steps.length - 1]) {
        const reply = s.trace({ kind: 'trace', algorithm: `trace:${t.name}`, step, fn: 'quicksort' });
        // the oracle: the library's trace of the same function at the same step, in Node
        const want = traceAlgorithm(t.name, s.functionAt(step, 'quicksort'));
        expect(reply.events.map((e) => e.text), `${t.name} at step ${step}`).toEqual(want.map((e) => e.text));
        expect(reply.events.length, `${t.name} at step ${step}`).toBeGreaterThan(0);
        const graph = new Set(Object.values(s.graph(step, 'quicksort', 'cfg').blocks));
        for (const e of reply.events) for (const b of e.blocks) expect(graph.has(b), `${t.name}: ${b} is a node of the graph`).toBe(true);
        if (reply.events.some((e) => e.blocks.length > 0)) naming.add(t.name);
      }
    }
    // the graph lights up for most of them (a trace with nothing to do on this function names none)
    expect(naming.size, [...naming].join(', ')).toBeGreaterThanOrEqual(TRACES.length - 3);
  });
});
