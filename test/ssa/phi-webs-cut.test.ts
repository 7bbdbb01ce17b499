/**
 * Algorithm 5's dominator cut (transforms/utils/phi-webs.ts) changes no decision: on random
 * phi graphs (phis whose operands are other phis, arguments, constants and undef, over a
 * random CFG, so SCCs nest and chains appear) the webs replaced, their order, their
 * replacement values and the resulting IR are those of the paper's exhaustive descent, in
 * both undef modes (redundant-phis' and copyprop's). And the cut is what makes a deep nest
 * linear: the headers of nested loops form one SCC peeled two phis per level.
 */
import { describe, expect, it } from 'vitest';
import { checkCutMatchesExhaustive, run } from './phi-webs-cut-helpers.js';

describe('Algorithm 5 with the dominator cut', () => {
  it('replaces the same webs, in the same order, by the same values as the exhaustive descent (random phi graphs, both undef modes)', () => {
    const { replaced, cuts } = checkCutMatchesExhaustive(40, 2113);
    // the sample exercises both: webs replaced, and descents the cut saved
    expect(replaced).toBeGreaterThan(100);
    expect(cuts).toBeGreaterThanOrEqual(3);
  });

  it('finds a redundant web hanging off the middle of a chain of loop headers (a deep descent the cut must not skip)', () => {
    // p1..pN merge their neighbours (nested loop headers: %a enters at the top, %n at the
    // bottom); p_M also merges q1 of an irreducible pair q1/q2 that only ever carries p_M.
    // The chain peels two phis per level; at level M-1 p_M is at its end, and below it {q1, q2}
    // is an SCC whose one outer operand is p_M.
    const N = 40;
    const M = 10;
    const lines = ['define i32 @f(i32 %a) {', 'b0:', '  ret i32 0'];
    for (let k = 1; k <= N; k++) {
      const ops = [k === 1 ? '[ %a, %b0 ]' : `[ %p${k - 1}, %b${k - 1} ]`, k === N ? `[ %n, %b${N} ]` : `[ %p${k + 1}, %b${k + 1} ]`];
      if (k === M) ops.push('[ %q1, %w1 ]');
      lines.push(`b${k}:`, `  %p${k} = phi i32 ${ops.join(', ')}`, k === N ? `  %n = add i32 %p${N}, 1` : '', '  ret i32 0');
    }
    lines.push('w1:', `  %q1 = phi i32 [ %p${M}, %b${M} ], [ %q2, %w2 ]`, '  ret i32 0');
    lines.push('w2:', '  %q2 = phi i32 [ %q1, %w1 ], [ %q1, %w2 ]', '  ret i32 0', '}');
    const text = lines.filter((l) => l !== '').join('\n') + '\n';
    const want = run(text, 'value', true, true);
    const got = run(text, 'value', false, true);
    // the trace says where it stopped looking, and why
    expect(got.texts.filter((x) => x.includes('kept without looking inside'))).toHaveLength(1);
    expect(got.texts.find((x) => x.includes('kept without looking inside'))).toMatch(/^ *SCC \{%p\d+(, %p\d+)*\}: outer operands \{%p\d+, %p\d+\} \(several\); no inner phi of \{/);
    expect(got.steps).toEqual(want.steps);
    expect(got.steps).toEqual([`{q2,q1} -> p${M}`]);
    expect(got.ir).toBe(want.ir);
    // the exhaustive descent goes M-1 levels down and then on through the rest of the chain;
    // the cut goes down only as far as the web
    const depth = (ev: string[]): number => ev.filter((k) => k === 'descend').length;
    expect(depth(want.events)).toBe(N / 2 - 1);
    expect(depth(got.events)).toBe(M);
  });
});
