/**
 * Many seeded random SysY programs, medium and small (run by `npm run test:fuzz`; set
 * SSAKIT_FUZZ_SEEDS to change the count): all four compilation variants agree in our
 * interpreter and with clang-19 compiling the program as C; the Braun-mode IR runs natively.
 */
import { describe, expect, it } from 'vitest';
import { generateSysYProgram, SYSY_C_PRELUDE } from '../../src/fuzz/c-gen.js';
import { breathe, checkRandomProgram } from '../sysy-ir/harness.js';

const SEEDS = Number(process.env.SSAKIT_FUZZ_SEEDS ?? 300);

describe('fuzz: SysY IR generation against clang-19', () => {
  for (let seed = 10_000; seed < 10_000 + SEEDS; seed++) {
    const size = seed % 3 === 0 ? 'small' : 'medium';
    it(`seed ${seed} (${size})`, async () => {
      await breathe();
      const src = generateSysYProgram(seed, { size });
      expect(checkRandomProgram(src, `gen${seed}.sy`, SYSY_C_PRELUDE)).toBeNull();
    });
  }
});
