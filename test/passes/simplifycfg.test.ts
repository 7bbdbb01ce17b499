import { describe, expect, it } from 'vitest';
import { countOps, opt, sameResults, stat } from './cfg-helpers.js';

describe('simplifycfg', () => {
  it('deletes unreachable blocks and their phi entries', () => {
    const ir = `
define i32 @f(i32 %a) {
entry:
  br label %join
dead:
  %d = add i32 %a, 7
  br label %join
join:
  %p = phi i32 [ %a, %entry ], [ %d, %dead ]
  ret i32 %p
}`;
    const r = opt(ir, 'simplifycfg');
    expect(r.fnText('f')).not.toMatch(/dead|phi/);
    expect(r.fn('f').numBlocks).toBe(1);
    expect(stat(r, 'simplifycfg', 'unreachable blocks removed')).toBe(1);
  });

  it('folds branches on constants and to one target, removing one phi entry per removed edge', () => {
    const ir = `
define i32 @f(i32 %a) {
entry:
  br i1 true, label %t, label %e
t:
  br i1 %c, label %j, label %j
e:
  br label %j
j:
  %p = phi i32 [ 1, %t ], [ 1, %t ], [ 2, %e ]
  ret i32 %p
c0:
  ret i32 0
}`.replace('%c, label %j', 'undef, label %j');
    const r = opt(ir, 'simplifycfg');
    expect(r.fnText('f')).toMatch(/ret i32 1/);
    expect(r.fn('f').numBlocks).toBe(1);
  });

  it('folds switches: on a constant, with one case, with cases that go to the default', () => {
    const ir = `
define i32 @k() {
entry:
  switch i32 2, label %d [ i32 1, label %a
                           i32 2, label %b ]
a:
  ret i32 10
b:
  ret i32 20
d:
  ret i32 30
}
define i32 @one(i32 %x) {
entry:
  switch i32 %x, label %d [ i32 5, label %a
                            i32 6, label %d ]
a:
  ret i32 10
d:
  ret i32 30
}`;
    const r = opt(ir, 'simplifycfg');
    expect(r.fnText('k')).toMatch(/ret i32 20/);
    expect(r.fnText('k')).not.toMatch(/switch|ret i32 10|ret i32 30/);
    expect(r.fnText('one')).not.toMatch(/switch/);
    expect(r.fnText('one')).toMatch(/icmp eq i32 %x, 5/);
    sameResults(ir, 'simplifycfg', 'one', [[5], [6], [7]]);
  });

  it('merges a chain of blocks with single predecessors into one block', () => {
    const ir = `
define i32 @f(i32 %a) {
entry:
  %x = add i32 %a, 1
  br label %b1
b1:
  %p = phi i32 [ %x, %entry ]
  %y = mul i32 %p, 3
  br label %b2
b2:
  %z = sub i32 %y, %a
  br label %b3
b3:
  ret i32 %z
}`;
    const r = opt(ir, 'simplifycfg');
    expect(r.fn('f').numBlocks).toBe(1);
    expect(r.fnText('f')).not.toMatch(/phi/);
    sameResults(ir, 'simplifycfg', 'f', [[4]]);
  });

  it('removes an empty forwarding block and moves its phi entries to the successor', () => {
    const ir = `
define i32 @f(i32 %a) {
entry:
  %c = icmp slt i32 %a, 0
  br i1 %c, label %neg, label %pos
neg:
  br label %fwd
pos:
  %c2 = icmp eq i32 %a, 5
  br i1 %c2, label %fwd, label %out
fwd:
  %q = phi i32 [ 1, %neg ], [ 2, %pos ]
  br label %out
out:
  %r = phi i32 [ %q, %fwd ], [ 3, %pos ]
  ret i32 %r
}`;
    // pos is a predecessor of both fwd and out: the entries would conflict (2 vs 3), so fwd stays
    const r = opt(ir, 'simplifycfg<no-select>');
    expect(r.fnText('f')).toMatch(/fwd:/);
    sameResults(ir, 'simplifycfg<no-select>', 'f', [[-1], [5], [6]]);
    // without the conflicting edge the forwarding block goes away
    const ir2 = `
define i32 @f(i32 %a) {
entry:
  %c = icmp slt i32 %a, 0
  br i1 %c, label %neg, label %pos
neg:
  br label %fwd
pos:
  %c2 = icmp eq i32 %a, 5
  br i1 %c2, label %fwd, label %other
other:
  %o = mul i32 %a, 3
  br label %out
fwd:
  %q = phi i32 [ 1, %neg ], [ 2, %pos ]
  br label %out
out:
  %r = phi i32 [ %q, %fwd ], [ %o, %other ]
  ret i32 %r
}`;
    const r2 = opt(ir2, 'simplifycfg<no-select>');
    expect(r2.fnText('f')).not.toMatch(/fwd:/);
    expect(r2.fnText('f')).toMatch(/phi i32 \[ %o, %other \], \[ 1, %entry \], \[ 2, %pos \]/);
    sameResults(ir2, 'simplifycfg<no-select>', 'f', [[-1], [5], [6]]);
  });

  it('turns a triangle and a diamond into selects, not with no-select', () => {
    const tri = `
define i32 @tri(i32 %a, i32 %b) {
entry:
  %c = icmp sgt i32 %a, %b
  br i1 %c, label %then, label %join
then:
  %d = sub i32 %a, %b
  br label %join
join:
  %r = phi i32 [ %d, %then ], [ 0, %entry ]
  ret i32 %r
}
define i32 @dia(i32 %a, i32 %b) {
entry:
  %c = icmp sgt i32 %a, %b
  br i1 %c, label %then, label %else
then:
  %d = sub i32 %a, %b
  br label %join
else:
  %e = sub i32 %b, %a
  br label %join
join:
  %r = phi i32 [ %d, %then ], [ %e, %else ]
  ret i32 %r
}`;
    const r = opt(tri, 'simplifycfg');
    expect(r.fn('tri').numBlocks).toBe(1);
    expect(r.fn('dia').numBlocks).toBe(1);
    expect(r.fnText('tri')).toMatch(/select i1 %c, i32 %d, i32 0/);
    expect(r.fnText('dia')).toMatch(/select i1 %c, i32 %d, i32 %e/);
    expect(stat(r, 'simplifycfg', 'phis turned into selects')).toBe(2);
    const n = opt(tri, 'simplifycfg<no-select>');
    expect(countOps(n.text, 'select')).toBe(0);
    sameResults(tri, 'simplifycfg', 'dia', [[1, 2], [5, 3], [4, 4]]);
  });

  it('does not speculate stores, loads or divisions by a variable', () => {
    const ir = `
define i32 @f(i32 %a, i32 %b, ptr %p) {
entry:
  %c = icmp ne i32 %b, 0
  br i1 %c, label %then, label %join
then:
  %d = sdiv i32 %a, %b
  br label %join
join:
  %r = phi i32 [ %d, %then ], [ 0, %entry ]
  ret i32 %r
}
define void @g(i1 %c, ptr %p) {
entry:
  br i1 %c, label %then, label %join
then:
  store i32 1, ptr %p
  br label %join
join:
  %r = phi i32 [ 1, %then ], [ 0, %entry ]
  ret void
}`;
    const r = opt(ir, 'simplifycfg');
    expect(countOps(r.text, 'select')).toBe(0);
    expect(r.fnText('f')).toMatch(/then:/);
    sameResults(ir, 'simplifycfg', 'f', [[7, 0], [7, 2]]);
  });

  it('drops a branch into a block that only holds unreachable', () => {
    const ir = `
define i32 @f(i32 %a) {
entry:
  %c = icmp eq i32 %a, 0
  br i1 %c, label %bad, label %ok
bad:
  unreachable
ok:
  ret i32 %a
}`;
    const r = opt(ir, 'simplifycfg');
    expect(r.fnText('f')).not.toMatch(/unreachable|icmp/);
  });

  it('keeps loops intact (a self loop stays, an infinite loop is not removed)', () => {
    const ir = `
define void @f() {
entry:
  br label %l
l:
  br label %l
}`;
    const r = opt(ir, 'simplifycfg');
    expect(r.fnText('f')).toMatch(/br label %l/);
  });

  it('reaches a fixed point on a long chain without recursion', () => {
    const n = 20_000;
    let body = 'define i32 @f(i32 %a) {\nentry:\n  br label %b0\n';
    for (let i = 0; i < n; i++) body += `b${i}:\n  %v${i} = add i32 ${i === 0 ? '%a' : `%v${i - 1}`}, 1\n  br label %b${i + 1}\n`;
    body += `b${n}:\n  ret i32 %v${n - 1}\n}`;
    const r = opt(body, 'simplifycfg');
    expect(r.fn('f').numBlocks).toBe(1);
  });
});
