/**
 * Fuzz suite (npm run test:fuzz): generated C programs (src/fuzz/c-gen.ts, well-defined by
 * construction) from clang-19 -O0, `noinline` stripped, through our -O1 and -O2 with
 * verify-each; llvm-as-19 must accept each output and lli-19 must print the same bytes and
 * exit with the same code as on the unoptimized IR (test/passes/cfg-loop-check.ts).
 *
 * SSAKIT_C_O2_N programs (default 200) from seed SSAKIT_C_O2_SEED (default 30000); every
 * third one small, the others medium; every third one (seed % 3 == 1) uses computed goto
 * (blockaddress and indirectbr).
 */
import { describe, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { inputIR } from '../helpers/differential.js';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { stripNoinline } from '../helpers/noinline.js';
import { checkPipelines } from '../passes/cfg-loop-check.js';
import { withComputedGotos } from '../passes/cfg-loop-properties.js';

const N = Number(process.env.SSAKIT_C_O2_N ?? 200);
const SEED = Number(process.env.SSAKIT_C_O2_SEED ?? 30_000);
if (!hasLlvm()) console.warn(LLVM_MISSING);

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('fuzz: generated C programs keep their behaviour through our -O1 and -O2', () => {
  for (let seed = SEED; seed < SEED + N; seed++) {
    const size = seed % 3 === 0 ? 'small' : 'medium';
    it(`generateCProgram(${seed}, ${size})`, async () => {
      const name = `c-o2-${size}-${seed}`;
      const input = stripNoinline(inputIR(generateCProgram(seed, { size, computedGotos: withComputedGotos('some', seed) }), name));
      await checkPipelines(input, name, ['O1', 'O2']);
    }, 300_000);
  }
});
