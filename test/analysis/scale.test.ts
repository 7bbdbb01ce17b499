/**
 * Scale: a straight line of 1,000,000 blocks and 10,000 nested loops go through every
 * analysis without overflowing the stack (everything is iterative) and in linear-ish time.
 */
import { describe, expect, it } from 'vitest';
import {
  CFG,
  computeDominators,
  controlDependence,
  findLoops,
  frontierOfTree,
  iteratedDominanceFrontier,
  liveness,
  postDominators,
} from '../../src/analysis/index.js';
import { BasicBlock, Function, IRBuilder, functionType, i1, voidType } from '../../src/ir/index.js';
import { verifyFunction } from '../../src/analysis/verifier.js';

function straightLine(n: number): Function {
  const fn = new Function('line', functionType(voidType, [i1]), ['c']);
  const blocks: BasicBlock[] = new Array(n);
  for (let i = 0; i < n; i++) blocks[i] = fn.appendBlock(new BasicBlock(''));
  const b = new IRBuilder();
  for (let i = 0; i < n - 1; i++) b.setInsertPoint(blocks[i]).br(blocks[i + 1]);
  b.setInsertPoint(blocks[n - 1]).ret();
  return fn;
}

/** entry -> H0 -> H1 -> ... -> H(k-1) -> L(k-1) -> ... -> L0 -> exit, with back edges L_i -> H_i. */
function nestedLoops(k: number): Function {
  const fn = new Function('nest', functionType(voidType, [i1]), ['c']);
  const entry = fn.appendBlock(new BasicBlock('entry'));
  const h: BasicBlock[] = [];
  const l: BasicBlock[] = [];
  for (let i = 0; i < k; i++) h.push(fn.appendBlock(new BasicBlock(`h${i}`)));
  for (let i = k - 1; i >= 0; i--) l[i] = fn.appendBlock(new BasicBlock(`l${i}`));
  const exit = fn.appendBlock(new BasicBlock('exit'));
  const b = new IRBuilder(entry);
  b.br(h[0]);
  for (let i = 0; i < k; i++) b.setInsertPoint(h[i]).br(i + 1 < k ? h[i + 1] : l[k - 1]);
  for (let i = k - 1; i >= 0; i--) b.setInsertPoint(l[i]).condBr(fn.args[0], h[i], i > 0 ? l[i - 1] : exit);
  b.setInsertPoint(exit).ret();
  return fn;
}

describe('scale', () => {
  it('1,000,000 blocks in a straight line', () => {
    const n = 1_000_000;
    const fn = straightLine(n);
    const cfg = new CFG(fn);
    for (const algorithm of ['chk', 'seminca'] as const) {
      const dt = computeDominators(cfg, { algorithm });
      expect(dt.idom[n - 1]).toBe(n - 2);
      expect(dt.depth[n - 1]).toBe(n - 1);
      expect(dt.dominates(0, n - 1)).toBe(true);
      expect(dt.nearestCommonDominator(10, n - 1)).toBe(10);
    }
    const dt = computeDominators(cfg);
    for (const algorithm of ['runner', 'cytron'] as const) expect(frontierOfTree(dt, { algorithm }).list.length).toBe(0);
    expect(iteratedDominanceFrontier(dt, [0, 500_000]).length).toBe(0);
    const pdt = postDominators(cfg);
    expect(pdt.ipdom(0)).toBe(1);
    expect(controlDependence(cfg, { postDomTree: pdt }).pdf.list.length).toBe(0);
    expect(findLoops(cfg, dt).loops.length).toBe(0);
    expect(liveness(cfg).liveIn(n - 1)).toEqual([]);
    expect(verifyFunction(fn)).toEqual([]);
    // (no timing assertion: timings live in bench/dominators.ts, the machine is shared)
  });

  it('10,000 nested loops', () => {
    const k = 10_000;
    const fn = nestedLoops(k);
    const cfg = new CFG(fn);
    const dt = computeDominators(cfg, { algorithm: 'chk' });
    const dt2 = computeDominators(cfg, { algorithm: 'seminca' });
    expect(Array.from(dt.idom)).toEqual(Array.from(dt2.idom));
    const li = findLoops(cfg, dt);
    expect(li.loops.length).toBe(k);
    const inner = li.loopFor(k)!; // h(k-1) has id k (entry is 0)
    expect(inner.depth).toBe(k);
    expect(inner.numBlocks).toBe(2);
    expect(li.topLevel.length).toBe(1);
    expect(li.topLevel[0].numBlocks).toBe(2 * k);
    let depth = 0;
    for (let l: typeof inner | null = inner; l !== null; l = l.parent) depth++;
    expect(depth).toBe(k);
    expect(li.irreducible).toBe(false);
    // The linear IDF, not the explicit frontiers: DF(h_i) = DF(l_i) = {h_0..h_i} here, so the
    // frontier sets alone hold k^2 = 10^8 entries (tested at k = 1000 below).
    // l(k-1) (id k+1) reaches every header through back edges: its IDF is every h_i (ids 1..k)
    expect(iteratedDominanceFrontier(dt, [k + 1])).toEqual(Int32Array.from({ length: k }, (_, i) => i + 1));
    expect(Array.from(iteratedDominanceFrontier(dt, [2 * k]))).toEqual([1]);
    const pdt = postDominators(cfg);
    expect(pdt.roots.length).toBe(1);
    expect(pdt.ipdom(1)).toBe(2);
    expect(liveness(cfg).liveIn(1).map((v) => v.name)).toEqual(['c']);
    expect(verifyFunction(fn)).toEqual([]);
  });

  it('frontiers and control dependence of 1,000 nested loops (quadratic-size output)', () => {
    const k = 1000;
    const cfg = new CFG(nestedLoops(k));
    const dt = computeDominators(cfg);
    const runner = frontierOfTree(dt, { algorithm: 'runner' });
    const cytron = frontierOfTree(dt, { algorithm: 'cytron' });
    expect(Array.from(cytron.list)).toEqual(Array.from(runner.list));
    expect(Array.from(runner.get(2 * k))).toEqual([1]); // l0 -> {h0}
    expect(runner.size(k)).toBe(k); // h(k-1): {h0..h(k-1)}
    const cd = controlDependence(cfg);
    // l(k-1) runs again whenever any l_j takes its back edge: it depends on every l_j (ids k+1..2k)
    expect(Array.from(cd.dependsOn(k + 1))).toEqual(Array.from({ length: k }, (_, i) => k + 1 + i));
  });
});
