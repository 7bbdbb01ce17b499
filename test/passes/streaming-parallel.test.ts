/**
 * optimizeTextParallel (src/driver/streaming-parallel.ts) must give what optimizeText gives,
 * byte for byte, and fall back to one thread whenever the text is not laid out as LLVM
 * prints it or anything goes wrong in a thread. The worker script exists only in the
 * bundle, so these tests load dist/ (built by `npm test`'s pretest step).
 */
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { claimedShare, optimizeText } from '../../src/driver/streaming.js';
import { parseModule } from '../../src/text/parser.js';
import { clangFileToLL, hasLlvm, listPrograms, LLVM_MISSING } from '../helpers/llvm.js';

type Lib = typeof import('../../src/index.js');
let lib: Lib;
beforeAll(async () => {
  if (!existsSync('dist/streaming-worker.js')) throw new Error('dist/ is not built: run `npm run build` (npm test does it first)');
  lib = (await import('../../dist/index.js' as string)) as Lib;
});

// 'even' shares: every thread gets functions, whatever the timing (with 'claim', the main
// thread may read a small module before a worker has started).
const FORCE = { threads: 3, minParallelBytes: 0, split: 'even' } as const;

function fn(name: string, k: number): string {
  return `define i32 @${name}(i32 %a) {
entry:
  %p = alloca i32
  store i32 %a, ptr %p
  %v = load i32, ptr %p
  %w = add i32 %v, ${k}
  %r = call i32 @${k % 2 === 0 ? 'ext' : 'f0'}(i32 %w)
  ret i32 %r
}
`;
}
/** Eight functions, the first calling the last (a forward reference across shares). */
const MODULE = ['@g = global i32 7', 'declare i32 @ext(i32)', ...Array.from({ length: 8 }, (_, k) => fn(`f${k}`, k))].join('\n\n').replace('@f0(i32 %w)', '@f7(i32 %w)');

describe('findBodies and splitBodies', () => {
  it('find every body of LLVM-formatted text, as the parser reads them', () => {
    const b = lib.findBodies(MODULE)!;
    expect(b).not.toBeNull();
    expect(b.length / 2).toBe(8);
    for (let k = 0; k < b.length; k += 2) {
      expect(MODULE[b[k]]).toBe('{');
      expect(MODULE.slice(b[k + 1] - 2, b[k + 1])).toBe('\n}');
    }
    expect(parseModule(MODULE).functions.filter((f) => !f.isDeclaration()).length).toBe(8);
  });

  it('give up on other layouts', () => {
    expect(lib.findBodies('define void @f() { ret void }\n')).toBeNull();
    expect(lib.findBodies('define void @f() {\nentry:\n  ret void\n  }\n')).toBeNull();
  });

  it('split into consecutive ranges covering every definition', () => {
    const b = lib.findBodies(MODULE)!;
    for (const parts of [2, 3, 4, 8, 9]) {
      const cuts = lib.splitBodies(b, parts, 0.75);
      expect(cuts.length).toBe(parts + 1);
      expect(cuts[0]).toBe(0);
      expect(cuts[parts]).toBe(8);
      for (let i = 1; i < cuts.length; i++) expect(cuts[i]).toBeGreaterThanOrEqual(cuts[i - 1]);
    }
  });
});

describe('claimedShare', () => {
  it('gives each definition to exactly one thread, in text order, under any interleaving', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 4 }), fc.array(fc.nat(), { maxLength: 200 }), (n, threads, schedule) => {
        const counter = new Int32Array(new SharedArrayBuffer(4));
        const shares = Array.from({ length: threads }, () => claimedShare(new Int32Array(0), counter));
        const at = new Array<number>(threads).fill(0); // the next definition each thread reaches
        const taken: number[][] = shares.map(() => []);
        // Threads step through the definitions in the order the schedule says, then run to the end.
        const step = (t: number): void => {
          if (at[t] < n && shares[t].take(at[t])) taken[t].push(at[t]);
          at[t]++;
        };
        for (const x of schedule) step(x % threads);
        for (let t = 0; t < threads; t++) while (at[t] < n) step(t);
        expect(taken.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, k) => k));
      }),
    );
  });
});

