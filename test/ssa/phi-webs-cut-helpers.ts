/**
 * Random phi graphs for Algorithm 5 (transforms/utils/phi-webs.ts): phis whose operands are
 * other phis, arguments, constants and undef over a random CFG, and the check that the
 * dominator cut replaces the same webs, in the same order, by the same values as the
 * paper's exhaustive descent. Used by test/ssa/phi-webs-cut.test.ts (a fixed-seed slice)
 * and test/fuzz/phi-webs-cut.test.ts (many fresh seeds).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
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

export function run(text: string, undef: 'value' | 'ignored', exhaustive: boolean, trace = false): { steps: string[]; ir: string; events: string[]; texts: string[] } {
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
  return { steps, ir: printFunction(f), events: t.events.map((e) => e.kind), texts: t.events.map((e) => e.text) };
}

/** `numRuns` random graphs from `seed`, both undef modes; returns the webs replaced and the descents cut. */
export function checkCutMatchesExhaustive(numRuns: number, seed: number): { replaced: number; cuts: number } {
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
        cuts += got.texts.filter((x) => x.includes('kept without looking inside')).length;
      }
    }),
    { numRuns, seed },
  );
  return { replaced, cuts };
}
