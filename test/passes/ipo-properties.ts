/**
 * The property shared by the normal-suite and fuzz tests of the interprocedural passes
 * (ipsccp, globalopt, function-attrs, deadargelim, globaldce, with the inliner and a few
 * function passes that expose and use their work): a multi-function program (generated C,
 * or Csmith when installed; clang-19 -O0, `noinline` stripped, sometimes mem2reg first) run
 * through a random sequence of them with --verify-each is accepted by llvm-as-19 and, run
 * by lli-19, prints the same bytes and exits with the same code as before.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { transform } from '../helpers/differential.js';
import { CACHE_DIR, clangToLL, llvmAsError, runLli } from '../helpers/llvm.js';
import { stripNoinline } from '../helpers/noinline.js';
import { csmithProgram } from '../interp/diff-helpers.js';

export const IPO_PASS_POOL = [
  'ipsccp',
  'globalopt',
  'function-attrs',
  'deadargelim',
  'globaldce',
  'inline',
  'mem2reg',
  'instcombine',
  'sccp',
  'gvn',
  'early-cse',
  'licm',
  'adce',
  'loop-deletion',
];

export type IpoSource = { kind: 'cgen'; seed: number; size: 'small' | 'medium' } | { kind: 'csmith'; seed: number; args: string[] };

const irCache = new Map<string, string | null>();
/** The program's -O0 IR with noinline stripped; null when lli-19 cannot run it within 10 s. */
function programIR(src: IpoSource): string | null {
  const key = JSON.stringify(src);
  let ir = irCache.get(key);
  if (ir === undefined) {
    let path: string;
    if (src.kind === 'cgen') path = clangToLL(generateCProgram(src.seed, { size: src.size }), 'O0', [], `ipo-prop-${src.size}-${src.seed}`);
    else {
      const { source, flags } = csmithProgram(src.seed, src.args);
      path = clangToLL(source, 'O0', flags, `ipo-csmith-${src.seed}`);
    }
    ir = stripNoinline(readFileSync(path, 'utf8'));
    const f = join(CACHE_DIR, `ipo-prop-in-${process.pid}.ll`);
    writeFileSync(f, ir);
    if (runLli(f, '', [], 10_000).timedOut) ir = null;
    irCache.set(key, ir);
  }
  return ir;
}

/** Checks `numRuns` random (program, pipeline) pairs. */
export async function checkRandomIpoPipelines(opts: { numRuns: number; sources: IpoSource[]; seed?: number; maxLength?: number }): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...opts.sources),
      fc.boolean(),
      fc.array(fc.constantFrom(...IPO_PASS_POOL), { minLength: 1, maxLength: opts.maxLength ?? 8 }),
      async (src, ssaFirst, passes) => {
        await new Promise((r) => setImmediate(r)); // let vitest's worker answer its RPC
        const ir = programIR(src);
        if (ir === null) return;
        const pipeline = (ssaFirst ? ['mem2reg', ...passes] : passes).join(',');
        const name = `${src.kind}-${src.seed}`;
        const { text } = transform(ir, pipeline, name);
        expect(llvmAsError(text), `llvm-as-19 on the output of '${pipeline}' on ${name}`).toBeNull();
        const before = join(CACHE_DIR, `ipo-prop-a-${process.pid}.ll`);
        const after = join(CACHE_DIR, `ipo-prop-b-${process.pid}.ll`);
        writeFileSync(before, ir);
        writeFileSync(after, text);
        const a = runLli(before, '', [], 20_000);
        const b = runLli(after, '', [], 40_000);
        unlinkSync(before);
        unlinkSync(after);
        expect(b.timedOut, `'${pipeline}' on ${name}: the program no longer finishes`).toBe(false);
        expect(b.stdout.toString('latin1'), `stdout after '${pipeline}' on ${name}`).toBe(a.stdout.toString('latin1'));
        expect(b.exitCode, `exit code after '${pipeline}' on ${name}`).toBe(a.exitCode);
      },
    ),
    { numRuns: opts.numRuns, seed: opts.seed, endOnFailure: true },
  );
}
