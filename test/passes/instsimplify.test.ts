import { describe, expect, it } from 'vitest';
import { bigintToFloat32, constantFoldBinOp, constantFoldCast, constantFoldCompare, constantFoldConstantExpr } from '../../src/analysis/constant-folding.js';
import { simplifyBinOp, simplifyCast, simplifyFCmp, simplifyGEP, simplifyICmp, simplifyInstruction, simplifyPhiValues, simplifySelect } from '../../src/analysis/instsimplify.js';
import { ConstantExpr, ConstantFP, ConstantInt, PoisonValue, UndefValue } from '../../src/ir/constants.js';
import { Instruction } from '../../src/ir/instruction.js';
import { Flag, Opcode, Pred } from '../../src/ir/opcodes.js';
import { Type, doubleType, floatType, i1, i16, i32, i64, i8, intType, ptr } from '../../src/ir/types.js';
import { Argument, Value } from '../../src/ir/value.js';
import { bodyAfter, corpusPrograms, describeDifferential, generatedPrograms, optimize, statOf } from './scalar-helpers.js';

const c = (t: Type, v: number | bigint) => ConstantInt.get(t, typeof v === 'number' ? BigInt(v) : v);
const f = (t: Type, v: number) => ConstantFP.get(t, v);
const arg = (t: Type, name = 'x') => new Argument(t, null, 0, name);
const POISON = (t: Type) => PoisonValue.get(t);
const bin = (op: Opcode, a: Value, b: Value, flags = 0) => {
  const i = new Instruction(op, a.type, [a, b]);
  i.flags = flags;
  return i;
};

