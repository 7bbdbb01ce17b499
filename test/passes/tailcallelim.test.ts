import { describe, expect, it } from 'vitest';
import { loopsOf, opt, sameResults, stat } from './cfg-helpers.js';

// clang -O0 + mem2reg shapes: a shared return block with a phi
const FACT = `
define i32 @fact(i32 %n) {
entry:
  %c = icmp sle i32 %n, 1
  br i1 %c, label %base, label %rec
base:
  br label %ret
rec:
  %m = sub nsw i32 %n, 1
  %r = call i32 @fact(i32 %m)
  %p = mul nsw i32 %n, %r
  br label %ret
ret:
  %v = phi i32 [ 1, %base ], [ %p, %rec ]
  ret i32 %v
}`;

const GCD = `
define i32 @gcd(i32 %a, i32 %b) {
entry:
  %c = icmp ne i32 %b, 0
  br i1 %c, label %rec, label %base
rec:
  %m = urem i32 %a, %b
  %r = call i32 @gcd(i32 %b, i32 %m)
  br label %ret
base:
  br label %ret
ret:
  %v = phi i32 [ %r, %rec ], [ %a, %base ]
  ret i32 %v
}`;

const SUM = `
define i64 @sum(i64 %n) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %done, label %rec
done:
  ret i64 0
rec:
  %m = sub i64 %n, 1
  %r = call i64 @sum(i64 %m)
  %s = add i64 %r, %n
  ret i64 %s
}`;

describe('tailcallelim', () => {
  it('turns accumulator recursion (factorial) into a loop', () => {
    const r = opt(FACT, 'tailcallelim');
    expect(stat(r, 'tailcallelim', 'tail calls eliminated')).toBe(1);
    expect(stat(r, 'tailcallelim', 'accumulator sites')).toBe(1);
    const t = r.fnText('fact');
    expect(t).not.toMatch(/call i32 @fact/);
    expect(t).toMatch(/%accumulator\.tr = phi i32 \[ 1, %\d+ \], \[ %accumulate\.tr, %rec \]/);
    expect(t).toMatch(/%accumulate\.tr = mul i32 %accumulator\.tr, %n\.tr/);
    expect(loopsOf(r, 'fact').loops.length).toBe(1);
    const res = sameResults(FACT, 'tailcallelim', 'fact', [[0], [1], [5], [12], [13]]);
    expect(res[2]).toBe(120);
  });

  it('turns gcd (a plain tail call through the return block) into a loop', () => {
    const r = opt(GCD, 'tailcallelim,simplifycfg');
    const t = r.fnText('gcd');
    expect(t).not.toMatch(/call/);
    expect(t).toMatch(/%a\.tr = phi i32 \[ %a, %\d+ \], \[ %b\.tr, %rec \]/);
    expect(loopsOf(r, 'gcd').loops.length).toBe(1);
    const res = sameResults(GCD, 'tailcallelim', 'gcd', [[1071, 462], [17, 0], [0, 9], [-1, 65535]]);
    expect(res[0]).toBe(21);
  });

  it('turns sum (add accumulator, returns in two blocks) into a loop that runs deep inputs', () => {
    const r = opt(SUM, 'tailcallelim');
    expect(r.fnText('sum')).not.toMatch(/call/);
    const res = sameResults(SUM, 'tailcallelim', 'sum', [[0], [10], [100000]]);
    expect(res[1]).toBe(55);
  });

  it('eliminates void tail calls', () => {
    const ir = `
@g = global i32 0
define void @count(i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %ret, label %rec
rec:
  %v = load i32, ptr @g
  %v1 = add i32 %v, %n
  store i32 %v1, ptr @g
  %m = sub i32 %n, 1
  call void @count(i32 %m)
  br label %ret
ret:
  ret void
}`;
    const r = opt(ir, 'tailcallelim');
    expect(r.fnText('count')).not.toMatch(/call void @count/);
  });

  it('leaves calls that are not in tail position (fib) and functions whose allocas escape', () => {
    const fib = `
define i32 @fib(i32 %n) {
entry:
  %c = icmp slt i32 %n, 2
  br i1 %c, label %base, label %rec
base:
  ret i32 %n
rec:
  %a = sub i32 %n, 1
  %x = call i32 @fib(i32 %a)
  %b = sub i32 %n, 2
  %y = call i32 @fib(i32 %b)
  %s = add i32 %x, %y
  ret i32 %s
}`;
    const r = opt(fib, 'tailcallelim');
    // fib(n-1) + fib(n-2): only the second call could accumulate, but its operand is the first call's
    // result, which is computed before it: that is still accumulator recursion (x + fib(n-2))
    sameResults(fib, 'tailcallelim', 'fib', [[0], [1], [10]]);
    expect(r.fnText('fib')).toMatch(/call i32 @fib\(i32 %a/);
    const esc = `
declare void @keep(ptr)
define i32 @f(i32 %n) {
entry:
  %slot = alloca i32
  call void @keep(ptr %slot)
  %z = icmp eq i32 %n, 0
  br i1 %z, label %done, label %rec
done:
  ret i32 0
rec:
  %m = sub i32 %n, 1
  %r = call i32 @f(i32 %m)
  ret i32 %r
}`;
    const e = opt(esc, 'tailcallelim');
    expect(e.fnText('f')).toMatch(/call i32 @f/);
  });

  it('moves static allocas that do not escape to the new entry block', () => {
    const ir = `
define i32 @f(i32 %n) {
entry:
  %slot = alloca i32
  store i32 %n, ptr %slot
  %v = load i32, ptr %slot
  %z = icmp sle i32 %v, 0
  br i1 %z, label %done, label %rec
done:
  ret i32 7
rec:
  %m = sub i32 %v, 1
  %r = call i32 @f(i32 %m)
  ret i32 %r
}`;
    const r = opt(ir, 'tailcallelim');
    const f = r.fn('f');
    expect(f.entry.first!.opcodeName).toBe('alloca');
    expect(f.entry.size).toBe(2);
    sameResults(ir, 'tailcallelim', 'f', [[0], [5]]);
  });

  it('needs no phi for an argument passed through unchanged', () => {
    const ir = `
define i32 @find(ptr %p, i32 %i, i32 %key) {
entry:
  %q = getelementptr inbounds i32, ptr %p, i32 %i
  %v = load i32, ptr %q
  %hit = icmp eq i32 %v, %key
  br i1 %hit, label %found, label %next
found:
  ret i32 %i
next:
  %i1 = add i32 %i, 1
  %r = call i32 @find(ptr %p, i32 %i1, i32 %key)
  ret i32 %r
}`;
    const r = opt(ir, 'tailcallelim');
    const t = r.fnText('find');
    expect(t).toMatch(/%i\.tr = phi/);
    expect(t).not.toMatch(/%p\.tr = phi|%key\.tr = phi/);
  });
});
