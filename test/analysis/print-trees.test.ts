/**
 * print<domtree>, print<postdomtree> and print<loops> (analysis/print-trees.ts) byte for byte
 * against opt-19's output on the same input: every program of test/programs (clang -O0, then
 * opt-19's mem2reg; a sixth of them here, all in the fuzz suite), two fresh Csmith programs
 * (seeds printed; 40 in test/fuzz/csmith-ssa-oracles.test.ts),
 * and random CFGs, which bring irreducible cycles, unreachable blocks and infinite loops (the
 * post-dominator tree's non-trivial roots).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inputIR } from '../helpers/differential.js';
import { hasLlvm, listPrograms } from '../helpers/llvm.js';
import { hasCsmith } from '../interp/diff-helpers.js';
import { checkPrintsOnCsmith, expectSamePrints as expectSame, freshSeed, optPrints as opts } from '../ssa/csmith-oracles.js';
import { arbCfg } from './naive.js';

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
  it('test/programs, after mem2reg (every sixth; all in the fuzz suite)', () => {
    const all = listPrograms('test/programs');
    expect(all.length).toBeGreaterThan(40);
    for (const p of all.filter((_, i) => i % 6 === 0)) expectSame(inputIR(readFileSync(p.path, 'utf8'), p.name, { prePasses: 'mem2reg' }), p.name);
  }, 120_000);

  it('random CFGs (irreducible cycles, unreachable blocks, infinite loops)', () => {
    const ll = randomModule(21, 150);
    expectSame(ll, 'random CFGs, seed 21');
    // the sample has what the printers must order: infinite loops give non-trivial roots
    expect(opts(ll, 'postdomtree')).toMatch(/Roots: %b\d+ %b\d+ /);
  });

  // Reason for runIf: needs csmith and its header besides LLVM.
  it.runIf(hasCsmith())('two fresh Csmith programs, after mem2reg (40 in the fuzz suite)', () => {
    const base = freshSeed();
    console.log(`print-trees: Csmith seeds ${base}..${base + 1}`);
    for (let s = base; s < base + 2; s++) checkPrintsOnCsmith(s);
  }, 300_000);
});