describe('constant folding: integers wrap at every width, flags give poison', () => {
  it('add/sub/mul wrap, nsw/nuw overflow is poison', () => {
    expect(constantFoldBinOp(Opcode.Add, c(i8, 127), c(i8, 1))).toBe(c(i8, -128));
    expect(constantFoldBinOp(Opcode.Add, c(i8, 127), c(i8, 1), Flag.NSW)).toBe(POISON(i8));
    expect(constantFoldBinOp(Opcode.Add, c(i8, -1), c(i8, 1), Flag.NUW)).toBe(POISON(i8));
    expect(constantFoldBinOp(Opcode.Add, c(i8, -1), c(i8, 1), Flag.NSW)).toBe(c(i8, 0));
    expect(constantFoldBinOp(Opcode.Sub, c(i32, 0), c(i32, 1), Flag.NUW)).toBe(POISON(i32));
    expect(constantFoldBinOp(Opcode.Sub, c(i32, 0), c(i32, 1))).toBe(c(i32, -1));
    expect(constantFoldBinOp(Opcode.Mul, c(i32, 65536), c(i32, 65536))).toBe(c(i32, 0));
    expect(constantFoldBinOp(Opcode.Mul, c(i32, 65536), c(i32, 65536), Flag.NSW)).toBe(POISON(i32));
    expect(constantFoldBinOp(Opcode.Mul, c(i64, 1n << 62n), c(i64, 2))).toBe(c(i64, -(1n << 63n)));
    expect(constantFoldBinOp(Opcode.Mul, c(i64, 1n << 62n), c(i64, 2), Flag.NUW)).toBe(c(i64, -(1n << 63n)));
    expect(constantFoldBinOp(Opcode.Mul, c(i64, 1n << 62n), c(i64, 4), Flag.NUW)).toBe(POISON(i64));
  });

  it('odd widths: i1, i33, i128', () => {
    expect(constantFoldBinOp(Opcode.Add, c(i1, -1), c(i1, -1))).toBe(c(i1, 0));
    const i33 = intType(33);
    expect(constantFoldBinOp(Opcode.Add, c(i33, (1n << 32n) - 1n), c(i33, 1))).toBe(c(i33, -(1n << 32n)));
    const i128 = intType(128);
    expect(constantFoldBinOp(Opcode.Mul, c(i128, 1n << 100n), c(i128, 1n << 27n))).toBe(c(i128, -(1n << 127n)));
    expect(constantFoldBinOp(Opcode.LShr, c(i128, -1), c(i128, 127))).toBe(c(i128, 1));
  });

  it('division: by zero and INT_MIN / -1 are never folded; C rounding; exact', () => {
    expect(constantFoldBinOp(Opcode.UDiv, c(i32, 7), c(i32, 0))).toBeNull();
    expect(constantFoldBinOp(Opcode.SRem, c(i32, 7), c(i32, 0))).toBeNull();
    expect(constantFoldBinOp(Opcode.SDiv, c(i32, -2147483648), c(i32, -1))).toBeNull();
    expect(constantFoldBinOp(Opcode.SRem, c(i32, -2147483648), c(i32, -1))).toBeNull();
    expect(constantFoldBinOp(Opcode.SDiv, c(i32, -7), c(i32, 2))).toBe(c(i32, -3));
    expect(constantFoldBinOp(Opcode.SRem, c(i32, -7), c(i32, 2))).toBe(c(i32, -1));
    expect(constantFoldBinOp(Opcode.UDiv, c(i8, -1), c(i8, 2))).toBe(c(i8, 127));
    expect(constantFoldBinOp(Opcode.URem, c(i8, -1), c(i8, 10))).toBe(c(i8, 5));
    expect(constantFoldBinOp(Opcode.UDiv, c(i32, 7), c(i32, 2), Flag.Exact)).toBe(POISON(i32));
    expect(constantFoldBinOp(Opcode.SDiv, c(i32, -8), c(i32, 2), Flag.Exact)).toBe(c(i32, -4));
  });

  it('shifts: amount >= width is poison; nuw/nsw/exact', () => {
    expect(constantFoldBinOp(Opcode.Shl, c(i32, 1), c(i32, 32))).toBe(POISON(i32));
    expect(constantFoldBinOp(Opcode.LShr, c(i32, 1), c(i32, -1))).toBe(POISON(i32));
    expect(constantFoldBinOp(Opcode.Shl, c(i32, 1), c(i32, 31))).toBe(c(i32, -2147483648));
    expect(constantFoldBinOp(Opcode.Shl, c(i8, -128), c(i8, 1), Flag.NUW)).toBe(POISON(i8));
    expect(constantFoldBinOp(Opcode.Shl, c(i8, 64), c(i8, 1), Flag.NSW)).toBe(POISON(i8));
    expect(constantFoldBinOp(Opcode.Shl, c(i8, -64), c(i8, 1), Flag.NSW)).toBe(c(i8, -128));
    expect(constantFoldBinOp(Opcode.LShr, c(i8, 3), c(i8, 1), Flag.Exact)).toBe(POISON(i8));
    expect(constantFoldBinOp(Opcode.AShr, c(i8, -128), c(i8, 7))).toBe(c(i8, -1));
    expect(constantFoldBinOp(Opcode.LShr, c(i8, -128), c(i8, 7))).toBe(c(i8, 1));
    expect(constantFoldBinOp(Opcode.Or, c(i8, 1), c(i8, 3), Flag.Disjoint)).toBe(POISON(i8));
    expect(constantFoldBinOp(Opcode.Or, c(i8, 1), c(i8, 2), Flag.Disjoint)).toBe(c(i8, 3));
  });

  it('poison propagates; undef folds only where LLVM picks a value', () => {
    expect(constantFoldBinOp(Opcode.Add, POISON(i32), c(i32, 1))).toBe(POISON(i32));
    const x = arg(i32);
    expect(simplifyBinOp(Opcode.And, x, UndefValue.get(i32))).toBe(c(i32, 0));
    expect(simplifyBinOp(Opcode.Or, x, UndefValue.get(i32))).toBe(c(i32, -1));
    expect(simplifyBinOp(Opcode.UDiv, x, UndefValue.get(i32))).toBeNull();
  });
});

