/**
 * The verifier: one test per rule with hand-built broken IR (the IRBuilder, or raw
 * `new Instruction` where the builder would not produce the mistake; parsed `.ll` where the
 * parser lets the mistake through), plus: every test/programs module verifies clean.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BasicBlock,
  ConstantInt,
  Function,
  IRBuilder,
  Instruction,
  Module,
  Opcode,
  Pred,
  c32,
  doubleType,
  floatType,
  functionType,
  i1,
  i16,
  i32,
  i64,
  i8,
  ptr,
  structType,
  vectorType,
  voidType,
} from '../../src/ir/index.js';
import { ConstantZero } from '../../src/ir/index.js';
import { CFG } from '../../src/analysis/cfg.js';
import { computeDominators, type DominatorTree } from '../../src/analysis/dominators.js';
import { VerifierError, assertValid, verifyFunction, verifyModule } from '../../src/analysis/verifier.js';
import { parseModule } from '../../src/text/index.js';
import { printInstruction } from '../../src/text/printer.js';
import { LLVM_MISSING, clangFileToLL, hasLlvm, listPrograms } from '../helpers/llvm.js';

interface Fixture {
  m: Module;
  fn: Function;
  b: IRBuilder;
  entry: BasicBlock;
  block(name: string): BasicBlock;
}

/** `define RET @f(i32 %a, i32 %b, i1 %c, ptr %p, double %d)` with an entry block. */
function setup(ret = voidType): Fixture {
  const m = new Module('t');
  const fn = m.addFunction(new Function('f', functionType(ret, [i32, i32, i1, ptr, doubleType]), ['a', 'b', 'c', 'p', 'd']));
  const entry = fn.appendBlock(new BasicBlock('entry'));
  const b = new IRBuilder(entry);
  return { m, fn, b, entry, block: (name) => fn.appendBlock(new BasicBlock(name)) };
}
const ConstantZeroOf = (t: import('../../src/ir/index.js').Type) => ConstantZero.get(t);
const A = (f: Fixture, k: number) => f.fn.args[k];

/** Exactly one problem, matching `re`; returns it. */
function one(fn: Function, re: RegExp): VerifierError {
  const errs = verifyFunction(fn);
  expect(errs.map((e) => e.message), 'problems').toHaveLength(1);
  expect(errs[0].message).toMatch(re);
  return errs[0];
}
function clean(fn: Function): void {
  expect(verifyFunction(fn).map((e) => e.message)).toEqual([]);
}
function raw(f: Fixture, op: Opcode, type: import('../../src/ir/index.js').Type, ops: import('../../src/ir/index.js').Value[], name = ''): Instruction {
  return f.b.insert(new Instruction(op, type, ops), name);
}

describe('block shape', () => {
  it('accepts a well-formed function', () => {
    const f = setup(i32);
    const x = f.b.add(A(f, 0), A(f, 1), 'x');
    f.b.ret(x);
    clean(f.fn);
  });

  it('an empty block', () => {
    const f = setup();
    f.b.ret();
    f.block('empty');
    one(f.fn, /block %empty: basic block has no terminator/);
  });

  it('a block that does not end in a terminator', () => {
    const f = setup(i32);
    f.b.add(A(f, 0), A(f, 1), 'x');
    const e = one(f.fn, /does not end in a terminator/);
    expect(e.instruction).toBe('%x = add i32 %a, %b');
    expect(e.functionName).toBe('f');
    expect(e.blockName).toBe('%entry');
  });

  it('a terminator in the middle of a block', () => {
    const f = setup();
    f.b.ret();
    f.b.ret();
    one(f.fn, /terminator found in the middle/);
  });

  it('phis not grouped at the top', () => {
    const f = setup();
    const body = f.block('body');
    f.b.br(body);
    f.b.setInsertPoint(body);
    f.b.add(A(f, 0), A(f, 1));
    const phi = body.append(new Instruction(Opcode.Phi, i32, [A(f, 0)]));
    phi.blocks = [f.entry];
    f.b.ret();
    one(f.fn, /PHI nodes not grouped at top/);
  });

  it('the entry block has predecessors', () => {
    const f = setup();
    f.b.br(f.entry);
    one(f.fn, /entry block has predecessors/);
  });

  it('the entry block has phis', () => {
    const f = setup();
    const phi = f.b.phi(i32, 'p');
    void phi;
    f.b.ret();
    one(f.fn, /entry block cannot have PHI nodes/);
  });
});

