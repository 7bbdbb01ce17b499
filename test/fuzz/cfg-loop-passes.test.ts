/**
 * npm run test:fuzz: random orders of the control-flow, loop and interprocedural passes on
 * many generated programs (SSAKIT_CFG_FUZZ_RUNS, default 2000 pipelines over
 * SSAKIT_CFG_FUZZ_PROGRAMS, default 300 medium programs; fast-check's seed from
 * SSAKIT_CFG_FUZZ_SEED, random when unset — a failure prints it). Every third program uses
 * computed goto (blockaddress, indirectbr). Three pools: all the passes, the loop-nest
 * unrolling slice, and the vectorizer's slice.
 */
import { describe, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { checkRandomPipelines, NEST_POOL, VECTOR_POOL } from '../passes/cfg-loop-properties.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);
const RUNS = Number(process.env.SSAKIT_CFG_FUZZ_RUNS ?? 2000);
const PROGRAMS = Number(process.env.SSAKIT_CFG_FUZZ_PROGRAMS ?? 300);
const SEED = process.env.SSAKIT_CFG_FUZZ_SEED === undefined ? undefined : Number(process.env.SSAKIT_CFG_FUZZ_SEED);

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('control-flow and loop passes: random pipelines (fuzz)', () => {
  it(`${RUNS} pipelines over ${PROGRAMS} medium programs`, async () => {
    await checkRandomPipelines({ numRuns: RUNS, programs: PROGRAMS, firstSeed: 5000, size: 'medium', computedGotos: 'some', seed: SEED });
  }, 6 * 3600_000);
  it(`${Math.ceil(RUNS / 4)} loop-nest unrolling pipelines over ${PROGRAMS} medium programs`, async () => {
    await checkRandomPipelines({ numRuns: Math.ceil(RUNS / 4), programs: PROGRAMS, firstSeed: 7000, size: 'medium', computedGotos: 'some', seed: SEED, pool: NEST_POOL });
  }, 6 * 3600_000);
  it(`${Math.ceil(RUNS / 4)} vectorizer pipelines over ${PROGRAMS} medium programs`, async () => {
    await checkRandomPipelines({ numRuns: Math.ceil(RUNS / 4), programs: PROGRAMS, firstSeed: 9000, size: 'medium', computedGotos: 'some', seed: SEED, pool: VECTOR_POOL });
  }, 6 * 3600_000);
});
