/**
 * Out of SSA: the parallel-copy sequentialization (property tests against the parallel
 * semantics), the swap and lost-copy problems reproduced on IR — the naive translation gives
 * the wrong output under lli-19 and our interpreter, ours the right one — and reg2mem.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Module } from '../../src/ir/module.js';
import { Opcode } from '../../src/ir/opcodes.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import { runModule } from '../../src/interp/index.js';
import { runPipeline } from '../../src/passes/index.js';
import { outOfSSA, type OutOfSSAOptions } from '../../src/transforms/ssa/out-of-ssa.js';
import { runCopySteps, sequentializeNaively, sequentializeParallelCopy, type ParallelCopy } from '../../src/transforms/utils/parallel-copy.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { CACHE_DIR, hasLlvm, llvmAsError, runLli } from '../helpers/llvm.js';

/** The parallel semantics: every source read before any destination is written. */
function parallel(copies: readonly ParallelCopy[], mem: number[], outside: readonly number[]): number[] {
  const out = mem.slice();
  for (const c of copies) out[c.dst] = c.src >= 0 ? mem[c.src] : outside[-1 - c.src];
  return out;
}

/** Cycles of the copy graph (dst ← src between locations, self-copies excluded). */
function cycles(copies: readonly ParallelCopy[], L: number): number {
  const src = new Array<number>(L).fill(-1);
  for (const c of copies) if (c.src >= 0 && c.src !== c.dst) src[c.dst] = c.src;
  const state = new Array<number>(L).fill(0);
  let n = 0;
  for (let s = 0; s < L; s++) {
    const path: number[] = [];
    let x = s;
    while (x >= 0 && state[x] === 0) {
      state[x] = 1;
      path.push(x);
      x = src[x];
    }
    if (x >= 0 && state[x] === 1) n++; // closed a new cycle
    for (const y of path) state[y] = 2;
  }
  return n;
}

const copiesArb = fc
  .integer({ min: 1, max: 9 })
  .chain((L) =>
    fc.tuple(
      fc.constant(L),
      fc.shuffledSubarray(
        Array.from({ length: L }, (_, k) => k),
        { minLength: 1 },
      ),
      fc.array(fc.integer({ min: -3, max: L - 1 }), { minLength: L, maxLength: L }),
    ),
  )
  .map(([L, dsts, srcs]) => ({ L, copies: dsts.map((d, k) => ({ dst: d, src: srcs[k] })) as ParallelCopy[] }));

describe('parallel copy sequentialization (Boissinot et al.)', () => {
  it('behaves as the parallel copy, with one temporary per cycle', () => {
    fc.assert(
      fc.property(copiesArb, ({ L, copies }) => {
        const mem = Array.from({ length: L }, (_, k) => 100 + k);
        const outside = [-1, -2, -3];
        const steps = sequentializeParallelCopy(copies);
        expect(runCopySteps(steps, mem, outside)).toEqual(parallel(copies, mem, outside));
        expect(steps.filter((s) => s.op === 'save').length).toBe(cycles(copies, L));
        // no copy is emitted twice and self-copies vanish
        expect(steps.filter((s) => s.op !== 'save').length).toBe(copies.filter((c) => c.src !== c.dst).length);
      }),
      { numRuns: 2000 },
    );
  });

  it('the swap a ← b, b ← a: the naive order loses a, ours saves one value', () => {
    const swap: ParallelCopy[] = [
      { dst: 0, src: 1 },
      { dst: 1, src: 0 },
    ];
    expect(runCopySteps(sequentializeNaively(swap), [10, 20], [])).toEqual([20, 20]);
    const steps = sequentializeParallelCopy(swap);
    expect(runCopySteps(steps, [10, 20], [])).toEqual([20, 10]);
    expect(steps.map((s) => s.op)).toEqual(['save', 'copy', 'restore']);
  });

  it('a chain needs no temporary: it is emitted from its free end', () => {
    const chain: ParallelCopy[] = [
      { dst: 1, src: 0 },
      { dst: 2, src: 1 },
      { dst: 3, src: 2 },
    ];
    const steps = sequentializeParallelCopy(chain);
    expect(steps).toEqual([
      { op: 'copy', dst: 3, src: 2 },
      { op: 'copy', dst: 2, src: 1 },
      { op: 'copy', dst: 1, src: 0 },
    ]);
  });
});

const PRINTF = `@fmt = private unnamed_addr constant [7 x i8] c"%d %d\\0A\\00"
declare i32 @printf(ptr, ...)
`;

/** The swap problem: a and b exchange their values on every iteration. */
const SWAP = `${PRINTF}
define i32 @main() {
entry:
  br label %loop
loop:
  %a = phi i32 [ 1, %entry ], [ %b, %loop ]
  %b = phi i32 [ 2, %entry ], [ %a, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i32 %a, i32 %b)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 4
  br i1 %c, label %loop, label %exit
exit:
  ret i32 0
}
`;

/**
 * A lost copy: the back edges L1→H and L2→H are critical. Placed at the end of L1, the copies
 * of that edge also run when L1 goes on to L2, so L2's copy b ← a then reads a's slot already
 * overwritten with n: the copy of a's old value is lost.
 */
