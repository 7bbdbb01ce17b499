/**
 * Traces of the transforms: SCCP on Wegman and Zadeck's motivating loop, lazy code motion on
 * a graph whose six sets were derived by hand from the equations (fixtures/lcm.ll says how),
 * and mem2reg's renaming; replay properties — the trace, read back, gives the result.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Function } from '../../src/ir/function.js';
import { Opcode } from '../../src/ir/opcodes.js';
import { parseModule, printFunction } from '../../src/text/index.js';
import { functionSlots } from '../../src/text/slots.js';
import { SCCPSolver } from '../../src/transforms/utils/sccp-solver.js';
import { traceSCCPEvents } from '../../src/transforms/scalar/sccp-trace.js';
import { traceLCMEvents } from '../../src/transforms/scalar/pre-trace.js';
import { lazyCodeMotion } from '../../src/transforms/scalar/pre.js';
import { traceMem2RegEvents } from '../../src/transforms/ssa/mem2reg-trace.js';
import { traceAlgorithm, traceNames } from '../../src/passes/traces.js';
import { readdirSync } from 'node:fs';
import { compileSysY } from '../../src/frontend/sysy/index.js';
import type { Module } from '../../src/ir/module.js';

/** The first `k` SysY test programs as IR: clang-style allocas, or SSA built by Braun et al. */
function sysyModules(k: number, ssa: 'alloca' | 'braun'): Module[] {
  const dir = join(__dirname, '../sysy');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sy'))
    .sort()
    .slice(0, k)
    .map((f) => compileSysY(readFileSync(join(dir, f), 'utf8'), f, { ssa }).module!)
    .filter((m) => m !== undefined);
}

const FIX = join(__dirname, 'fixtures');
const load = (file: string): Function => parseModule(readFileSync(join(FIX, file), 'utf8'), file).definedFunctions()[0];

