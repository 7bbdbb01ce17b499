/**
 * The bit-vector data-flow framework and its instances: liveness (exact sets on a loop, and
 * against path exploration on random SSA programs), reaching definitions, available and
 * anticipated expressions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BitMatrix,
  CFG,
  anticipatedExpressions,
  availableExpressions,
  computeDominators,
  lexicalExpressions,
  liveness,
  memoryDefinitions,
  reachingDefinitions,
  solve,
} from '../../src/analysis/index.js';
import { blockNames } from '../../src/analysis/report.js';
import { Function, IRBuilder, Instruction, Opcode, Value, ValueKind, i32 } from '../../src/ir/index.js';
import { verifyFunction } from '../../src/analysis/verifier.js';
import { functionSlots, parseModule, printInstruction } from '../../src/text/index.js';
import { buildCfgFunction } from './cfg-builder.js';
import { RandomCfg, arbCfg } from './naive.js';

function parse(text: string): { fn: Function; cfg: CFG; id: (name: string) => number; name: (v: Value) => string } {
  const fn = parseModule(text, 't.ll').definedFunctions()[0];
  const cfg = new CFG(fn);
  const names = blockNames(fn);
  const slots = functionSlots(fn);
  return { fn, cfg, id: (n) => names.indexOf(n), name: (v) => '%' + slots.nameOf(v) };
}

describe('liveness', () => {
  const LOOP = `
define i32 @f(i32 %n, i32 %m) {
entry:
  %a = add i32 %n, 1
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ %a, %entry ], [ %s.next, %body ]
  %c = icmp slt i32 %i, %m
  br i1 %c, label %body, label %exit
body:
  %s.next = add i32 %s, %i
  %i.next = add i32 %i, 1
  br label %loop
exit:
  ret i32 %s
}`;

  it('phi operands are live-out of the incoming block only; phi results are not live-in', () => {
    const { cfg, id, name } = parse(LOOP);
    const live = liveness(cfg);
    const lin = (b: string) => live.liveIn(id(b)).map(name);
    const lout = (b: string) => live.liveOut(id(b)).map(name);
    expect(lin('entry')).toEqual(['%n', '%m']);
    expect(lout('entry')).toEqual(['%m', '%a']);
    expect(lin('loop')).toEqual(['%m']);
    expect(lout('loop')).toEqual(['%m', '%i', '%s']);
    expect(lin('body')).toEqual(['%m', '%i', '%s']);
    expect(lout('body')).toEqual(['%m', '%s.next', '%i.next']);
    expect(lin('exit')).toEqual(['%s']);
    expect(lout('exit')).toEqual([]);
    const fn = cfg.fn;
    const a = fn.instructions().find((i) => i.name === 'a')!;
    expect(live.isLiveOut(a, id('entry'))).toBe(true);
    expect(live.isLiveIn(a, id('loop'))).toBe(false);
    expect(live.liveInBlocks(fn.args[1])).toEqual([id('entry'), id('loop'), id('body')]);
  });

  it('agrees with path exploration (Appel / Brandner et al.) on random SSA programs, which verify clean', () => {
    fc.assert(
      fc.property(arbCfg(16), fc.array(fc.nat(), { minLength: 64, maxLength: 64 }), (c, rnd) => {
        const fn = randomSsa(c, rnd);
        expect(verifyFunction(fn).map((e) => e.message)).toEqual([]);
        const cfg = new CFG(fn);
        const live = liveness(cfg);
        const want = naiveLiveness(cfg);
        for (const b of cfg.order) {
          expect(live.liveIn(b).map((v) => v.uid).sort()).toEqual([...want.liveIn[b]].map((v) => v.uid).sort());
          expect(live.liveOut(b).map((v) => v.uid).sort()).toEqual([...want.liveOut[b]].map((v) => v.uid).sort());
        }
      }),
      { numRuns: 200 },
    );
  });
});

/** Random valid SSA on a random CFG: adds of dominating values, phis at joins. */
function randomSsa(c: RandomCfg, rnd: number[]): Function {
  const fn = buildCfgFunction(c.succs.map((_, i) => `b${i}`), c.succs);
  const cfg = new CFG(fn);
  const dt = computeDominators(cfg);
  let k = 0;
  const pick = <T>(xs: T[]): T => xs[rnd[k++ % rnd.length] % xs.length];
  const defs = new Map<number, Value[]>();
  const avail = (b: number): Value[] => {
    const out: Value[] = [fn.args[1]];
    for (let d = dt.idom[b]; d >= 0; d = dt.idom[d]) out.push(...(defs.get(d) ?? []));
    return out;
  };
  const b = new IRBuilder();
  for (const id of cfg.rpo) {
    const bb = cfg.blocks[id]!;
    const mine: Value[] = [];
    defs.set(id, mine);
    if (id !== cfg.root && cfg.numPredecessors(id) > 0 && rnd[k++ % rnd.length] % 2 === 0) {
      b.setInsertPoint(bb);
      const phi = b.phi(i32);
      // filled after all blocks have their values: remember
      mine.push(phi);
    }
    b.setInsertPointBefore(bb.last!);
    const n = rnd[k++ % rnd.length] % 3;
    for (let j = 0; j < n; j++) {
      const pool = [...avail(id), ...mine];
      mine.push(b.add(pick(pool), pick(pool)));
    }
  }
  for (const id of cfg.rpo) {
    const bb = cfg.blocks[id]!;
    for (const phi of bb.phis()) {
      for (const p of cfg.predecessors(id)) {
        const pool = cfg.isReachable(p) ? [...avail(p), ...(defs.get(p) ?? [])] : [fn.args[1]];
        const v = pick(pool);
        for (let e = cfg.edgeCount(p, id); e > 0; e--) phi.addIncoming(v, cfg.blocks[p]!);
      }
    }
  }
  fn.renumber();
  return fn;
}

