/**
 * Cytron et al.'s phi placement in its three textbook variants (mem2reg<minimal>,
 * mem2reg<semi-pruned>, mem2reg<pruned>; plain mem2reg is LLVM's, with its fast paths) against a naive reference built from the
 * definitions on random CFGs with random loads and stores:
 *   minimal      |DF+(defs)|                                 (Cytron et al. 1991, §5.1)
 *   semi-pruned  |DF+(defs)| if the variable is live on entry to some block, else 0
 *                                                             (Briggs et al. 1998)
 *   pruned       |DF+(defs) ∩ LiveIn|                         (Choi, Cytron, Ferrante 1991)
 * with DF+ the fixed point of the set-based frontier and LiveIn the path definition
 * (a load reachable from the block's entry without a store on the way). Unreachable
 * blocks take no part. The counts are ordered minimal ≥ semi-pruned ≥ pruned.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CFG, computeDominators } from '../../src/analysis/index.js';
import { verifyFunction } from '../../src/analysis/verifier.js';
import { parseModule } from '../../src/text/index.js';
import { type PhiPlacement, promoteMemoryToRegister } from '../../src/transforms/ssa/mem2reg.js';
import { runPipeline } from '../../src/passes/index.js';
import { naiveDominators, naiveFrontier, naiveIdf, reachable } from '../analysis/naive.js';

import { V, arbProgram, text, type Program } from './random-programs.js';

function reference(p: Program): Record<PhiPlacement, number> {
  const fn = parseModule(text(p), 'ref').definedFunctions()[0];
  const cfg = new CFG(fn);
  const reach = reachable(cfg);
  const df = naiveFrontier(cfg, naiveDominators(cfg));
  const n = p.succs.length;
  const out = { minimal: 0, 'semi-pruned': 0, pruned: 0 };
  for (let v = 0; v < V; v++) {
    const defs: number[] = [];
    const upward = new Array<boolean>(n).fill(false);
    const stores = new Array<boolean>(n).fill(false);
    for (let b = 0; b < n; b++) {
      if (!reach[b]) continue;
      const mine = p.acc[b].filter(([x]) => x === v);
      if (mine.some(([, st]) => st)) {
        defs.push(b);
        stores[b] = true;
      }
      if (mine.length > 0 && !mine[0][1]) upward[b] = true;
    }
    // LiveIn by its path definition, as a fixed point
    const live = upward.slice();
    for (let changed = true; changed; ) {
      changed = false;
      for (let b = 0; b < n; b++) {
        if (live[b] || stores[b] || !reach[b]) continue;
        if (p.succs[b].some((s) => live[s])) {
          live[b] = true;
          changed = true;
        }
      }
    }
    const idf = naiveIdf(df, defs).filter((b) => reach[b]);
    out.minimal += idf.length;
    if (upward.some((u) => u)) out['semi-pruned'] += idf.length;
    out.pruned += idf.filter((b) => live[b]).length;
  }
  return out;
}

function placed(p: Program, placement: PhiPlacement): number {
  const fn = parseModule(text(p), 'mem2reg').definedFunctions()[0];
  const s = promoteMemoryToRegister(fn, computeDominators(fn), { placement, simplifyPhis: false });
  expect(verifyFunction(fn)).toEqual([]);
  return s.phisInserted - s.phisRemoved;
}

describe('phi placement: minimal, semi-pruned, pruned', () => {
  it('equal the naive reference and are ordered, on random CFGs with random loads and stores', () => {
    fc.assert(
      fc.property(arbProgram(), (p) => {
        const want = reference(p);
        const got = { minimal: placed(p, 'minimal'), 'semi-pruned': placed(p, 'semi-pruned'), pruned: placed(p, 'pruned') };
        expect(got).toEqual(want);
        expect(got.minimal).toBeGreaterThanOrEqual(got['semi-pruned']);
        expect(got['semi-pruned']).toBeGreaterThanOrEqual(got.pruned);
      }),
      { numRuns: 300 },
    );
  });

  it('mem2reg<minimal> and mem2reg<semi-pruned> run as passes; a bad parameter is an error', () => {
    // x is stored in both arms and never read: minimal places a dead phi at the join,
    // semi-pruned and pruned none (x is never live on entry to a block)
    const src = `define void @g(i1 %c) {
entry:
  %x = alloca i32
  br i1 %c, label %a, label %b
a:
  store i32 1, ptr %x
  br label %j
b:
  store i32 2, ptr %x
  br label %j
j:
  ret void
}
`;
    const phis = (pipeline: string): number => {
      const m = parseModule(src, 'g');
      runPipeline(m, pipeline);
      return m.definedFunctions()[0].instructions().filter((i) => i.opcodeName === 'phi').length;
    };
    expect(phis('mem2reg<minimal>')).toBe(1);
    expect(phis('mem2reg<semi-pruned>')).toBe(0);
    expect(phis('mem2reg<pruned>')).toBe(0);
    expect(phis('mem2reg')).toBe(0);
    expect(() => phis('mem2reg<bogus>')).toThrow(/mem2reg<bogus>/);
  });
});
