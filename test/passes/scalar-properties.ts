/**
 * The property shared by the normal-suite and fuzz tests of the scalar optimizations: a
 * random well-defined C program (src/fuzz/c-gen.ts, clang-19 -O0, opt-19 mem2reg) run
 * through a random sequence of these passes with --verify-each prints the same bytes and
 * returns the same code, in our interpreter (in-process, so many pipelines per program are
 * cheap), as before. The corpus tests of each pass check the same thing under lli-19.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { withComputedGotos, type ComputedGotoChoice } from './cfg-loop-properties.js';
import { runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';
import { inputIR, transform } from '../helpers/differential.js';

export const SCALAR_PASS_POOL = [
  'instsimplify',
  'instcombine',
  'instcombine<sdiv-pow2>',
  'sccp',
  'constprop',
  'adce',
  'copyprop',
  'early-cse',
  'lvn',
  'gvn',
  'pre',
  'dce',
  // module passes whose results the scalar passes use (pure calls) or that fold across calls
  'function-attrs',
  'ipsccp',
  'alloc-elim',
  'simplify-libcalls',
  'correlated-propagation',
  'sroa',
  'dse',
];

const irCache = new Map<string, string>();
function programIR(seed: number, size: 'small' | 'medium', cg: boolean): string {
  const key = `${size}:${seed}:${cg}`;
  let ir = irCache.get(key);
  if (ir === undefined) {
    ir = inputIR(generateCProgram(seed, { size, computedGotos: cg }), `scalar-prop-${size}-${seed}${cg ? '-cg' : ''}`, { prePasses: 'mem2reg' });
    irCache.set(key, ir);
  }
  return ir;
}

function run(text: string): { out: string; code: number } {
  const r = runModule(parseModule(text, 'prop.ll'), { maxSteps: 50_000_000 });
  return { out: r.stdout ?? '', code: r.exitCode };
}

/** Checks `numRuns` random (program, pipeline) pairs over a pool of `programs` seeds. */
export async function checkRandomScalarPipelines(opts: { numRuns: number; programs: number; firstSeed: number; size: 'small' | 'medium'; seed?: number; maxLength?: number; computedGotos?: ComputedGotoChoice }): Promise<void> {
  const baseline = new Map<number, { out: string; code: number }>();
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: opts.firstSeed, max: opts.firstSeed + opts.programs - 1 }),
      fc.array(fc.constantFrom(...SCALAR_PASS_POOL), { minLength: 1, maxLength: opts.maxLength ?? 6 }),
      async (seed, passes) => {
        await new Promise((r) => setImmediate(r)); // let vitest's worker answer its RPC
        const ir = programIR(seed, opts.size, withComputedGotos(opts.computedGotos, seed));
        let before = baseline.get(seed);
        if (before === undefined) baseline.set(seed, (before = run(ir)));
        const pipeline = passes.join(',');
        const { text } = transform(ir, pipeline, `scalar-prop-${seed}`);
        const after = run(text);
        expect(after.out, `output after '${pipeline}' on program ${seed}`).toBe(before.out);
        expect(after.code, `exit code after '${pipeline}' on program ${seed}`).toBe(before.code);
      },
    ),
    { numRuns: opts.numRuns, seed: opts.seed, endOnFailure: true },
  );
}