describe('constant folding: floats', () => {
  it('float arithmetic rounds to single precision once', () => {
    expect(constantFoldBinOp(Opcode.FAdd, f(floatType, 16777216), f(floatType, 1))).toBe(f(floatType, 16777216));
    expect(constantFoldBinOp(Opcode.FDiv, f(floatType, 1), f(floatType, 3))).toBe(f(floatType, Math.fround(1 / 3)));
    expect(constantFoldBinOp(Opcode.FDiv, f(doubleType, 1), f(doubleType, 3))).toBe(f(doubleType, 1 / 3));
    expect(constantFoldBinOp(Opcode.FRem, f(doubleType, -7.5), f(doubleType, 2))).toBe(f(doubleType, -1.5));
    expect(constantFoldBinOp(Opcode.FMul, f(doubleType, -0), f(doubleType, 5))).toBe(f(doubleType, -0));
  });

  it('results that would be NaN are not folded (the sign of a runtime NaN differs)', () => {
    expect(constantFoldBinOp(Opcode.FDiv, f(doubleType, 0), f(doubleType, 0))).toBeNull();
    expect(constantFoldBinOp(Opcode.FSub, f(doubleType, Infinity), f(doubleType, Infinity))).toBeNull();
    expect(constantFoldBinOp(Opcode.FDiv, f(doubleType, 1), f(doubleType, 0))).toBe(f(doubleType, Infinity));
  });

  it('fcmp: ordered and unordered predicates', () => {
    const nan = f(doubleType, NaN);
    const one = f(doubleType, 1);
    expect(constantFoldCompare(Pred.FCMP_OLT, nan, one)).toBe(ConstantInt.false());
    expect(constantFoldCompare(Pred.FCMP_ULT, nan, one)).toBe(ConstantInt.true());
    expect(constantFoldCompare(Pred.FCMP_UNO, one, one)).toBe(ConstantInt.false());
    expect(constantFoldCompare(Pred.FCMP_ORD, one, one)).toBe(ConstantInt.true());
    expect(constantFoldCompare(Pred.FCMP_OEQ, f(doubleType, 0), f(doubleType, -0))).toBe(ConstantInt.true());
    expect(constantFoldCompare(Pred.FCMP_ONE, one, f(doubleType, 2))).toBe(ConstantInt.true());
    const x = arg(doubleType);
    expect(simplifyFCmp(Pred.FCMP_UEQ, x, x)).toBe(ConstantInt.true());
    expect(simplifyFCmp(Pred.FCMP_OEQ, x, x)).toBeNull(); // x may be NaN
    expect(simplifyFCmp(Pred.FCMP_OGT, x, nan)).toBe(ConstantInt.false());
  });
});

