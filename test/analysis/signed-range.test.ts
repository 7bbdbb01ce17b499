/**
 * signedRange (src/analysis/signed-range.ts) and the rules built on it: `x srem C` -> x and
 * `x sdiv C` -> 0 when |x| < |C| (instsimplify, LLVM's simplifyRem/isDivZero), srem/sdiv of a
 * non-negative value by a positive constant -> urem/udiv (instcombine).
 * Oracles: exhaustive evaluation at i8 of random expression trees (plain two's-complement
 * semantics written here, every value of both arguments), opt-19's correlated-propagation on
 * the same input, and lli-19 running a program before and after -O2.
 */
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signedRange } from '../../src/analysis/signed-range.js';
import type { Instruction } from '../../src/ir/instruction.js';
import { parseModule } from '../../src/text/parser.js';
import { OPT, hasLlvm, llvmAsError, runLli, runTool } from '../helpers/llvm.js';
import { opt } from '../passes/cfg-helpers.js';

type Expr = { k: 'x' } | { k: 'y' } | { k: 'c'; v: number } | { k: 'bin'; op: string; a: Expr; b: Expr } | { k: 'sel'; a: Expr; b: Expr };

const wrap8 = (v: number): number => ((((v + 128) % 256) + 256) % 256) - 128;
const u8 = (v: number): number => v & 255;

/** The value of `e` at i8, or null where it is undefined (division by zero, INT_MIN / -1). */
function evalExpr(e: Expr, x: number, y: number): number | null {
  switch (e.k) {
    case 'x': return x;
    case 'y': return y;
    case 'c': return e.v;
    case 'sel': {
      const a = evalExpr(e.a, x, y);
      const b = evalExpr(e.b, x, y);
      return a === null || b === null ? null : x < y ? a : b;
    }
    case 'bin': {
      const a = evalExpr(e.a, x, y);
      const b = evalExpr(e.b, x, y);
      if (a === null || b === null) return null;
      switch (e.op) {
        case 'add': return wrap8(a + b);
        case 'sub': return wrap8(a - b);
        case 'mul': return wrap8(a * b);
        case 'and': return wrap8(a & b);
        case 'srem': return b === 0 || (a === -128 && b === -1) ? null : wrap8(a % b);
        case 'sdiv': return b === 0 || (a === -128 && b === -1) ? null : wrap8(Math.trunc(a / b));
        case 'urem': return u8(b) === 0 ? null : wrap8(u8(a) % u8(b));
        case 'udiv': return u8(b) === 0 ? null : wrap8(Math.floor(u8(a) / u8(b)));
        case 'lshr': return b < 0 || b > 7 ? null : wrap8(u8(a) >>> b);
        case 'ashr': return b < 0 || b > 7 ? null : a >> b;
      }
    }
  }
  throw new Error('bad expression');
}

function toIR(e: Expr): string {
  const lines: string[] = [];
  let n = 0;
  const emit = (e: Expr): string => {
    switch (e.k) {
      case 'x': return '%x';
      case 'y': return '%y';
      case 'c': return String(e.v);
      case 'sel': {
        const a = emit(e.a), b = emit(e.b), c = `%t${n++}`;
        lines.push(`${c} = icmp slt i8 %x, %y`);
        const r = `%t${n++}`;
        lines.push(`${r} = select i1 ${c}, i8 ${a}, i8 ${b}`);
        return r;
      }
      case 'bin': {
        const a = emit(e.a), b = emit(e.b), r = `%t${n++}`;
        lines.push(`${r} = ${e.op} i8 ${a}, ${b}`);
        return r;
      }
    }
  };
  const r = emit(e);
  return `define i8 @f(i8 %x, i8 %y) {\n${lines.map((l) => '  ' + l).join('\n')}\n  ret i8 ${r}\n}\n`;
}

const constant = fc.integer({ min: -128, max: 127 }).map((v): Expr => ({ k: 'c', v }));
const expr: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<Expr>({ k: 'x' }),
    fc.constant<Expr>({ k: 'y' }),
    constant,
    fc.record({ k: fc.constant('bin' as const), op: fc.constantFrom('add', 'sub', 'mul', 'and'), a: tie('e'), b: tie('e') }),
    fc.record({ k: fc.constant('bin' as const), op: fc.constantFrom('srem', 'sdiv', 'urem', 'udiv'), a: tie('e'), b: constant }),
    fc.record({ k: fc.constant('bin' as const), op: fc.constantFrom('lshr', 'ashr'), a: tie('e'), b: fc.integer({ min: 0, max: 7 }).map((v): Expr => ({ k: 'c', v })) }),
    fc.record({ k: fc.constant('sel' as const), a: tie('e'), b: tie('e') }),
  ),
})).e;

