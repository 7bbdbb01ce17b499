import { describe, expect, it } from 'vitest';
import { bodyAfter, corpusPrograms, describeDifferential, generatedPrograms, optimize, statOf } from './scalar-helpers.js';

// Wegman and Zadeck's motivating shape: i stays 1 because the branch that would change it never runs.
const WZ = `define i32 @wz(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %i2, %latch ]
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ]
  %c = icmp ne i32 %i, 1
  br i1 %c, label %then, label %latch
then:
  br label %latch
latch:
  %i2 = phi i32 [ 2, %then ], [ %i, %loop ]
  %k1 = add i32 %k, 1
  %done = icmp slt i32 %k1, %n
  br i1 %done, label %loop, label %exit
exit:
  ret i32 %i2
}`;

describe('sccp', () => {
  it('finds constants that depend on branches never taken, folds the branch, deletes the dead block', () => {
    expect(bodyAfter(WZ, 'sccp')).toEqual([
      'entry:',
      'br label %loop',
      'loop:',
      '%k = phi i32 [ 0, %entry ], [ %k1, %latch ]',
      'br label %latch',
      'latch:',
      '%k1 = add i32 %k, 1',
      '%done = icmp slt i32 %k1, %n',
      'br i1 %done, label %loop, label %exit',
      'exit:',
      'ret i32 1',
    ]);
    const { pm } = optimize(WZ, 'sccp');
    expect(statOf(pm, 'sccp', 'branches folded')).toBe(1);
    expect(statOf(pm, 'sccp', 'unreachable blocks removed')).toBe(1);
  });

  it('constprop, without CFG reasoning, cannot (the phi cycle never becomes constant)', () => {
    const { pm } = optimize(WZ, 'constprop');
    expect(statOf(pm, 'constprop', 'instructions folded')).toBe(0);
  });

  it('folds a switch on a constant, fixes the successor phi, and uses x*0 = 0 for an unknown x', () => {
    const ir = `define i32 @sw(i32 %x) {
entry:
  %a = add i32 1, 1
  switch i32 %a, label %d [ i32 1, label %one
                            i32 2, label %two ]
one:
  br label %j
two:
  br label %j
d:
  br label %j
j:
  %p = phi i32 [ 10, %one ], [ %x, %two ], [ 30, %d ]
  %m = mul i32 %p, 0
  %r = add i32 %p, %m
  ret i32 %r
}`;
    expect(bodyAfter(ir, 'sccp')).toEqual(['entry:', 'br label %two', 'two:', 'br label %j', 'j:', '%r = add i32 %x, 0', 'ret i32 %r']);
  });

  it('a branch on undef keeps both successors (no code deleted on the strength of undef)', () => {
    const ir = `define i32 @f(i32 %x) {
entry:
  br i1 undef, label %a, label %b
a:
  ret i32 1
b:
  ret i32 2
}`;
    expect(bodyAfter(ir, 'sccp')).toEqual(['entry:', 'br i1 undef, label %a, label %b', 'a:', 'ret i32 1', 'b:', 'ret i32 2']);
  });

  it('a branch on a value computed from undef only also keeps its successors', () => {
    const ir = `define i32 @f(i1 %q) {
entry:
  br i1 %q, label %l, label %r
l:
  br label %j
r:
  br label %j
j:
  %p = phi i32 [ undef, %l ], [ undef, %r ]
  %c = icmp eq i32 %p, 3
  br i1 %c, label %a, label %b
a:
  ret i32 1
b:
  ret i32 2
}`;
    const out = bodyAfter(ir, 'sccp');
    expect(out).toContain('a:');
    expect(out).toContain('b:');
  });

  it('undef incoming values do not lower a phi', () => {
    const ir = `define i32 @f(i1 %q) {
entry:
  br i1 %q, label %l, label %r
l:
  br label %j
r:
  br label %j
j:
  %p = phi i32 [ 7, %l ], [ undef, %r ]
  %s = add i32 %p, 1
  ret i32 %s
}`;
    expect(bodyAfter(ir, 'sccp').slice(-1)).toEqual(['ret i32 8']);
  });

  it('never folds division by zero; signed overflow under nsw is poison, not a wrapped value', () => {
    const div = `define i32 @f() {
entry:
  %d = sdiv i32 1, 0
  ret i32 %d
}`;
    expect(bodyAfter(div, 'sccp')).toEqual(['entry:', '%d = sdiv i32 1, 0', 'ret i32 %d']);
    const ovf = `define i32 @f() {
entry:
  %o = add nsw i32 2147483647, 1
  %w = add i32 2147483647, 1
  %s = xor i32 %o, %w
  ret i32 %w
}`;
    expect(bodyAfter(ovf, 'sccp')).toEqual(['entry:', 'ret i32 -2147483648']);
    expect(bodyAfter(ovf.replace('ret i32 %w', 'ret i32 %o'), 'sccp')).toEqual(['entry:', 'ret i32 poison']);
  });
});

