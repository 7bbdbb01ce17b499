/**
 * Types nested thousands deep: llvm-as-19 reads `[1 x [1 x ... i32]]` and `{ { ... i64 } }`
 * 10,000 levels deep (it overflows its stack near 50,000). The parser reads types with an
 * explicit stack, `Type.toString` spells them bottom-up, and the layout (sizes, alignments,
 * struct offsets) is computed innermost first, so no walk over a type recurses with its
 * depth: parse, print, verify, the interpreter and -O2 all take them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertValid } from '../../src/analysis/verifier.js';
import { runModule } from '../../src/interp/index.js';
import { allocSize } from '../../src/ir/layout.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { hasLlvm, llvmAsError, runLli } from '../helpers/llvm.js';

function program(n: number): string {
  const arr = '[1 x '.repeat(n) + 'i32' + ']'.repeat(n);
  const st = '{ '.repeat(n) + 'i64' + ' }'.repeat(n);
  const packed = '<{ [1 x '.repeat(n) + 'i8' + '] }>'.repeat(n);
  return [
    `%big = type ${st}`,
    `@g = global ${arr} zeroinitializer`,
    `@h = global %big zeroinitializer`,
    `define i32 @main() {`,
    `  store i32 7, ptr @g`,
    `  %v = load i32, ptr @g`,
    `  %p = alloca ${st}`,
    `  store i64 5, ptr %p`,
    `  %w = load i64, ptr %p`,
    `  %w32 = trunc i64 %w to i32`,
    `  %q = alloca ${packed}`,
    `  store i8 30, ptr %q`,
    `  %b = load i8, ptr %q`,
    `  %b32 = zext i8 %b to i32`,
    `  %r = add i32 %v, %w32`,
    `  %s = add i32 %r, %b32`,
    `  ret i32 %s`,
    `}`,
    ``,
  ].join('\n');
}

describe('types nested deep', () => {
  const n = 10_000;
  it(`${n} levels: parse, print back, verify, layout, run, -O2`, () => {
    const text = program(n);
    const m = parseModule(text, 'deep.ll');
    const printed = printModule(m);
    const lines = (t: string): string => t.split('\n').filter((l) => l !== '').join('\n');
    expect(lines(printed) === lines(text)).toBe(true);
    assertValid(m);
    // [1 x [1 x ... i32]] is 4 bytes at any depth
    expect(allocSize(m.getGlobal('g')!.valueType)).toBe(4);
    expect(runModule(m, { maxSteps: 1000 }).exitCode).toBe(42);
    runPipeline(m, 'default<O2>');
    assertValid(m);
    expect(runModule(parseModule(printModule(m), 'deep-o2.ll'), { maxSteps: 1000 }).exitCode).toBe(42);
  }, 120_000);

  // Reason for skipIf: needs llvm-as-19 and lli-19 as the oracles (apt-get install llvm-19); .ci/run installs them.
  it.skipIf(!hasLlvm())(`${n} levels: llvm-as-19 accepts the input and our output, and lli-19 agrees on the result`, () => {
    const text = program(n);
    expect(llvmAsError(text)).toBeNull();
    const m = parseModule(text, 'deep.ll');
    expect(llvmAsError(printModule(m))).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), 'ssakit-deep-types-'));
    const f = join(dir, 'deep.ll');
    writeFileSync(f, text);
    expect(runLli(f).exitCode).toBe(runModule(m, { maxSteps: 1000 }).exitCode);
  }, 120_000);
});
