/**
 * A few seconds of the bad-input fuzz suite (test/fuzz/bad-input.test.ts) in every
 * `npm test`: mutants of a few corpus files, with llvm-as-19 as the oracle, and a few
 * semantic corruptions against opt-19 -passes=verify.
 */
import { describe, expect, it } from 'vitest';
import { hasLlvm } from '../helpers/llvm.js';
import { fuzzCorruptions, fuzzLL, fuzzSysY, llCorpus, syCorpus } from '../fuzz/bad-input-harness.js';

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('bad input (a short slice of the fuzz suite)', () => {
  it('.ll mutants: no internal error; what we accept llvm-as-19 accepts', async () => {
    const rep = await fuzzLL(llCorpus(2, 0), 24, 500, true);
    expect(rep.internal.map((x) => `${x.seed}: ${x.detail.split('\n')[0]}`)).toEqual([]);
    expect(rep.undocumented.map((x) => `${x.seed}: ${x.llvm}`)).toEqual([]);
    expect(rep.stricter.map((x) => `${x.seed}: ${x.ours}`)).toEqual([]);
  }, 120_000);

  it('.sy mutants: no internal error', async () => {
    // mutants of the test programs only (60: 2 accepted, 58 rejected, 0.4 s of CPU): one of
    // the 56 KB generated program cost 5 s of CPU (the 14 of before, 2 of them generated:
    // 5.1 s); the fuzz suite runs those
    const rep = await fuzzSysY(syCorpus(6, 0), 60, 600);
    expect(rep.internal.map((x) => `${x.seed}: ${x.detail.split('\n')[0]}`)).toEqual([]);
  }, 120_000);

  it('semantic corruptions: what opt-19 -passes=verify rejects, we reject', async () => {
    const rep = await fuzzCorruptions(llCorpus(2, 0), 9, 700);
    expect(rep.missed.map((x) => `${x.kind} ${x.seed}: ${x.llvm}`)).toEqual([]);
  }, 120_000);
});