describe('constprop', () => {
  it('folds chains of constants, phis of one constant, and leaves branches alone', () => {
    const ir = `define i32 @f(i1 %c) {
entry:
  %a = add i32 2, 3
  %b = mul i32 %a, %a
  %t = icmp sgt i32 %b, 20
  br i1 %t, label %x, label %y
x:
  br label %j
y:
  br label %j
j:
  %p = phi i32 [ %b, %x ], [ 25, %y ]
  %q = sub i32 %p, 5
  ret i32 %q
}`;
    expect(bodyAfter(ir, 'constprop')).toEqual(['entry:', 'br i1 true, label %x, label %y', 'x:', 'br label %j', 'y:', 'br label %j', 'j:', 'ret i32 20']);
  });
});

describe('adce', () => {
  const diamond = `define i32 @diamond(i32 %x) {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %a, label %b
a:
  %y = add i32 %x, 1
  br label %j
b:
  %z = mul i32 %x, 2
  br label %j
j:
  %p = phi i32 [ %y, %a ], [ %z, %b ]
  ret i32 %x
}`;
  it('removes dead computation and the branch that only chose between dead paths (as opt-19 -passes=adce)', () => {
    expect(bodyAfter(diamond, 'adce')).toEqual(['entry:', 'br label %a', 'a:', 'br label %j', 'b:', 'br label %j', 'j:', 'ret i32 %x']);
  });
  it('dce cannot remove the phi cycle of a dead loop-carried value; adce can', () => {
    const ir = `define i32 @f(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %acc1 = add i32 %acc, %i
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %n
}`;
    expect(bodyAfter(ir, 'dce')).toContain('%acc1 = add i32 %acc, %i');
    expect(bodyAfter(ir, 'adce')).toEqual([
      'entry:',
      'br label %loop',
      'loop:',
      '%i = phi i32 [ 0, %entry ], [ %i1, %loop ]',
      '%i1 = add i32 %i, 1',
      '%c = icmp slt i32 %i1, %n',
      'br i1 %c, label %loop, label %exit',
      'exit:',
      'ret i32 %n',
    ]);
  });
  it('keeps loops (they might not terminate), stores, and branches that decide whether a store runs', () => {
    const ir = `define i32 @live(i32 %x, ptr %p) {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %a, label %j
a:
  store i32 %x, ptr %p
  br label %j
j:
  %dead = load i32, ptr %p
  %q = add i32 %dead, 1
  ret i32 0
}`;
    expect(bodyAfter(ir, 'adce')).toEqual(['entry:', '%c = icmp sgt i32 %x, 0', 'br i1 %c, label %a, label %j', 'a:', 'store i32 %x, ptr %p', 'br label %j', 'j:', 'ret i32 0']);
  });
  it('adce<remove-loops> still keeps loops of functions without mustprogress', () => {
    const ir = `define void @spin(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}`;
    expect(bodyAfter(ir, 'adce<remove-loops>')).toEqual(bodyAfter(ir, ''));
    const mp = ir.replace('define void @spin(i32 %n) {', 'define void @spin(i32 %n) mustprogress {');
    expect(bodyAfter(mp, 'adce<remove-loops>')).toEqual(['entry:', 'br label %loop', 'loop:', 'br label %exit', 'exit:', 'ret void']);
  });
});

describeDifferential('sccp, constprop and adce keep behaviour', ['sccp', 'constprop', 'adce'], corpusPrograms());
describeDifferential('sccp, constprop and adce keep behaviour (generated)', ['sccp,constprop,adce'], generatedPrograms(50, 1));