describe('constant folding: casts', () => {
  it('integer casts with nuw/nsw/nneg', () => {
    expect(constantFoldCast(Opcode.Trunc, c(i32, 300), i8)).toBe(c(i8, 44));
    expect(constantFoldCast(Opcode.Trunc, c(i32, 300), i8, Flag.NUW)).toBe(POISON(i8));
    expect(constantFoldCast(Opcode.Trunc, c(i32, -1), i8, Flag.NSW)).toBe(c(i8, -1));
    expect(constantFoldCast(Opcode.ZExt, c(i8, -1), i32)).toBe(c(i32, 255));
    expect(constantFoldCast(Opcode.ZExt, c(i8, -1), i32, Flag.NNeg)).toBe(POISON(i32));
    expect(constantFoldCast(Opcode.SExt, c(i8, -1), i32)).toBe(c(i32, -1));
    expect(constantFoldCast(Opcode.ZExt, c(i1, -1), i32)).toBe(c(i32, 1));
  });

  it('float to int: truncation toward zero, out of range is poison', () => {
    expect(constantFoldCast(Opcode.FPToSI, f(doubleType, -1.9), i32)).toBe(c(i32, -1));
    expect(constantFoldCast(Opcode.FPToSI, f(doubleType, 1e10), i32)).toBe(POISON(i32));
    expect(constantFoldCast(Opcode.FPToSI, f(doubleType, 2147483647.9), i32)).toBe(c(i32, 2147483647));
    expect(constantFoldCast(Opcode.FPToUI, f(doubleType, -1), i32)).toBe(POISON(i32));
    expect(constantFoldCast(Opcode.FPToUI, f(doubleType, -0.5), i32)).toBe(c(i32, 0));
    expect(constantFoldCast(Opcode.FPToSI, f(doubleType, NaN), i32)).toBe(POISON(i32));
  });

  it('int to float rounds correctly (no double rounding through double)', () => {
    // 2^60 + 2^36 + 1 is just above the midpoint of two floats: it rounds up; via double it would tie to even (down)
    const v = (1n << 60n) + (1n << 36n) + 1n;
    expect(bigintToFloat32(v)).toBe(2 ** 60 + 2 ** 37);
    expect(Math.fround(Number(v))).toBe(2 ** 60);
    expect(constantFoldCast(Opcode.SIToFP, c(i64, v), floatType)).toBe(f(floatType, 2 ** 60 + 2 ** 37));
    expect(constantFoldCast(Opcode.UIToFP, c(i64, -1), doubleType)).toBe(f(doubleType, 18446744073709551616));
    expect(constantFoldCast(Opcode.SIToFP, c(i32, -3), floatType)).toBe(f(floatType, -3));
  });

  it('fptrunc/fpext and bitcasts', () => {
    expect(constantFoldCast(Opcode.FPTrunc, f(doubleType, 0.1), floatType)).toBe(f(floatType, Math.fround(0.1)));
    expect(constantFoldCast(Opcode.FPExt, f(floatType, 0.5), doubleType)).toBe(f(doubleType, 0.5));
    expect(constantFoldCast(Opcode.BitCast, c(i32, 1065353216), floatType)).toBe(f(floatType, 1));
    expect(constantFoldCast(Opcode.BitCast, f(doubleType, -2), i64)).toBe(c(i64, -4611686018427387904n));
    expect(constantFoldCast(Opcode.BitCast, c(i32, 0x7fc00000), floatType)).toBeNull(); // NaN
  });
});

