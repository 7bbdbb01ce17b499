/**
 * Fuzz suite (npm run test:fuzz): the interpreter against lli-19 on many generated C
 * programs (SSAKIT_FUZZ_N, default 500, from seed SSAKIT_FUZZ_SEED, default 1000) and Csmith
 * programs (SSAKIT_CSMITH_N, default 100), at -O0 and -O2.
 */
import { describe, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { clangToLL, hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { csmithProgram, CSMITH_MISSING, expectSameAsLli, hasCsmith, LEVELS, lliOracle } from '../interp/diff-helpers.js';

const N = Number(process.env.SSAKIT_FUZZ_N ?? 500);
const SEED = Number(process.env.SSAKIT_FUZZ_SEED ?? 1000);
const CSMITH_N = Number(process.env.SSAKIT_CSMITH_N ?? 100);
const llvm = hasLlvm();


// Reason: the oracle is lli-19 (needs llvm-19); without it the test is reported as skipped.
describe.skipIf(!llvm)(`interpreter vs lli-19: ${N} generated programs from seed ${SEED}`, () => {
  for (let seed = SEED; seed < SEED + N; seed++) {
    it(`generateCProgram(${seed})`, async () => {
      const src = generateCProgram(seed);
      for (const level of LEVELS) await expectSameAsLli(src, `gen-${seed}`, level);
    });
  }
});

// Reason: needs lli-19 and the optional Csmith package (csmith, libcsmith-dev).
describe.skipIf(!llvm || !hasCsmith())(`interpreter vs lli-19: ${CSMITH_N} Csmith programs`, () => {
  for (let seed = 100; seed < 100 + CSMITH_N; seed++) {
    for (const level of LEVELS) {
      it(`csmith --seed ${seed} -${level}`, async () => {
        const { source, flags } = csmithProgram(seed);
        if (level === 'O2' && lliOracle(clangToLL(source, 'O0', flags, `csmith-${seed}`), undefined, 10_000) === null) return;
        await expectSameAsLli(source, `csmith-${seed}`, level, undefined, flags, 10_000);
      });
    }
  }
});

describe('oracles', () => {
  // Reason: placeholder naming the missing LLVM tools (the oracle of every test above).
  if (!llvm) it.skip(LLVM_MISSING, () => {});
  // Reason: placeholder naming the missing Csmith, so the Csmith programs did not run.
  if (llvm && !hasCsmith()) it.skip(CSMITH_MISSING, () => {});
  it('are probed', () => {});
});