describe('several problems', () => {
  // The verifier checks its rules in one walk, but reports them group by group, in LLVM's
  // order: structure, block shape, operands and types, CFG and phis, dominance.
  it('are reported group by group, whatever their place in the function', () => {
    const f = setup(i32);
    const next = f.block('next');
    const x = f.b.add(A(f, 0), A(f, 1), 'x');
    raw(f, Opcode.Add, i32, [x, A(f, 4)], 'bad'); // operands: i32 + double
    f.b.br(next);
    f.b.setInsertPoint(next);
    const y = f.b.add(A(f, 0), A(f, 0), 'y');
    f.b.add(y, y, 'z'); // shape: no terminator, after the operand problem in layout order
    f.fn.firstBlock!.first!.setOperand(0, y); // dominance: %x uses %y of a later block
    const msgs = verifyFunction(f.fn).map((e) => e.message.split('\n')[0]);
    expect(msgs).toEqual([
      '@f, block %next: basic block does not end in a terminator',
      "@f, block %entry: Both operands to a binary operator are not of the same type! ('i32' and 'double')",
      '@f, block %entry: Instruction does not dominate all uses! (%y is defined in %next, which does not dominate %entry)',
    ]);
  });

  it('broken block ids stop the checks after the structure group', () => {
    const f = setup();
    const other = f.block('other');
    f.b.br(other);
    f.b.setInsertPoint(other);
    raw(f, Opcode.Add, i32, [A(f, 0), A(f, 4)]); // would be an operand problem
    f.b.ret();
    other.id = f.entry.id;
    const msgs = verifyFunction(f.fn).map((e) => e.message.split('\n')[0]);
    expect(msgs).toEqual([`@f, block %other: block id ${f.entry.id} is not unique and below blockIdBound ${f.fn.blockIdBound} (call fn.renumber())`]);
  });
});

describe('phi entries', () => {
  function diamond(): Fixture & { l: BasicBlock; r: BasicBlock; j: BasicBlock } {
    const f = setup(i32);
    const l = f.block('l');
    const r = f.block('r');
    const j = f.block('j');
    f.b.condBr(A(f, 2), l, r);
    f.b.setInsertPoint(l).br(j);
    f.b.setInsertPoint(r).br(j);
    f.b.setInsertPoint(j);
    return { ...f, l, r, j };
  }

  it('one entry per predecessor', () => {
    const f = diamond();
    const p = f.b.phi(i32, 'p');
    p.addIncoming(A(f, 0), f.l);
    p.addIncoming(A(f, 1), f.r);
    f.b.ret(p);
    clean(f.fn);
  });

  it('a missing predecessor', () => {
    const f = diamond();
    const p = f.b.phi(i32, 'p');
    p.addIncoming(A(f, 0), f.l);
    f.b.ret(p);
    one(f.fn, /PHI node should have one entry for each predecessor/);
  });

  it('an entry for a block that is not a predecessor', () => {
    const f = diamond();
    const p = f.b.phi(i32, 'p');
    p.addIncoming(A(f, 0), f.l);
    p.addIncoming(A(f, 1), f.r);
    p.addIncoming(A(f, 1), f.entry);
    f.b.ret(p);
    one(f.fn, /entry for %entry does not match any predecessor/);
  });

  it('a predecessor with two edges (br to the same block twice) needs two equal entries', () => {
    const build = (vals: number[]) => {
      const f = setup(i32);
      const j = f.block('j');
      f.b.condBr(A(f, 2), j, j);
      f.b.setInsertPoint(j);
      const p = f.b.phi(i32, 'p');
      for (const v of vals) p.addIncoming(A(f, v), f.entry);
      f.b.ret(p);
      return f.fn;
    };
    clean(build([0, 0]));
    one(build([0]), /should have one entry for each predecessor.*1 entries, 2 incoming edges/);
    one(build([0, 1]), /multiple entries for the same basic block \(%entry\) with different incoming values/);
  });

  it('switch cases to the same block count as separate edges', () => {
    const text = `
define i32 @f(i32 %x) {
entry:
  switch i32 %x, label %d [ i32 1, label %j
                            i32 2, label %j ]
d:
  br label %j
j:
  %p = phi i32 [ 1, %entry ], [ 2, %d ]
  ret i32 %p
}`;
    const m = parseModule(text, 't.ll');
    one(m.functions[0], /should have one entry for each predecessor.*2 entries, 3 incoming edges/);
    const ok = parseModule(text.replace('[ 1, %entry ], [ 2, %d ]', '[ 1, %entry ], [ 1, %entry ], [ 2, %d ]'), 't.ll');
    clean(ok.functions[0]);
  });
});

