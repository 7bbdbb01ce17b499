import { describe, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { checkRandomScalarPipelines } from './scalar-properties.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);

describe.runIf(hasLlvm())('scalar passes in random orders keep behaviour (property, small)', () => {
  it('40 random pipelines over 8 small generated programs', async () => {
    await checkRandomScalarPipelines({ numRuns: 40, programs: 8, firstSeed: 8001, size: 'small', seed: 20241 });
  });
});
