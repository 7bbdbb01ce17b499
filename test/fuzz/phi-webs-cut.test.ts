/**
 * Algorithm 5's dominator cut against the exhaustive descent on many random phi graphs
 * (test/ssa/phi-webs-cut-helpers.ts), from a fresh seed (printed; SSAKIT_SEED=N repeats it).
 */
import { describe, expect, it } from 'vitest';
import { checkCutMatchesExhaustive } from '../ssa/phi-webs-cut-helpers.js';

describe('Algorithm 5 with the dominator cut (fuzz)', () => {
  it('matches the exhaustive descent on 1,500 random phi graphs', () => {
    const seed = Number(process.env.SSAKIT_SEED ?? Math.floor(Math.random() * 1e9));
    console.log(`phi-webs-cut: fast-check seed ${seed}`);
    const { replaced } = checkCutMatchesExhaustive(1500, seed);
    expect(replaced).toBeGreaterThan(1000);
  }, 1_800_000);
});
