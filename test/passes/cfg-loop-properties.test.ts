import { describe, it } from 'vitest';
import { hasLlvm } from '../helpers/llvm.js';
import { checkRandomPipelines } from './cfg-loop-properties.js';

describe.runIf(hasLlvm())('random orders of the control-flow and loop passes keep behaviour (property)', () => {
  it('on small generated programs', async () => {
    await checkRandomPipelines({ numRuns: 40, programs: 10, firstSeed: 500, size: 'small', seed: 20261123 });
  }, 300_000);
});