function naiveLiveness(cfg: CFG): { liveIn: Set<Value>[]; liveOut: Set<Value>[] } {
  const n = cfg.n;
  const liveIn: Set<Value>[] = Array.from({ length: n }, () => new Set());
  const liveOut: Set<Value>[] = Array.from({ length: n }, () => new Set());
  const defBlock = (v: Value): number => (v.kind === ValueKind.Instruction ? (v as Instruction).parent!.id : -1);
  const up = (v: Value, start: number): void => {
    const st = [start];
    while (st.length) {
      const b = st.pop()!;
      if (liveIn[b].has(v)) continue;
      liveIn[b].add(v);
      for (const p of cfg.predecessors(b)) {
        liveOut[p].add(v);
        if (p !== defBlock(v)) st.push(p);
      }
    }
  };
  for (const b of cfg.order) {
    const bb = cfg.blocks[b]!;
    for (const i of bb.instructions()) {
      for (let k = 0; k < i.ops.length; k++) {
        const v = i.ops[k].value;
        if (v.kind !== ValueKind.Instruction && v.kind !== ValueKind.Argument) continue;
        if (i.op === Opcode.Phi) {
          const p = i.blocks![k].id;
          liveOut[p].add(v);
          if (p !== defBlock(v)) up(v, p);
        } else if (defBlock(v) !== b) up(v, b);
      }
    }
  }
  return { liveIn, liveOut };
}

describe('reaching definitions', () => {
  const TEXT = `
define i32 @g(i1 %c) {
entry:
  %x = alloca i32
  %y = alloca i32
  store i32 1, ptr %x
  br i1 %c, label %then, label %join
then:
  store i32 2, ptr %x
  store i32 5, ptr %y
  store i32 3, ptr %x
  br label %join
join:
  %v = load i32, ptr %x
  %w = load i32, ptr %y
  ret i32 %v
}`;

  it('stores to allocas (and the allocas as "uninitialized") reach loads along paths', () => {
    const { fn, cfg, id } = parse(TEXT);
    const { defs, locations } = memoryDefinitions(fn);
    expect(locations.map((l) => l.name)).toEqual(['x', 'y']);
    expect(defs).toHaveLength(6);
    const rd = reachingDefinitions(cfg);
    const show = (ds: { inst: Instruction }[]) => ds.map((d) => printInstruction(d.inst));
    // the alloca of %x is killed by `store i32 1` in the entry; %y may still be uninitialized
    expect(show(rd.reachIn(id('join')))).toEqual(['store i32 1, ptr %x', 'store i32 3, ptr %x', '%y = alloca i32', 'store i32 5, ptr %y']);
    const loadX = fn.instructions().find((i) => i.name === 'v')!;
    expect(show(rd.reachingAt(loadX, 0))).toEqual(['store i32 1, ptr %x', 'store i32 3, ptr %x']);
    const storeY = fn.instructions().find((i) => i.op === Opcode.Store && i.ops[0].value.type === i32 && printInstruction(i).startsWith('store i32 5'))!;
    expect(show(rd.reachingAt(storeY, 0))).toEqual(['store i32 2, ptr %x']);
    expect(show(rd.reachingAt(storeY, 1))).toEqual(['%y = alloca i32']);
    expect(show(rd.reachOut(id('entry')))).toEqual(['store i32 1, ptr %x', '%y = alloca i32']);
    expect(show(rd.reachOut(id('then')))).toEqual(['store i32 3, ptr %x', 'store i32 5, ptr %y']);
  });
});

