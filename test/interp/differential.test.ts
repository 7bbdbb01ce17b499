/**
 * THE differential test: every C program of test/programs (with NAME.in as stdin), 30
 * programs of the seeded generator and a dozen Csmith programs, each compiled by clang-19
 * at -O0 and at -O2, must print the same bytes and exit with the same code in the
 * interpreter as under lli-19. Compiled IR and lli results are cached by content hash.
 */
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { clangToLL, hasLlvm, listPrograms, LLVM_MISSING } from '../helpers/llvm.js';
import { csmithProgram, CSMITH_MISSING, expectSameAsLli, hasCsmith, LEVELS, lliOracle } from './diff-helpers.js';

const llvm = hasLlvm();
const programs = listPrograms('test/programs');


// 30 keep `npm test` inside its budget; test/fuzz/interp-diff.test.ts runs 500 (npm run test:fuzz)
const GEN_N = 30;
const CSMITH_N = 12;

// Reason: the oracle is LLVM 19 (clang-19, lli-19, opt-19); without llvm-19 the test is reported as skipped.
describe.skipIf(!llvm)('interpreter vs lli-19 on test/programs', () => {
  for (const p of programs) {
    for (const level of LEVELS) {
      it(`${p.name} -${level}`, async () => {
        await expectSameAsLli(readFileSync(p.path, 'utf8'), p.name, level, p.stdin);
      });
    }
  }
});

// Reason: the oracle is lli-19 (llvm-19); without it the test is reported as skipped.
describe.skipIf(!llvm)(`interpreter vs lli-19 on ${GEN_N} generated programs`, () => {
  for (let seed = 1; seed <= GEN_N; seed++) {
    it(`generateCProgram(${seed})`, async () => {
      const src = generateCProgram(seed);
      for (const level of LEVELS) await expectSameAsLli(src, `gen-${seed}`, level);
    });
  }
});

// Reason: the oracle is lli-19 (llvm-19) and the programs come from the optional Csmith package (csmith, libcsmith-dev).
describe.skipIf(!llvm || !hasCsmith())(`interpreter vs lli-19 on ${CSMITH_N} Csmith programs`, () => {
  // seeds whose program does not finish under lli-19 within 10 s at -O0 are skipped
  // (about one in eight Csmith programs runs for minutes); each level is its own test
  for (let seed = 1; seed <= CSMITH_N; seed++) {
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
  // Reason: placeholder naming the missing LLVM tools (lli-19 is the oracle of every test above).
  if (!llvm) it.skip(LLVM_MISSING, () => {});
  // Reason: placeholder naming the missing Csmith, so the Csmith programs did not run.
  if (llvm && !hasCsmith()) it.skip(CSMITH_MISSING, () => {});
  it('are probed', () => {});
});
