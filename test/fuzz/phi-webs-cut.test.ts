/**
 * Algorithm 5's dominator cut against the exhaustive descent on many random phi graphs
 * (test/ssa/phi-webs-cut-helpers.ts), from a fresh seed (printed; SSAKIT_SEED=N repeats it).
 * Fifteen runs of 100 graphs (seeds seed..seed+14), yielding between them so that the
 * vitest worker stays responsive under load.
 */
import { describe, expect, it } from 'vitest';
import { checkCutMatchesExhaustive } from '../ssa/phi-webs-cut-helpers.js';
import { breathe } from '../sysy-ir/harness.js';

describe('Algorithm 5 with the dominator cut (fuzz)', () => {
  it('matches the exhaustive descent on 1,500 random phi graphs', async () => {
    const seed = Number(process.env.SSAKIT_SEED ?? Math.floor(Math.random() * 1e9));
    console.log(`phi-webs-cut: fast-check seeds ${seed}..${seed + 14}`);
    let replaced = 0;
    for (let k = 0; k < 15; k++) {
      await breathe();
      replaced += checkCutMatchesExhaustive(100, seed + k).replaced;
    }
    expect(replaced).toBeGreaterThan(1000);
  }, 1_800_000);
});
