/**
 * Constant expressions nested thousands deep: llvm-as-19 reads 5,000 levels (it overflows its
 * stack near 7,000), so every walk over constants — parser, printer, verifier, folding in
 * -O2, the interpreter's loader — must use an explicit stack. 100,000 levels must work too
 * (or fail with a located error, never a stack overflow); that size runs only with
 * SSAKIT_FUZZ=1 (half a minute).
 */
import { describe, expect, it } from 'vitest';
import { assertValid } from '../../src/analysis/verifier.js';
import { runModule } from '../../src/interp/index.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { hasLlvm, llvmAsError, runLli } from '../helpers/llvm.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `i64 add (i64 add (... i64 1 ..., i64 1), i64 1)`, n adds deep, without the leading type. */
function deepAdd(n: number): string {
  return 'add (i64 '.repeat(n) + '1' + ', i64 1)'.repeat(n);
}

/** `getelementptr inbounds (i8, ptr ... @buf ..., i64 1)`, n deep. */
function deepGep(n: number): string {
  return 'getelementptr inbounds (i8, ptr '.repeat(n) + '@buf' + ', i64 0)'.repeat(n);
}

function program(n: number): string {
  const add = deepAdd(n);
  return [
    `@buf = global [8 x i8] zeroinitializer`,
    `@c = constant i64 ${add}`,
    `@p = global ptr ${deepGep(n)}`,
    `define i32 @main() {`,
    `  %v = load i64, ptr @c`,
    `  %w = add i64 %v, ${add}`,
    `  %q = load ptr, ptr @p`,
    `  store i8 7, ptr ${deepGep(n)}`,
    `  %b = load i8, ptr %q`,
    `  %bz = zext i8 %b to i64`,
    `  %s = add i64 %w, %bz`,
    `  %t = trunc i64 %s to i32`,
    `  ret i32 %t`,
    `}`,
    ``,
  ].join('\n');
}

describe('constant expressions nested deep', () => {
  // 100,000 levels take about 30 s on a busy machine: run with the fuzz suites (SSAKIT_FUZZ=1)
  for (const n of [5000, 100_000]) {
    // depths above 5,000 take minutes each: they run in the fuzz suite (npm run test:fuzz)
    it.skipIf(n > 5000 && !process.env.SSAKIT_FUZZ)(`${n} levels: parse, print back unchanged, verify, run, -O2`, () => {
      const text = program(n);
      const m = parseModule(text, 'deep.ll');
      const printed = printModule(m);
      // the printer writes exactly what was read (but for blank lines); compared as a boolean:
      // a failing diff of megabyte lines would drown the report
      const lines = (t: string): string => t.split('\n').filter((l) => l !== '').join('\n');
      expect(lines(printed) === lines(text)).toBe(true);
      assertValid(m);
      // 2n + 1 (the loaded @c plus the operand) + 7 (the store through the deep GEP)
      const want = (2 * (n + 1) + 7) & 255;
      expect(runModule(m, { maxSteps: 1000 }).exitCode).toBe(want);
      runPipeline(m, 'default<O2>');
      assertValid(m);
      const m2 = parseModule(printModule(m), 'deep-o2.ll');
      expect(runModule(m2, { maxSteps: 1000 }).exitCode).toBe(want);
    }, 120_000);
  }

  // Reason for skipIf: needs llvm-as-19 and lli-19 as the oracles (apt-get install llvm-19); .ci/run installs them.
  it.skipIf(!hasLlvm())('5,000 levels: llvm-as-19 accepts it and lli-19 agrees on the result', () => {
    const text = program(5000);
    expect(llvmAsError(text)).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), 'ssakit-deep-'));
    const f = join(dir, 'deep.ll');
    writeFileSync(f, text);
    expect(runLli(f).exitCode).toBe(runModule(parseModule(text, 'deep.ll'), { maxSteps: 1000 }).exitCode);
  }, 120_000);
});
