/**
 * Shared by the interprocedural pass tests: whole programs (a `main`) run before and after
 * a pipeline, in our interpreter and in lli-19, must print the same and exit the same.
 */
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';
import { CACHE_DIR, hasLlvm, llvmAsError, LLI, runTool } from '../helpers/llvm.js';
import { opt } from './cfg-helpers.js';

/** Two mutually recursive functions (neither calls itself): `even(n)` is 1 when n is even. */
export const EVEN_ODD = `define i32 @even(i32 %n) {
  %z = icmp eq i32 %n, 0
  br i1 %z, label %t, label %f
t:
  ret i32 1
f:
  %m = sub i32 %n, 1
  %r = call i32 @odd(i32 %m)
  ret i32 %r
}
define i32 @odd(i32 %n) {
  %z = icmp eq i32 %n, 0
  br i1 %z, label %t, label %f
t:
  ret i32 0
f:
  %m = sub i32 %n, 1
  %r = call i32 @even(i32 %m)
  ret i32 %r
}`;

/** Runs main of the IR before and after `pipeline` in our interpreter and in lli-19: all four must agree. */
export function sameBehaviour(ir: string, pipeline: string, stdin = ''): string {
  const after = opt(ir, pipeline);
  expect(llvmAsError(after.text)).toBeNull();
  const ours = (t: string) => {
    const r = runModule(parseModule(t, 'x.ll'), { stdin, stdout: 'collect', stderr: 'collect' });
    return `${r.stdout ?? ''}|${r.exitCode}`;
  };
  const want = ours(ir);
  expect(ours(after.text)).toBe(want);
  if (hasLlvm()) {
    for (const t of [ir, after.text]) {
      const file = join(CACHE_DIR, `ipo-${process.pid}-${Math.random().toString(36).slice(2)}.ll`);
      mkdirSync(CACHE_DIR, { recursive: true });
      writeFileSync(file, t);
      const r = runTool(LLI, [file], { input: stdin, timeout: 20_000 });
      unlinkSync(file);
      expect(`${r.stdout.toString()}|${r.status}`).toBe(want);
    }
  }
  return after.text;
}

export const PRINTF = `@.fmt = private unnamed_addr constant [4 x i8] c"%d\\0A\\00"
declare i32 @printf(ptr, ...)
declare i32 @getchar()
`;

