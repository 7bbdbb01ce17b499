import { describe, it } from 'vitest';
import { hasLlvm } from '../helpers/llvm.js';
import { checkRandomPipelines, NEST_POOL } from './cfg-loop-properties.js';

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('random orders of the control-flow and loop passes keep behaviour (property)', () => {
  it('on small generated programs', async () => {
    await checkRandomPipelines({ numRuns: 40, programs: 10, firstSeed: 500, size: 'small', seed: 20261123 });
  }, 300_000);
  it('on small generated programs with computed goto (blockaddress, indirectbr)', async () => {
    await checkRandomPipelines({ numRuns: 20, programs: 8, firstSeed: 700, size: 'small', seed: 20261125, computedGotos: true });
  }, 300_000);
  it('on small generated programs, with whole loop nests unrolled', async () => {
    await checkRandomPipelines({ numRuns: 8, programs: 6, firstSeed: 900, size: 'small', seed: 20261126, pool: NEST_POOL });
  }, 300_000);
});
