/**
 * The corpus check for one group of compilation variants: every program of test/sysy and
 * test/sysy/perf compiles, verifies, is accepted by llvm-as-19, and prints its `.out` (stdout
 * then the exit code) both in our interpreter and natively (clang-19 linking the .ll with
 * runtime/sylib.c; builds and runs are cached by content hash).
 */
import { describe, expect, it } from 'vitest';
import { VARIANTS, breathe, compile, corpus, hasClangAndAs, interpret, llvmAsCheck, nativeRunLL, TOOLS_MISSING } from './harness.js';

export function corpusSuite(variantNames: string[], native: Set<string>): void {
  const tools = hasClangAndAs();
  if (!tools) console.warn(TOOLS_MISSING);
  const variants = VARIANTS.filter((v) => variantNames.includes(v.name));
  for (const p of corpus()) {
    describe(p.name, () => {
      for (const v of variants) {
        it(v.name, async () => {
          await breathe();
          const { module, text } = compile(p.source, p.name, v.opts);
          expect(interpret(module, p.stdin), 'our interpreter').toBe(p.expected);
          if (!tools) return;
          expect(llvmAsCheck(text), 'llvm-as-19').toBeNull();
          if (native.has(v.name)) expect(nativeRunLL(text, p.stdin), 'native (clang-19 + sylib.c)').toBe(p.expected);
        });
      }
    });
  }
}