describe('optimizeTextParallel = optimizeText', () => {
  it('on a module whose calls cross shares, with stats merged', async () => {
    for (const split of ['even', 'claim'] as const) {
      for (const pipeline of ['', 'mem2reg', 'mem2reg,out-of-ssa']) {
        const p = await lib.optimizeTextParallel(MODULE, 'm.ll', { ...FORCE, split, pipeline, instrumentation: { timePasses: true } });
        const s = optimizeText(MODULE, 'm.ll', { pipeline });
        expect(p.threads).toBe(3);
        expect(p.output).toBe(s.output);
        if (pipeline !== '') expect(p.pm!.statsReport()).toBe(s.pm!.statsReport());
        if (pipeline !== '') expect(p.pm!.timings.get('mem2reg')!.runs).toBe(8);
      }
    }
  });

  it('gives the same text as UTF-8 chunks with printBytes (worker bytes are transferred, not copied)', async () => {
    const decode = (chunks: Uint8Array[] | null): string => Buffer.concat(chunks!).toString('utf8');
    // a non-ASCII name and metadata string, in the main share and in a worker's
    const text = MODULE.replace(/@f1\b/g, '@"f\\C3\\A91"').replace(/@f6\b/g, '@"f\\E2\\88\\916"') + '\n!0 = !{!"grüße"}\n';
    expect(text).toContain('@"f\\E2\\88\\916"');
    for (const pipeline of ['', 'mem2reg']) {
      const s = optimizeText(text, 'm.ll', { pipeline });
      expect(s.output).not.toBeNull();
      const p = await lib.optimizeTextParallel(text, 'm.ll', { ...FORCE, pipeline, printBytes: true });
      expect(p.threads).toBe(3);
      expect(p.output).toBeNull();
      expect(decode(p.outputBytes)).toBe(s.output);
      for (const streaming of [true, false]) {
        const one = optimizeText(text, 'm.ll', { pipeline, streaming, printBytes: true });
        expect(one.streamed).toBe(streaming);
        expect(decode(one.outputBytes)).toBe(s.output);
      }
    }
  });

  it('falls back to one thread, with the same result, when the layout misleads the scan', async () => {
    // The closing brace of @f3 is indented: the scan's range for @f3 swallows @f4.
    const odd = MODULE.replace(/(@f3[\s\S]*?ret i32 %r\n)\}/, '$1  }');
    expect(lib.findBodies(odd)).not.toBeNull();
    const p = await lib.optimizeTextParallel(odd, 'm.ll', { ...FORCE, pipeline: 'mem2reg' });
    expect(p.threads).toBe(1);
    expect(p.output).toBe(optimizeText(odd, 'm.ll', { pipeline: 'mem2reg' }).output);
  });

  it('reports a text error in a worker\'s share exactly as one thread does', async () => {
    const bad = MODULE.replace('%w = add i32 %v, 6', '%w = add i32 %v, 6 6');
    let one = '';
    try {
      optimizeText(bad, 'm.ll', { pipeline: 'mem2reg' });
    } catch (e) {
      one = (e as Error).message;
    }
    expect(one).toMatch(/^m\.ll:\d+:\d+: error: /);
    await expect(lib.optimizeTextParallel(bad, 'm.ll', { ...FORCE, pipeline: 'mem2reg' })).rejects.toThrow(one);
  });

  it('reports verifier problems in a worker\'s share exactly as one thread does', async () => {
    const broken = MODULE.replace('%w = add i32 %v, 7', '%w = add i32 %w, 7');
    const p = await lib.optimizeTextParallel(broken, 'm.ll', { ...FORCE, pipeline: 'mem2reg' });
    const s = optimizeText(broken, 'm.ll', { pipeline: 'mem2reg' });
    expect(p.output).toBeNull();
    expect(p.inputProblems.map((e) => e.message)).toEqual(s.inputProblems.map((e) => e.message));
    expect(p.inputProblems.length).toBeGreaterThan(0);
  });

  it('uses workers started before the text was read, and stops them when it does not need them', async () => {
    const s = optimizeText(MODULE, 'm.ll', { pipeline: 'mem2reg' });
    for (const split of ['even', 'claim'] as const) {
      const workers = lib.startWorkers(2);
      const p = await lib.optimizeTextParallel(MODULE, 'm.ll', { ...FORCE, split, pipeline: 'mem2reg', workers });
      expect(p.threads).toBe(3);
      expect(p.output).toBe(s.output);
    }
    // not streamable: the started workers are stopped (they exit) and one thread runs
    const workers = lib.startWorkers(2);
    const exited = Promise.all(workers.map((w) => new Promise((resolve) => w.worker.once('exit', resolve))));
    const r = await lib.optimizeTextParallel(MODULE, 'm.ll', { ...FORCE, pipeline: 'sccp', workers });
    expect(r.threads).toBe(1);
    await exited;
    // a bad pipeline: the error, and the workers stopped all the same
    const more = lib.startWorkers(1);
    const gone = new Promise((resolve) => more[0].worker.once('exit', resolve));
    await expect(lib.optimizeTextParallel(MODULE, 'm.ll', { ...FORCE, pipeline: 'no-such-pass', workers: more })).rejects.toThrow(/no-such-pass/);
    await gone;
  });

  it('judges from the size and the pipeline how many workers to start ahead', () => {
    const big = 20_000_000;
    expect(lib.likelyWorkers(big, { threads: 3, pipeline: 'mem2reg' })).toBe(2);
    expect(lib.likelyWorkers(1000, { threads: 3, pipeline: 'mem2reg' })).toBe(0);
    expect(lib.likelyWorkers(big, { threads: 1, pipeline: 'mem2reg' })).toBe(0);
    expect(lib.likelyWorkers(big, { threads: 3, pipeline: 'sccp' })).toBe(0);
    expect(lib.likelyWorkers(big, { threads: 3, pipeline: 'mem2reg', streaming: false })).toBe(0);
    expect(lib.likelyWorkers(big, { threads: 3, pipeline: 'mem2reg', instrumentation: { verifyEach: true } })).toBe(0);
    expect(lib.likelyWorkers(big, { threads: 3, pipeline: 'no-such-pass' })).toBe(0);
  });

  it('uses one thread below the size threshold or when the pipeline cannot stream', async () => {
    expect((await lib.optimizeTextParallel(MODULE, 'm.ll', { pipeline: 'mem2reg' })).threads).toBe(1);
    const r = await lib.optimizeTextParallel(MODULE, 'm.ll', { ...FORCE, pipeline: 'sccp' });
    expect(r.threads).toBe(1);
    expect(r.streamed).toBe(false);
  });
});