describe('SCCP (Wegman-Zadeck)', () => {
  it('the loop where i = 2 is never executed: i is 1 everywhere, the edge to `set` never executable', () => {
    const ev = traceSCCPEvents(load('sccp-wz.ll'));
    const result = ev.at(-1)!.data!;
    expect(result.lattice).toEqual({ '%i': '1', '%go': '⊥', '%ne': 'false', '%i.next': '1' });
    expect(result.unreachable).toEqual(['set']);
    expect(ev.some((e) => e.kind === 'edge' && e.data!.to === 'set')).toBe(false);
    // the lattice only moves down, and %i never leaves 1 (optimistic: ⊤ until shown otherwise)
    const changes = ev.filter((e) => e.kind === 'lattice').map((e) => `${e.data!.value}:${e.data!.from}->${e.data!.to}`);
    expect(changes).toEqual(['%i:⊤->1', '%go:⊤->⊥', '%ne:⊤->false', '%i.next:⊤->1']);
    // the back edge is taken from FlowWorkList after loop was executable: only its phis again
    expect(ev.some((e) => e.kind === 'flow-pop' && e.data!.from === 'latch' && e.data!.firstVisit === false)).toBe(true);
  });

  it("replay: the last lattice event of each value and the block events are the solver's result, on SysY programs", () => {
    let checked = 0;
    for (const m of sysyModules(12, 'braun')) {
      for (const f of m.definedFunctions()) {
        const ev = traceSCCPEvents(f);
        const last = new Map<string, string>();
        for (const e of ev) if (e.kind === 'lattice') last.set(e.data!.value as string, e.data!.to as string);
        const solver = new SCCPSolver(f);
        solver.solve();
        const slots = functionSlots(f);
        for (let b = f.firstBlock; b !== null; b = b.next) {
          const execByTrace = ev.some((e) => e.kind === 'block' && e.data!.block === slots.nameOf(b));
          expect(execByTrace).toBe(solver.executable[b.id] === 1);
          for (let i = b.first; i !== null; i = i.next) {
            if (!i.hasResult()) continue;
            const c = solver.constantOf(i);
            const shown = last.get('%' + slots.nameOf(i));
            if (c !== null) expect(shown).not.toBe('⊥');
            if (shown === undefined) expect(c).toBe(null);
          }
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe('lazy code motion', () => {
  const ev = traceLCMEvents(load('lcm.ll'));
  const firstRound = (set: string) => ev.find((e) => e.kind === 'set' && e.data!.set === set)!.data!.blocks as Record<string, string[]>;
  const members = (set: string) => Object.entries(firstRound(set)).filter(([, v]) => v.length > 0).map(([b]) => b).sort();

  it('the six sets agree with the hand derivation (fixtures/lcm.ll)', () => {
    expect(members('anticipated.in')).toEqual(['B2', 'B3', 'B4', 'B5', 'B5.B5_crit_edge', 'entry']);
    expect(members('available.in')).toEqual(['B2', 'B3', 'B4', 'B5', 'B5.B5_crit_edge', 'B6']);
    expect(members('earliest')).toEqual(['entry']);
    expect(members('postponable.in')).toEqual(['B2', 'B3']);
    expect(members('latest')).toEqual(['B2', 'B3']);
    expect(members('used.out')).toEqual(['B2', 'B3', 'B4', 'B5', 'B5.B5_crit_edge']);
    expect(ev.filter((e) => e.kind === 'insert').map((e) => e.data!.block)).toEqual(['B3']);
    expect(ev.filter((e) => e.kind === 'redundant').map((e) => e.data!.block)).toEqual(['B5']);
  });

  it("the sets satisfy their equations, and the decisions replay to the pass's statistics", () => {
    const a = firstRound('anticipated.in');
    const v = firstRound('available.in');
    const ea = firstRound('earliest');
    for (const b of Object.keys(a)) expect(ea[b]).toEqual(a[b].filter((x) => !v[b].includes(x)));
    const m = parseModule(readFileSync(join(FIX, 'lcm.ll'), 'utf8'), 'lcm.ll');
    const stats = lazyCodeMotion(m.definedFunctions()[0]);
    expect(ev.filter((e) => e.kind === 'insert').length).toBe(stats.inserted);
    expect(ev.filter((e) => e.kind === 'redundant').length).toBe(stats.replaced);
    expect(ev.at(-1)!.text).toBe(`result:\n${printFunction(m.definedFunctions()[0]).replace(/\n$/, '')}`);
  });
});

describe('mem2reg renaming', () => {
  it('replay: the phi operands the trace fills are the phis of the result; stacks are balanced', () => {
    let phis = 0;
    for (const m of sysyModules(12, 'alloca')) {
      for (const f of m.definedFunctions()) {
        // names that survive the renumbering after loads go away
        let k = 0;
        for (let b = f.firstBlock; b !== null; b = b.next) {
          if (b.name === '') b.name = `bb${k++}`;
          for (let i = b.first; i !== null; i = i.next) if (i.hasResult() && i.name === '') i.name = `v${k++}`;
        }
        const ev = traceMem2RegEvents(f, { simplifyPhis: false });
        // what the trace says each phi receives
        const byPhi = new Map<string, string[]>();
        for (const e of ev) if (e.kind === 'phi-operand') (byPhi.get(e.data!.phi as string) ?? byPhi.set(e.data!.phi as string, []).get(e.data!.phi as string)!).push(`${e.data!.value}@${e.data!.from}`);
        // the result's phis, parsed back from the printed function
        const out = ev.at(-1)!.text;
        for (const line of out.split('\n')) {
          const mm = /^\s+(%[\w.-]+) = phi \S+ (.*)$/.exec(line);
          if (mm === null || !byPhi.has(mm[1])) continue;
          const ops = [...mm[2].matchAll(/\[ ([^,]+), %([\w.-]+) \]/g)].map((x) => `${x[1]}@${x[2]}`);
          expect(ops).toEqual(byPhi.get(mm[1]));
          phis++;
        }
        // every enter has its leave, and each S(V) ends where it started: [undef]
        expect(ev.filter((e) => e.kind === 'enter').length).toBe(ev.filter((e) => e.kind === 'leave').length);
        const lastStack = new Map<string, unknown>();
        for (const e of ev) if (e.kind === 'leave') for (const part of e.text.matchAll(/S\((%[\w.-]+)\) = \[([^\]]*)\]/g)) lastStack.set(part[1], part[2]);
        for (const s of lastStack.values()) expect(s).toBe('undef');
      }
    }
    expect(phis).toBeGreaterThan(3);
  });
});

describe('the registry', () => {
  it('every trace runs on every function of a corpus program, and each event has the playground shape', () => {
    const m = sysyModules(1, 'alloca')[0];
    for (const name of traceNames()) {
      for (const f of m.definedFunctions()) {
        let ev;
        try {
          ev = traceAlgorithm(name, f);
        } catch (e) {
          // the IDF traces need definitions: a function without stored allocas says so
          expect(String(e)).toMatch(/no allocas with stores/);
          continue;
        }
        for (const e of ev) {
          expect(typeof e.text).toBe('string');
          expect(Array.isArray(e.blocks)).toBe(true);
          expect(e.algorithm).toBe(name === 'df' ? 'df' : e.algorithm);
        }
      }
    }
    expect(() => traceAlgorithm('nope', m.definedFunctions()[0])).toThrow(/unknown trace 'nope'/);
    void Opcode;
  });
});

describe('out-of-SSA parallel copies', () => {
  it('the swap: the latch copy (x, y) <- (y, x) is a cycle, one temporary breaks it', async () => {
    const { traceOutOfSSAEvents } = await import('../../src/transforms/ssa/out-of-ssa-trace.js');
    const ev = traceOutOfSSAEvents(load('swap.ll'));
    const pcs = ev.filter((e) => e.kind === 'parallel-copy').map((e) => [e.data!.dst, e.data!.src]);
    expect(pcs).toEqual([
      [['%x', '%y'], ['%a', '%b']],
      [['%x', '%y'], ['%y', '%x']],
    ]);
    const seq = ev.filter((e) => e.kind === 'copy' || e.kind === 'save').map((e) => `${e.data!.dst}<-${e.data!.src}`);
    expect(seq).toEqual(['%x<-%a', '%y<-%b', 't0<-%x', '%x<-%y', '%y<-t0']);
  });

  it('replay: running the traced steps of each edge computes the parallel copy (random permutations)', async () => {
    const { sequentializeParallelCopy, runCopySteps } = await import('../../src/transforms/utils/parallel-copy.js');
    for (let seed = 1; seed <= 200; seed++) {
      let s = seed;
      const rnd = (k: number) => ((s = (s * 1103515245 + 12345) % 2147483648), s % k);
      const n = 1 + rnd(7);
      const copies = Array.from({ length: n }, (_, d) => ({ dst: d, src: rnd(3) === 0 ? -1 - rnd(2) : rnd(n) }));
      const seen: string[] = [];
      const steps = sequentializeParallelCopy(copies, (st, why) => seen.push(`${st.op}:${why}`));
      expect(seen.length).toBe(steps.length);
      const init = Array.from({ length: n }, (_, k) => `v${k}`);
      const out = runCopySteps(steps, init, ['o0', 'o1']);
      expect(out).toEqual(copies.map((c) => (c.src >= 0 ? init[c.src] : ['o0', 'o1'][-1 - c.src])));
    }
  });
});
