/**
 * npm run test:fuzz: random orders of the scalar optimizations (instsimplify, instcombine,
 * sccp, constprop, adce, copyprop, early-cse, lvn, gvn, pre, dce, with function-attrs and ipsccp) on many generated
 * programs (SSAKIT_SCALAR_FUZZ_RUNS, default 2000 pipelines over SSAKIT_SCALAR_FUZZ_PROGRAMS,
 * default 300 medium programs; fast-check's seed from SSAKIT_SCALAR_FUZZ_SEED, random when
 * unset — a failure prints it). Every third program uses computed goto (blockaddress,
 * indirectbr).
 */
import { describe, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { checkRandomScalarPipelines } from '../passes/scalar-properties.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);
const RUNS = Number(process.env.SSAKIT_SCALAR_FUZZ_RUNS ?? 2000);
const PROGRAMS = Number(process.env.SSAKIT_SCALAR_FUZZ_PROGRAMS ?? 300);
const SEED = process.env.SSAKIT_SCALAR_FUZZ_SEED === undefined ? undefined : Number(process.env.SSAKIT_SCALAR_FUZZ_SEED);

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('scalar passes: random pipelines (fuzz)', () => {
  it(`${RUNS} pipelines over ${PROGRAMS} medium programs`, async () => {
    await checkRandomScalarPipelines({ numRuns: RUNS, programs: PROGRAMS, firstSeed: 9000, size: 'medium', computedGotos: 'some', seed: SEED, maxLength: 10 });
  }, 6 * 3600_000);
});
