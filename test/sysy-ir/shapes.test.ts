/**
 * The IR shapes IR generation promises (see src/frontend/sysy/irgen.ts), on small programs,
 * each output also checked by llvm-as-19.
 */
import { describe, expect, it } from 'vitest';
import type { CompileSysYOptions } from '../../src/frontend/sysy/index.js';
import { compile, hasClangAndAs, interpret, llvmAsCheck } from './harness.js';

function ir(src: string, opts: CompileSysYOptions = {}): string {
  const { text } = compile(src, 'shape.sy', opts);
  if (hasClangAndAs()) expect(llvmAsCheck(text)).toBeNull();
  return text;
}

/** The body of `@name` in printed IR. */
function body(text: string, name: string): string {
  const start = text.indexOf(`@${name}(`);
  return text.slice(start, text.indexOf('\n}', start));
}

describe('globals', () => {
  it('a 1,000,000-element array with a few entries prints compactly, as clang lays it out', () => {
    const t = ir('int big[1000000] = {1, 2, [0] = 0};\nint main() { return big[1] + big[999999]; }'.replace(', [0] = 0', ''));
    const line = t.split('\n').find((l) => l.startsWith('@big'))!;
    expect(line).toBe('@big = dso_local global <{ [2 x i32], [999998 x i32] }> <{ [2 x i32] [i32 1, i32 2], [999998 x i32] zeroinitializer }>, align 16');
    expect(t).toContain('getelementptr inbounds [1000000 x i32], ptr @big, i64 0, i64 999999');
  });

  it('entries far apart become dense runs separated by zero runs', () => {
    const t = ir('int a[1000][1000] = {{1}, {2}, [999] = {}};\nint main() { a[999][999] = 3; return a[1][0]; }'.replace(', [999] = {}', ''));
    const line = t.split('\n').find((l) => l.startsWith('@a'))!;
    expect(line).toMatch(/^@a = dso_local global <\{ \[1 x i32\], \[999 x i32\], \[1 x i32\], \[998999 x i32\] \}> /);
    expect(line.length).toBeLessThan(300);
  });

  it('small arrays nest as written; all-zero (sub)arrays are zeroinitializer; consts are constant', () => {
    const t = ir('const int c[2][3] = {{1}, {}};\nint z[4];\nfloat f[2] = {1.5};\nint main() { int i = getint(); return c[i][0] + z[i]; }');
    expect(t).toContain('@c = dso_local constant [2 x [3 x i32]] [[3 x i32] [i32 1, i32 0, i32 0], [3 x i32] zeroinitializer], align 16');
    expect(t).toContain('@z = dso_local global [4 x i32] zeroinitializer, align 16');
    expect(t).toContain('@f = dso_local global [2 x float] [float 1.500000e+00, float 0.000000e+00], align 4');
    expect(t).toContain('declare i32 @getint()');
  });
});

describe('locals', () => {
  it('a local array initializer is a memset to zero plus stores of the non-zero elements', () => {
    const t = ir('int main() { int x = getint(); int a[4][3] = {{1}, {x, 0, 3}}; return a[1][0]; }', { ssa: 'alloca' });
    expect(t).toContain('call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 48, i1 false)');
    expect(t).toContain('declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)');
    expect(t).toMatch(/getelementptr inbounds \[4 x \[3 x i32\]\], ptr %a, i64 0, i64 1, i64 2\n {2}store i32 3/);
    expect(t).not.toMatch(/store i32 0,/);
  });

  it('a big constant local initializer is copied from a private constant', () => {
    const vals = Array.from({ length: 40 }, (_, k) => k + 1).join(', ');
    const t = ir(`int main() { int a[50] = {${vals}}; return a[getint()]; }`);
    expect(t).toContain('@__const.main.a = private unnamed_addr constant [50 x i32] [i32 1, i32 2,');
    expect(t).toContain('call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr @__const.main.a, i64 200, i1 false)');
  });

  it('alloca mode: every local and parameter in an entry-block alloca, no phis', () => {
    const t = ir('int f(int n) { int s = 0; while (n > 0) { s = s + n; n = n - 1; } return s; }\nint main() { return f(4); }', { ssa: 'alloca' });
    const f = body(t, 'f');
    expect(f).toMatch(/entry:\n {2}%n\.addr = alloca i32, align 4\n {2}%s = alloca i32, align 4\n {2}store i32 %n, ptr %n\.addr/);
    expect(f).not.toContain('phi');
  });

  it('Braun mode: SSA directly, phis named after the variables', () => {
    const t = ir('int f(int n) { int s = 0; while (n > 0) { s = s + n; n = n - 1; } return s; }\nint main() { return f(4); }');
    const f = body(t, 'f');
    expect(f).not.toContain('alloca');
    expect(f).toContain('%n.1 = phi i32 [ %n, %entry ], [ %2, %while.body ]');
    expect(f).toContain('%s = phi i32 [ 0, %entry ], [ %1, %while.body ]');
  });
});