describe('algebraic identities (existing values only)', () => {
  const x = arg(i32, 'x');
  const y = arg(i32, 'y');
  const cases: [string, () => Value | null, Value][] = [
    ['x + 0', () => simplifyBinOp(Opcode.Add, x, c(i32, 0)), x],
    ['0 + x', () => simplifyBinOp(Opcode.Add, c(i32, 0), x), x],
    ['x - 0', () => simplifyBinOp(Opcode.Sub, x, c(i32, 0)), x],
    ['x - x', () => simplifyBinOp(Opcode.Sub, x, x), c(i32, 0)],
    ['x * 1', () => simplifyBinOp(Opcode.Mul, x, c(i32, 1)), x],
    ['x * 0', () => simplifyBinOp(Opcode.Mul, x, c(i32, 0)), c(i32, 0)],
    ['x ^ x', () => simplifyBinOp(Opcode.Xor, x, x), c(i32, 0)],
    ['x & x', () => simplifyBinOp(Opcode.And, x, x), x],
    ['x | x', () => simplifyBinOp(Opcode.Or, x, x), x],
    ['x & 0', () => simplifyBinOp(Opcode.And, x, c(i32, 0)), c(i32, 0)],
    ['x | -1', () => simplifyBinOp(Opcode.Or, x, c(i32, -1)), c(i32, -1)],
    ['x / 1', () => simplifyBinOp(Opcode.SDiv, x, c(i32, 1)), x],
    ['x % 1', () => simplifyBinOp(Opcode.URem, x, c(i32, 1)), c(i32, 0)],
    ['x srem -1', () => simplifyBinOp(Opcode.SRem, x, c(i32, -1)), c(i32, 0)],
    ['x << 0', () => simplifyBinOp(Opcode.Shl, x, c(i32, 0)), x],
    ['x >> 32', () => simplifyBinOp(Opcode.LShr, x, c(i32, 32)), POISON(i32)],
    ['(x + 7) - 7', () => simplifyBinOp(Opcode.Sub, bin(Opcode.Add, x, c(i32, 7), Flag.NSW), c(i32, 7)), x],
    ['(x - y) + y', () => simplifyBinOp(Opcode.Add, bin(Opcode.Sub, x, y), y), x],
    ['x - (x - y)', () => simplifyBinOp(Opcode.Sub, x, bin(Opcode.Sub, x, y)), y],
    ['0 - (0 - x)', () => simplifyBinOp(Opcode.Sub, c(i32, 0), bin(Opcode.Sub, c(i32, 0), x)), x],
    ['~~x', () => simplifyBinOp(Opcode.Xor, bin(Opcode.Xor, x, c(i32, -1)), c(i32, -1)), x],
    ['x & ~x', () => simplifyBinOp(Opcode.And, x, bin(Opcode.Xor, x, c(i32, -1))), c(i32, 0)],
    ['x + ~x', () => simplifyBinOp(Opcode.Add, x, bin(Opcode.Xor, x, c(i32, -1))), c(i32, -1)],
    ['(x *nsw y) sdiv y', () => simplifyBinOp(Opcode.SDiv, bin(Opcode.Mul, x, y, Flag.NSW), y), x],
  ];
  for (const [name, fn, want] of cases) {
    it(name, () => expect(fn()).toBe(want));
  }

  it('idempotence: (x | y) | y and y & (x & y) return the inner operation (LLVM: simplifyAssociativeBinOp)', () => {
    const o = bin(Opcode.Or, x, y);
    expect(simplifyBinOp(Opcode.Or, o, y)).toBe(o);
    expect(simplifyBinOp(Opcode.Or, x, o)).toBe(o);
    expect(simplifyBinOp(Opcode.Or, o, arg(i32, 'z'))).toBeNull();
    const a = bin(Opcode.And, x, y);
    expect(simplifyBinOp(Opcode.And, y, a)).toBe(a);
    expect(simplifyBinOp(Opcode.And, a, x)).toBe(a);
    // not for xor: (x ^ y) ^ y is x
    expect(simplifyBinOp(Opcode.Xor, bin(Opcode.Xor, x, y), y)).toBe(x);
  });

  it('a mask covering all bits of a zext returns the zext', () => {
    const z = new Instruction(Opcode.ZExt, i32, [arg(i8)]);
    expect(simplifyBinOp(Opcode.And, z, c(i32, 255))).toBe(z);
    expect(simplifyBinOp(Opcode.And, z, c(i32, 127))).toBeNull();
  });

  it('never folds division by zero to anything', () => {
    expect(simplifyBinOp(Opcode.SDiv, x, c(i32, 0))).toBeNull();
    expect(simplifyBinOp(Opcode.URem, c(i32, 0), c(i32, 0))).toBeNull();
  });

  it('double negation of floats; x + -0.0; x * 1.0', () => {
    const d = arg(doubleType, 'd');
    const neg = new Instruction(Opcode.FNeg, doubleType, [d]);
    expect(simplifyInstruction(new Instruction(Opcode.FNeg, doubleType, [neg]))).toBe(d);
    expect(simplifyBinOp(Opcode.FAdd, d, f(doubleType, -0))).toBe(d);
    expect(simplifyBinOp(Opcode.FAdd, d, f(doubleType, 0))).toBeNull(); // -0 + 0 = +0
    expect(simplifyBinOp(Opcode.FAdd, d, f(doubleType, 0), Flag.NSZ)).toBe(d);
    expect(simplifyBinOp(Opcode.FMul, d, f(doubleType, 1))).toBe(d);
  });
});