const LOST_COPY = `${PRINTF}
define i32 @main() {
entry:
  br label %H
H:
  %i = phi i32 [ 0, %entry ], [ %i1, %L1 ], [ %i1, %L2 ]
  %a = phi i32 [ 1, %entry ], [ %n, %L1 ], [ %n2, %L2 ]
  %b = phi i32 [ 2, %entry ], [ %a, %L1 ], [ %a, %L2 ]
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i32 %a, i32 %b)
  %i1 = add i32 %i, 1
  %n = add i32 %a, 10
  br label %L1
L1:
  %odd = and i32 %i1, 1
  %even = icmp eq i32 %odd, 0
  br i1 %even, label %H, label %L2
L2:
  %n2 = add i32 %n, 100
  %more = icmp slt i32 %i1, 6
  br i1 %more, label %H, label %exit
exit:
  ret i32 0
}
`;

/**
 * Briggs et al.'s lost-copy example: x2 is used after the loop, whose back edge is critical.
 * In the textbook's register form, the copy x2 ← x3 at the end of the loop block clobbers x2
 * before the exit reads it. Our form reads each phi's slot once, at the top of its block, into
 * an SSA value, so this use is safe even unsplit (the lost copy can only hit slot-to-slot copies,
 * as in LOST_COPY).
 */
const BRIGGS_LOST_COPY = `${PRINTF}
define i32 @main() {
entry:
  br label %loop
loop:
  %x2 = phi i32 [ 1, %entry ], [ %x3, %loop ]
  %x3 = add i32 %x2, 1
  %p = icmp slt i32 %x3, 5
  br i1 %p, label %loop, label %exit
exit:
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i32 %x2, i32 %x3)
  ret i32 0
}
`;

function destroyed(src: string, opts: OutOfSSAOptions = {}): { m: Module; text: string } {
  const m = parseModule(src, 'test.ll');
  for (const f of m.functions) if (!f.isDeclaration()) outOfSSA(f, opts);
  expect(verifyModule(m).map((e) => e.message)).toEqual([]);
  for (const f of m.functions) for (const b of f) for (const i of b) expect(i.op).not.toBe(Opcode.Phi);
  return { m, text: printModule(m) };
}

function lli(text: string): string {
  const file = join(CACHE_DIR, `oossa-${process.pid}.ll`);
  writeFileSync(file, text);
  return runLli(file).stdout.toString();
}

function interp(m: Module): string {
  return runModule(m, { stdout: 'collect' }).stdout!;
}

describe('out-of-ssa on the classic problems', () => {
  const cases: [string, string, OutOfSSAOptions][] = [
    ['swap', SWAP, { naiveSequentialization: true }],
    ['lost copy', LOST_COPY, { noEdgeSplitting: true }],
  ];
  for (const [name, src, naive] of cases) {
    it(`${name}: the naive translation prints something else, ours what the SSA program prints`, () => {
      const reference = interp(parseModule(src, 'ref'));
      const ours = destroyed(src);
      const bad = destroyed(src, naive);
      expect(interp(ours.m)).toBe(reference);
      expect(interp(bad.m)).not.toBe(reference);
      if (hasLlvm()) {
        expect(llvmAsError(ours.text)).toBeNull();
        expect(lli(src)).toBe(reference);
        expect(lli(ours.text)).toBe(reference);
        expect(lli(bad.text)).not.toBe(reference);
      }
    });
  }

  it('swap: the output has the copy cycle broken by one temporary, on the split back edge', () => {
    const m = parseModule(SWAP, 'swap');
    const st = outOfSSA(m.functions.find((f) => f.name === 'main')!);
    expect(st).toEqual({ criticalEdgesSplit: 1, phisReplaced: 3, copies: 3 + 3, temporaries: 1 });
    const text = printModule(m);
    expect(text).toMatch(/%phi\.tmp = load i32, ptr %(a|b)\.slot/);
    expect(text).toMatch(/loop:[^\n]*\n {2}%a = load i32, ptr %a\.slot, align 4\n {2}%b = load i32, ptr %b\.slot, align 4\n {2}%i = load i32, ptr %i\.slot/);
    expect(text).toMatch(/store i32 %i1, ptr %i\.slot, align 4\n {2}%phi\.tmp = load i32, ptr %a\.slot, align 4\n {2}%\d+ = load i32, ptr %b\.slot, align 4\n {2}store i32 %\d+, ptr %a\.slot, align 4\n {2}store i32 %phi\.tmp, ptr %b\.slot/);
  });

  it("Briggs et al.'s lost-copy program survives even without edge splitting (phis are read once, at the top)", () => {
    const reference = interp(parseModule(BRIGGS_LOST_COPY, 'ref'));
    expect(reference).toBe('4 5\n');
    expect(interp(destroyed(BRIGGS_LOST_COPY, { noEdgeSplitting: true }).m)).toBe(reference);
    expect(interp(destroyed(BRIGGS_LOST_COPY).m)).toBe(reference);
  });
});

describe('reg2mem', () => {
  it('leaves no phi and no value used outside its block (except entry allocas)', () => {
    for (const src of [SWAP, LOST_COPY, BRIGGS_LOST_COPY]) {
      const m = parseModule(src, 't');
      const reference = interp(parseModule(src, 'ref'));
      runPipeline(m, 'reg2mem', { verifyEach: true });
      for (const f of m.functions) {
        for (const b of f) {
          for (const i of b) {
            expect(i.op).not.toBe(Opcode.Phi);
            if (i.op === Opcode.Alloca && b === f.entry) continue;
            for (const u of i.users()) expect((u as { parent: unknown }).parent).toBe(b);
          }
        }
      }
      expect(interp(m)).toBe(reference);
      // and mem2reg undoes it
      runPipeline(m, 'mem2reg', { verifyEach: true });
      expect(interp(m)).toBe(reference);
    }
  });
});