const llvm = hasLlvm();
// Reason for runIf: needs clang-19 to make the corpus's .ll files.
describe.runIf(llvm)('optimizeTextParallel = optimizeText on the corpus', () => {
  it('every program at -O0, mem2reg', async () => {
    // each split on every other program, for the suite's budget (both on all: SSAKIT_FUZZ=1 npx vitest run this file)
    let parallel = 0;
    let evens = 0;
    const progs = listPrograms('test/programs');
    for (let k = 0; k < progs.length; k++) {
      const prog = progs[k];
      const text = readFileSync(clangFileToLL(prog.path, 'O0'), 'utf8');
      const s = optimizeText(text, prog.name, { pipeline: 'mem2reg' });
      const splits = process.env.SSAKIT_FUZZ ? (['even', 'claim'] as const) : k % 2 === 0 ? (['even'] as const) : (['claim'] as const);
      for (const split of splits) {
        const p = await lib.optimizeTextParallel(text, prog.name, { threads: 2, minParallelBytes: 0, pipeline: 'mem2reg', split });
        expect(p.output, `${prog.name} (${split})`).toBe(s.output);
        if (split === 'even') evens++;
        if (p.threads > 1 && split === 'even') parallel++;
      }
    }
    // Most programs have several functions and LLVM's layout: they really ran on two threads.
    expect(parallel).toBeGreaterThan(evens / 2);
  }, 120_000);
});

// Reason: a placeholder registered only when clang-19 is absent, so that the corpus tests
// above, which need it, are explained in the report instead of vanishing silently.
if (!llvm) {
  // Reason: placeholder naming the missing LLVM tools (clang-19 makes the corpus above).
  // Reason for skip: needs clang-19/llvm-19 as the oracles (apt-get install clang-19 llvm-19); .ci/run installs them, and the skipped entry names what is missing.
  it.skip(`LLVM tools are missing: ${LLVM_MISSING}`, () => {});
}
