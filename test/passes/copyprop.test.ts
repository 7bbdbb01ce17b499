import { describe, expect, it } from 'vitest';
import { bodyAfter, corpusPrograms, describeDifferential, generatedPrograms, optimize, statOf } from './scalar-helpers.js';

describe('copyprop', () => {
  it('single-value phis, including chains through a loop', () => {
    const ir = `define i32 @f(i1 %c, i32 %x, i32 %n) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %j
b:
  br label %j
j:
  %p = phi i32 [ %x, %a ], [ %x, %b ]
  br label %loop
loop:
  %q = phi i32 [ %p, %j ], [ %r, %latch ]
  %i = phi i32 [ 0, %j ], [ %i1, %latch ]
  %t = icmp slt i32 %i, 5
  br i1 %t, label %l1, label %l2
l1:
  br label %latch
l2:
  br label %latch
latch:
  %r = phi i32 [ %q, %l1 ], [ %q, %l2 ]
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %loop, label %exit
exit:
  ret i32 %r
}`;
    const out = bodyAfter(ir, 'copyprop');
    expect(out.filter((l) => l.includes('phi'))).toEqual(['%i = phi i32 [ 0, %j ], [ %i1, %latch ]']);
    expect(out[out.length - 1]).toBe('ret i32 %x');
  });

  it('a web of phis with one outside value (Braun et al. SCC) — beyond instsimplify', () => {
    const ir = `define i32 @web(i1 %c, i32 %x, i32 %n) {
entry:
  br label %h
h:
  %a = phi i32 [ %x, %entry ], [ %b, %l ]
  %i = phi i32 [ 0, %entry ], [ %i1, %l ]
  br i1 %c, label %l, label %m
m:
  br label %l
l:
  %b = phi i32 [ %a, %h ], [ %x, %m ]
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %h, label %exit
exit:
  ret i32 %b
}`;
    expect(bodyAfter(ir, 'instsimplify')).toContain('%a = phi i32 [ %x, %entry ], [ %b, %l ]');
    expect(bodyAfter(ir, 'copyprop')).toEqual([
      'entry:',
      'br label %h',
      'h:',
      '%i = phi i32 [ 0, %entry ], [ %i1, %l ]',
      'br i1 %c, label %l, label %m',
      'm:',
      'br label %l',
      'l:',
      '%i1 = add i32 %i, 1',
      '%d = icmp slt i32 %i1, %n',
      'br i1 %d, label %h, label %exit',
      'exit:',
      'ret i32 %x',
    ]);
  });

  it('a web with two outside values stays', () => {
    const ir = `define i32 @web(i1 %c, i32 %x, i32 %y, i32 %n) {
entry:
  br label %h
h:
  %a = phi i32 [ %x, %entry ], [ %b, %l ]
  %i = phi i32 [ 0, %entry ], [ %i1, %l ]
  br i1 %c, label %l, label %m
m:
  br label %l
l:
  %b = phi i32 [ %a, %h ], [ %y, %m ]
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %h, label %exit
exit:
  ret i32 %b
}`;
    const { pm } = optimize(ir, 'copyprop');
    expect(statOf(pm, 'copyprop', 'copies removed')).toBe(0);
  });

  it('select c, x, x; no-op bitcast; freeze of well-defined values, but not freeze of any value', () => {
    const ir = `define i32 @copies(i1 %c, i32 %x, i32 noundef %y, ptr %p) {
  %s = select i1 %c, i32 %x, i32 %x
  %b = bitcast ptr %p to ptr
  %f1 = freeze i32 7
  %f2 = freeze i32 %x
  %f3 = freeze i32 %y
  %l = load i32, ptr %b
  %a1 = add i32 %s, %f1
  %a2 = add i32 %a1, %f2
  %a3 = add i32 %a2, %f3
  %a4 = add i32 %a3, %l
  ret i32 %a4
}`;
    expect(bodyAfter(ir, 'copyprop')).toEqual([
      '%f2 = freeze i32 %x',
      '%l = load i32, ptr %p',
      '%a1 = add i32 %x, 7',
      '%a2 = add i32 %a1, %f2',
      '%a3 = add i32 %a2, %y',
      '%a4 = add i32 %a3, %l',
      'ret i32 %a4',
    ]);
  });
});

describeDifferential('copyprop keeps behaviour', ['copyprop'], corpusPrograms());
describeDifferential('copyprop keeps behaviour (generated)', ['copyprop,instsimplify'], generatedPrograms(50, 1));
