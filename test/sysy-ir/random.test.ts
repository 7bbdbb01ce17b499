/**
 * Seeded random SysY programs (src/fuzz/sysy-gen.ts): Braun mode (with and without folding)
 * and alloca + mem2reg agree with each other in our interpreter and with clang-19 compiling
 * the program as C; the Braun-mode IR also runs natively. More seeds: test/fuzz/sysy-ir.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { generateSysYProgram, SYSY_C_PRELUDE } from '../../src/fuzz/c-gen.js';
import { breathe, checkRandomProgram, hasClangAndAs, TOOLS_MISSING, VARIANTS } from './harness.js';

const SEEDS = 50;
const variants = VARIANTS.filter((v) => v.name !== 'alloca');

describe('random SysY programs: both SSA modes agree with clang-19', () => {
  if (!hasClangAndAs()) console.warn(TOOLS_MISSING);
  for (let seed = 1; seed <= SEEDS; seed++) {
    it(`seed ${seed}`, async () => {
      await breathe();
      const src = generateSysYProgram(seed, { size: 'small' });
      expect(checkRandomProgram(src, `gen${seed}.sy`, SYSY_C_PRELUDE, variants)).toBeNull();
    });
  }
});
