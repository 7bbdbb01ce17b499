/**
 * The playground's Braun et al. examples (web/examples/braun-*.sy) do what their comments
 * say: the redundant-SCC ones make a web of phis only Algorithm 5 removes (the construction
 * with trivial-phi removal keeps as many phis as Cytron's mem2reg, the pass removes the web),
 * and the frontend's Braun mode, which runs Algorithm 5 itself, ends with the same count;
 * the while loop's header is read before it is sealed. The programs' output is unchanged.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyModule } from '../../src/analysis/verifier.js';
import type { Module } from '../../src/ir/module.js';
import { runPipeline } from '../../src/passes/index.js';
import { compileSysY } from '../../src/frontend/sysy/index.js';
import { traceBraunEvents } from '../../src/transforms/ssa/mem2reg-braun-trace.js';
import { interpret } from '../sysy-ir/harness.js';

const phis = (m: Module): number => m.functions.reduce((n, f) => n + f.instructions().filter((i) => i.opcodeName === 'phi').length, 0);
const alloca = (path: string): Module => compileSysY(readFileSync(path, 'utf8'), path, { ssa: 'alloca' }).module!;

describe("the playground's Braun et al. examples", () => {
  for (const [name, stdin, cytron, web] of [
    ['braun-redundant', '3', 10, 6],
    ['braun-copies', '7', 5, 4],
  ] as const) {
    it(`${name}: a web of ${web} phis that trivial-phi removal keeps and Algorithm 5 removes`, () => {
      const path = `web/examples/${name}.sy`;
      const m1 = alloca(path);
      runPipeline(m1, 'mem2reg', { verifyEach: true });
      expect(phis(m1)).toBe(cytron);
      const m2 = alloca(path);
      const pm = runPipeline(m2, 'mem2reg-braun<no-scc>,redundant-phis', { verifyEach: true });
      expect(pm.stats.get('redundant-phis')?.get('phis removed as redundant')).toBe(web);
      expect(phis(m2)).toBe(cytron - web);
      const braun = compileSysY(readFileSync(path, 'utf8'), path, { ssa: 'braun' }).module!;
      expect(verifyModule(braun).map((e) => e.message)).toEqual([]);
      expect(phis(braun)).toBe(cytron - web);
      const main = alloca(path).getFunction('main')!;
      expect(traceBraunEvents(main, 'phi-first').map((e) => e.text)).toContainEqual(expect.stringMatching(new RegExp(`^SCC \\{.*\\}: outer operands \\{%0\\}: redundant`)));
      expect(interpret(m2, stdin)).toBe(interpret(alloca(path), stdin));
    });
  }

  it('braun-while: the loop header is read before its back edge is known (an incomplete phi, completed at sealBlock)', () => {
    const main = alloca('web/examples/braun-while.sy').getFunction('main')!;
    const kinds = traceBraunEvents(main, 'phi-first').map((e) => e.kind);
    expect(kinds).toContain('incomplete-phi');
    expect(kinds.indexOf('incomplete-phi')).toBeLessThan(kinds.lastIndexOf('seal'));
  });
});
