/**
 * Fuzz suite (npm run test:fuzz): generated SysY programs through our -O1 and -O2 (each
 * pass verified after it runs), in both SSA constructions (Braun et al. from the AST;
 * clang-style allocas then mem2reg). Each optimized program must print the same bytes and
 * exit with the same code as the unoptimized one in our interpreter, and llvm-as-19 must
 * accept the optimized IR. The SysY programs are array- and loop-heavy, the shapes the loop
 * passes (unrolling, loop-idiom, loop-deletion) work on.
 *
 * SSAKIT_SYSY_O2_N programs (default 200) from seed SSAKIT_SYSY_O2_SEED (default 20000).
 */
import { describe, expect, it } from 'vitest';
import { generateSysYProgram } from '../../src/fuzz/c-gen.js';
import { compileSysY } from '../../src/frontend/sysy/index.js';
import { runModule } from '../../src/interp/index.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { hasLlvm, llvmAsError } from '../helpers/llvm.js';

const N = Number(process.env.SSAKIT_SYSY_O2_N ?? 200);
const SEED = Number(process.env.SSAKIT_SYSY_O2_SEED ?? 20_000);
const llvm = hasLlvm();

function unoptimized(src: string, name: string, ssa: 'braun' | 'alloca'): string {
  const r = compileSysY(src, name, { ssa });
  if (r.module === undefined) throw new Error(`${name}: does not compile`);
  return printModule(r.module);
}

function behaviour(text: string): { out: string; code: number } {
  const r = runModule(parseModule(text, 'prog.ll'), { maxSteps: 200_000_000 });
  return { out: r.stdout ?? '', code: r.exitCode };
}

describe('fuzz: generated SysY programs keep their behaviour through -O1 and -O2', () => {
  for (let seed = SEED; seed < SEED + N; seed++) {
    const size = seed % 3 === 0 ? 'small' : 'medium';
    it(`seed ${seed} (${size})`, async () => {
      await new Promise((r) => setImmediate(r));
      const src = generateSysYProgram(seed, { size });
      for (const ssa of ['braun', 'alloca'] as const) {
        const base = unoptimized(src, `gen${seed}.sy`, ssa);
        const want = behaviour(base);
        for (const level of ['O1', 'O2']) {
          const m = parseModule(base, `gen${seed}.ll`);
          runPipeline(m, level, { verifyEach: true, log: () => {} });
          const text = printModule(m);
          if (llvm) expect(llvmAsError(text), `llvm-as-19 on ${ssa} ${level}`).toBeNull();
          const got = behaviour(text);
          expect(got.out, `stdout after ${level} (${ssa})`).toBe(want.out);
          expect(got.code, `exit code after ${level} (${ssa})`).toBe(want.code);
        }
      }
    }, 120_000);
  }
});
