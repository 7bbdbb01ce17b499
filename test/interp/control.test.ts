/**
 * Calls, exits and the run-level contract: 100,000-deep recursion without JS recursion,
 * exit codes (main's result & 255, exit(n), abort() = 134), argc/argv, stdin, the step
 * limit, and the --stats counts and format.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatStats, InterpError } from '../../src/interp/index.js';
import { hasTool, CLANG } from '../helpers/llvm.js';
import { runC, runIR } from './helpers.js';

const haveClang = hasTool(CLANG);

describe('calls and recursion', () => {
  it('recurses 100,000 deep (and 1,000,000 deep) without using the JS stack', () => {
    const text = `define i64 @sum(i64 %n) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %base, label %rec
base:
  ret i64 0
rec:
  %m = sub i64 %n, 1
  %buf = alloca [4 x i32]
  store i32 1, ptr %buf
  %r = call i64 @sum(i64 %m)
  %v = load i32, ptr %buf
  %v64 = sext i32 %v to i64
  %t = add i64 %r, %n
  %u = add i64 %t, %v64
  %w = sub i64 %u, 1
  ret i64 %w
}
define i32 @main() {
  %a = call i64 @sum(i64 100000)
  %b = call i64 @sum(i64 1000000)
  %c = icmp eq i64 %a, 5000050000
  %d = icmp eq i64 %b, 500000500000
  %e = and i1 %c, %d
  %r = zext i1 %e to i32
  ret i32 %r
}
`;
    expect(runIR(text).exitCode).toBe(1);
  });
  // Reason: needs clang-19 to build the native reference (apt-get install clang-19); without it the test is reported as skipped.
  it.skipIf(!haveClang)('C recursion 100,000 deep at -O0 and -O2', () => {
    const src = `#include <stdio.h>
int depth(int n) { volatile int pad[4]; pad[0] = n; return n == 0 ? 0 : 1 + depth(n - 1) + pad[0] - n; }
int main(void) { printf("%d\\n", depth(100000)); return 0; }`;
    expect(runC(src, 'O0').stdout).toBe('100000\n');
    expect(runC(src, 'O2').stdout).toBe('100000\n');
  });
  it('values live across calls survive (mutual recursion, several live values)', () => {
    const text = `define i32 @f(i32 %n, i32 %k) {
entry:
  %c = icmp sle i32 %n, 1
  br i1 %c, label %b, label %r
b:
  ret i32 %k
r:
  %x = mul i32 %n, 3
  %y = add i32 %k, 7
  %n1 = sub i32 %n, 1
  %a = call i32 @g(i32 %n1, i32 %y)
  %n2 = sub i32 %n, 2
  %b2 = call i32 @f(i32 %n2, i32 %x)
  %s = add i32 %a, %b2
  %t = xor i32 %s, %x
  %u = add i32 %t, %y
  ret i32 %u
}
define i32 @g(i32 %n, i32 %k) {
  %k2 = add i32 %k, %n
  %r = call i32 @f(i32 %n, i32 %k2)
  ret i32 %r
}
define i32 @main() {
  %r = call i32 @f(i32 20, i32 1)
  %m = and i32 %r, 255
  ret i32 %m
}
`;
    // reference computed in JS
    const f = (n: number, k: number): number => {
      if (n <= 1) return k;
      const x = Math.imul(n, 3), y = (k + 7) | 0;
      const a = f(n - 1, (y + n - 1) | 0);
      const b = f(n - 2, x);
      return ((((a + b) | 0) ^ x) + y) | 0;
    };
    expect(runIR(text).exitCode).toBe(f(20, 1) & 255);
  });
  it('indirect calls through function pointers, including to libc', () => {
    const text = `@.s = private constant [4 x i8] c"%d\\0A\\00"
declare i32 @printf(ptr, ...)
declare i32 @abs(i32)
define i32 @twice(i32 %x) {
  %r = mul i32 %x, 2
  ret i32 %r
}
define i32 @main() {
  %t = alloca [2 x ptr]
  store ptr @twice, ptr %t
  %p1 = getelementptr ptr, ptr %t, i64 1
  store ptr @abs, ptr %p1
  %f0 = load ptr, ptr %t
  %f1 = load ptr, ptr %p1
  %a = call i32 %f0(i32 21)
  %b = call i32 %f1(i32 -5)
  %s = add i32 %a, %b
  %r = call i32 (ptr, ...) @printf(ptr @.s, i32 %s)
  ret i32 0
}
`;
    expect(runIR(text).stdout).toBe('47\n');
  });
});

describe('exit codes', () => {
  it('main result & 255', () => {
    expect(runIR('define i32 @main() {\n  ret i32 258\n}\n').exitCode).toBe(2);
    expect(runIR('define i32 @main() {\n  ret i32 -1\n}\n').exitCode).toBe(255);
    expect(runIR('define void @main() {\n  ret void\n}\n').exitCode).toBe(0);
  });
  it('exit(n) from a nested call, flushing output first', () => {
    const r = runIR(`declare void @exit(i32)
declare i32 @putchar(i32)
define void @f() {
  %a = call i32 @putchar(i32 65)
  call void @exit(i32 300)
  unreachable
}
define i32 @main() {
  call void @f()
  ret i32 0
}
`);
    expect(r.exitCode).toBe(44);
    expect(r.stdout).toBe('A');
  });
  it('abort() gives 134 and a message on stderr', () => {
    const r = runIR('declare void @abort()\ndefine i32 @main() {\n  call void @abort()\n  unreachable\n}\n');
    expect(r.exitCode).toBe(134);
    expect(r.stderr).toMatch(/abort/i);
  });
  // Reason: needs clang-19 to build the native reference (apt-get install clang-19); without it the test is reported as skipped.
  it.skipIf(!haveClang)('assert failure prints glibc\'s message and aborts', () => {
    const r = runC('#include <assert.h>\nint main(void) { int x = 3; assert(x == 4); return 0; }', 'O0', {}, 'assertion.c');
    expect(r.exitCode).toBe(134);
    expect(r.stderr).toMatch(/Assertion `x == 4' failed/);
  });
  it('argc and argv', () => {
    const r = runIR(`declare i32 @puts(ptr)
define i32 @main(i32 %argc, ptr %argv) {
  %p = getelementptr ptr, ptr %argv, i64 0
  %s = load ptr, ptr %p
  %x = call i32 @puts(ptr %s)
  %q = getelementptr ptr, ptr %argv, i32 %argc
  %n = load ptr, ptr %q
  %z = icmp eq ptr %n, null
  %r = select i1 %z, i32 %argc, i32 100
  ret i32 %r
}
`);
    expect(r.stdout).toBe('prog\n');
    expect(r.exitCode).toBe(1);
  });
});

describe('stdin', () => {
  it('getchar reads bytes and returns -1 at EOF; input may be a string or bytes', () => {
    const text = `declare i32 @getchar()
define i32 @main() {
entry:
  br label %loop
loop:
  %s = phi i32 [ 0, %entry ], [ %s1, %body ]
  %c = call i32 @getchar()
  %e = icmp eq i32 %c, -1
  br i1 %e, label %done, label %body
body:
  %s1 = add i32 %s, %c
  br label %loop
done:
  ret i32 %s
}
`;
    expect(runIR(text, { stdin: 'ab' }).exitCode).toBe((97 + 98) & 255);
    expect(runIR(text, { stdin: new Uint8Array([200, 1]) }).exitCode).toBe(201);
    expect(runIR(text).exitCode).toBe(0);
  });
});

describe('step limit', () => {
  const loop = `define i32 @spin() {
entry:
  br label %l
l:
  %i = phi i32 [ 0, %entry ], [ %j, %l ]
  %j = add i32 %i, 1
  br label %l
}
define i32 @main() {
  %r = call i32 @spin()
  ret i32 %r
}
`;
  it('stops a runaway program with a clear error naming the function', () => {
    let err: unknown;
    try {
      runIR(loop, { maxSteps: 1000 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InterpError);
    expect((err as Error).message).toBe('step limit of 1000 instructions exceeded in @spin');
    expect((err as InterpError).stats!.total).toBeLessThanOrEqual(1000);
    expect((err as InterpError).stats!.total).toBeGreaterThan(990);
  });
  it('does not trigger on programs below the limit', () => {
    expect(runIR('define i32 @main() {\n  ret i32 3\n}\n', { maxSteps: 1 }).exitCode).toBe(3);
  });
});

describe('--stats', () => {
  it('counts every executed instruction, phis and calls included, exactly', () => {
    const text = `declare i32 @putchar(i32)
declare void @llvm.lifetime.start.p0(i64, ptr)
define i32 @main() {
entry:
  %a = alloca i32
  call void @llvm.lifetime.start.p0(i64 4, ptr %a)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %j, %loop ]
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, 10
  br i1 %c, label %loop, label %done
done:
  %x = call i32 @putchar(i32 10)
  ret i32 0
}
`;
    const r = runIR(text, { stats: true });
    expect(r.stats!.byOpcode).toEqual({ phi: 10, add: 10, icmp: 10, br: 11, call: 2, alloca: 1, ret: 1 });
    expect(r.stats!.total).toBe(45);
    expect(formatStats(r.stats!)).toBe('instructions executed: 45\n  br: 11\n  add: 10\n  icmp: 10\n  phi: 10\n  call: 2\n  alloca: 1\n  ret: 1\n');
  });
  it('stops counting where exit() was called mid-block', () => {
    const r = runIR(`declare void @exit(i32)
define i32 @main() {
  %a = add i32 1, 2
  call void @exit(i32 0)
  %b = add i32 %a, 3
  %c = add i32 %b, 3
  ret i32 %c
}
`, { stats: true });
    expect(r.stats!.byOpcode).toEqual({ add: 1, call: 1 });
  });
  it('counts calls and returns across frames', () => {
    const r = runIR(`define i32 @id(i32 %x) {
  ret i32 %x
}
define i32 @main() {
  %a = call i32 @id(i32 1)
  %b = call i32 @id(i32 %a)
  ret i32 %b
}
`, { stats: true });
    expect(r.stats!.byOpcode).toEqual({ ret: 3, call: 2 });
  });
});

describe('CLI', () => {
  const cli = join(process.cwd(), 'dist', 'ssakit.js');
  // Reason: runs the built CLI, dist/ssakit.js (`npm test` builds it first; a bare `vitest run` before any build skips this).
  it.skipIf(!existsSync(cli))('ssakit run FILE --stats --max-steps', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssakit-run-'));
    const f = join(dir, 'p.ll');
    writeFileSync(f, `declare i32 @putchar(i32)
declare i32 @getchar()
define i32 @main() {
  %c = call i32 @getchar()
  %d = add i32 %c, 1
  %x = call i32 @putchar(i32 %d)
  %y = call i32 @putchar(i32 200)
  ret i32 7
}
`);
    const r = spawnSync('node', [cli, 'run', f, '--stats'], { input: 'A' });
    expect(r.status).toBe(7);
    expect([...r.stdout]).toEqual([66, 200]);
    expect(r.stderr.toString()).toBe('instructions executed: 5\n  call: 3\n  add: 1\n  ret: 1\n');
    const g = join(dir, 'spin.ll');
    writeFileSync(g, 'define i32 @main() {\nentry:\n  br label %l\nl:\n  br label %l\n}\n');
    const s = spawnSync('node', [cli, 'run', g, '--max-steps', '100']);
    expect(s.status).toBe(1);
    expect(s.stderr.toString()).toBe('ssakit: runtime error: step limit of 100 instructions exceeded in @main\n');
    const b = join(dir, 'bad.ll');
    writeFileSync(b, 'define i32 @main() {\n  %v = load i32, ptr null\n  ret i32 %v\n}\n');
    const t = spawnSync('node', [cli, 'run', b]);
    expect(t.status).toBe(1);
    expect(t.stderr.toString()).toBe('ssakit: runtime error: load of 4 bytes from null pointer in @main, block %0: %v = load i32, ptr null\n');
  });
});

describe('static constructors and destructors', () => {
  // Reason: needs clang-19 to build the native reference (apt-get install clang-19); without it the test is reported as skipped.
  it.skipIf(!haveClang)('runs __attribute__((constructor/destructor)) around main, by priority, as lli does', () => {
    const src = `#include <stdio.h>
__attribute__((constructor(200))) static void late(void) { puts("ctor 200"); }
__attribute__((constructor(101))) static void early(void) { puts("ctor 101"); }
__attribute__((destructor)) static void bye(void) { puts("dtor"); }
int main(void) { puts("main"); return 0; }`;
    for (const level of ['O0', 'O2'] as const) expect(runC(src, level, {}, 'ctors.c').stdout).toBe('ctor 101\nctor 200\nmain\ndtor\n');
  });
});

describe('computed goto', () => {
  // Reason: needs clang-19 to build the native reference (apt-get install clang-19); without it the test is reported as skipped.
  it.skipIf(!haveClang)('blockaddress and indirectbr (labels as values) at -O0 and -O2', () => {
    const src = `#include <stdio.h>
static int run(const unsigned char *code) {
  static void *labels[] = { &&op_inc, &&op_dec, &&op_dbl, &&op_halt };
  int acc = 0, pc = 0;
  goto *labels[code[pc++]];
op_inc: acc++; goto *labels[code[pc++]];
op_dec: acc--; goto *labels[code[pc++]];
op_dbl: acc *= 2; goto *labels[code[pc++]];
op_halt: return acc;
}
int main(void) {
  unsigned char prog[] = {0, 0, 2, 2, 1, 0, 2, 3};
  int s = 0;
  for (int i = 0; i < 100; i++) s += run(prog);
  printf("%d\\n", s);
  return 0;
}`;
    for (const level of ['O0', 'O2'] as const) expect(runC(src, level, {}, 'cgoto.c').stdout).toBe('1600\n');
  });
});