describe('signedRange', () => {
  it('holds for every value of both i8 arguments of random expression trees', () => {
    fc.assert(
      fc.property(expr, (e) => {
        const m = parseModule(toIR(e), 't.ll');
        const ret = m.getFunction('f')!.firstBlock!.terminator()!;
        const r = signedRange(ret.operand(0));
        if (r === null) return;
        // a subexpression that is undefined somewhere makes the IR's result poison there
        for (let x = -128; x < 128; x++) {
          for (let y = -128; y < 128; y++) {
            const v = evalExpr(e, x, y);
            if (v !== null && (BigInt(v) < r[0] || BigInt(v) > r[1])) throw new Error(`${toIR(e)}x=${x} y=${y}: ${v} outside [${r[0]}, ${r[1]}]`);
          }
        }
      }),
      { numRuns: 100, seed: 18 },
    );
  });

  it('finds the ranges of the contest hash key', () => {
    const m = parseModule(`define i32 @f(i32 %x, i32 %i) {
  %a = srem i32 %x, 134456
  %b = mul i32 %a, 15
  %c = urem i32 %i, 15
  %d = add i32 %b, %c
  %e = add i32 %d, 1
  ret i32 %e
}`, 't.ll');
    const e = m.getFunction('f')!.firstBlock!.terminator()!.operand(0) as Instruction;
    expect(signedRange(e)).toEqual([-2016824n, 2016840n]);
  });
});

const HASH = `
@.fmt = private constant [4 x i8] c"%d\\0A\\00"
declare i32 @printf(ptr, ...)
define i32 @key(i32 %x, i32 %i) {
  %a = srem i32 %x, 134456
  %b = mul i32 %a, 15
  %c = srem i32 %i, 15
  %d = add i32 %b, %c
  %e = add i32 %d, 1
  %h = srem i32 %e, 4194301
  %q = sdiv i32 %c, 16
  %r = add i32 %h, %q
  ret i32 %r
}
define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ -50000, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %loop ]
  %x = mul i32 %i, 7919
  %k = call i32 @key(i32 %x, i32 %i)
  %acc1 = add i32 %acc, %k
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, 50000
  br i1 %done, label %exit, label %loop
exit:
  %p = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %acc1)
  ret i32 0
}
`;

describe('remainders and quotients below the modulus', () => {
  it('instsimplify drops the second remainder and the zero quotient', () => {
    const t = opt(HASH, 'instsimplify').fnText('key');
    expect(t).not.toMatch(/srem i32 %e/);
    expect(t).not.toMatch(/sdiv/);
  });

  it('instcombine turns srem/sdiv of a non-negative value by a constant into urem/udiv', () => {
    const t = opt(`define i32 @f(i32 %x) {
  %a = urem i32 %x, 1000
  %b = srem i32 %a, 7
  %c = sdiv i32 %a, 9
  %d = add i32 %b, %c
  ret i32 %d
}`, 'instcombine').fnText('f');
    expect(t).toMatch(/urem i32 %a, 7/);
    expect(t).toMatch(/udiv i32 %a, 9/);
    expect(t).not.toMatch(/srem|sdiv/);
  });

  // Reason for runIf: the oracles are opt-19 and lli-19.
  describe.runIf(hasLlvm())('against LLVM', () => {
    // LLVM proves these in correlated-propagation (LazyValueInfo's ranges; its instsimplify
    // alone sees no nsw on the multiply); we do it in instsimplify from the defining expressions
    it('opt-19 -passes=correlated-propagation,instcombine removes the same divisions and remainders', () => {
      const dir = mkdtempSync(join(tmpdir(), 'ssakit-range-'));
      writeFileSync(join(dir, 'in.ll'), HASH);
      const r = runTool(OPT, ['-passes=correlated-propagation,instcombine', '-S', join(dir, 'in.ll'), '-o', '-']);
      const theirs = r.stdout.toString();
      const key = (s: string): string => s.slice(s.indexOf('@key'), s.indexOf('define i32 @main'));
      const ops = (s: string): string[] => (key(s).match(/= (srem|sdiv|urem|udiv) /g) ?? []).sort();
      expect(ops(opt(HASH, 'instsimplify').text)).toEqual(ops(theirs));
    });

    it('lli-19 prints the same before and after instsimplify, instcombine and -O2', () => {
      const dir = mkdtempSync(join(tmpdir(), 'ssakit-range-'));
      writeFileSync(join(dir, 'a.ll'), HASH);
      const before = runLli(join(dir, 'a.ll'));
      for (const p of ['instsimplify', 'instcombine', 'default<O2>']) {
        const text = opt(HASH, p).text;
        expect(llvmAsError(text)).toBeNull();
        writeFileSync(join(dir, 'b.ll'), text);
        const after = runLli(join(dir, 'b.ll'));
        expect(after.stdout.toString(), p).toBe(before.stdout.toString());
        expect(after.status).toBe(before.status);
      }
    });
  });
});