describe('compares of known values', () => {
  const x = arg(i32, 'x');
  it('x == x, ranges at the ends of the type', () => {
    expect(simplifyICmp(Pred.EQ, x, x)).toBe(ConstantInt.true());
    expect(simplifyICmp(Pred.SLT, x, x)).toBe(ConstantInt.false());
    expect(simplifyICmp(Pred.ULT, x, c(i32, 0))).toBe(ConstantInt.false());
    expect(simplifyICmp(Pred.UGE, x, c(i32, 0))).toBe(ConstantInt.true());
    expect(simplifyICmp(Pred.UGT, c(i32, 0), x)).toBe(ConstantInt.false()); // swapped: x u< 0
    expect(simplifyICmp(Pred.SLE, x, c(i32, 2147483647))).toBe(ConstantInt.true());
    expect(simplifyICmp(Pred.SLT, x, c(i32, -2147483648))).toBe(ConstantInt.false());
  });
  it('known ranges of zext, and, urem', () => {
    const z = new Instruction(Opcode.ZExt, i32, [arg(i8)]);
    expect(simplifyICmp(Pred.EQ, z, c(i32, 300))).toBe(ConstantInt.false());
    expect(simplifyICmp(Pred.ULT, z, c(i32, 256))).toBe(ConstantInt.true());
    expect(simplifyICmp(Pred.SGE, z, c(i32, 0))).toBe(ConstantInt.true());
    expect(simplifyICmp(Pred.SLT, bin(Opcode.And, x, c(i32, 15)), c(i32, 16))).toBe(ConstantInt.true());
    expect(simplifyICmp(Pred.ULT, bin(Opcode.URem, x, c(i32, 10)), c(i32, 10))).toBe(ConstantInt.true());
    expect(simplifyICmp(Pred.ULT, bin(Opcode.URem, x, c(i32, 10)), c(i32, 9))).toBeNull();
  });
  it('i1: b != false is b', () => {
    const b = arg(i1, 'b');
    expect(simplifyICmp(Pred.NE, b, ConstantInt.false())).toBe(b);
    expect(simplifyICmp(Pred.EQ, b, ConstantInt.true())).toBe(b);
  });
  it('undef and poison operands', () => {
    expect(constantFoldCompare(Pred.SLT, UndefValue.get(i32), c(i32, 5))).toBe(ConstantInt.false());
    expect(constantFoldCompare(Pred.SLE, UndefValue.get(i32), c(i32, 5))).toBe(ConstantInt.true());
    expect(constantFoldCompare(Pred.EQ, POISON(i32), c(i32, 5))).toBe(POISON(i1));
  });
});

