import { describe, expect, it } from 'vitest';
import { computeCFG } from '../../src/analysis/cfg.js';
import { computeLCM } from '../../src/transforms/scalar/pre.js';
import { parseModule } from '../../src/text/parser.js';
import { bodyAfter, corpusPrograms, describeDifferential, generatedPrograms, optimize, statOf } from './scalar-helpers.js';

const DIAMOND = `define i32 @f(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %then, label %else
then:
  %x = add i32 %a, %b
  br label %join
else:
  br label %join
join:
  %y = add i32 %a, %b
  ret i32 %y
}`;

describe('lazy code motion: the data-flow facts', () => {
  it('diamond: anticipated everywhere, earliest at the entry, latest in both arms, used after them', () => {
    const m = parseModule(DIAMOND);
    const f = m.definedFunctions()[0];
    const cfg = computeCFG(f);
    const s = computeLCM(f, cfg)!;
    expect(s.expressions.map((e) => e.name)).toEqual(['x']);
    const names = (bm: typeof s.earliest) => Array.from(cfg.order).filter((b) => bm.get(b, 0)).map((b) => cfg.blocks[b]!.name);
    expect(names(s.use)).toEqual(['then', 'join']);
    expect(names(s.anticipatedIn)).toEqual(['entry', 'then', 'else', 'join']);
    expect(names(s.availableIn)).toEqual(['then', 'else', 'join']);
    expect(names(s.earliest)).toEqual(['entry']);
    expect(names(s.postponableIn)).toEqual(['then', 'else']);
    expect(names(s.latest)).toEqual(['then', 'else']);
    expect(names(s.usedOut)).toEqual(['then', 'else']);
  });
});

describe('pre', () => {
  it('a partially redundant expression: computed in the arm that lacked it, phi at the join', () => {
    expect(bodyAfter(DIAMOND, 'pre')).toEqual([
      'entry:',
      'br i1 %c, label %then, label %else',
      'then:',
      '%x = add i32 %a, %b',
      'br label %join',
      'else:',
      '%x.pre = add i32 %a, %b',
      'br label %join',
      'join:',
      '%x.pre-phi = phi i32 [ %x, %then ], [ %x.pre, %else ]',
      'ret i32 %x.pre-phi',
    ]);
  });

  it('a critical edge gets a block for the insertion', () => {
    const ir = `define i32 @crit(i1 %c, i32 %a, i32 %b) {
entry:
  br i1 %c, label %then, label %join
then:
  %x = add i32 %a, %b
  br label %join
join:
  %p = phi i32 [ %x, %then ], [ 0, %entry ]
  %y = add i32 %a, %b
  %r = add i32 %p, %y
  ret i32 %r
}`;
    expect(bodyAfter(ir, 'pre')).toEqual([
      'entry:',
      'br i1 %c, label %then, label %entry.join_crit_edge',
      'entry.join_crit_edge:',
      '%x.pre = add i32 %a, %b',
      'br label %join',
      'then:',
      '%x = add i32 %a, %b',
      'br label %join',
      'join:',
      '%x.pre-phi = phi i32 [ %x.pre, %entry.join_crit_edge ], [ %x, %then ]',
      '%p = phi i32 [ %x, %then ], [ 0, %entry.join_crit_edge ]',
      '%r = add i32 %p, %x.pre-phi',
      'ret i32 %r',
    ]);
  });

  it('split edges that receive nothing are removed again', () => {
    const ir = DIAMOND.replace('br i1 %c, label %then, label %else', 'br i1 %c, label %then, label %join');
    const { pm } = optimize(ir.replace('%y = add i32 %a, %b', '%y = mul i32 %a, %b'), 'pre');
    expect(statOf(pm, 'pre', 'critical edges split')).toBe(0);
  });

  it('hoists a loop-invariant expression out of a do-while loop (it is down-safe there)', () => {
    const ir = `define i32 @loop(i32 %a, i32 %b, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %s = phi i32 [ 0, %entry ], [ %s1, %body ]
  %t = mul i32 %a, %b
  %s1 = add i32 %s, %t
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %body, label %exit
exit:
  ret i32 %s1
}`;
    expect(bodyAfter(ir, 'pre').slice(0, 3)).toEqual(['entry:', '%t.pre = mul i32 %a, %b', 'br label %body']);
  });

  it('does not hoist out of a while loop: on the path that skips the loop it would be computed for nothing', () => {
    const ir = `define i32 @while(i32 %a, i32 %b, i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %s = phi i32 [ 0, %entry ], [ %s1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %t = mul i32 %a, %b
  %s1 = add i32 %s, %t
  %i1 = add i32 %i, 1
  br label %h
exit:
  ret i32 %s
}`;
    expect(bodyAfter(ir, 'pre')).toEqual(bodyAfter(ir, ''));
  });

  it('never moves a division that might trap', () => {
    const ir = DIAMOND.replace(/add i32 %a, %b/g, 'sdiv i32 %a, %b');
    expect(bodyAfter(ir, 'pre')).toEqual(bodyAfter(ir, ''));
  });

  it('removes what early-cse cannot: a computation on one arm and at the join', () => {
    const ir = `define i32 @f(i32 %a, i32 %b, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  br label %j
e:
  %w = mul i32 %a, %b
  br label %j
j:
  %p = phi i32 [ 1, %t ], [ %w, %e ]
  %w2 = mul i32 %a, %b
  %s = add i32 %p, %w2
  ret i32 %s
}`;
    const out = bodyAfter(ir, 'early-cse,pre');
    expect(out.filter((l) => l.includes('mul'))).toEqual(['%w.pre = mul i32 %a, %b', '%w = mul i32 %a, %b']);
    expect(out).toContain('%s = add i32 %p, %w.pre-phi');
  });

  it('terminates on functions with more than 32 expressions in a loop (bit 31 of a set word)', () => {
    const lines = ['define i32 @f(i32 %n, i32 %a) {', 'entry:', '  br label %h', 'h:', '  %i = phi i32 [ 0, %entry ], [ %i1, %h ]'];
    for (let k = 0; k < 40; k++) lines.push(`  %v${k} = add i32 %a, ${k}`);
    lines.push('  %i1 = add i32 %i, %v33', '  %c = icmp slt i32 %i1, %n', '  br i1 %c, label %h, label %exit', 'exit:');
    for (let k = 0; k < 40; k++) lines.push(`  %w${k} = add i32 %a, ${k}`);
    lines.push('  ret i32 %w31', '}');
    const { pm } = optimize(lines.join('\n'), 'pre');
    // the 40 additions are loop invariant (hoisted into the entry) and recomputed at the exit
    expect(statOf(pm, 'pre', 'computations inserted')).toBe(40);
    expect(statOf(pm, 'pre', 'redundant computations removed')).toBe(80);
  });
});

describeDifferential('pre keeps behaviour', ['pre'], corpusPrograms());
describeDifferential('pre keeps behaviour (generated)', ['gvn,pre,instcombine,pre'], generatedPrograms(50, 1));
