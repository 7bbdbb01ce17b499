import { describe, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { checkRandomScalarPipelines } from './scalar-properties.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('scalar passes in random orders keep behaviour (property, small)', () => {
  it('40 random pipelines over 8 small generated programs', async () => {
    await checkRandomScalarPipelines({ numRuns: 40, programs: 8, firstSeed: 8001, size: 'small', seed: 20241 });
  });
  it('20 random pipelines over 8 small generated programs with computed goto', async () => {
    await checkRandomScalarPipelines({ numRuns: 20, programs: 8, firstSeed: 8101, size: 'small', seed: 20261125, computedGotos: true });
  });
});