describe('select, phi, GEP, casts, loads of constants', () => {
  const x = arg(i32, 'x');
  const y = arg(i32, 'y');
  const b = arg(i1, 'b');
  it('select', () => {
    expect(simplifySelect(ConstantInt.true(), x, y)).toBe(x);
    expect(simplifySelect(ConstantInt.false(), x, y)).toBe(y);
    expect(simplifySelect(b, x, x)).toBe(x);
    expect(simplifySelect(b, ConstantInt.true(), ConstantInt.false())).toBe(b);
    expect(simplifySelect(b, x, y)).toBeNull();
    const eq = new Instruction(Opcode.ICmp, i1, [x, y]);
    eq.pred = Pred.EQ;
    expect(simplifySelect(eq, x, y)).toBe(y);
  });
  it('phi of equal values, self references, undef', () => {
    const phi = new Instruction(Opcode.Phi, i32, []);
    expect(simplifyPhiValues([x, x, x])).toBe(x);
    expect(simplifyPhiValues([x, phi, x], phi)).toBe(x);
    expect(simplifyPhiValues([x, y])).toBeNull();
    expect(simplifyPhiValues([x, UndefValue.get(i32)])).toBe(x); // an argument dominates everything
    const inst = bin(Opcode.Add, x, y);
    expect(simplifyPhiValues([inst, UndefValue.get(i32)])).toBeNull(); // no dominance information
    expect(simplifyPhiValues([inst, UndefValue.get(i32)], null, () => true)).toBe(inst);
  });
  it('GEP with zero indices is its base; casts that round-trip', () => {
    const p = arg(ptr, 'p');
    expect(simplifyGEP(i32, p, [c(i64, 0)])).toBe(p);
    expect(simplifyGEP(i32, p, [c(i64, 1)])).toBeNull();
    const z = new Instruction(Opcode.ZExt, i64, [x]);
    expect(simplifyCast(Opcode.Trunc, z, i32)).toBe(x);
    expect(simplifyCast(Opcode.Trunc, z, i16)).toBeNull();
    expect(simplifyCast(Opcode.BitCast, x, i32)).toBe(x);
  });
  it('loads from constant globals and constant expressions', () => {
    const ir = `
@tab = private constant [4 x i32] [i32 10, i32 20, i32 30, i32 40]
@s = private constant { i8, i32 } { i8 7, i32 99 }
@str = private constant [3 x i8] c"ab\\00"
@g = global i32 5
define i32 @f() {
  %a = load i32, ptr getelementptr inbounds ([4 x i32], ptr @tab, i64 0, i64 2)
  %b = load i32, ptr getelementptr inbounds ({ i8, i32 }, ptr @s, i32 0, i32 1)
  %c = load i8, ptr getelementptr inbounds ([3 x i8], ptr @str, i64 0, i64 1)
  %d = load i32, ptr @g
  %e = add i32 %a, %b
  %f = zext i8 %c to i32
  %h = add i32 %e, %f
  %k = add i32 %h, %d
  ret i32 %k
}`;
    expect(bodyAfter(ir, 'instsimplify')).toEqual(['%d = load i32, ptr @g', '%k = add i32 227, %d', 'ret i32 %k']);
  });
  it('constant expressions fold one level at a time', () => {
    const e = ConstantExpr.get(Opcode.Add, i32, [c(i32, 2), c(i32, 3)]);
    expect(constantFoldConstantExpr(e)).toBe(c(i32, 5));
    const nested = ConstantExpr.get(Opcode.Mul, i32, [e, c(i32, 4)]);
    expect(constantFoldConstantExpr(nested)).toBe(c(i32, 20));
  });
});

describe('the instsimplify pass', () => {
  it('replaces and deletes, never creates instructions', () => {
    const ir = `
define i32 @f(i32 %x, i32 %y, i1 %b) {
entry:
  %a = add i32 %x, 0
  %s = sub i32 %a, %a
  %m = mul i32 %y, 1
  %t = select i1 %b, i32 %m, i32 %m
  %u = or i32 %t, %s
  %v = mul i32 %u, 2
  ret i32 %v
}`;
    const { m, pm } = optimize(ir, 'instsimplify');
    expect(bodyAfter(ir, 'instsimplify')).toEqual(['entry:', '%v = mul i32 %y, 2', 'ret i32 %v']);
    expect(statOf(pm, 'instsimplify', 'instructions simplified')).toBe(5);
    void m;
  });
  it('folds phis with one incoming value, keeps the CFG', () => {
    const ir = `
define i32 @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %j
b:
  br label %j
j:
  %p = phi i32 [ %x, %a ], [ %x, %b ]
  %q = add i32 %p, 0
  ret i32 %q
}`;
    expect(bodyAfter(ir, 'instsimplify')).toEqual(['entry:', 'br i1 %c, label %a, label %b', 'a:', 'br label %j', 'b:', 'br label %j', 'j:', 'ret i32 %x']);
  });
});

describeDifferential('instsimplify keeps behaviour', ['instsimplify'], corpusPrograms());
describeDifferential('instsimplify keeps behaviour (generated)', ['instsimplify,dce'], generatedPrograms(50, 1));