describe('broken phis', () => {
  it('a phi entry without a block is reported, and the phi still prints (with <badref>)', () => {
    const f = setup(i32);
    const j = f.block('j');
    f.b.br(j);
    f.b.setInsertPoint(j);
    const p = f.b.phi(i32, 'q');
    p.addIncoming(A(f, 0), f.fn.firstBlock!);
    p.blocks!.push(null as unknown as BasicBlock); // what a pass bug once left: a value with no block
    p.addOperand(A(f, 1));
    f.b.ret(p);
    one(f.fn, /PHI entry 1 has no incoming block/);
    expect(printInstruction(p)).toBe('%q = phi i32 [ %a, %entry ], [ %b, <badref> ]');
  });
});

describe('dominance', () => {
  /** entry branches to %l and %j, %l defines %x and goes to %j; the builder is left at %j. */
  function xOnOneSide() {
    const f = setup(i32);
    const l = f.block('l');
    const j = f.block('j');
    f.b.condBr(A(f, 2), l, j);
    f.b.setInsertPoint(l);
    const x = f.b.add(A(f, 0), A(f, 1), 'x');
    f.b.br(j);
    f.b.setInsertPoint(j);
    return { f, x };
  }

  it('a use in a block the definition does not dominate', () => {
    const { f, x } = xOnOneSide();
    f.b.ret(x);
    const e = one(f.fn, /Instruction does not dominate all uses! \(%x is defined in %l, which does not dominate %j\)/);
    expect(e.instruction).toBe('ret i32 %x');
  });

  it('a use before the definition in the same block', () => {
    const f = setup(i32);
    const y = f.b.add(A(f, 0), A(f, 1), 'y');
    const x = f.b.add(A(f, 0), A(f, 1), 'x');
    y.setOperand(1, x);
    f.b.ret(y);
    one(f.fn, /does not dominate all uses! \(%x is defined later in the block\)/);
  });

  it('the same-block order without usable instruction ids (the layout is then numbered by a map)', () => {
    const f = setup(i32);
    const y = f.b.add(A(f, 0), A(f, 1), 'y');
    const x = f.b.add(A(f, 0), A(f, 1), 'x');
    const z = f.b.add(y, A(f, 1), 'z'); // an earlier definition: fine
    y.setOperand(1, x);
    f.b.ret(z);
    for (const i of [y, x, z]) i.id = 0; // not unique: the verifier cannot index by id
    one(f.fn, /does not dominate all uses! \(%x is defined later in the block\)/);
    y.setOperand(1, A(f, 1));
    clean(f.fn);
  });

  it('reports dominance problems in layout order', () => {
    const { f, x } = xOnOneSide();
    const w = f.b.add(A(f, 0), A(f, 1), 'w');
    const v = f.b.add(x, A(f, 1), 'v'); // %x does not dominate %j
    w.setOperand(0, v); // %v is defined later in %j
    f.b.ret(w);
    const msgs = verifyFunction(f.fn).map((e) => e.detail);
    expect(msgs).toEqual([
      'Instruction does not dominate all uses! (%v is defined later in the block)',
      'Instruction does not dominate all uses! (%x is defined in %l, which does not dominate %j)',
    ]);
  });

  it('a phi use must be available at the end of the incoming block', () => {
    const f = setup(i32);
    const l = f.block('l');
    const r = f.block('r');
    const j = f.block('j');
    f.b.condBr(A(f, 2), l, r);
    f.b.setInsertPoint(l);
    const x = f.b.add(A(f, 0), A(f, 1), 'x');
    f.b.br(j);
    f.b.setInsertPoint(r).br(j);
    f.b.setInsertPoint(j);
    const p = f.b.phi(i32, 'p');
    p.addIncoming(x, f.l === undefined ? l : l);
    p.addIncoming(A(f, 0), r);
    f.b.ret(p);
    clean(f.fn);
    p.setIncomingValue(1, x); // %x flows in from %r, where it is not defined
    one(f.fn, /not available at the end of %r/);
  });

  it('only phis may use themselves; a loop phi may', () => {
    const f = setup(i32);
    const x = f.b.add(A(f, 0), A(f, 1), 'x');
    x.setOperand(1, x);
    f.b.ret(x);
    one(f.fn, /Only PHI nodes may reference their own value/);

    const g = setup(i32);
    const loop = g.block('loop');
    g.b.br(loop);
    g.b.setInsertPoint(loop);
    const p = g.b.phi(i32, 'p');
    p.addIncoming(A(g, 0), g.entry);
    p.addIncoming(p, loop);
    g.b.condBr(A(g, 2), loop, loop);
    p.addIncoming(p, loop);
    clean(g.fn);
  });

  it('uses in unreachable blocks are exempt (as in LLVM); definitions there do not dominate', () => {
    const f = setup(i32);
    f.b.ret(A(f, 0));
    const dead = f.block('dead');
    f.b.setInsertPoint(dead);
    const y = f.b.add(A(f, 0), A(f, 1), 'y');
    const x = f.b.add(y, A(f, 1), 'x');
    y.setOperand(1, x); // a cycle of uses, legal in unreachable code
    f.b.ret(x);
    clean(f.fn);
  });

  it('values and blocks of another function', () => {
    const f = setup(i32);
    const g = setup(i32);
    const gx = g.b.add(A(g, 0), A(g, 1), 'gx');
    g.b.ret(gx);
    f.b.ret(gx);
    expect(verifyFunction(f.fn).map((e) => e.message).join('\n')).toMatch(/instruction of another function \(@f\)/);
    const h = setup(i32);
    h.b.ret(A(g, 0));
    one(h.fn, /argument of another function/);
    const k = setup();
    k.b.br(g.entry);
    one(k.fn, /block of another function/);
  });
});

