import { describe, expect, it } from 'vitest';
import type { Instruction } from '../../src/ir/instruction.js';
import { BY_VALUE, LEXICAL, expressionHash as hashOf, sameExpression as sameAs } from '../../src/analysis/expression-equality.js';
import { ExpressionTable } from '../../src/transforms/scalar/early-cse.js';
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

describe('expression table (the hash and equality behind early-cse and gvn)', () => {
  const expressionHash = (i: Instruction): number => hashOf(i, BY_VALUE);
  const sameExpression = (a: Instruction, b: Instruction): boolean => sameAs(a, b, BY_VALUE);
  const SRC = `define void @t(i32 %a, i32 %b, ptr %p) {
  %add = add nsw i32 %a, %b
  %add.swapped = add i32 %b, %a
  %sub = sub i32 %a, %b
  %sub.swapped = sub i32 %b, %a
  %lt = icmp slt i32 %a, %b
  %gt.swapped = icmp sgt i32 %b, %a
  %z32 = zext i32 %a to i64
  %z64 = sext i32 %a to i64
  %t16 = trunc i32 %a to i16
  %t8 = trunc i32 %a to i8
  %g1 = getelementptr i32, ptr %p, i32 %a
  %g2 = getelementptr i8, ptr %p, i32 %a
  ret void
}`;
  const insts = (): Map<string, Instruction> => {
    const m = parseModule(SRC);
    const out = new Map<string, Instruction>();
    for (const b of m.getFunction('t')!) for (let i = b.first; i !== null; i = i.next) if (i.name !== '') out.set(i.name, i);
    return out;
  };

  it('equates commutative and swapped-compare forms, ignoring poison flags, and nothing else', () => {
    const i = insts();
    const same = (x: string, y: string): boolean => sameExpression(i.get(x)!, i.get(y)!);
    expect(same('add', 'add.swapped')).toBe(true);
    expect(expressionHash(i.get('add')!)).toBe(expressionHash(i.get('add.swapped')!));
    expect(same('lt', 'gt.swapped')).toBe(true);
    expect(expressionHash(i.get('lt')!)).toBe(expressionHash(i.get('gt.swapped')!));
    expect(same('sub', 'sub.swapped')).toBe(false);
    expect(same('z32', 'z64')).toBe(false);
    // equal hashes, different types: equality tells them apart
    expect(expressionHash(i.get('t16')!)).toBe(expressionHash(i.get('t8')!));
    expect(same('t16', 't8')).toBe(false);
    expect(same('g1', 'g2')).toBe(false);
    // the lexical equality of the data-flow universes and PRE counts flags and predicates as written
    expect(sameAs(i.get('add')!, i.get('add.swapped')!, LEXICAL)).toBe(false);
    expect(sameAs(i.get('lt')!, i.get('gt.swapped')!, LEXICAL)).toBe(false);
  });

  it('finds the newest entry of a bucket and pops in stack order', () => {
    const i = insts();
    const t = new ExpressionTable<string>();
    const t16 = i.get('t16')!;
    const t8 = i.get('t8')!;
    const h = expressionHash(t16);
    t.push(h, t16, 'outer');
    t.push(h, t8, 'other type');
    t.push(h, t16, 'inner');
    expect(t.get(h, t16)).toBe('inner');
    expect(t.get(h, t8)).toBe('other type');
    t.pop(h);
    expect(t.get(h, t16)).toBe('outer');
    t.pop(h);
    t.pop(h);
    expect(t.get(h, t16)).toBeUndefined();
  });
});
