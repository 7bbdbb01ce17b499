/**
 * Constant interning: equal constants are the same object, and interning never keeps a
 * module alive (the fuzz suite ran out of memory when constant expressions over globals
 * sat in a process-wide table: each held its global, and through it the whole module).
 */
import { describe, expect, it } from 'vitest';
import { ConstantExpr, ConstantInt } from '../../src/ir/constants.js';
import { Opcode } from '../../src/ir/opcodes.js';
import { i32, i64, ptr } from '../../src/ir/types.js';
import { parseModule } from '../../src/text/parser.js';

const SRC = `@g = global [4 x i32] zeroinitializer
define ptr @f() {
  ret ptr getelementptr inbounds ([4 x i32], ptr @g, i64 0, i64 2)
}`;

describe('constant interning', () => {
  it('returns the same object for equal constants', () => {
    expect(ConstantInt.get(i32, 7)).toBe(ConstantInt.get(i32, 7n));
    const m = parseModule(SRC);
    const g = m.getGlobal('g')!;
    const idx = [ConstantInt.get(i64, 0), ConstantInt.get(i64, 2)];
    const a = ConstantExpr.get(Opcode.GetElementPtr, ptr, [g as never, ...idx], 0, g.valueType);
    const b = ConstantExpr.get(Opcode.GetElementPtr, ptr, [g as never, ...idx], 0, g.valueType);
    expect(a).toBe(b);
    const c = ConstantExpr.get(Opcode.PtrToInt, i64, [a]);
    expect(ConstantExpr.get(Opcode.PtrToInt, i64, [a])).toBe(c);
  });

  it('keeps expressions over a module global out of the process-wide table', () => {
    const table = (ConstantExpr as unknown as { cache: Map<number, ConstantExpr[]> }).cache;
    const before = table.size;
    for (let k = 0; k < 20; k++) {
      const m = parseModule(SRC);
      expect(m.getFunction('f')).toBeDefined();
    }
    // 20 modules, each with its own @g: none of their expressions is held globally
    expect(table.size).toBe(before);
    const plain = ConstantExpr.get(Opcode.Add, i32, [ConstantInt.get(i32, 1), ConstantInt.get(i32, 2)]);
    expect([...table.values()].flat()).toContain(plain); // expressions of constants only are still shared
    expect(ConstantExpr.get(Opcode.Add, i32, [ConstantInt.get(i32, 1), ConstantInt.get(i32, 2)])).toBe(plain);
    expect(ConstantExpr.get(Opcode.Add, i32, [ConstantInt.get(i32, 2), ConstantInt.get(i32, 1)])).not.toBe(plain);
    expect(ConstantExpr.get(Opcode.Sub, i32, [ConstantInt.get(i32, 1), ConstantInt.get(i32, 2)])).not.toBe(plain);
  });
});

describe('ConstantInt.num', () => {
  it('is the value as a number when it is a safe integer, NaN otherwise; the predicates agree with the bigint', () => {
    const i1 = ConstantInt.true().type;
    const cases: [ConstantInt, number][] = [
      [ConstantInt.get(i32, 0), 0],
      [ConstantInt.get(i32, -1), -1],
      [ConstantInt.get(i32, 0xffffffff), -1], // normalised to the signed value
      [ConstantInt.true(), -1],
      [ConstantInt.get(i64, 2n ** 53n - 1n), 2 ** 53 - 1],
      [ConstantInt.get(i64, 2n ** 53n + 1n), NaN],
      [ConstantInt.get(i64, -(2n ** 63n)), NaN],
    ];
    for (const [c, n] of cases) {
      expect(c.num).toBe(n);
      expect(c.isZero()).toBe(c.value === 0n);
      expect(c.isAllOnes()).toBe(c.value === -1n);
      expect(c.isOne()).toBe(c.value === (c.type === i1 ? -1n : 1n));
      expect(c.toNumber()).toBe(Number(c.value));
    }
  });
});
