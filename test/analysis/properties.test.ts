/**
 * Property tests on random CFGs (irreducible ones, unreachable blocks and infinite loops
 * included): every algorithm against the textbook definition and against its alternative.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CFG,
  CsrGraph,
  LineTracer,
  computeDominators,
  controlDependence,
  findLoops,
  frontierOfTree,
  iteratedDominanceFrontier,
  postDominators,
} from '../../src/analysis/index.js';
import { buildCfgFunction } from './cfg-builder.js';
import { RandomCfg, arbCfg, hasCycleWithout, idomFromSets, naiveDominators, naiveFrontier, naiveIdf, reachable } from './naive.js';

const RUNS = 300;

function build(c: RandomCfg): CFG {
  return new CFG(buildCfgFunction(c.succs.map((_, i) => `b${i}`), c.succs));
}

describe('dominators', () => {
  it('CHK and Semi-NCA agree with each other and with dom(n) = {n} ∪ ⋂ dom(preds)', () => {
    fc.assert(
      fc.property(arbCfg(), (c) => {
        const cfg = build(c);
        const chk = computeDominators(cfg, { algorithm: 'chk' });
        const snca = computeDominators(cfg, { algorithm: 'seminca' });
        expect(Array.from(chk.idom)).toEqual(Array.from(snca.idom));
        const sets = naiveDominators(cfg);
        expect(Array.from(chk.idom)).toEqual(idomFromSets(sets, cfg.root));
        // O(1) dominates() agrees with the sets
        for (let a = 0; a < cfg.n; a++) {
          for (let b = 0; b < cfg.n; b++) {
            if (sets[b] === null) continue;
            expect(snca.dominates(a, b)).toBe(sets[b]!.has(a));
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('nearestCommonDominator is the deepest common element of the dominator sets', () => {
    fc.assert(
      fc.property(arbCfg(), fc.nat(), fc.nat(), (c, x, y) => {
        const cfg = build(c);
        const dt = computeDominators(cfg);
        const a = x % cfg.n;
        const b = y % cfg.n;
        const sets = naiveDominators(cfg);
        if (sets[a] === null || sets[b] === null) {
          expect(dt.nearestCommonDominator(a, b)).toBe(-1);
          return;
        }
        const common = [...sets[a]!].filter((d) => sets[b]!.has(d));
        const deepest = common.reduce((p, d) => (sets[d]!.size > sets[p]!.size ? d : p));
        expect(dt.nearestCommonDominator(a, b)).toBe(deepest);
      }),
      { numRuns: RUNS },
    );
  });

  it('tree depth, children and DFS intervals are consistent', () => {
    fc.assert(
      fc.property(arbCfg(), (c) => {
        const cfg = build(c);
        const dt = computeDominators(cfg);
        for (let v = 0; v < cfg.n; v++) {
          if (!dt.isReachable(v)) continue;
          for (const ch of dt.children(v)) {
            expect(dt.idom[ch]).toBe(v);
            expect(dt.depth[ch]).toBe(dt.depth[v] + 1);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('dominance frontiers', () => {
  it('runner and Cytron agree with DF(x) = {y : x dom pred(y), not x sdom y}', () => {
    fc.assert(
      fc.property(arbCfg(), (c) => {
        const cfg = build(c);
        const dt = computeDominators(cfg);
        const want = naiveFrontier(cfg, naiveDominators(cfg));
        for (const algorithm of ['runner', 'cytron'] as const) {
          const df = frontierOfTree(dt, { algorithm });
          for (let x = 0; x < cfg.n; x++) expect(Array.from(df.get(x))).toEqual(want[x]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('IDF equals the fixed point of DF over the set; pruning keeps only live-in blocks', () => {
    fc.assert(
      fc.property(arbCfg(), fc.array(fc.nat(), { maxLength: 6 }), fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }), (c, picks, liveMask) => {
        const cfg = build(c);
        const dt = computeDominators(cfg);
        const reach = reachable(cfg);
        const defs = [...new Set(picks.map((p) => p % cfg.n))].filter((v) => reach[v]);
        const df = naiveFrontier(cfg, naiveDominators(cfg));
        const want = naiveIdf(df, defs);
        expect(Array.from(iteratedDominanceFrontier(dt, defs))).toEqual(want);
        const all = Array.from({ length: cfg.n }, (_, i) => i);
        expect(Array.from(iteratedDominanceFrontier(dt, defs, all))).toEqual(want);
        const live = all.filter((v) => liveMask[v]);
        const pruned = Array.from(iteratedDominanceFrontier(dt, defs, live));
        for (const v of pruned) expect(liveMask[v] && want.includes(v)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('IDF worklist order', () => {
  it('pops queued blocks deepest dominator-tree level first, as LLVM does', () => {
    fc.assert(
      fc.property(arbCfg(), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), (c, picks) => {
        const cfg = build(c);
        const dt = computeDominators(cfg);
        const reach = reachable(cfg);
        const defs = [...new Set(picks.map((p) => p % cfg.n))].filter((v) => reach[v]);
        const t = new LineTracer((v) => `b${v}`);
        iteratedDominanceFrontier(dt, defs, null, { trace: t });
        const levels = t.lines.filter((l) => l.startsWith('pop ')).map((l) => Number(/level (\d+)/.exec(l)![1]));
        for (let i = 1; i < levels.length; i++) expect(levels[i]).toBeLessThanOrEqual(levels[i - 1]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('post-dominators and control dependence', () => {
  it('equal the dominators of the reversed graph (virtual exit -> roots), by both algorithms', () => {
    fc.assert(
      fc.property(arbCfg(), (c) => {
        const cfg = build(c);
        const pdt = postDominators(cfg, { algorithm: 'seminca' });
        const pdt2 = postDominators(cfg, { algorithm: 'chk' });
        expect(Array.from(pdt2.idom)).toEqual(Array.from(pdt.idom));
        // every block is in the tree; every block without successors is a root
        for (const b of cfg.order) {
          expect(pdt.isReachable(b)).toBe(true);
          if (cfg.numSuccessors(b) === 0) expect(Array.from(pdt.roots)).toContain(b);
        }
        // independent construction of the reversed graph
        const n = cfg.n;
        const edges: number[] = [];
        for (let u = 0; u < n; u++) for (const v of cfg.successors(u)) edges.push(v, u);
        for (const r of pdt.roots) edges.push(n, r);
        const rev = CsrGraph.fromEdges(n + 1, n, edges);
        const sets = naiveDominators(rev);
        expect(Array.from(pdt.idom)).toEqual(idomFromSets(sets, n));
        // roots: no root reaches another one, and no non-trivial root is redundant
        for (const r of pdt.roots) {
          const seen = new Set<number>();
          const st = [...cfg.successors(r)];
          while (st.length) {
            const v = st.pop()!;
            if (seen.has(v)) continue;
            seen.add(v);
            st.push(...cfg.successors(v));
          }
          for (const r2 of pdt.roots) if (r2 !== r) expect(seen.has(r2)).toBe(false);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('control dependence: X ∈ cdeps(Y) iff Y post-dominates a successor of X and not X strictly', () => {
    fc.assert(
      fc.property(arbCfg(), (c) => {
        const cfg = build(c);
        const cd = controlDependence(cfg);
        const pdt = cd.postDomTree;
        for (const y of cfg.order) {
          const want: number[] = [];
          for (const x of cfg.order) {
            const viaSucc = Array.from(cfg.successors(x)).some((s) => pdt.postDominates(y, s));
            if (viaSucc && !pdt.strictlyDominates(y, x)) want.push(x);
          }
          expect(Array.from(cd.dependsOn(y))).toEqual(want.sort((a, b) => a - b));
        }
        // runner and Cytron give the same post-dominance frontiers
        const cd2 = controlDependence(cfg, { algorithm: 'cytron' });
        expect(Array.from(cd2.pdf.list)).toEqual(Array.from(cd.pdf.list));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('loops', () => {
  it('natural loops: headers dominate latches and bodies; bodies match the backward walk; nesting is consistent', () => {
    fc.assert(
      fc.property(arbCfg(), (c) => {
        const cfg = build(c);
        const dt = computeDominators(cfg);
        const li = findLoops(cfg, dt);
        // reference: union of natural loops of back edges u -> h (h dom u), per header
        const want = new Map<number, Set<number>>();
        for (const u of cfg.order) {
          if (!dt.isReachable(u)) continue;
          for (const h of cfg.successors(u)) {
            if (!dt.dominates(h, u)) continue;
            let body = want.get(h);
            if (!body) want.set(h, (body = new Set([h])));
            const st = [u];
            while (st.length) {
              const v = st.pop()!;
              if (body.has(v)) continue;
              body.add(v);
              for (const p of cfg.predecessors(v)) if (dt.isReachable(p)) st.push(p);
            }
          }
        }
        expect(li.loops.length).toBe(want.size);
        for (const l of li.loops) {
          const body = want.get(l.header)!;
          expect(Array.from(l.blocks()).sort((a, b) => a - b)).toEqual([...body].sort((a, b) => a - b));
          expect(l.numBlocks).toBe(body.size);
          for (const b of l.blocks()) {
            expect(dt.dominates(l.header, b)).toBe(true);
            expect(l.contains(b)).toBe(true);
          }
          const latches = Array.from(l.latches());
          expect(latches.length).toBeGreaterThan(0);
          for (const t of latches) expect(dt.dominates(l.header, t)).toBe(true);
          if (l.parent !== null) {
            expect(l.depth).toBe(l.parent.depth + 1);
            expect(l.parent.containsLoop(l)).toBe(true);
            for (const b of l.blocks()) expect(l.parent.contains(b)).toBe(true);
          } else expect(l.depth).toBe(1);
          const ph = l.preheader();
          if (ph >= 0) {
            expect(l.contains(ph)).toBe(false);
            expect(Array.from(cfg.successors(ph))).toEqual([l.header]);
          }
          for (const e of l.exitBlocks()) expect(l.contains(e)).toBe(false);
        }
        // innermost loop = the smallest loop containing the block
        for (const b of cfg.order) {
          const containing = li.loops.filter((l) => l.contains(b));
          const inner = li.loopFor(b);
          if (containing.length === 0) expect(inner).toBeNull();
          else expect(inner!.numBlocks).toBe(Math.min(...containing.map((l) => l.numBlocks)));
          expect(li.loopDepth(b)).toBe(containing.length);
        }
        // irreducible iff the reachable CFG without back edges still has a cycle
        expect(li.irreducible).toBe(hasCycleWithout(cfg, (u, v) => dt.dominates(v, u)));
        for (const region of li.irreducibleRegions) {
          expect(region.length).toBeGreaterThan(1);
          // several entries: blocks of the region with a predecessor outside it (or the entry)
          const inside = new Set(region);
          const entries = region.filter((b) => b === cfg.root || Array.from(cfg.predecessors(b)).some((p) => !inside.has(p) && dt.isReachable(p)));
          expect(entries.length).toBeGreaterThan(1);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('finds irreducible loops in the classic two-entry cycle', () => {
    const cfg = build({ n: 4, succs: [[1, 2], [2, 3], [1], []] });
    const li = findLoops(cfg);
    expect(li.irreducible).toBe(true);
    expect(li.loops.length).toBe(0);
    expect(li.irreducibleRegions.map((r) => Array.from(r))).toEqual([[1, 2]]);
  });
});
