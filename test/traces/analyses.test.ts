/**
 * Traces of the analyses on the literature's worked examples, and replay properties: a
 * trace, read back, gives the algorithm's result.
 *
 * - CHK iterative dominators on the B0-B8 graph of Engineering a Compiler (§9.2, Figure 9.2):
 *   in reverse postorder the first round already finds every Dom set, the second changes
 *   nothing, so the algorithm stops after two rounds — the table the book prints.
 * - Cytron et al.'s Figure 11 worklist on their 12-node program (Figure 5; the variable
 *   assigned in Entry, N1, N3 and N7): phis at N2, N8 and Exit.
 * - Sreedhar-Gao on B0-B8 with --defs=B6,B2 (the issue's report): no block walked twice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CFG, computeDominators, iteratedDominanceFrontier } from '../../src/analysis/index.js';
import { blockNames } from '../../src/analysis/report.js';
import type { TraceEvent } from '../../src/analysis/trace.js';
import { traceDominatorsCHK, traceIdfEvents } from '../../src/analysis/trace-analyses.js';
import { parseModule } from '../../src/text/index.js';
import { buildCfgFunction } from '../analysis/cfg-builder.js';
import { arbCfg, naiveDominators } from '../analysis/naive.js';

const FIX = join(__dirname, '../analysis/fixtures');
const load = (file: string) => parseModule(readFileSync(join(FIX, file), 'utf8'), file).definedFunctions()[0];
const sorted = (xs: Iterable<string>) => [...xs].sort();

describe('CHK iterative dominators', () => {
  it('B0-B8 (Engineering a Compiler, Figure 9.2): round 1 finds every Dom set, round 2 confirms', () => {
    const ev = traceDominatorsCHK(load('textbook.ll'));
    const rounds = ev.filter((e) => e.kind === 'round');
    expect(rounds.length).toBe(2);
    expect(rounds.map((r) => r.data!.changed)).toEqual([true, false]);
    const want: Record<string, string[]> = {
      B0: ['B0'], B1: ['B0', 'B1'], B2: ['B0', 'B1', 'B2'], B3: ['B0', 'B1', 'B3'], B4: ['B0', 'B1', 'B3', 'B4'],
      B5: ['B0', 'B1', 'B5'], B6: ['B0', 'B1', 'B5', 'B6'], B7: ['B0', 'B1', 'B5', 'B7'], B8: ['B0', 'B1', 'B5', 'B8'],
    };
    for (const r of rounds) {
      const dom = r.data!.dom as Record<string, string[]>;
      for (const [b, d] of Object.entries(want)) expect(sorted(dom[b])).toEqual(d);
    }
    // B1 is visited before its back-edge predecessor B3 is processed: the paper's "skip
    // predecessors not yet processed"
    expect(ev.find((e) => e.kind === 'node')!.text).toContain('B3 (not yet processed, skipped)');
  });

  it("replay: the last round's Dom sets are the set-based dominators, on random CFGs", () => {
    fc.assert(
      fc.property(arbCfg(14), (c) => {
        const fn = buildCfgFunction(c.succs.map((_, i) => `b${i}`), c.succs);
        const cfg = new CFG(fn);
        const sets = naiveDominators(cfg);
        const names = blockNames(fn);
        const rounds = traceDominatorsCHK(fn).filter((e) => e.kind === 'round');
        expect(rounds.at(-1)!.data!.changed).toBe(false);
        const dom = rounds.at(-1)!.data!.dom as Record<string, string[]>;
        for (let v = 0; v < cfg.n; v++) {
          if (sets[v] === null) continue;
          expect(sorted(dom[names[v]])).toEqual(sorted([...sets[v]!].map((x) => names[x])));
        }
      }),
      { numRuns: 150 },
    );
  });
});

function idfOf(ev: TraceEvent[]): string[][] {
  return ev.filter((e) => e.kind === 'result').map((e) => sorted(e.data!.idf as string[]));
}

describe("Cytron et al.'s worklist (Figure 11)", () => {
  it('the 12-node program, a variable assigned in Entry, N1, N3 and N7: phis at N2, N8, Exit', () => {
    const ev = traceIdfEvents(load('cytron.ll'), 'cytron', { defs: ['Entry', 'N1', 'N3', 'N7'] });
    expect(idfOf(ev)).toEqual([['Exit', 'N2', 'N8']]);
    const init = ev.find((e) => e.kind === 'init')!;
    expect(sorted(init.data!.W as string[])).toEqual(['Entry', 'N1', 'N3', 'N7']);
    // every block leaves W once; a phi is placed once per block (HasAlready)
    const taken = ev.filter((e) => e.kind === 'take').map((e) => e.data!.block as string);
    expect(new Set(taken).size).toBe(taken.length);
    expect(sorted(taken)).toEqual(['Entry', 'Exit', 'N1', 'N2', 'N3', 'N7', 'N8']);
    const placed = ev.filter((e) => e.kind === 'join' && String(e.data!.decision).startsWith('phi')).map((e) => e.data!.block as string);
    expect(sorted(placed)).toEqual(['Exit', 'N2', 'N8']);
    // N8 is reached from N3 and from N7: the second time HasAlready stops it
    expect(ev.some((e) => e.kind === 'join' && e.data!.block === 'N8' && e.data!.decision === 'has-already')).toBe(true);
  });

  it('replay: the blocks that get a phi in the trace are the IDF, both algorithms, random CFGs', () => {
    fc.assert(
      fc.property(arbCfg(14), fc.array(fc.nat(13), { minLength: 1, maxLength: 4 }), (c, picks) => {
        const fn = buildCfgFunction(c.succs.map((_, i) => `b${i}`), c.succs);
        const cfg = new CFG(fn);
        const dt = computeDominators(cfg);
        const names = blockNames(fn);
        const defs = [...new Set(picks.map((p) => p % c.n))].filter((v) => dt.depth[v] >= 0);
        if (defs.length === 0) return;
        const want = sorted(Array.from(iteratedDominanceFrontier(dt, defs), (v) => names[v]));
        const d = defs.map((v) => names[v]);
        const cy = traceIdfEvents(fn, 'cytron', { defs: d });
        const placed = cy.filter((e) => e.kind === 'join' && String(e.data!.decision).startsWith('phi')).map((e) => e.data!.block as string);
        expect(sorted(placed)).toEqual(want);
        expect(idfOf(cy)).toEqual([want]);
        // Sreedhar-Gao: the IDF line, and every block walked at most once
        const sg = traceIdfEvents(fn, 'sreedhar-gao', { defs: d });
        const walked = sg.filter((e) => e.text.startsWith('  (walked ')).flatMap((e) => e.text.slice('  (walked '.length, -1).split(', '));
        expect(new Set(walked).size).toBe(walked.length);
        expect(sg.at(-1)!.text).toBe(`IDF = {${want.slice().sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))).join(', ')}}`);
      }),
      { numRuns: 200 },
    );
  });
});

describe('Sreedhar and Gao (idf-sg)', () => {
  it('B0-B8 with defs B6, B2: B7 and B3 are walked as roots and never again under B1', () => {
    const ev = traceIdfEvents(load('textbook.ll'), 'sreedhar-gao', { defs: ['B6', 'B2'] });
    const text = ev.map((e) => e.text);
    expect(text).toContain('pop B1 (level 1): walk its dominator subtree');
    const walks = text.filter((l) => l.startsWith('  (walked '));
    expect(walks).toEqual(['  (walked B6)', '  (walked B7)', '  (walked B3, B4)', '  (walked B2)', '  (walked B1, B5, B8)']);
    expect(text.at(-1)).toBe('IDF = {B1, B3, B7}');
  });
});

describe('data-flow solver rounds', () => {
  it('replay: the fixed point the trace reports is the analysis result (liveness, reaching definitions, available expressions)', async () => {
    const { traceDataflowEvents } = await import('../../src/analysis/trace-analyses.js');
    const { liveness } = await import('../../src/analysis/dataflow/liveness.js');
    const { reachingDefinitions } = await import('../../src/analysis/dataflow/reaching-definitions.js');
    const { availableExpressions } = await import('../../src/analysis/dataflow/available-expressions.js');
    const { readdirSync } = await import('node:fs');
    const { compileSysY } = await import('../../src/frontend/sysy/index.js');
    const dir = join(__dirname, '../sysy');
    let checked = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.sy')).sort().slice(0, 8)) {
      for (const ssa of ['braun', 'alloca'] as const) {
        const m = compileSysY(readFileSync(join(dir, file), 'utf8'), file, { ssa }).module!;
        for (const fn of m.definedFunctions()) {
          const cfg = new CFG(fn);
          const names = blockNames(fn);
          const fix = (p: 'liveness' | 'reaching-defs' | 'available-exprs') => {
            const ev = traceDataflowEvents(fn, p);
            const rounds = ev.filter((e) => e.kind === 'round').length;
            const done = ev.at(-1)!;
            expect(done.kind).toBe('fixpoint');
            expect(done.data!.rounds).toBe(rounds);
            // every visit is recorded, and the last visit of a block shows its final sets
            expect(ev.filter((e) => e.kind === 'visit').length).toBe(done.data!.visits);
            return done.data!.sets as Record<string, { in: string[]; out: string[] }>;
          };
          const live = liveness(cfg);
          const ls = fix('liveness');
          for (const b of cfg.order) expect(ls[names[b]].in.length).toBe(live.liveIn(b).length);
          const rd = reachingDefinitions(cfg);
          const rs = fix('reaching-defs');
          for (const b of cfg.order) expect(rs[names[b]].out.length).toBe(rd.reachOut(b).length);
          const av = availableExpressions(cfg);
          const as = fix('available-exprs');
          for (const b of cfg.order) expect(as[names[b]].in.length).toBe(av.in(b).length);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(8);
  });
});

describe('Semi-NCA', () => {
  it('B0-B8: the semidominators and idoms of the trace', async () => {
    const { traceDominatorsSemiNCA } = await import('../../src/analysis/trace-analyses.js');
    const ev = traceDominatorsSemiNCA(load('textbook.ll'));
    const sdom = Object.fromEntries(ev.filter((e) => e.kind === 'semi').map((e) => [e.data!.node, e.data!.sdom]));
    // B3 is reached from B2 (number 3) and, through B7, B6, B5 (numbers above B3's), from B1
    expect(sdom).toEqual({ B1: 'B0', B2: 'B1', B3: 'B1', B4: 'B3', B5: 'B1', B6: 'B5', B7: 'B5', B8: 'B5' });
  });

  it('replay on random CFGs: semidominators by their path definition, idoms equal the set-based ones', async () => {
    const { traceDominatorsSemiNCA } = await import('../../src/analysis/trace-analyses.js');
    const { idomFromSets } = await import('../analysis/naive.js');
    fc.assert(
      fc.property(arbCfg(12), (c) => {
        const fn = buildCfgFunction(c.succs.map((_, i) => `b${i}`), c.succs);
        const cfg = new CFG(fn);
        const names = blockNames(fn);
        const ev = traceDominatorsSemiNCA(fn);
        const pre = new Map<number, number>();
        Array.from(cfg.dfs.preorder).forEach((b, k) => pre.set(b, k));
        for (const e of ev.filter((x) => x.kind === 'semi')) {
          const w = names.indexOf(e.data!.node as string);
          // the smallest-numbered v with a path v -> … -> w whose inner nodes are numbered above w
          let best = -1;
          for (const [v, nv] of pre) {
            if (nv >= pre.get(w)! || (best >= 0 && nv >= pre.get(best)!)) continue;
            const seen = new Set<number>();
            const stack = [...c.succs[v]];
            let found = false;
            while (stack.length > 0 && !found) {
              const x = stack.pop()!;
              if (x === w) found = true;
              else if ((pre.get(x) ?? -1) > pre.get(w)! && !seen.has(x)) {
                seen.add(x);
                stack.push(...c.succs[x]);
              }
            }
            if (found) best = v;
          }
          expect(e.data!.sdom).toBe(names[best]);
        }
        const want = idomFromSets(naiveDominators(cfg), cfg.root);
        for (const e of ev.filter((x) => x.kind === 'idom')) expect(e.data!.idom).toBe(names[want[names.indexOf(e.data!.node as string)]]);
      }),
      { numRuns: 150 },
    );
  });
});
