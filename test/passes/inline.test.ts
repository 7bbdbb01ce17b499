import { describe, expect, it } from 'vitest';
import { CallGraph } from '../../src/analysis/callgraph.js';
import { parseModule } from '../../src/text/parser.js';
import { stripNoinline } from '../helpers/noinline.js';
import { opt, sameResults, stat } from './cfg-helpers.js';
import { EVEN_ODD } from './ipo-helpers.js';

describe('inline', () => {
  it('inlines a small callee: the caller gets the merged body, the internal callee is deleted', () => {
    const ir = `
define internal i32 @sq(i32 %x) {
entry:
  %m = mul i32 %x, %x
  ret i32 %m
}
define i32 @f(i32 %a) {
entry:
  %b = add i32 %a, 1
  %r = call i32 @sq(i32 %b)
  %s = sub i32 %r, %a
  ret i32 %s
}`;
    const r = opt(ir, 'inline,simplifycfg');
    expect(r.m.getFunction('sq')).toBeUndefined();
    const body = r.fnText('f').split('\n').filter((l) => /^\s+\S/.test(l)).map((l) => l.trim());
    expect(body).toEqual(['%b = add i32 %a, 1', '%m.i = mul i32 %b, %b', '%s = sub i32 %m.i, %a', 'ret i32 %s']);
    expect(stat(r, 'inline', 'call sites inlined')).toBe(1);
    expect(stat(r, 'inline', 'dead functions deleted')).toBe(1);
    sameResults(ir, 'inline', 'f', [[3], [-9]]);
  });

  it('merges several returns with a phi in the continuation', () => {
    const ir = `
define i32 @abs(i32 %x) {
entry:
  %c = icmp slt i32 %x, 0
  br i1 %c, label %neg, label %pos
neg:
  %n = sub i32 0, %x
  ret i32 %n
pos:
  ret i32 %x
}
define i32 @f(i32 %a) {
entry:
  %r = call i32 @abs(i32 %a)
  %s = add i32 %r, 1
  ret i32 %s
}`;
    const r = opt(ir, 'inline');
    const t = r.fnText('f');
    expect(t).not.toMatch(/call/);
    expect(t).toMatch(/%r = phi i32 \[ %n\.i, %neg\.i \], \[ %a, %pos\.i \]/);
    // @abs is external: it stays
    expect(r.m.getFunction('abs')).toBeDefined();
    sameResults(ir, 'inline', 'f', [[-4], [4]]);
  });

  it('respects noinline on the callee (inline text or attribute group) and on the call site', () => {
    const ir = `
define i32 @a(i32 %x) noinline {
  %y = add i32 %x, 1
  ret i32 %y
}
define i32 @b(i32 %x) #0 {
  %y = add i32 %x, 2
  ret i32 %y
}
define i32 @c(i32 %x) {
  %y = add i32 %x, 3
  ret i32 %y
}
define i32 @f(i32 %v) {
  %1 = call i32 @a(i32 %v)
  %2 = call i32 @b(i32 %1)
  %3 = call i32 @c(i32 %2) #1
  ret i32 %3
}
attributes #0 = { noinline nounwind }
attributes #1 = { noinline }`;
    const r = opt(ir, 'inline');
    expect(stat(r, 'inline', 'call sites inlined')).toBe(0);
    const stripped = opt(stripNoinline(ir), 'inline');
    // stripNoinline also clears the call site's group
    expect(stat(stripped, 'inline', 'call sites inlined')).toBe(3);
    const siteOnly = opt(ir.replace('define i32 @a(i32 %x) noinline', 'define i32 @a(i32 %x)').replace('{ noinline nounwind }', '{ nounwind }'), 'inline');
    expect(stat(siteOnly, 'inline', 'call sites inlined')).toBe(2);
    expect(siteOnly.fnText('f')).toMatch(/call i32 @c/);
  });

  it('never inlines a recursive function into itself, nor (LLVM\'s "recursive") into its callers', () => {
    const ir = `
define i32 @fact(i32 %n) {
entry:
  %c = icmp sle i32 %n, 1
  br i1 %c, label %base, label %rec
base:
  ret i32 1
rec:
  %m = sub i32 %n, 1
  %r = call i32 @fact(i32 %m)
  %p = mul i32 %n, %r
  ret i32 %p
}
${EVEN_ODD}
define i32 @main() {
  %a = call i32 @fact(i32 5)
  %b = call i32 @even(i32 7)
  %s = add i32 %a, %b
  ret i32 %s
}`;
    const r = opt(ir, 'inline<threshold=1000>');
    expect(r.fnText('fact')).toMatch(/call i32 @fact/);
    expect(r.fnText('fact').match(/call/g)!.length).toBe(1);
    expect(r.fnText('even')).toMatch(/call i32 @odd/);
    expect(r.fnText('odd')).toMatch(/call i32 @even/);
    // main keeps its call of the self-recursive fact (LLVM: "recursive", cost=never)
    expect(r.fnText('main').match(/call i32 @fact/g)!.length).toBe(1);
    sameResults(ir, 'inline<threshold=1000>', 'main', [[]]);
  });

  it('obeys the threshold, inlines alwaysinline callees above it, and a single-call internal callee', () => {
    let big = 'define i32 @big(i32 %x) {\n  %v0 = add i32 %x, 1\n';
    for (let i = 1; i < 100; i++) big += `  %v${i} = xor i32 %v${i - 1}, ${i}\n`;
    big += '  ret i32 %v99\n}\n';
    const ir = `${big}
${big.replace('@big', '@bigalways').replace('{', 'alwaysinline {')}
${big.replace('define i32 @big', 'define internal i32 @bigonce')}
define i32 @f(i32 %a) {
  %1 = call i32 @big(i32 %a)
  %2 = call i32 @bigalways(i32 %1)
  %3 = call i32 @bigonce(i32 %2)
  ret i32 %3
}`;
    const r = opt(ir, 'inline');
    const t = r.fnText('f');
    expect(t).toMatch(/call i32 @big\(/);
    expect(t).not.toMatch(/@bigalways|@bigonce/);
    expect(r.m.getFunction('bigonce')).toBeUndefined();
    sameResults(ir, 'inline', 'f', [[12345]]);
  });

  it('moves the callee static allocas to the caller entry and copies byval arguments', () => {
    const ir = `
%struct.P = type { i32, i32 }
define internal i32 @get(ptr byval(%struct.P) align 4 %p, i32 %k) {
entry:
  %tmp = alloca i32
  store i32 %k, ptr %tmp
  %f = getelementptr inbounds %struct.P, ptr %p, i32 0, i32 1
  %v = load i32, ptr %f
  %w = load i32, ptr %tmp
  %s = add i32 %v, %w
  store i32 99, ptr %f
  ret i32 %s
}
define i32 @f(i32 %n) {
entry:
  %q = alloca %struct.P
  %q1 = getelementptr inbounds %struct.P, ptr %q, i32 0, i32 1
  store i32 7, ptr %q1
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %h ]
  %r = call i32 @get(ptr byval(%struct.P) align 4 %q, i32 %i)
  %acc1 = add i32 %acc, %r
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  %after = load i32, ptr %q1
  %res = add i32 %acc1, %after
  ret i32 %res
}`;
    const r = opt(ir, 'inline');
    const f = r.fn('f');
    const entryAllocas = f.entry.instructions().filter((i) => i.opcodeName === 'alloca').map((i) => i.name);
    expect(entryAllocas).toContain('tmp.i');
    expect(entryAllocas.some((n) => n.startsWith('p.copy'))).toBe(true);
    // the callee's store to its byval copy must not reach the caller's struct
    const res = sameResults(ir, 'inline', 'f', [[3]]);
    expect(res[0]).toBe(7 * 3 + 3 + 7);
  });

  it('keeps functions referenced from global initializers', () => {
    const ir = `
@table = global [1 x ptr] [ptr @h]
define internal i32 @h(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
define i32 @f(i32 %a) {
  %r = call i32 @h(i32 %a)
  ret i32 %r
}`;
    const r = opt(ir, 'inline');
    expect(r.m.getFunction('h')).toBeDefined();
    expect(r.fnText('f')).not.toMatch(/call/);
  });
});

describe('call graph', () => {
  it('lists callees and orders SCCs bottom-up (iterative Tarjan)', () => {
    const m = parseModule(`
declare void @ext()
define void @leaf() {
  ret void
}
define void @a() {
  call void @b()
  call void @leaf()
  ret void
}
define void @b() {
  call void @a()
  call void @ext()
  ret void
}
define void @self() {
  call void @self()
  ret void
}
define void @main() {
  call void @a()
  call void @self()
  ret void
}`);
    const cg = new CallGraph(m);
    const names = cg.sccFunctions().map((c) => c.map((f) => f.name).sort().join('+'));
    expect(names.indexOf('leaf')).toBeLessThan(names.indexOf('a+b'));
    expect(names.indexOf('a+b')).toBeLessThan(names.indexOf('main'));
    expect(names.indexOf('self')).toBeLessThan(names.indexOf('main'));
    expect(cg.isRecursive(m.getFunction('a')!)).toBe(true);
    expect(cg.isRecursive(m.getFunction('self')!)).toBe(true);
    expect(cg.isRecursive(m.getFunction('leaf')!)).toBe(false);
    expect(cg.calleesOf(m.getFunction('a')!).map((f) => f.name)).toEqual(['b', 'leaf']);
  });

  it('handles a call chain of 100,000 functions without recursion', () => {
    const n = 100_000;
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(`define void @f${i}() {\n  ${i + 1 < n ? `call void @f${i + 1}()\n  ` : ''}ret void\n}`);
    const cg = new CallGraph(parseModule(parts.join('\n')));
    expect(cg.sccs.length).toBe(n);
    expect(cg.functions[cg.sccs[0][0]].name).toBe(`f${n - 1}`);
  });
  it('keeps an inline history across runs: mutually recursive callees are not re-inlined into their caller on every run', () => {
    // even/odd call each other (neither calls itself, so both may be inlined): before the
    // history, every run of the inliner (the -O2 fixpoint runs it up to ten times) inlined the
    // exposed call again and @main grew with every run
    const ir = `
define internal i32 @even(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %t, label %f
t:
  ret i32 1
f:
  %m = sub i32 %n, 1
  %r = call i32 @odd(i32 %m)
  ret i32 %r
}
define internal i32 @odd(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %t, label %f
t:
  ret i32 0
f:
  %m = sub i32 %n, 1
  %r = call i32 @even(i32 %m)
  ret i32 %r
}
define i32 @main(i32 %n) {
entry:
  %r = call i32 @even(i32 %n)
  ret i32 %r
}`;
    const main = (pipeline: string): string => opt(ir, pipeline).fnText('main');
    // LLVM's rule: a call exposed by inlining F is not inlined into F's caller again
    expect(main('inline')).toMatch(/call i32 @odd\(/);
    expect(main('repeat<2>(inline)')).toMatch(/call i32 @even\(/);
    expect(main('repeat<10>(inline)')).toBe(main('repeat<2>(inline)'));
    sameResults(ir, 'repeat<10>(inline)', 'main', [[0], [5], [12]]);
  });
});
