/**
 * Our mem2reg places exactly as many phis per function as `opt-19 -passes=mem2reg` on a few
 * fresh Csmith programs (seeds printed; SSAKIT_SEED=N repeats a run). The fuzz suite runs 40
 * (test/fuzz/csmith-ssa-oracles.test.ts); the checks are in csmith-oracles.ts.
 */
import { describe, expect, it } from 'vitest';
import { hasLlvm } from '../helpers/llvm.js';
import { hasCsmith } from '../interp/diff-helpers.js';
import { checkPhiCounts, freshSeed } from './csmith-oracles.js';

// Reason for runIf: needs csmith (and its header), clang-19 and opt-19, the oracle.
describe.runIf(hasLlvm() && hasCsmith())('mem2reg phi counts against opt-19 on Csmith programs', () => {
  const base = freshSeed();
  it(`seeds ${base}..${base + 2}`, () => {
    console.log(`phis-csmith: Csmith seeds ${base}..${base + 2}`);
    let total = 0;
    for (let s = base; s < base + 3; s++) total += checkPhiCounts(s);
    // Csmith's loops and conditionals always give phis: the comparison is not vacuous
    expect(total).toBeGreaterThan(30);
  }, 300_000);
});
