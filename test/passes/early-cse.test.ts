import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { bodyAfter, corpusPrograms, describeDifferential, generatedPrograms, optimize, statOf } from './scalar-helpers.js';

const DOM = `define i32 @dom(i32 %a, i32 %b, i1 %c) {
entry:
  %x = add nsw i32 %a, %b
  %cmp = icmp sgt i32 %a, %b
  br i1 %c, label %t, label %f
t:
  %y = add i32 %b, %a
  %cmp2 = icmp slt i32 %b, %a
  %z = zext i1 %cmp2 to i32
  %r = add i32 %y, %z
  br label %j
f:
  %w = mul i32 %a, %b
  br label %j
j:
  %p = phi i32 [ %r, %t ], [ %w, %f ]
  %w2 = mul i32 %a, %b
  %s = add i32 %p, %w2
  %s2 = add i32 %s, %x
  %ce = zext i1 %cmp to i32
  %s3 = add i32 %s2, %ce
  ret i32 %s3
}`;

const MEM = `declare void @ext()
define i32 @mem(ptr %p, ptr %q, i32 %v) {
entry:
  %a = load i32, ptr %p
  %b = load i32, ptr %p
  store i32 %v, ptr %q
  %c = load i32, ptr %p
  %d = load i32, ptr %q
  call void @ext()
  %e = load i32, ptr %q
  store i32 %e, ptr %q
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  %s4 = add i32 %s3, %e
  ret i32 %s4
}`;

const JOIN = `define i32 @join(ptr %p, i1 %c) {
entry:
  %a = load i32, ptr %p
  br i1 %c, label %t, label %j
t:
  %b = load i32, ptr %p
  br label %j
j:
  %ph = phi i32 [ %a, %entry ], [ %b, %t ]
  %d = load i32, ptr %p
  %s = add i32 %ph, %d
  ret i32 %s
}`;

describe('early-cse', () => {
  it('CSE along the dominator tree: commutative operands, swapped compares, flags intersected; not across siblings', () => {
    expect(bodyAfter(DOM, 'early-cse')).toEqual([
      'entry:',
      '%x = add i32 %a, %b', // nsw dropped: the CSE'd add had none
      '%cmp = icmp sgt i32 %a, %b',
      'br i1 %c, label %t, label %f',
      't:',
      '%z = zext i1 %cmp to i32',
      '%r = add i32 %x, %z',
      'br label %j',
      'f:',
      '%w = mul i32 %a, %b',
      'br label %j',
      'j:',
      '%p = phi i32 [ %r, %t ], [ %w, %f ]',
      '%w2 = mul i32 %a, %b', // %w does not dominate it
      '%s = add i32 %p, %w2',
      '%s2 = add i32 %s, %x',
      '%ce = zext i1 %cmp to i32',
      '%s3 = add i32 %s2, %ce',
      'ret i32 %s3',
    ]);
  });

  it('loads: reused within a memory generation, forwarded from stores; stores of the known value deleted', () => {
    expect(bodyAfter(MEM, 'early-cse')).toEqual([
      'entry:',
      '%a = load i32, ptr %p',
      'store i32 %v, ptr %q',
      '%c = load i32, ptr %p', // the store to %q may have changed *p
      'call void @ext()',
      '%e = load i32, ptr %q', // so may the call
      '%s1 = add i32 %a, %a',
      '%s2 = add i32 %s1, %c',
      '%s3 = add i32 %s2, %v',
      '%s4 = add i32 %s3, %e',
      'ret i32 %s4',
    ]);
    const { pm } = optimize(MEM, 'early-cse');
    expect(statOf(pm, 'early-cse', "loads CSE'd")).toBe(2);
    expect(statOf(pm, 'early-cse', 'stores removed')).toBe(1);
  });

  it('a block with one predecessor continues its generation; a join starts a new one', () => {
    expect(bodyAfter(JOIN, 'early-cse')).toEqual(['entry:', '%a = load i32, ptr %p', 'br i1 %c, label %t, label %j', 't:', 'br label %j', 'j:', '%d = load i32, ptr %p', '%s = add i32 %a, %d', 'ret i32 %s']);
  });

  it('volatile loads are never CSE\'d and act as barriers', () => {
    const ir = `define i32 @f(ptr %p) {
  %a = load volatile i32, ptr %p
  %b = load volatile i32, ptr %p
  %s = add i32 %a, %b
  ret i32 %s
}`;
    expect(bodyAfter(ir, 'early-cse')).toEqual(['%a = load volatile i32, ptr %p', '%b = load volatile i32, ptr %p', '%s = add i32 %a, %b', 'ret i32 %s']);
  });

  it('two freezes of one value are different values', () => {
    const ir = `define i32 @f(i32 %x) {
  %a = freeze i32 %x
  %b = freeze i32 %x
  %s = sub i32 %a, %b
  ret i32 %s
}`;
    expect(bodyAfter(ir, 'early-cse')).toEqual(['%a = freeze i32 %x', '%b = freeze i32 %x', '%s = sub i32 %a, %b', 'ret i32 %s']);
  });
});

describe('lvn (the basic-block DAG)', () => {
  it('finds redundancy inside a block only', () => {
    const ir = `define i32 @f(i32 %a, i32 %b, i1 %c) {
entry:
  %x = add i32 %a, %b
  %y = add i32 %b, %a
  %m = mul i32 %x, %y
  br i1 %c, label %t, label %e
t:
  %z = add i32 %a, %b
  ret i32 %z
e:
  ret i32 %m
}`;
    expect(bodyAfter(ir, 'lvn')).toEqual(['entry:', '%x = add i32 %a, %b', '%m = mul i32 %x, %x', 'br i1 %c, label %t, label %e', 't:', '%z = add i32 %a, %b', 'ret i32 %z', 'e:', 'ret i32 %m']);
    expect(bodyAfter(ir, 'early-cse')).toContain('ret i32 %x');
  });
  it('reuses loads within the block until a possible write', () => {
    expect(bodyAfter(MEM, 'lvn')).toEqual(bodyAfter(MEM, 'early-cse'));
  });
  it('explains its decisions through the pass manager\'s trace hook', () => {
    const lines: string[] = [];
    const m = parseModule(`define i32 @f(i32 %a, i32 %b) {\n  %x = add i32 %a, %b\n  %y = add i32 %b, %a\n  %s = add i32 %x, %y\n  ret i32 %s\n}`);
    runPipeline(m, 'lvn', { trace: (l) => lines.push(l), log: () => {} });
    expect(lines).toEqual(['lvn: block %0', 'cse %y → %x']);
  });
});

describeDifferential('early-cse and lvn keep behaviour', ['early-cse', 'lvn'], corpusPrograms());
describeDifferential('early-cse and lvn keep behaviour (generated)', ['early-cse,lvn'], generatedPrograms(50, 1));
