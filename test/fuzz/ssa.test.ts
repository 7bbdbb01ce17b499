/**
 * npm run test:fuzz: the SSA corpus checks (test/ssa/corpus-helpers.ts) on many generated
 * programs of the medium preset. SSAKIT_SSA_FUZZ_SEEDS=first,count (default 1000,500).
 */
import { describe, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { checkProgram, generatedPrograms } from '../ssa/corpus-helpers.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);

const [first, count] = (process.env.SSAKIT_SSA_FUZZ_SEEDS ?? '1000,500').split(',').map(Number);

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('SSA pipelines on generated programs (fuzz)', () => {
  for (const p of generatedPrograms(first, count, { size: 'medium' })) {
    it(p.name, () => checkProgram(p, ['mem2reg', 'mem2reg-braun', 'mem2reg-braun,redundant-phis,out-of-ssa', 'mem2reg-braun<marker>', 'mem2reg,reg2mem', 'reg2mem,mem2reg']));
  }
});
