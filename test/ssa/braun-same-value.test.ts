/**
 * Why mem2reg-braun can leave fewer phis than `opt-19 -passes=mem2reg` (7 fewer on Csmith
 * seeds 9100–9129: a web of two phis in seed 9114's func_5 and of five in seed 9128's func_1).
 * Cytron's placement, and LLVM's, puts a phi where two *stores* meet; Braun et al.'s
 * construction works on values, so a variable that is given the same value at two places
 * (q = &g before a loop and again inside it) is one value to it, and Algorithm 5 removes
 * the phi web that only ever carries it. The oracles: opt-19's NewGVN, which proves phi
 * cycles equal by value, removes the same phis from opt's mem2reg output, and lli-19 runs
 * both builds alike.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { verifyModule } from '../../src/analysis/verifier.js';
import type { Module } from '../../src/ir/module.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/index.js';
import { checkPreservesBehaviour } from '../helpers/differential.js';
import { clangToLL, hasLlvm, OPT, runTool } from '../helpers/llvm.js';

const SOURCE = `
#include <stdio.h>
int g = 7, h = 9;
int f(int n) {
  int *q = &g;
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i % 3 == 1) q = &g;   /* the same value again: a second store */
    else if (i % 5 == 4) s += *q;
    s += *q;
  }
  return s + *q;
}
int main(void) { printf("%d\\n", f(20)); return 0; }
`;

const ptrPhis = (m: Module, fn: string): number => m.getFunction(fn)!.instructions().filter((i) => i.opcodeName === 'phi' && i.type.toString() === 'ptr').length;

// Reason for runIf: clang-19 makes the input, opt-19 and lli-19 are the oracles.
describe.runIf(hasLlvm())('mem2reg-braun: the same value stored twice', () => {
  it('leaves no phi for q where opt-19 mem2reg places a web of them, which opt-19 newgvn then removes; lli-19 agrees', () => {
    const raw = clangToLL(SOURCE, 'O0', [], 'same-value');
    const opt = runTool(OPT, ['-passes=mem2reg', '-S', raw]);
    expect(opt.status, opt.stderr).toBe(0);
    const llvmKeeps = ptrPhis(parseModule(opt.stdout.toString(), 'opt'), 'f');
    expect(llvmKeeps).toBeGreaterThanOrEqual(2);
    const gvn = runTool(OPT, ['-passes=mem2reg,newgvn', '-S', raw]);
    expect(gvn.status, gvn.stderr).toBe(0);
    expect(ptrPhis(parseModule(gvn.stdout.toString(), 'gvn'), 'f')).toBe(0);

    for (const pipeline of ['mem2reg-braun', 'mem2reg-braun<marker>']) {
      const m = parseModule(readFileSync(raw, 'utf8'), 'braun');
      runPipeline(m, pipeline, { verifyEach: true });
      expect(verifyModule(m).map((e) => e.message)).toEqual([]);
      expect(ptrPhis(m, 'f'), pipeline).toBe(0);
    }
    // without Algorithm 5 the construction keeps the web: the SCC step removes it
    const noScc = parseModule(readFileSync(raw, 'utf8'), 'no-scc');
    runPipeline(noScc, 'mem2reg-braun<no-scc>', { verifyEach: true });
    expect(ptrPhis(noScc, 'f')).toBe(llvmKeeps);
    checkPreservesBehaviour(SOURCE, 'same-value', 'mem2reg-braun');
  });
});