describe('available and anticipated expressions', () => {
  const DIAMOND = `
define i32 @h(i32 %a, i32 %b, i1 %c) {
entry:
  %e1 = add i32 %a, %b
  br i1 %c, label %l, label %r
l:
  %e2 = add i32 %b, %a
  %m = mul i32 %a, %b
  br label %j
r:
  %m2 = mul i32 %a, %b
  br label %j
j:
  %e3 = add i32 %a, %b
  %m3 = mul i32 %a, %b
  ret i32 %e3
}`;
  const LOOP = `
define i32 @k(i1 %c) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %t = add i32 %i, 1
  %i1 = add i32 %i, 2
  br i1 %c, label %loop, label %exit
exit:
  %u = add i32 %i, 1
  ret i32 %u
}`;

  it('lexical expressions: commutative operands are one expression', () => {
    const { fn } = parse(DIAMOND);
    const u = lexicalExpressions(fn);
    expect(u.size).toBe(2);
    const byName = (n: string) => fn.instructions().find((i) => i.name === n)!;
    expect(u.expressionOf(byName('e1'))).toBe(u.expressionOf(byName('e2')));
    expect(u.expressionOf(byName('m'))).toBe(u.expressionOf(byName('m3')));
  });

  it('available: computed on every path from the entry', () => {
    const { cfg, id } = parse(DIAMOND);
    const av = availableExpressions(cfg);
    expect(av.in(id('entry'))).toEqual([]);
    expect(av.out(id('entry'))).toEqual([0]);
    expect(av.in(id('l'))).toEqual([0]);
    expect(av.in(id('j'))).toEqual([0, 1]);
    const lp = parse(LOOP);
    const av2 = availableExpressions(lp.cfg);
    // the phi redefines %i at the top of the loop: nothing using %i is available there
    expect(av2.in(lp.id('loop'))).toEqual([]);
    expect(av2.out(lp.id('loop'))).toEqual([0, 1]);
    expect(av2.in(lp.id('exit'))).toEqual([0, 1]);
  });

  it('anticipated: computed on every path to the exit before operands change', () => {
    const { cfg, id } = parse(DIAMOND);
    const an = anticipatedExpressions(cfg);
    expect(an.in(id('entry'))).toEqual([0, 1]);
    expect(an.out(id('entry'))).toEqual([0, 1]);
    expect(an.in(id('r'))).toEqual([0, 1]);
    expect(an.out(id('j'))).toEqual([]);
    const lp = parse(LOOP);
    const an2 = anticipatedExpressions(lp.cfg);
    expect(an2.in(lp.id('loop'))).toEqual([]);
    expect(an2.out(lp.id('loop'))).toEqual([]); // %i is redefined on the back edge before the next use
    expect(an2.in(lp.id('exit'))).toEqual([0]);
  });
});

describe('the solver', () => {
  it('solves a client problem: forward intersection with a boundary', () => {
    // "definitely assigned" over a diamond: bit 0 set on both arms, bit 1 on one only
    const fn = buildCfgFunction(['e', 'l', 'r', 'j'], [[1, 2], [3], [3], []]);
    const cfg = new CFG(fn);
    const gen = new BitMatrix(cfg.n, 3);
    const kill = new BitMatrix(cfg.n, 3);
    gen.set(1, 0);
    gen.set(2, 0);
    gen.set(1, 1);
    const boundary = new Uint32Array([0b100]);
    const sol = solve(cfg, { direction: 'forward', meet: 'intersection', bits: 3, gen, kill, boundary });
    expect(sol.in.members(3)).toEqual([0, 2]);
    expect(sol.out.members(1)).toEqual([0, 1, 2]);
    const sol2 = solve(cfg, { direction: 'forward', meet: 'union', bits: 3, gen, kill });
    expect(sol2.in.members(3)).toEqual([0, 1]);
    // a wide problem spanning several words
    const wide = new BitMatrix(cfg.n, 70);
    wide.set(0, 69);
    wide.set(0, 33);
    const s3 = solve(cfg, { direction: 'forward', meet: 'intersection', bits: 70, gen: wide, kill: new BitMatrix(cfg.n, 70) });
    expect(s3.in.members(3)).toEqual([33, 69]);
    expect(s3.in.count(3)).toBe(2);
  });
});
