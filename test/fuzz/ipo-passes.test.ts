/**
 * npm run test:fuzz: random orders of the interprocedural passes (ipsccp, globalopt,
 * function-attrs, deadargelim, globaldce, with inline and the function passes that use
 * their results) on multi-function programs: generated C (medium) and Csmith programs with
 * and without structs, through --verify-each, llvm-as-19, and lli-19 agreeing before and
 * after. SSAKIT_IPO_FUZZ_RUNS pipelines (default 300) over SSAKIT_IPO_FUZZ_PROGRAMS programs
 * of each kind (default 30, seeds from 40000); fast-check's seed from SSAKIT_IPO_FUZZ_SEED
 * (random when unset; a failure prints it).
 */
import { describe, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { hasCsmith } from '../interp/diff-helpers.js';
import { checkRandomIpoPipelines, type IpoSource } from '../passes/ipo-properties.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);
const RUNS = Number(process.env.SSAKIT_IPO_FUZZ_RUNS ?? 300);
const PROGRAMS = Number(process.env.SSAKIT_IPO_FUZZ_PROGRAMS ?? 30);
const SEED = process.env.SSAKIT_IPO_FUZZ_SEED === undefined ? undefined : Number(process.env.SSAKIT_IPO_FUZZ_SEED);

const sources: IpoSource[] = [];
for (let k = 0; k < PROGRAMS; k++) {
  sources.push({ kind: 'cgen', seed: 40_000 + k, size: 'medium' });
  if (hasCsmith()) {
    sources.push({ kind: 'csmith', seed: 40_000 + k, args: ['--no-structs', '--no-unions', '--no-float'] });
    sources.push({ kind: 'csmith', seed: 41_000 + k, args: [] });
  }
}

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('interprocedural passes: random pipelines (fuzz)', () => {
  it(`${RUNS} pipelines over ${sources.length} multi-function programs`, async () => {
    await checkRandomIpoPipelines({ numRuns: RUNS, sources, seed: SEED, maxLength: 10 });
  }, 6 * 3600_000);
});
