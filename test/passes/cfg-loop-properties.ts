/**
 * The property shared by the normal-suite and fuzz tests of the control-flow, loop and
 * interprocedural passes: a random well-defined C program (src/fuzz/c-gen.ts, clang-19 -O0,
 * opt-19 mem2reg, noinline stripped), run through a random sequence of these passes with
 * --verify-each, prints the same bytes and returns the same code in our interpreter as
 * before. The interpreter runs in-process, so many pipelines per program are cheap.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';
import { inputIR, transform } from '../helpers/differential.js';
import { stripNoinline } from '../helpers/noinline.js';

export const PASS_POOL = [
  'simplifycfg',
  'simplifycfg<no-select>',
  'jump-threading',
  'loop-simplify',
  'loop-rotate',
  'licm',
  'indvars',
  'indvars<exit-values=always>',
  'loop-unroll',
  'loop-unroll<threshold=100>',
  'loop-unroll<nest-threshold=2000>',
  'loop-idiom',
  'loop-deletion',
  'correlated-propagation',
  'loop-rotate,indvars,loop-deletion',
  'tailcallelim',
  'inline',
  'inline<threshold=300>',
  'dce',
  'sroa',
  'dse',
];

/**
 * Which programs use computed goto (c-gen's `computedGotos`: blockaddress and
 * indirectbr): none, all, or 'some' (every third seed, for the long fuzz runs).
 */
export type ComputedGotoChoice = boolean | 'some';
export function withComputedGotos(choice: ComputedGotoChoice | undefined, seed: number): boolean {
  return choice === 'some' ? seed % 3 === 1 : choice === true;
}

const irCache = new Map<string, string>();
function programIR(seed: number, size: 'small' | 'medium', cg: boolean): string {
  const key = `${size}:${seed}:${cg}`;
  let ir = irCache.get(key);
  if (ir === undefined) {
    ir = stripNoinline(inputIR(generateCProgram(seed, { size, computedGotos: cg }), `prop-${size}-${seed}${cg ? '-cg' : ''}`, { prePasses: 'mem2reg' }));
    irCache.set(key, ir);
  }
  return ir;
}

function run(text: string): { out: string; code: number } {
  const r = runModule(parseModule(text, 'prop.ll'), { maxSteps: 50_000_000 });
  return { out: r.stdout ?? '', code: r.exitCode };
}

/** Checks `numRuns` random (program, pipeline) pairs; programs come from a pool of `programs` seeds. */
/**
 * The loop-nest slice: steps that put loops in unrolling form and the full unrolling of whole
 * nests (LLVM's LoopFullUnrollPass on loops with inner loops), with a generous nest threshold
 * so the nests of generated programs are unrolled, and the clean-ups that fold the copies.
 */
/**
 * The vectorizer's slice: steps that give loops the shape loop-vectorize takes (simplified,
 * rotated, IVs canonical), the vectorizer, the runtime unroller that interleaves its loops,
 * SimplifyCFG's FoldBranchToCommonDest (off in -O2), and the clean-ups that fold around them.
 */
export const VECTOR_POOL = ['loop-simplify,loop-rotate', 'indvars', 'loop-vectorize', 'loop-unroll<runtime-count=8>', 'simplifycfg<common-dest>', 'instcombine', 'licm', 'gvn', 'sroa', 'correlated-propagation', 'simplifycfg'];
export const NEST_POOL = ['loop-simplify,loop-rotate', 'loop-unroll<nest-threshold=2000>', 'loop-unroll', 'indvars', 'instcombine', 'sccp', 'simplifycfg', 'gvn', 'sroa', 'licm', 'loop-deletion'];

export async function checkRandomPipelines(opts: { numRuns: number; programs: number; firstSeed: number; size: 'small' | 'medium'; seed?: number; computedGotos?: ComputedGotoChoice; pool?: readonly string[] }): Promise<void> {
  const baseline = new Map<number, { out: string; code: number }>();
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: opts.firstSeed, max: opts.firstSeed + opts.programs - 1 }),
      fc.array(fc.constantFrom(...(opts.pool ?? PASS_POOL)), { minLength: 1, maxLength: 8 }),
      async (seed, passes) => {
        // let the worker answer vitest's RPC between runs
        await new Promise((r) => setImmediate(r));
        const ir = programIR(seed, opts.size, withComputedGotos(opts.computedGotos, seed));
        let before = baseline.get(seed);
        if (before === undefined) baseline.set(seed, (before = run(ir)));
        const pipeline = passes.join(',');
        const { text } = transform(ir, pipeline, `prop-${seed}`);
        const after = run(text);
        expect(after.out, `output after '${pipeline}' on program ${seed}`).toBe(before.out);
        expect(after.code, `exit code after '${pipeline}' on program ${seed}`).toBe(before.code);
      },
    ),
    { numRuns: opts.numRuns, seed: opts.seed, endOnFailure: true },
  );
}
