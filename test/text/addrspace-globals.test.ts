/**
 * Globals carry their address space (`@g = addrspace(1) global ...` has the type
 * `ptr addrspace(1)`): a module using globals of several address spaces goes through our
 * pipelines and comes back as text llvm-as-19 accepts, with `ptr addrspace(N) @g` at every
 * use (the type used to be lost: a call passing `ptr addrspace(1) @g` printed back as
 * `ptr @g`, which LLVM rejects), and lli-19 computes the same exit code on the input and on
 * each output, as does our interpreter. The parser's verdicts on the borderline cases are
 * compared with llvm-as-19 in llvm-agreement.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GlobalVariable } from '../../src/ir/function.js';
import { runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';
import { transform } from '../helpers/differential.js';
import { CACHE_DIR, hasLlvm, llvmAsError, runLli } from '../helpers/llvm.js';

const MODULE = `
@g = internal addrspace(1) global [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@c = addrspace(2) constant i64 42
@q = global ptr addrspace(1) getelementptr (i8, ptr addrspace(1) @g, i64 4)
@a = alias [4 x i32], ptr addrspace(1) @g
@r = global ptr addrspace(1) @a
@s = global ptr addrspacecast (ptr addrspace(1) @g to ptr)
@fwd = global ptr addrspace(3) @late
@late = addrspace(3) global i8 5

define internal i32 @sum(ptr addrspace(1) %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %e = getelementptr i32, ptr addrspace(1) %p, i64 %i
  %v = load i32, ptr addrspace(1) %e
  %acc1 = add i32 %acc, %v
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %acc1
}

define i32 @main() {
  %p = getelementptr [4 x i32], ptr addrspace(1) @g, i64 0, i64 2
  %v = load i32, ptr addrspace(1) %p
  %q = load ptr addrspace(1), ptr @q
  %w = load i32, ptr addrspace(1) %q
  %c = load i64, ptr addrspace(2) @c
  %ct = trunc i64 %c to i32
  store i32 %ct, ptr addrspace(1) @g
  %x = load i32, ptr addrspace(1) @a
  %l = load ptr addrspace(3), ptr @fwd
  %b = load i8, ptr addrspace(3) %l
  %bz = zext i8 %b to i32
  %t = call i32 @sum(ptr addrspace(1) @g, i64 4)
  %s1 = add i32 %v, %w
  %s2 = add i32 %s1, %x
  %s3 = add i32 %s2, %bz
  %s4 = add i32 %s3, %t
  ret i32 %s4
}
`;

describe('globals in address spaces', () => {
  it('a global has the pointer type of its address space; uses must say it', () => {
    const m = parseModule(MODULE, 'as.ll');
    const types = Object.fromEntries(m.globals.map((g: GlobalVariable) => [g.name, String(g.type)]));
    expect(types).toEqual({ g: 'ptr addrspace(1)', c: 'ptr addrspace(2)', q: 'ptr', r: 'ptr', s: 'ptr', fwd: 'ptr', late: 'ptr addrspace(3)' });
    expect(() => parseModule('@g = addrspace(1) global i32 0\ndefine void @f() {\n  store i32 1, ptr @g\n  ret void\n}\n', 'bad.ll')).toThrow(
      /^bad\.ll:3:20: error: '@g' defined with type 'ptr addrspace\(1\)' but expected 'ptr'/,
    );
  });

  // Reason for runIf: LLVM 19's tools (llvm-as-19, lli-19) are the oracle here; without them this skips and the report says so.
  it.runIf(hasLlvm())('-O0, -O2 and the global passes keep the address spaces: llvm-as-19 accepts, lli-19 and our interpreter agree', () => {
    const input = join(CACHE_DIR, `addrspace-${process.pid}.ll`);
    writeFileSync(input, MODULE);
    const want = runLli(input).exitCode;
    expect(want).toBe((3 + 2 + 42 + 5 + (42 + 2 + 3 + 4)) & 255);
    for (const pipeline of ['default<O0>', 'default<O2>', 'globalopt,ipsccp,globaldce']) {
      const { text, module } = transform(MODULE, pipeline, 'as.ll');
      expect(llvmAsError(text), pipeline).toBeNull();
      const out = join(CACHE_DIR, `addrspace-${process.pid}-out.ll`);
      writeFileSync(out, text);
      expect(runLli(out).exitCode, pipeline).toBe(want);
      expect(runModule(module).exitCode, pipeline).toBe(want);
    }
  });
});
