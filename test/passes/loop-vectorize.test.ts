/**
 * loop-vectorize (src/transforms/loop/loop-vectorize.ts): the oracle is execution. C kernels
 * of the shapes the pass takes (and of shapes it must refuse: overlapping accesses less than
 * four elements apart, pointer arguments that may alias, reversed strides) run for every trip
 * count around the vector factor; the program compiled by clang-19 -O0 and run by lli-19 must
 * print what our -O2 output prints in lli-19 and in our interpreter, the output passes
 * --verify-each and llvm-as-19, and the loops that qualify are vectorized (their `<4 x …>`
 * code is in the output).
 */
import { describe, expect, it } from 'vitest';
import { checkPreservesBehaviour } from '../helpers/differential.js';
import { hasLlvm } from '../helpers/llvm.js';
import { runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';
import { printFunction, printModule } from '../../src/text/printer.js';
import { optimize } from './scalar-helpers.js';

const PRELUDE = `
#include <stdio.h>
int A[300], B[300], C[300];
unsigned U[300];
float F[300], G[300];
signed char S8[300];
static void fill(int seed) {
  for (int i = 0; i < 300; i++) {
    seed = seed * 1103515245 + 12345;
    A[i] = (seed >> 8) % 1000 - 500; B[i] = (seed >> 4) % 77 - 30; C[i] = i; U[i] = (unsigned)seed;
    F[i] = (float)((seed >> 10) % 100) * 0.25f; G[i] = (float)i * 0.5f; S8[i] = (signed char)seed;
  }
}
static unsigned sum(void) {
  unsigned h = 0;
  for (int i = 0; i < 300; i++) h = h * 31u + (unsigned)A[i] + 7u * (unsigned)B[i] + 13u * (unsigned)C[i] + U[i] + (unsigned)(int)(F[i] * 4.0f) + (unsigned)(int)(G[i] * 2.0f) + (unsigned)S8[i];
  return h;
}
`;

/** Kernels the pass must vectorize: the name, the body (n is the trip count), what it returns. */
const TAKEN: [string, string][] = [
  ['axpy', 'for (int i = 0; i < n; i++) C[i] = A[i] * k + B[i]; return 0;'],
  ['add reduction', 'int s = k; for (int i = 0; i < n; i++) s += A[i] * B[i]; return s;'],
  ['xor, or, and, mul reductions', 'int x = 0, o = 0, a = -1, m = 1; for (int i = 0; i < n; i++) { x ^= A[i]; o |= B[i]; a &= A[i] + 1000; m *= B[i] | 1; } return x + o + a + m;'],
  ['the induction as a value', 'for (int i = 0; i < n; i++) { A[i] = i * 3 - 7; F[i] = (float)i / 3.0f; } return 0;'],
  ['a select', 'for (int i = 0; i < n; i++) C[i] = A[i] > B[i] ? A[i] : B[i] + k; return 0;'],
  ['division by constants', 'for (int i = 0; i < n; i++) C[i] = A[i] % 97 + A[i] / 7 + (int)(U[i] % 10u) + (int)(U[i] / 3u); return 0;'],
  ['the same element read and written', 'for (int i = 0; i < n; i++) A[i] = A[i] + B[i] * 2; return 0;'],
  ['float arithmetic and compares', 'for (int i = 0; i < n; i++) { float t = F[i] * 2.5f + G[i]; G[i] = t > 50.0f ? 50.0f : t; } return 0;'],
  ['bytes', 'for (int i = 0; i < n; i++) S8[i] = (signed char)(S8[i] * 3 + k); return 0;'],
  ['a 64-bit induction', 'for (long i = 0; i < n; i++) C[i] = A[i] - B[i]; return 0;'],
  ['an unsigned induction', 'for (unsigned i = 0; i < (unsigned)n; i++) U[i] = U[i] * 5u + (unsigned)k; return 0;'],
  ['a start other than zero and a 2-D array row', 'for (int i = 3; i < n; i++) C[i] = A[i - 3] + B[i]; return 0;'],
];

/** Kernels it must leave scalar, and some it may take or not: all must stay right. */
const REFUSED: [string, string][] = [
  ['a store one element ahead of the load', 'for (int i = 0; i + 1 < n; i++) A[i + 1] = A[i] + B[i]; return 0;'],
  ['a store two elements behind the load (read after the vector store)', 'for (int i = 0; i + 2 < n; i++) { A[i] = B[i]; B[i + 2] = A[i] + 1; } return 0;'],
  ['a reversed loop', 'for (int i = n - 1; i >= 0; i--) C[i] = A[i] + 1; return 0;'],
  ['an indirect index', 'for (int i = 0; i < n; i++) C[i] = A[(B[i] % 300 + 300) % 300]; return 0;'],
  ['a store four elements ahead of the load (two inductions: may be refused)', 'for (int i = 0; i + 4 < n; i++) A[i + 4] = A[i] + 1; return 0;'],
  ['a store four elements behind the load (may be refused)', 'for (int i = 0; i + 4 < n; i++) A[i] = A[i + 4] - B[i]; return 0;'],
  ['a float reduction (reordering would round differently)', 'float s = 0; for (int i = 0; i < n; i++) s += F[i]; return (int)s;'],
];

function program(kernels: [string, string][], withPointers: boolean): string {
  const defs = kernels.map(([, body], k) => `__attribute__((noinline)) int k${k}(int n, int k) { ${body} }`).join('\n');
  const ptr = withPointers ? '__attribute__((noinline)) void shift(int *p, int *q, int n) { for (int i = 0; i < n; i++) p[i] = q[i] + 1; }\n' : '';
  const calls = kernels.map((_, k) => `    fill(${k + 1} + n); r = k${k}(n, n - 5); printf("k${k} n=%d r=%d h=%u\\n", n, r, sum());`).join('\n');
  const ptrCalls = withPointers ? '    fill(n); shift(A + 1, A, n); shift(B, B + 2, n); shift(C, A, n); printf("shift n=%d h=%u\\n", n, sum());\n' : '';
  return `${PRELUDE}\n${defs}\n${ptr}
int main(void) {
  static const int ns[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 31, 32, 33, 100, 255, 256, 295};
  for (int t = 0; t < (int)(sizeof ns / sizeof ns[0]); t++) {
    int n = ns[t], r;
${calls}
${ptrCalls}  }
  return 0;
}
`;
}

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('loop-vectorize keeps behaviour for every trip count (lli-19 is the oracle)', () => {
  it('vectorizes the kernels that qualify, and -O2 prints what clang -O0 prints', () => {
    const text = checkPreservesBehaviour(program(TAKEN, false), 'vectorize-taken.c', 'default<O2>');
    for (let k = 0; k < TAKEN.length; k++) {
      const fn = text.slice(text.indexOf(`@k${k}(`), text.indexOf('\n}\n', text.indexOf(`@k${k}(`)));
      expect(fn, `${TAKEN[k][0]} was not vectorized`).toMatch(/<4 x (i32|i8|float)>/);
    }
  }, 120_000);
  it('refuses dependences closer than four elements and unknown pointers, and stays right', () => {
    const text = checkPreservesBehaviour(program(REFUSED, true), 'vectorize-refused.c', 'default<O2>');
    for (let k = 0; k < REFUSED.length; k++) {
      if (REFUSED[k][0].includes('may be refused')) continue;
      const fn = text.slice(text.indexOf(`@k${k}(`), text.indexOf('\n}\n', text.indexOf(`@k${k}(`)));
      expect(fn, `${REFUSED[k][0]} was vectorized`).not.toMatch(/<4 x /);
    }
    const shift = text.slice(text.indexOf('@shift('), text.indexOf('\n}\n', text.indexOf('@shift(')));
    expect(shift, 'pointer arguments that may overlap were vectorized').not.toMatch(/<4 x /);
  }, 120_000);
});

describe('loop-vectorize on IR', () => {
  // f(n): b[i] = a[i] * i and the sum of a[i] from 5; main runs it for n = 0 … 64 and prints
  // a checksum of b and the sums
  // with \`sle\`, f(n) runs while i + 1 <= n - 1 (no nsw: scalar evolution has no count, the
  // vectorizer assumes n - 1 is not INT_MAX under a runtime test)
  const loop = (test: string, bias: number): string => {
  const calls = Array.from({ length: 65 }, (_, n) => `  %r${n} = call i32 @f(i32 ${n + bias})\n  %h${n} = call i32 @hash()\n  call i32 (ptr, ...) @printf(ptr @fmt, i32 %r${n}, i32 %h${n})`).join('\n');
  return `@a = global [64 x i32] zeroinitializer
@b = global [64 x i32] zeroinitializer
@fmt = private constant [7 x i8] c"%d %d\\0A\\00"
declare i32 @printf(ptr, ...)
define i32 @f(i32 %n) {
entry:
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ 5, %entry ], [ %s1, %loop ]
  %x = sext i32 %i to i64
  %pa = getelementptr inbounds [64 x i32], ptr @a, i64 0, i64 %x
  %pb = getelementptr inbounds [64 x i32], ptr @b, i64 0, i64 %x
  %v = load i32, ptr %pa, align 4
  %w = mul i32 %v, %i
  store i32 %w, ptr %pb, align 4
  %s1 = add i32 %s, %v
  %i1 = add ${test === 'slt' ? 'nsw ' : ''}i32 %i, 1
  %c = icmp ${test} i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = phi i32 [ 0, %entry ], [ %s1, %loop ]
  ret i32 %r
}
define i32 @hash() {
entry:
  br label %l
l:
  %i = phi i64 [ 0, %entry ], [ %i1, %l ]
  %h = phi i32 [ 0, %entry ], [ %h1, %l ]
  %p = getelementptr inbounds [64 x i32], ptr @b, i64 0, i64 %i
  %v = load i32, ptr %p, align 4
  %m = mul i32 %h, 31
  %h1 = add i32 %m, %v
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, 64
  br i1 %c, label %l, label %x
x:
  ret i32 %h1
}
define i32 @main() {
entry:
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i1, %fill ]
  %t = trunc i64 %i to i32
  %v = mul i32 %t, -7919
  %p = getelementptr inbounds [64 x i32], ptr @a, i64 0, i64 %i
  store i32 %v, ptr %p, align 4
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, 64
  br i1 %c, label %fill, label %go
go:
${calls}
  ret i32 0
}
`;
  };
  for (const [test, bias] of [['slt', 0], ['sle', -1]] as const) {
  it(`builds the vector loop, the reduction and the scalar epilogue; every n from 0 to 64 gives what the scalar loop gives (exit test ${test})`, () => {
    const LOOP = loop(test, bias);
    const want = runModule(parseModule(LOOP, 'v.ll'), { stdout: 'collect' }).stdoutBytes!.toString('latin1');
    const { m } = optimize(LOOP, 'loop-vectorize');
    const f = m.getFunction('f')!;
    const blocks = [...f].map((b) => b.name);
    expect(blocks).toEqual(['entry', 'loop.preheader', 'loop.vector.ph', 'loop.vector', 'loop.middle', 'loop.scalar.ph', 'loop', 'exit.loopexit', 'exit']);
    const text = printModule(m);
    expect(text).toContain('call i32 @llvm.vector.reduce.add.v4i32(<4 x i32>');
    expect(text).toMatch(/load <4 x i32>, ptr %\S+, align 4/);
    // hash's loop has a constant trip count of 64 and no store: vectorized too (a mul-add recurrence is no reduction: refused)
    expect(printFunction(m.getFunction('hash')!)).not.toContain('<4 x');
    expect(runModule(m, { stdout: 'collect' }).stdoutBytes!.toString('latin1')).toBe(want);
    // marked: a second run adds nothing
    const again = printModule(optimize(text, 'loop-vectorize').m);
    expect(again.split('<4 x').length).toBe(text.split('<4 x').length);
    expect(again.split(':').length).toBe(text.split(':').length);
    if (test === 'sle') expect(text).toMatch(/icmp eq i32 %\S+, 2147483647/);
  });
  }
});