describe('expressions', () => {
  it('ints wrap (no nsw), comparisons used as values are zext, float conversions, fneg', () => {
    const t = ir('int main() { int a = getint(); float f = getfloat(); int c = (a < 3) + (f > a); float g = -f * a; return c + g; }');
    expect(t).not.toContain('nsw');
    expect(t).toMatch(/icmp slt i32 %\d+, 3\n {2}%\d+ = zext i1 %\d+ to i32/);
    expect(t).toContain('sitofp i32');
    expect(t).toContain('fcmp ogt float');
    expect(t).toContain('fneg float');
    expect(t).toContain('fptosi float');
  });

  it('conditions branch directly: icmp ne for ints, fcmp une 0.0 for floats', () => {
    const t = ir('int main() { float f = getfloat(); int i = getint(); if (f) i = i + 1; if (i) return 1; return 0; }');
    expect(t).toMatch(/fcmp une float %\d+, 0\.000000e\+00\n {2}br i1/);
    expect(t).toMatch(/icmp ne i32 %[\w.]+, 0\n {2}br i1/);
  });

  it('&& and || short-circuit; as values they merge an i1 with a phi', () => {
    const t = ir('int main() { int a = getint(); int b = getint(); int v = a && b; if (a || b > 2) v = v + 2; return v; }');
    expect(t).toMatch(/land\.end:.*\n {2}%\d+ = phi i1 \[ false, %entry \], \[ %\d+, %land\.rhs \]\n {2}%\d+ = zext i1 %\d+ to i32/);
    expect(t).toContain('lor.rhs:');
  });

  it('putf: varargs call with float arguments promoted to double, string in a private constant', () => {
    const t = ir('int main() { float f = getfloat(); putf("%d %f\\n", 1, f); return 0; }');
    expect(t).toContain('@.str = private unnamed_addr constant [7 x i8] c"%d %f\\0A\\00", align 1');
    expect(t).toMatch(/fpext float %\d+ to double\n {2}call void \(ptr, \.\.\.\) @putf\(ptr @\.str, i32 1, double %\d+\)/);
    expect(t).toContain('declare void @putf(ptr, ...)');
  });

  it('array parameters are ptr; subscripts are one GEP over the pointee type with sext i64 indices', () => {
    const t = ir('int f(int a[][3], int b[]) { int i = getint(); return a[i][2] + b[i]; }\nint main() { int x[2][3]; x[1][2] = 5; return f(x, x[1]); }');
    expect(t).toContain('define dso_local i32 @f(ptr %a, ptr %b)');
    expect(t).toMatch(/%(\d+) = sext i32 %\d+ to i64\n {2}%\d+ = getelementptr inbounds \[3 x i32\], ptr %a, i64 %\1, i64 2/);
    expect(t).toMatch(/getelementptr inbounds i32, ptr %b, i64 %\d+/);
    // x decays to its address; x[1] to the address of its second row
    expect(t).toMatch(/%(\d+) = getelementptr inbounds \[2 x \[3 x i32\]\], ptr %x, i64 0, i64 1\n {2}%\d+ = call i32 @f\(ptr %x, ptr %\1\)/);
  });

  it('starttime/stoptime pass their line; only called runtime functions are declared', () => {
    const t = ir('int main() {\n  starttime();\n  putint(1);\n  stoptime();\n  return 0;\n}');
    expect(t).toContain('call void @_sysy_starttime(i32 2)');
    expect(t).toContain('call void @_sysy_stoptime(i32 4)');
    const decls = t.split('\n').filter((l) => l.startsWith('declare')).sort();
    expect(decls).toEqual(['declare void @_sysy_starttime(i32)', 'declare void @_sysy_stoptime(i32)', 'declare void @putint(i32)']);
  });
});

describe('on-the-fly optimization in Braun mode', () => {
  const src = 'int main() { int a = getint(); int x = 2; int y = x * 3 + 1; int p = a * y; int q = a * y; if (x > 5) putint(9); return p + q + y; }';

  it('folds constants and algebra, reuses equal values in a block (local CSE), drops folded-away branches', () => {
    const t = body(ir(src), 'main');
    expect(t.match(/ = mul /g)?.length).toBe(1);
    expect(t).toContain('mul i32 %0, 7');
    expect(t).not.toContain('putint');
    expect(t).not.toContain('br ');
  });

  it('local CSE never reaches into the previous function', () => {
    // the same key (a GEP of a global at constant indices) ends one function and starts the next
    const t = ir('int a[4];\nint f() { return a[1]; }\nint g() { return a[1] + f(); }\nint main() { return g(); }');
    expect(body(t, 'g')).toContain('getelementptr inbounds [4 x i32], ptr @a, i64 0, i64 1');
  });

  it('--no-fold keeps every operation', () => {
    const t = body(ir(src, { fold: false }), 'main');
    expect(t.match(/ = mul /g)?.length).toBe(3);
    expect(t).toContain('call void @putint(i32 9)');
  });

  it('all modes compute the same', () => {
    for (const opts of [{}, { fold: false }, { ssa: 'alloca' as const }, { ssa: 'alloca' as const, mem2reg: true }]) {
      expect(interpret(compile(src, 'x.sy', opts).module, '5')).toBe(`${(5 * 7 * 2 + 7) & 255}\n`);
    }
  });
});

describe('control flow', () => {
  it('code after return, break or continue is not emitted; a function falling off its end returns 0', () => {
    const t = ir('int f(int x) { if (x) return 1; }\nint main() { int i = 0; while (i < 3) { i = i + 1; continue; putint(i); } return f(0); putint(2); }');
    expect(t).not.toContain('putint');
    expect(body(t, 'f')).toMatch(/if\.end:.*\n {2}ret i32 0/);
  });

  it('while(1) without break: nothing after the loop', () => {
    const t = body(ir('int main() { int i = 0; while (1) { i = i + 1; if (i > 9) return i; } }'), 'main');
    expect(t).not.toContain('while.end');
  });
});
