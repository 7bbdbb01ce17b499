/**
 * Braun et al.'s construction (CC 2013), traced through mem2reg-braun on graphs whose steps
 * were worked out by hand from Algorithms 1-4 (the fixtures say how), and a replay property.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSysY } from '../../src/frontend/sysy/index.js';
import { parseModule } from '../../src/text/index.js';
import { traceBraunEvents } from '../../src/transforms/ssa/mem2reg-braun-trace.js';

const FIX = join(__dirname, 'fixtures');
const load = (file: string) => parseModule(readFileSync(join(FIX, file), 'utf8'), file).definedFunctions()[0];

describe("Braun et al.'s construction", () => {
  it('a phi made non-trivial by incomplete phis goes when its operand does (tryRemoveTrivialPhi re-examines users)', () => {
    const ev = traceBraunEvents(load('braun-users.ll'));
    const steps = ev.filter((e) => ['incomplete-phi', 'phi', 'seal', 'keep', 'trivial'].includes(e.kind)).map((e) => `${e.kind} ${(e.data!.phi ?? e.data!.block) as string}`);
    expect(steps).toEqual([
      'seal entry',
      // filling I fills the last predecessor of L and of J: both sealed before J is filled
      'seal L',
      'seal J',
      'phi φ1(x@J)',
      'incomplete-phi φ2(x@O)',
      'incomplete-phi φ3(x@I)',
      'keep φ1(x@J)',
      'seal I',
      'trivial φ3(x@I)',
      'trivial φ1(x@J)',
      'seal O',
      'trivial φ2(x@O)',
    ]);
    const reexamine = ev.find((e) => e.kind === 'trivial' && e.data!.phi === 'φ3(x@I)')!;
    expect(reexamine.data!.users).toEqual(['φ1(x@J)']);
    expect(reexamine.data!.replacement).toBe('φ2(x@O)');
    expect(ev.find((e) => e.kind === 'trivial' && e.data!.phi === 'φ2(x@O)')!.data!.replacement).toBe('1');
    expect(ev.at(-1)!.text).toContain('ret i32 1');
    expect(ev.at(-1)!.text).not.toContain('phi');
  });

  it('nested loops: the phi read through an unsealed header is incomplete until sealBlock, then trivial', () => {
    const ev = traceBraunEvents(load('braun-nested.ll'));
    const kinds = ev.filter((e) => (['incomplete-phi', 'operand', 'trivial'].includes(e.kind) || (e.kind === 'seal' && (e.data!.incomplete as string[]).length > 0))).map((e) => e.text.trim());
    expect(kinds).toEqual([
      'outer is not sealed: incomplete phi φ1(x@outer), completed when outer is sealed',
      'inner is not sealed: incomplete phi φ2(x@inner), completed when inner is sealed',
      'sealBlock(inner): predecessors outer, inner all known; complete φ2(x@inner)',
      'φ2(x@inner) gets [φ1(x@outer), outer]',
      'φ2(x@inner) gets [φ2(x@inner), inner]',
      'tryRemoveTrivialPhi(φ2(x@inner)): operands [φ1(x@outer), φ2(x@inner)] are only itself and φ1(x@outer): replaced by φ1(x@outer)',
      'sealBlock(outer): predecessors entry, inner all known; complete φ1(x@outer)',
      'φ1(x@outer) gets [1, entry]',
      'φ1(x@outer) gets [φ1(x@outer), inner]',
      'tryRemoveTrivialPhi(φ1(x@outer)): operands [1, φ1(x@outer)] are only itself and 1: replaced by 1',
    ]);
  });

  it('replay: phis created minus phis removed in the trace are the phis of the result, on SysY programs', () => {
    const dir = join(__dirname, '../sysy');
    let n = 0;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.sy')).sort().slice(0, 15)) {
      const m = compileSysY(readFileSync(join(dir, f), 'utf8'), f, { ssa: 'alloca' }).module!;
      for (const fn of m.definedFunctions()) {
        const ev = traceBraunEvents(fn);
        const created = ev.filter((e) => e.kind === 'phi' || e.kind === 'incomplete-phi').length;
        const removed = ev.filter((e) => e.kind === 'trivial').length;
        const left = (ev.at(-1)!.text.match(/ = phi /g) ?? []).length;
        expect(created - removed).toBe(left);
        // every incomplete phi is completed by a sealBlock
        const incomplete = ev.filter((e) => e.kind === 'incomplete-phi').map((e) => e.data!.phi);
        const completed = ev.filter((e) => e.kind === 'seal').flatMap((e) => e.data!.incomplete as string[]);
        expect(completed.sort()).toEqual(incomplete.sort());
        n += created;
      }
    }
    expect(n).toBeGreaterThan(10);
  });
});

describe("Braun et al.'s Algorithm 5 (redundant phi SCCs)", () => {
  it('descends into the inner phis of an SCC with two outer operands (fixtures/phi-scc.ll)', async () => {
    const { traceRedundantPhisEvents } = await import('../../src/transforms/ssa/redundant-phis-trace.js');
    const ev = traceRedundantPhisEvents(load('phi-scc.ll'));
    const steps = ev.filter((e) => ['sccs', 'replace', 'descend', 'keep'].includes(e.kind)).map((e) => ({ kind: e.kind, ...e.data }));
    const sorted = (xs: unknown) => [...(xs as string[])].sort();
    expect(steps.map((s) => s.kind)).toEqual(['sccs', 'descend', 'sccs', 'replace', 'replace']);
    expect(sorted(steps[1].scc)).toEqual(['%p1', '%p2', '%p3', '%q']);
    expect(sorted(steps[1].outer)).toEqual(['%a', '%n']);
    expect(sorted(steps[1].inner)).toEqual(['%p2', '%p3', '%q']);
    // operands first: {p2, p3} before q, which uses them
    expect((steps[2].sccs as string[][]).map((c) => [...c].sort())).toEqual([['%p2', '%p3'], ['%q']]);
    expect([sorted(steps[3].scc), steps[3].replacement]).toEqual([['%p2', '%p3'], '%p1']);
    expect([steps[4].scc, steps[4].replacement]).toEqual([['%q'], '%p1']);
    expect(ev.at(-1)!.text).toMatch(/%n = add i32 %p1, 1/);
  });
});

describe('--ssa=braun runs Algorithm 5 itself (§3.2-3.3)', () => {
  it('the swap of two copies leaves no phi; Cytron pruned keeps two, Algorithm 5 on them leaves none', async () => {
    const { removeRedundantPhis } = await import('../../src/transforms/ssa/redundant-phis.js');
    const { promoteMemoryToRegister } = await import('../../src/transforms/ssa/mem2reg.js');
    const { computeDominators } = await import('../../src/analysis/dominators.js');
    const src = readFileSync(join(FIX, 'braun-swap.sy'), 'utf8');
    const count = (m: import('../../src/ir/module.js').Module) => m.definedFunctions().flatMap((f) => f.instructions()).filter((i) => i.opcodeName === 'phi').length;
    for (const fold of [true, false]) {
      const r = compileSysY(src, 'braun-swap.sy', { ssa: 'braun', fold });
      expect(count(r.module!)).toBe(0);
      expect(r.stats!.phisCreated).toBe(r.stats!.phisRemoved);
    }
    const m = compileSysY(src, 'braun-swap.sy', { ssa: 'alloca' }).module!;
    const f = m.definedFunctions()[0];
    promoteMemoryToRegister(f, computeDominators(f), { placement: 'pruned' });
    expect(count(m)).toBe(2);
    expect(removeRedundantPhis(f)).toEqual({ redundant: 2, trivial: 0 });
  });
});