describe('types', () => {
  it('binary operators: same type operands and result, int vs fp', () => {
    let f = setup();
    raw(f, Opcode.Add, i32, [A(f, 0), ConstantInt.get(i64, 1)]);
    f.b.ret();
    one(f.fn, /Both operands to a binary operator are not of the same type! \('i32' and 'i64'\)/);
    f = setup();
    raw(f, Opcode.Add, i64, [A(f, 0), A(f, 1)]);
    f.b.ret();
    one(f.fn, /result type 'i64' differs/);
    f = setup();
    raw(f, Opcode.FAdd, i32, [A(f, 0), A(f, 1)]);
    f.b.ret();
    one(f.fn, /Floating-point arithmetic operators only work with floating-point types/);
    f = setup();
    raw(f, Opcode.Xor, doubleType, [A(f, 4), A(f, 4)]);
    f.b.ret();
    one(f.fn, /Integer arithmetic operators only work with integral types/);
  });

  it('icmp/fcmp: operand types and an i1 (or <N x i1>) result', () => {
    let f = setup();
    f.b.icmp(Pred.SLT, A(f, 0), ConstantInt.get(i8, 1));
    f.b.ret();
    one(f.fn, /Both operands to icmp instruction are not of same type/);
    f = setup();
    raw(f, Opcode.ICmp, i32, [A(f, 0), A(f, 1)]).pred = Pred.EQ;
    f.b.ret();
    one(f.fn, /icmp result must be i1/);
    f = setup();
    const v4 = vectorType(i32, 4);
    const vec = raw(f, Opcode.InsertElement, v4, [ConstantZeroOf(v4), A(f, 0), c32(0)]);
    f.b.icmp(Pred.EQ, vec, vec); // <4 x i1>
    raw(f, Opcode.ICmp, i1, [vec, vec]).pred = Pred.EQ;
    f.b.ret();
    one(f.fn, /icmp result must be i1 or a vector of i1 matching the operands, not 'i1'/);
    f = setup();
    f.b.fcmp(Pred.FCMP_OLT, A(f, 0), A(f, 1));
    f.b.ret();
    one(f.fn, /Invalid operand types for FCmp/);
  });

  it('load and store need a pointer address; store value first-class', () => {
    let f = setup();
    f.b.load(i32, A(f, 0));
    f.b.ret();
    one(f.fn, /Load operand must be a pointer, not 'i32'/);
    f = setup();
    f.b.store(A(f, 0), A(f, 1));
    f.b.ret();
    one(f.fn, /Store address operand must be a pointer/);
    f = setup();
    const st = f.b.store(A(f, 0), A(f, 3));
    raw(f, Opcode.Store, voidType, [st, A(f, 3)]);
    f.b.ret();
    expect(verifyFunction(f.fn).map((e) => e.message).join('\n')).toMatch(/instruction without a result/);
  });

  it('casts must be legal', () => {
    const cases: [Opcode, number, import('../../src/ir/index.js').Type, RegExp][] = [
      [Opcode.Trunc, 0, i64, /trunc from 'i32' to 'i64'/],
      [Opcode.ZExt, 0, i16, /zext from 'i32' to 'i16'/],
      [Opcode.SExt, 0, i32, /sext from 'i32' to 'i32'/],
      [Opcode.FPTrunc, 4, doubleType, /fptrunc from 'double' to 'double'/],
      [Opcode.FPExt, 4, floatType, /fpext from 'double' to 'float'/],
      [Opcode.FPToSI, 0, i32, /fptosi from 'i32'/],
      [Opcode.SIToFP, 4, doubleType, /sitofp from 'double'/],
      [Opcode.PtrToInt, 0, i64, /ptrtoint from 'i32'/],
      [Opcode.IntToPtr, 0, i64, /inttoptr from 'i32' to 'i64'/],
      [Opcode.BitCast, 0, i64, /bitcast from 'i32' to 'i64' \(sizes differ\)/],
    ];
    for (const [op, arg, to, re] of cases) {
      const f = setup();
      f.b.cast(op, A(f, arg), to);
      f.b.ret();
      one(f.fn, re);
    }
    const ok = setup();
    ok.b.trunc(A(ok, 0), i8);
    ok.b.sext(A(ok, 0), i64);
    ok.b.cast(Opcode.FPTrunc, A(ok, 4), floatType);
    ok.b.cast(Opcode.PtrToInt, A(ok, 3), i64);
    ok.b.cast(Opcode.BitCast, A(ok, 4), i64);
    ok.b.ret();
    clean(ok.fn);
  });

  it('select condition i1, equal value types', () => {
    let f = setup();
    f.b.select(A(f, 0), A(f, 0), A(f, 1));
    f.b.ret();
    one(f.fn, /select condition must be i1/);
    f = setup();
    f.b.select(A(f, 2), A(f, 0), A(f, 4));
    f.b.ret();
    one(f.fn, /Both values of a select must have the same type/);
  });

  it('br condition i1', () => {
    const f = setup();
    const t = f.block('t');
    f.b.condBr(A(f, 0), t, t);
    f.b.setInsertPoint(t).ret();
    one(f.fn, /Branch condition is not 'i1' type! \('i32'\)/);
  });

  it('switch: integer condition, case constants of its type and distinct', () => {
    let f = setup();
    const t = f.block('t');
    f.b.switch(A(f, 4), t);
    f.b.setInsertPoint(t).ret();
    one(f.fn, /switch condition must be an integer, not 'double'/);
    f = setup();
    let t2 = f.block('t');
    f.b.switch(A(f, 0), t2, [[ConstantInt.get(i64, 1), t2]]);
    f.b.setInsertPoint(t2).ret();
    one(f.fn, /Switch constants must all be same type as switch value/);
    f = setup();
    t2 = f.block('t');
    f.b.switch(A(f, 0), t2, [[c32(1), t2], [c32(1), t2]]);
    f.b.setInsertPoint(t2).ret();
    one(f.fn, /Duplicate integer as switch case \(1\)/);
    f = setup();
    t2 = f.block('t');
    f.b.switch(A(f, 0), t2, [[A(f, 1), t2]]);
    f.b.setInsertPoint(t2).ret();
    one(f.fn, /switch case 0 is not an integer constant/);
  });

  it('ret matches the function type', () => {
    let f = setup(i32);
    f.b.ret(A(f, 4));
    one(f.fn, /Function return type 'i32' does not match operand type of return inst! \('double'\)/);
    f = setup(i32);
    f.b.ret();
    one(f.fn, /ret has no value/);
    f = setup();
    f.b.ret(A(f, 0));
    one(f.fn, /returns non-void in Function of void return type/);
  });

  it('phi incoming values have the phi type', () => {
    const f = setup(i32);
    const j = f.block('j');
    f.b.br(j);
    f.b.setInsertPoint(j);
    const p = f.b.phi(i32, 'p');
    p.addIncoming(A(f, 4), f.entry);
    f.b.ret(p);
    one(f.fn, /PHI node operands are not the same type as the result! \(entry 0 is 'double', phi is 'i32'\)/);
  });

  it('GEP: integer indices, constant i32 struct indices in range, no indexing into scalars', () => {
    const s = structType([i32, doubleType]);
    let f = setup();
    f.b.gep(s, A(f, 3), [c32(0), c32(1)]);
    f.b.ret();
    clean(f.fn);
    f = setup();
    f.b.gep(s, A(f, 3), [c32(0), A(f, 0)]);
    f.b.ret();
    one(f.fn, /struct indices in a GEP must be i32 constants/);
    f = setup();
    f.b.gep(s, A(f, 3), [c32(0), c32(2)]);
    f.b.ret();
    one(f.fn, /field 2 of '\{ i32, double \}'/);
    f = setup();
    f.b.gep(s, A(f, 3), [c32(0), ConstantInt.get(i64, 1)]);
    f.b.ret();
    one(f.fn, /must be i32 constants/);
    f = setup();
    f.b.gep(i32, A(f, 3), [c32(0), c32(1)]);
    f.b.ret();
    one(f.fn, /cannot index into 'i32'/);
    f = setup();
    f.b.gep(i32, A(f, 3), [A(f, 4)]);
    f.b.ret();
    one(f.fn, /GEP indexes must be integers/);
    f = setup();
    f.b.gep(i32, A(f, 0), [c32(1)]);
    f.b.ret();
    one(f.fn, /GEP base pointer/);
  });

  it('calls: argument count and types, varargs, result type', () => {
    const mk = (vararg = false) => {
      const f = setup();
      const callee = f.m.addFunction(new Function('g', functionType(i32, [i32, ptr], vararg)));
      return { f, callee };
    };
    let { f, callee } = mk();
    f.b.call(callee, [A(f, 0), A(f, 3)]);
    f.b.ret();
    clean(f.fn);
    ({ f, callee } = mk());
    f.b.call(callee, [A(f, 0)]);
    f.b.ret();
    one(f.fn, /Incorrect number of arguments passed to called function! \(1 given, 2 expected\)/);
    ({ f, callee } = mk());
    f.b.call(callee, [A(f, 0), A(f, 1)]);
    f.b.ret();
    one(f.fn, /argument 1 is 'i32', parameter is 'ptr'/);
    ({ f, callee } = mk(true));
    f.b.call(callee, [A(f, 0), A(f, 3), A(f, 4), A(f, 0)]);
    f.b.ret();
    clean(f.fn);
    ({ f, callee } = mk(true));
    f.b.call(callee, [A(f, 0)]);
    f.b.ret();
    one(f.fn, /1 given, at least 2 expected/);
    ({ f, callee } = mk());
    const c = f.b.call(callee, [A(f, 0), A(f, 3)]);
    c.type = i64;
    f.b.ret();
    one(f.fn, /call result type 'i64' differs from the callee's return type 'i32'/);
  });

  it('a void instruction cannot have a name', () => {
    const f = setup();
    f.b.store(A(f, 0), A(f, 3)).name = 's';
    f.b.ret();
    one(f.fn, /has a name, but provides a void value/);
  });
});

describe('reporting', () => {
  it('assertValid throws one VerifierError with every problem, naming function, block and instruction', () => {
    const f = setup(i32);
    f.b.ret(A(f, 4));
    const g = f.m.addFunction(new Function('g', functionType(voidType, [])));
    const gb = g.appendBlock(new BasicBlock(''));
    new IRBuilder(gb).add(c32(1), c32(2));
    expect(verifyModule(f.m)).toHaveLength(2);
    let err: unknown;
    try {
      assertValid(f.m);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VerifierError);
    const ve = err as VerifierError;
    expect(ve.errors).toHaveLength(2);
    expect(ve.message).toContain('@f, block %entry: Function return type');
    expect(ve.message).toContain('ret double %d');
    expect(ve.message).toContain('@g, block %0: basic block does not end in a terminator');
    expect(ve.message).toContain('%1 = add i32 1, 2');
    const ok = setup();
    ok.b.ret();
    expect(() => assertValid(ok.m)).not.toThrow();
    expect(() => assertValid(ok.fn)).not.toThrow();
  });

  it('parsed IR that the parser accepts but the verifier rejects', () => {
    const m = parseModule(
      `define i32 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %x = add i32 1, 2
  br label %b
b:
  ret i32 %x
}`,
      't.ll',
    );
    one(m.functions[0], /%x is defined in %a, which does not dominate %b/);
  });
});

describe('scale', () => {
  it('verifies a 300,000-instruction function', () => {
    const f = setup(i32);
    let v = A(f, 0);
    let bb = f.entry;
    for (let k = 0; k < 30000; k++) {
      for (let j = 0; j < 9; j++) v = f.b.add(v, A(f, 1));
      const nb = f.block('');
      f.b.br(nb);
      f.b.setInsertPoint(nb);
      bb = nb;
    }
    void bb;
    f.b.ret(v);
    clean(f.fn); // timing: see bench/; here only that it completes
  });
});

describe('onValid', () => {
  const text = `define i32 @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %m
b:
  br label %m
m:
  %p = phi i32 [ %x, %a ], [ 0, %b ]
  ret i32 %p
}
`;
  it('hands over a CFG and dominator tree equal to fresh ones, only when the function is clean', () => {
    const fn = parseModule(text).functions[0];
    const got: { cfg: CFG; dt: DominatorTree }[] = [];
    expect(verifyFunction(fn, { onValid: (cfg, dt) => got.push({ cfg, dt }) })).toEqual([]);
    expect(got.length).toBe(1);
    const cfg = new CFG(fn);
    const dt = computeDominators(cfg);
    expect([...got[0].cfg.succ]).toEqual([...cfg.succ]);
    expect([...got[0].cfg.pred]).toEqual([...cfg.pred]);
    expect([...got[0].dt.idom]).toEqual([...dt.idom]);

    const broken = parseModule(text).functions[0];
    const [, a, , m] = [...broken];
    a.first!.setOperand(0, m.first!); // `br` to the phi: not a block
    const calls: unknown[] = [];
    expect(verifyFunction(broken, { onValid: (c) => calls.push(c) }).length).toBeGreaterThan(0);
    expect(calls).toEqual([]);
  });
});

// Reason: the oracle is LLVM 19 (clang-19, lli-19, opt-19); without llvm-19 the test is reported as skipped.
describe.skipIf(!hasLlvm())('test/programs', () => {
  const programs = listPrograms(join(__dirname, '../programs'));
  for (const level of ['O0', 'O2'] as const) {
    it(`every program verifies clean at -${level}`, () => {
      for (const p of programs) {
        const ll = clangFileToLL(p.path, level);
        const errs = verifyModule(parseModule(readFileSync(ll, 'utf8'), ll));
        expect(errs.map((e) => `${p.name}: ${e.message}`)).toEqual([]);
      }
    });
  }
});
if (!hasLlvm()) console.warn(LLVM_MISSING);
