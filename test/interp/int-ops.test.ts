/**
 * Integer arithmetic, comparisons and casts at edge values of every width the interpreter
 * distinguishes (i1, i8, i16, i32, odd widths below and above 32, i64, i128), checked
 * against a bigint reference implementation of LLVM's semantics (LangRef).
 */
import { describe, expect, it } from 'vitest';
import { edgeValues, fromInterp, instance, isCanonical, toInterp } from './helpers.js';

const WIDTHS = [1, 8, 16, 24, 32, 33, 48, 63, 64, 128];
const BINOPS = ['add', 'sub', 'mul', 'sdiv', 'udiv', 'srem', 'urem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor'] as const;

/** LLVM semantics over bigints; null when the result is poison / UB. */
function ref(op: string, a: bigint, b: bigint, bits: number): bigint | null {
  const sa = BigInt.asIntN(bits, a), sb = BigInt.asIntN(bits, b);
  const ua = BigInt.asUintN(bits, a), ub = BigInt.asUintN(bits, b);
  const min = -(1n << BigInt(bits - 1));
  switch (op) {
    case 'add': return ua + ub;
    case 'sub': return ua - ub;
    case 'mul': return ua * ub;
    case 'sdiv': if (sb === 0n || (sa === min && sb === -1n)) return null; return sa / sb;
    case 'srem': if (sb === 0n || (sa === min && sb === -1n)) return null; return sa % sb;
    case 'udiv': if (ub === 0n) return null; return ua / ub;
    case 'urem': if (ub === 0n) return null; return ua % ub;
    case 'shl': if (ub >= BigInt(bits)) return null; return ua << ub;
    case 'lshr': if (ub >= BigInt(bits)) return null; return ua >> ub;
    case 'ashr': if (ub >= BigInt(bits)) return null; return sa >> ub;
    case 'and': return ua & ub;
    case 'or': return ua | ub;
    case 'xor': return ua ^ ub;
  }
  throw new Error(op);
}

