import { describe, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { checkRandomIpoPipelines } from './ipo-properties.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('interprocedural passes in random orders keep behaviour (property, small)', () => {
  it('6 random pipelines over 3 small generated multi-function programs', async () => {
    const sources = [0, 1, 2].map((k) => ({ kind: 'cgen' as const, seed: 8101 + k, size: 'small' as const }));
    await checkRandomIpoPipelines({ numRuns: 6, sources, seed: 18018 });
  }, 120_000);
});
