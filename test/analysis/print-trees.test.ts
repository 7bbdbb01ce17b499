/**
 * print<domtree>, print<postdomtree> and print<loops> (analysis/print-trees.ts) byte for byte
 * against opt-19's output on the same input: every program of test/programs (clang -O0, then
 * opt-19's mem2reg; a quarter of them in the normal suite), a few Csmith programs (fresh seeds, printed; more with SSAKIT_FUZZ=1),
 * and random CFGs, which bring irreducible cycles, unreachable blocks and infinite loops (the
 * post-dominator tree's non-trivial roots).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/text/index.js';
import { runPipeline } from '../../src/passes/index.js';
import { setSCEVPrintSink } from '../../src/transforms/loop/print-scev.js';
import { inputIR } from '../helpers/differential.js';
import { clangToLL, hasLlvm, listPrograms, OPT, runTool } from '../helpers/llvm.js';
import { csmithProgram, hasCsmith } from '../interp/diff-helpers.js';
import { arbCfg } from './naive.js';

const PRINTERS = ['domtree', 'postdomtree', 'loops'];

function ours(ll: string, printer: string): string {
  let out = '';
  const old = setSCEVPrintSink((t) => (out += t));
  try {
    runPipeline(parseModule(ll, 'input'), `print<${printer}>`);
  } finally {
    setSCEVPrintSink(old);
  }
  return out;
}

function opts(ll: string, printer: string): string {
  const r = runTool(OPT, [`-passes=print<${printer}>`, '-disable-output'], { input: ll });
  expect(r.status, r.stderr).toBe(0);
  return r.stderr;
}

function expectSame(ll: string, name: string): void {
  for (const p of PRINTERS) expect(ours(ll, p), `print<${p}> on ${name}`).toBe(opts(ll, p));
}

/** Random CFGs as one module, a function each (blocks b0, b1, …; b0 is the entry). */
function randomModule(seed: number, count: number): string {
  const cfgs = fc.sample(arbCfg(14), { seed, numRuns: count });
  const fns = cfgs.map((c, f) => {
    const lines = [`define void @f${f}(i1 %c, i32 %x) {`];
    c.succs.forEach((s, b) => {
      lines.push(`b${b}:`);
      if (s.length === 0) lines.push('  ret void');
      else if (s.length === 1) lines.push(`  br label %b${s[0]}`);
      else if (s.length === 2) lines.push(`  br i1 %c, label %b${s[0]}, label %b${s[1]}`);
      else lines.push(`  switch i32 %x, label %b${s[0]} [ ${s.slice(1).map((t, i) => `i32 ${i}, label %b${t}`).join(' ')} ]`);
    });
    lines.push('}');
    return lines.join('\n');
  });
  return fns.join('\n\n') + '\n';
}

// Reason for runIf: needs clang-19/opt-19 (the oracle is opt-19's own printer output).
describe.runIf(hasLlvm())('print<domtree|postdomtree|loops> against opt-19', () => {
  it('test/programs, after mem2reg (every fourth; all with SSAKIT_FUZZ=1)', () => {
    const all = listPrograms('test/programs');
    expect(all.length).toBeGreaterThan(40);
    const progs = process.env.SSAKIT_FUZZ ? all : all.filter((_, i) => i % 4 === 0);
    for (const p of progs) expectSame(inputIR(readFileSync(p.path, 'utf8'), p.name, { prePasses: 'mem2reg' }), p.name);
  }, 120_000);

  it('random CFGs (irreducible cycles, unreachable blocks, infinite loops)', () => {
    const ll = randomModule(21, 150);
    expectSame(ll, 'random CFGs, seed 21');
    // the sample has what the printers must order: infinite loops give non-trivial roots
    expect(opts(ll, 'postdomtree')).toMatch(/Roots: %b\d+ %b\d+ /);
  });

  // Reason for runIf: needs csmith and its header besides LLVM.
  it.runIf(hasCsmith())('Csmith programs (fresh seeds), after mem2reg', () => {
    const count = process.env.SSAKIT_FUZZ ? 40 : 4;
    const base = Number(process.env.SSAKIT_SEED ?? Math.floor(Math.random() * 1e9));
    console.log(`print-trees: Csmith seeds ${base}..${base + count - 1}`);
    for (let s = base; s < base + count; s++) {
      const { source, flags } = csmithProgram(s);
      const r = runTool(OPT, ['-passes=mem2reg', '-S', clangToLL(source, 'O0', flags, `csmith-${s}`)]);
      expect(r.status, r.stderr).toBe(0);
      expectSame(r.stdout.toString(), `csmith-${s}`);
    }
  }, 300_000);
});
