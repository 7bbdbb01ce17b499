/**
 * Algorithm 5's dominator cut (transforms/utils/phi-webs.ts) changes no decision: on random
 * phi graphs (phis whose operands are other phis, arguments, constants and undef, over a
 * random CFG, so SCCs nest and chains appear) the webs replaced, their order, their
 * replacement values and the resulting IR are those of the paper's exhaustive descent, in
 * both undef modes (redundant-phis' and copyprop's). And the cut is what makes a deep nest
 * linear: the headers of nested loops form one SCC peeled two phis per level.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Function } from '../../src/ir/function.js';
import type { Instruction } from '../../src/ir/instruction.js';
import { Opcode } from '../../src/ir/opcodes.js';
import { parseModule } from '../../src/text/parser.js';
import { printFunction } from '../../src/text/printer.js';
import { removeRedundantPhiWebs } from '../../src/transforms/utils/phi-webs.js';
import { RedundantPhiTracer } from '../../src/transforms/utils/phi-webs-trace.js';
import { LineTracer } from '../../src/analysis/trace.js';

interface PhiGraph {
  /** preds[b]: the predecessors of block b (block 0 is the entry, it has none). */
  preds: number[][];
  /** phis[b][k][j]: the operand of phi k of block b for predecessor j, an index into the pool. */
  phis: number[][][];
}

const EXTRA = ['%a', '%b', '0', 'undef'];

function graphText(g: PhiGraph): string {
  const names: string[] = [];
  g.phis.forEach((ps, b) => ps.forEach((_, k) => names.push(`%p${b}_${k}`)));
  // mostly phis, so that webs and chains form
  const pool = (x: number): string => (x % 5 === 4 || names.length === 0 ? EXTRA[(x >> 3) % EXTRA.length] : names[x % names.length]);
  const succs: number[][] = g.preds.map(() => []);
  g.preds.forEach((ps, b) => ps.forEach((p) => succs[p].push(b)));
  const lines = ['declare void @use(i32)', 'define void @f(i32 %a, i32 %b, i32 %sel) {'];
  g.preds.forEach((ps, b) => {
    lines.push(`b${b}:`);
    g.phis[b].forEach((ops, k) => lines.push(`  %p${b}_${k} = phi i32 ${ps.map((p, j) => `[ ${pool(ops[j])}, %b${p} ]`).join(', ')}`));
    for (let k = 0; k < g.phis[b].length; k++) lines.push(`  call void @use(i32 %p${b}_${k})`);
    const s = succs[b];
    if (s.length === 0) lines.push('  ret void');
    else lines.push(`  switch i32 %sel, label %b${s[0]} [ ${s.slice(1).map((t, i) => `i32 ${i}, label %b${t}`).join(' ')} ]`);
  });
  lines.push('}');
  return lines.join('\n') + '\n';
}

const arbPhiGraph: fc.Arbitrary<PhiGraph> = fc.integer({ min: 2, max: 12 }).chain((n) =>
  fc
    .tuple(
      fc.array(fc.uniqueArray(fc.nat(n - 1), { minLength: 1, maxLength: 4 }), { minLength: n - 1, maxLength: n - 1 }),
      fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n, maxLength: n }),
      fc.array(fc.nat(1000), { minLength: 200, maxLength: 200 }),
    )
    .map(([ps, counts, draws]): PhiGraph => {
      const preds = [[] as number[], ...ps];
      let d = 0;
      const phis = preds.map((p, b) => (b === 0 ? [] : Array.from({ length: counts[b] }, () => p.map(() => draws[d++ % draws.length]))));
      return { preds, phis };
    }),
);

function run(text: string, undef: 'value' | 'ignored', exhaustive: boolean, trace = false): { steps: string[]; ir: string; events: string[] } {
  const f: Function = parseModule(text).functions.find((g) => g.name === 'f')!;
  const phis: Instruction[] = [];
  for (const b of f) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) phis.push(i);
  const steps: string[] = [];
  const t = new LineTracer();
  removeRedundantPhiWebs(f, phis, {
    undef,
    exhaustive,
    trace: trace ? new RedundantPhiTracer(t, f) : null,
    replace(web, v) {
      steps.push(`{${web.map((p) => p.name).join(',')}} -> ${v.name || v.kind}`);
      for (const p of web) p.replaceAllUsesWith(v);
      for (const p of web) p.eraseFromParent();
    },
  });
  return { steps, ir: printFunction(f), events: t.events.map((e) => e.kind) };
}

describe('Algorithm 5 with the dominator cut', () => {
  it('replaces the same webs, in the same order, by the same values as the exhaustive descent (random phi graphs, both undef modes)', () => {
    let replaced = 0;
    let cuts = 0;
    fc.assert(
      fc.property(arbPhiGraph, (g) => {
        const text = graphText(g);
        for (const undef of ['value', 'ignored'] as const) {
          const want = run(text, undef, true);
          const got = run(text, undef, false, true);
          expect(got.steps).toEqual(want.steps);
          expect(got.ir).toBe(want.ir);
          replaced += want.steps.length;
          if (got.events.includes('keep') && run(text, undef, true, true).events.includes('descend')) cuts++;
        }
      }),
      { numRuns: process.env.SSAKIT_FUZZ ? 3000 : 40, seed: 2113 },
    );
    // the sample exercises both: webs replaced, and descents the cut saved
    expect(replaced).toBeGreaterThan(100);
    expect(cuts).toBeGreaterThan(10);
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
