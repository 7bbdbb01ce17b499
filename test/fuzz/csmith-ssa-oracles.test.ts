/**
 * npm run test:fuzz: on 40 fresh Csmith programs (seeds printed; SSAKIT_SEED=N repeats a run),
 * our mem2reg's phi count per function equals opt-19's, and print<domtree|postdomtree|loops>
 * print what opt-19 prints (test/ssa/csmith-oracles.ts); and the printers on every corpus
 * program.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inputIR } from '../helpers/differential.js';
import { hasLlvm, listPrograms } from '../helpers/llvm.js';
import { hasCsmith } from '../interp/diff-helpers.js';
import { checkPhiCounts, checkPrintsOnCsmith, expectSamePrints, freshSeed } from '../ssa/csmith-oracles.js';

const COUNT = 40;

// Reason for runIf: needs csmith (and its header), clang-19 and opt-19, the oracle.
describe.runIf(hasLlvm() && hasCsmith())('Csmith programs against opt-19 (fuzz)', () => {
  const base = freshSeed();
  it(`mem2reg phi counts, seeds ${base}..${base + COUNT - 1}`, () => {
    console.log(`csmith-ssa-oracles: phi counts on Csmith seeds ${base}..${base + COUNT - 1}`);
    let total = 0;
    for (let s = base; s < base + COUNT; s++) total += checkPhiCounts(s);
    expect(total).toBeGreaterThan(COUNT * 10);
  }, 1_200_000);
  it(`print<domtree|postdomtree|loops>, seeds ${base + COUNT}..${base + 2 * COUNT - 1}`, () => {
    console.log(`csmith-ssa-oracles: printers on Csmith seeds ${base + COUNT}..${base + 2 * COUNT - 1}`);
    for (let s = base + COUNT; s < base + 2 * COUNT; s++) checkPrintsOnCsmith(s);
  }, 1_200_000);
});

// Reason for runIf: needs clang-19/opt-19 (the oracle).
describe.runIf(hasLlvm())('printers on every corpus program (fuzz)', () => {
  it('test/programs, after mem2reg', () => {
    for (const p of listPrograms('test/programs')) expectSamePrints(inputIR(readFileSync(p.path, 'utf8'), p.name, { prePasses: 'mem2reg' }), p.name);
  }, 600_000);
});