describe('integer binary operators', () => {
  for (const bits of WIDTHS) {
    it(`i${bits}: ${BINOPS.join(' ')} at edge values`, () => {
      const t = `i${bits}`;
      const text = BINOPS.map((op) => `define ${t} @${op}(${t} %a, ${t} %b) {\n  %r = ${op} ${t} %a, %b\n  ret ${t} %r\n}\n`).join('\n');
      const it = instance(text);
      const vals = edgeValues(bits);
      let checked = 0;
      for (const op of BINOPS) {
        for (const a of vals) {
          for (const b of vals) {
            const want = ref(op, a, b, bits);
            if (want === null) continue;
            const got = it.call(op, [toInterp(a, bits), toInterp(b, bits)]);
            if (!isCanonical(got, bits) || fromInterp(got, bits) !== BigInt.asUintN(bits, want)) {
              expect({ op, bits, a, b, got }).toEqual({ op, bits, a, b, got: toInterp(want, bits) });
            }
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(bits === 1 ? 10 : 100);
    });
  }

  it('division by zero is a runtime error naming the instruction', () => {
    const it0 = instance('define i32 @f(i32 %a, i32 %b) {\n  %q = sdiv i32 %a, %b\n  ret i32 %q\n}\n');
    expect(() => it0.call('f', [7, 0])).toThrow(/integer division by zero in @f, block %0: %q = sdiv i32 %a, %b/);
    const it1 = instance('define i64 @f(i64 %a, i64 %b) {\n  %q = urem i64 %a, %b\n  ret i64 %q\n}\n');
    expect(() => it1.call('f', [7, 0])).toThrow(/integer division by zero/);
  });
});

const PREDS = ['eq', 'ne', 'ugt', 'uge', 'ult', 'ule', 'sgt', 'sge', 'slt', 'sle'] as const;
function cmpRef(p: string, a: bigint, b: bigint, bits: number): boolean {
  const sa = BigInt.asIntN(bits, a), sb = BigInt.asIntN(bits, b);
  const ua = BigInt.asUintN(bits, a), ub = BigInt.asUintN(bits, b);
  switch (p) {
    case 'eq': return ua === ub;
    case 'ne': return ua !== ub;
    case 'ugt': return ua > ub;
    case 'uge': return ua >= ub;
    case 'ult': return ua < ub;
    case 'ule': return ua <= ub;
    case 'sgt': return sa > sb;
    case 'sge': return sa >= sb;
    case 'slt': return sa < sb;
    default: return sa <= sb;
  }
}

describe('icmp', () => {
  for (const bits of WIDTHS) {
    it(`i${bits}: all predicates`, () => {
      const t = `i${bits}`;
      const text = PREDS.map((p) => `define i1 @${p}(${t} %a, ${t} %b) {\n  %r = icmp ${p} ${t} %a, %b\n  ret i1 %r\n}\n`).join('\n');
      const it = instance(text);
      const vals = edgeValues(bits);
      for (const p of PREDS) for (const a of vals) for (const b of vals) {
        const got = it.call(p, [toInterp(a, bits), toInterp(b, bits)]);
        const want = cmpRef(p, a, b, bits) ? 1 : 0;
        if (got !== want) expect({ p, bits, a, b, got }).toEqual({ p, bits, a, b, got: want });
      }
    });
  }
  it('pointers compare as unsigned addresses', () => {
    const it = instance(`@g = global [4 x i32] zeroinitializer
define i1 @f(i64 %i, i64 %j) {
  %p = getelementptr i32, ptr @g, i64 %i
  %q = getelementptr i32, ptr @g, i64 %j
  %r = icmp ult ptr %p, %q
  ret i1 %r
}
`);
    expect(it.call('f', [0, 3])).toBe(1);
    expect(it.call('f', [3, 0])).toBe(0);
  });
});

describe('integer casts', () => {
  const pairs: [number, number][] = [];
  for (const a of WIDTHS) for (const b of WIDTHS) if (a !== b) pairs.push([a, b]);
  it('trunc, zext, sext between every pair of widths', () => {
    let text = '';
    for (const [from, to] of pairs) {
      const op = from > to ? ['trunc'] : ['zext', 'sext'];
      for (const o of op) text += `define i${to} @${o}_${from}_${to}(i${from} %a) {\n  %r = ${o} i${from} %a to i${to}\n  ret i${to} %r\n}\n`;
    }
    const it = instance(text);
    for (const [from, to] of pairs) {
      for (const v of edgeValues(from)) {
        const ops = from > to ? ['trunc'] : ['zext', 'sext'];
        for (const o of ops) {
          const got = it.call(`${o}_${from}_${to}`, [toInterp(v, from)]);
          const want = o === 'zext' ? BigInt.asUintN(from, v) : BigInt.asIntN(from, v);
          if (!isCanonical(got, to) || fromInterp(got, to) !== BigInt.asUintN(to, want)) {
            expect({ o, from, to, v, got }).toEqual({ o, from, to, v, got: toInterp(want, to) });
          }
        }
      }
    }
  });
});

describe('select, freeze, phi', () => {
  it('select picks by an i1', () => {
    const it = instance('define i64 @f(i1 %c, i64 %a, i64 %b) {\n  %r = select i1 %c, i64 %a, i64 %b\n  %s = freeze i64 %r\n  ret i64 %s\n}\n');
    expect(it.call('f', [1, 5, 9n ** 30n % 2n ** 63n])).toBe(5);
    expect(it.call('f', [0, 5, -(2n ** 60n)])).toBe(-(2n ** 60n));
  });
  it('phis read their operands in parallel (swap in a loop)', () => {
    const text = `define i32 @f(i32 %n) {
entry:
  br label %loop
loop:
  %a = phi i32 [ 1, %entry ], [ %b, %loop ]
  %b = phi i32 [ 2, %entry ], [ %a, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %done
done:
  %r = mul i32 %a, 10
  %s = add i32 %r, %b
  ret i32 %s
}
`;
    const it = instance(text);
    expect(it.call('f', [1])).toBe(12);
    expect(it.call('f', [2])).toBe(21);
    expect(it.call('f', [3])).toBe(12);
  });
  it('a phi that reads a phi defined after it in the same block', () => {
    const text = `define i32 @fib(i32 %n) {
entry:
  br label %loop
loop:
  %x = phi i32 [ 0, %entry ], [ %y, %loop ]
  %y = phi i32 [ 1, %entry ], [ %z, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %z = add i32 %x, %y
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret i32 %x
}
`;
    expect(instance(text).call('fib', [10])).toBe(34);
  });
});

describe('switch', () => {
  it('dispatches on i8, i32, i64 and i128 values with duplicate destinations', () => {
    for (const bits of [8, 32, 64, 128]) {
      const t = `i${bits}`;
      const big = bits >= 64 ? (bits === 128 ? '170141183460469231731687303715884105727' : '9223372036854775807') : '100';
      const text = `define i32 @f(${t} %x) {
entry:
  switch ${t} %x, label %d [
    ${t} 0, label %a
    ${t} -1, label %b
    ${t} ${big}, label %b
    ${t} 7, label %a
  ]
a:
  ret i32 1
b:
  ret i32 2
d:
  ret i32 3
}
`;
      const it = instance(text);
      expect(it.call('f', [0])).toBe(1);
      expect(it.call('f', [7])).toBe(1);
      expect(it.call('f', [-1])).toBe(2);
      expect(it.call('f', [toInterp(BigInt(big), bits)])).toBe(2);
      expect(it.call('f', [5])).toBe(3);
    }
  });
});

describe('i64 arithmetic on values of known magnitude (compiled without overflow checks)', () => {
  it('sext/zext of i32 edge values combined by add, sub, mul, and, or, xor, shl, sdiv, srem, trunc', () => {
    const text = `define i64 @f(i32 %a, i32 %b, i32 %sel) {
entry:
  %x = sext i32 %a to i64
  %y = zext i32 %b to i64
  %s = add i64 %x, %y
  %d = sub i64 %x, %y
  %m = mul i64 %x, %y
  %m2 = mul i64 %s, %d
  %n = and i64 %x, %y
  %o = or i64 %x, %y
  %q = xor i64 %x, %d
  %k = shl i64 %x, 20
  %z = icmp eq i64 %y, 0
  %y1 = select i1 %z, i64 1, i64 %y
  %v = sdiv i64 %x, %y1
  %r = srem i64 %x, %y1
  %t = trunc i64 %s to i32
  %t64 = sext i32 %t to i64
  switch i32 %sel, label %e0 [
    i32 1, label %e1
    i32 2, label %e2
    i32 3, label %e3
    i32 4, label %e4
    i32 5, label %e5
    i32 6, label %e6
    i32 7, label %e7
    i32 8, label %e8
    i32 9, label %e9
    i32 10, label %e10
    i32 11, label %e11
  ]
e0:
  ret i64 %s
e1:
  ret i64 %d
e2:
  ret i64 %m
e3:
  ret i64 %m2
e4:
  ret i64 %n
e5:
  ret i64 %o
e6:
  ret i64 %q
e7:
  ret i64 %k
e8:
  ret i64 %v
e9:
  ret i64 %r
e10:
  ret i64 %t64
e11:
  %g = getelementptr i8, ptr null, i64 %s
  %gi = ptrtoint ptr %g to i64
  ret i64 %gi
}
`;
    const m = instance(text);
    const vals = edgeValues(32);
    for (const a of vals) for (const b of vals) {
      const x = a, y = BigInt.asUintN(32, b);
      const s = x + y, d = x - y;
      const y1 = y === 0n ? 1n : y;
      const want = [s, d, x * y, s * d, x & y, x | y, x ^ d, x << 20n, x / y1, x % y1, BigInt.asIntN(32, s), s];
      for (let sel = 0; sel < want.length; sel++) {
        const got = m.call('f', [Number(a), Number(b), sel]);
        const w = toInterp(BigInt.asIntN(64, want[sel]), 64);
        if (got !== w || !isCanonical(got, 64)) expect({ a, b, sel, got }).toEqual({ a, b, sel, got: w });
      }
    }
  });
});
