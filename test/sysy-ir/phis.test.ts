/**
 * Braun's construction and Cytron's (mem2reg) give the same number of phis per function on
 * every program of test/sysy: both are minimal for SysY's reducible control flow, and both
 * are pruned here (Braun places a phi only where a read needs one; mem2reg prunes by
 * liveness). Compared: Braun without on-the-fly folding against plain pruned Cytron
 * (mem2reg without LLVM's undef clean-up), and Braun with folding against the mem2reg pass.
 * Folding may remove more phis than mem2reg (a branch on a condition that folded to a
 * constant never creates the join); the programs where it does are listed.
 */
import { describe, expect, it } from 'vitest';
import { computeDominators } from '../../src/analysis/dominators.js';
import { promoteMemoryToRegister } from '../../src/transforms/ssa/mem2reg.js';
import { breathe, compile, corpus, phiCounts } from './harness.js';

/** Programs where Braun mode with folding has fewer phis than alloca + mem2reg. */
const FOLDING_REMOVES_MORE = new Set(['test/sysy/logical_values.sy']);

describe('phi counts: Braun vs alloca + mem2reg', () => {
  for (const p of corpus()) {
    it(p.name, async () => {
      await breathe();
      const braunPlain = phiCounts(compile(p.source, p.name, { ssa: 'braun', fold: false }).module);
      const braunFold = phiCounts(compile(p.source, p.name, { ssa: 'braun' }).module);
      const mem2reg = phiCounts(compile(p.source, p.name, { ssa: 'alloca', mem2reg: true }).module);
      const raw = compile(p.source, p.name, { ssa: 'alloca' }).module;
      for (const fn of raw.functions) if (!fn.isDeclaration()) promoteMemoryToRegister(fn, computeDominators(fn), { simplifyPhis: false });
      const cytron = phiCounts(raw);
      expect(braunPlain).toEqual(cytron);
      if (FOLDING_REMOVES_MORE.has(p.name)) {
        let fewer = false;
        for (const f of Object.keys(mem2reg)) {
          expect(braunFold[f]).toBeLessThanOrEqual(mem2reg[f]);
          if (braunFold[f] < mem2reg[f]) fewer = true;
        }
        expect(fewer).toBe(true);
      } else {
        expect(braunFold).toEqual(mem2reg);
      }
    });
  }
});

describe('Braun mode makes no phi for a variable a statement does not assign', () => {
  // a is read in the loop and after the if, but neither assigns it; s is read after the if,
  // which does not assign it. Only the phis that stay are made: i and s at the loop header,
  // i at the join after the if (Brandis and Mössenböck's placement, src/frontend/sysy/assigned.ts).
  const src = `int main() {
  int a = getint(); int i = 0; int s = 0;
  while (i < 10) { s = s + a; i = i + 1; }
  if (s > 5) { i = 2; }
  putint(a + i + s);
  return 0;
}`;
  it('creates three phis and removes none', async () => {
    const { compileSysY } = await import('../../src/frontend/sysy/index.js');
    const r = compileSysY(src, 'loop.sy', { ssa: 'braun', fold: false });
    expect(r.stats).toMatchObject({ phisCreated: 3, phisRemoved: 0 });
    expect(phiCounts(r.module!)).toEqual({ main: 3 });
  });
});
