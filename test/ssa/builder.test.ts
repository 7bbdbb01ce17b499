/**
 * The Braun et al. SSA builder used as a frontend would: blocks and instructions made with
 * the IRBuilder, variables read and written, blocks sealed when their predecessors are known.
 * Includes the paper's two examples as exact expectations: the loop whose phi is trivial, and
 * the irreducible two-block cycle whose phis only the SCC algorithm removes.
 */
import { describe, expect, it } from 'vitest';
import { BasicBlock } from '../../src/ir/basic-block.js';
import { c32, IRBuilder } from '../../src/ir/builder.js';
import { UndefValue } from '../../src/ir/constants.js';
import { Function } from '../../src/ir/function.js';
import type { Instruction } from '../../src/ir/instruction.js';
import { Module } from '../../src/ir/module.js';
import { Opcode, Pred } from '../../src/ir/opcodes.js';
import { functionType, i1, i32, voidType } from '../../src/ir/types.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import { SSABuilder } from '../../src/transforms/utils/ssa-builder.js';
import { removeRedundantPhis } from '../../src/transforms/ssa/redundant-phis.js';
import { printFunction } from '../../src/text/printer.js';

function newFunction(params = [i32, i1]): { m: Module; f: Function; block: (name: string) => BasicBlock } {
  const m = new Module('test');
  const f = new Function('f', functionType(i32, params), params.map((_, k) => `a${k}`));
  m.addFunction(f);
  const block = (name: string): BasicBlock => f.appendBlock(new BasicBlock(name));
  return { m, f, block };
}

/** `f` with the blocks of a while loop (entry → header → body/exit, body → header) and an IRBuilder at entry. */
function whileLoop(): { m: Module; f: Function; entry: BasicBlock; header: BasicBlock; body: BasicBlock; exit: BasicBlock; b: IRBuilder } {
  const { m, f, block } = newFunction();
  const entry = block('entry');
  const header = block('header');
  const body = block('body');
  const exit = block('exit');
  return { m, f, entry, header, body, exit, b: new IRBuilder(entry) };
}

function countPhis(f: Function): number {
  let n = 0;
  for (const b of f) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) n++;
  return n;
}

function valid(m: Module): void {
  expect(verifyModule(m).map((e) => e.message)).toEqual([]);
}

describe('SSABuilder', () => {
  it("Braun et al.'s loop example: the header phi of a variable the loop does not change is trivial", () => {
    // a = 42; while (c) { use a }; return a
    const { m, f, entry, header, body, exit, b } = whileLoop();
    const ssa = new SSABuilder(f);
    const a = ssa.declareVariable(i32, 'a');
    ssa.sealBlock(entry);
    ssa.writeVariable(a, entry, c32(42));
    b.br(header);
    b.setInsertPoint(header);
    const inHeader = ssa.readVariable(a, header); // header is not sealed: an incomplete phi
    expect((inHeader as Instruction).op).toBe(Opcode.Phi);
    b.condBr(f.args[1], body, exit);
    ssa.sealBlock(body);
    ssa.sealBlock(exit);
    b.setInsertPoint(body);
    b.add(ssa.readVariable(a, body), c32(1), 't');
    b.br(header);
    ssa.sealBlock(header); // the phi gets [42, entry], [itself, body]: trivial
    b.setInsertPoint(exit);
    b.ret(ssa.readVariable(a, exit));
    valid(m);
    expect(countPhis(f)).toBe(0);
    expect(ssa.stats).toEqual({ phisCreated: 1, phisRemovedTrivial: 1, phisRemovedByHook: 0 });
    const text = printFunction(f);
    expect(text).toMatch(/%t = add i32 42, 1/);
    expect(text).toMatch(/ret i32 42/);
  });

  it('a frontend shortcut (Brandis and Mössenböck) reads a variable the loop does not assign from before the loop, with no phi made', () => {
    // a = 42; i = 0; while (c) { t = a + 1; i = i + t }; return a + i
    const { m, f, entry, header, body, exit, b } = whileLoop();
    // the loop (header, exit) began at the end of entry and assigns only i
    const ssa = new SSABuilder(f, { shortcut: (bb, v) => ((bb === header || bb === exit) && v === a ? entry : null) });
    const a = ssa.declareVariable(i32, 'a');
    const i = ssa.declareVariable(i32, 'i');
    ssa.sealBlock(entry);
    ssa.writeVariable(a, entry, c32(42));
    ssa.writeVariable(i, entry, c32(0));
    b.br(header);
    b.setInsertPoint(header);
    expect(ssa.readVariable(a, header)).toBe(c32(42)); // no incomplete phi for a
    b.condBr(f.args[1], body, exit);
    ssa.sealBlock(body);
    ssa.sealBlock(exit);
    b.setInsertPoint(body);
    const t = b.add(ssa.readVariable(a, body), c32(1), 't');
    ssa.writeVariable(i, body, b.add(ssa.readVariable(i, body), t, 'i.next'));
    b.br(header);
    ssa.sealBlock(header);
    b.setInsertPoint(exit);
    b.ret(b.add(ssa.readVariable(a, exit), ssa.readVariable(i, exit), 'r'));
    valid(m);
    // only i's header phi was ever made (it is not trivial); without the shortcut a's phi is made and removed
    expect(ssa.stats).toEqual({ phisCreated: 1, phisRemovedTrivial: 0, phisRemovedByHook: 0 });
    const text = printFunction(f);
    expect(text).toMatch(/%i = phi i32 \[ 0, %entry \], \[ %i.next, %body \]/);
    expect(text).toMatch(/%t = add i32 42, 1/);
    expect(text).toMatch(/%r = add i32 42, %i/);
  });

  it("Braun et al.'s irreducible example: two blocks entered separately keep a redundant phi cycle, which the SCC algorithm removes", () => {
    //        entry (x = a0)
    //        /    \
    //       A <--> B      (A and B each read x)
    //        \    /
    //         exit
    const { m, f, block } = newFunction();
    const [entry, A, B, exit] = ['entry', 'A', 'B', 'exit'].map(block);
    const b = new IRBuilder(entry);
    const ssa = new SSABuilder(f);
    const x = ssa.declareVariable(i32, 'x');
    ssa.sealBlock(entry);
    ssa.writeVariable(x, entry, f.args[0]);
    b.condBr(f.args[1], A, B);
    b.setInsertPoint(A); // A's predecessor B is not filled yet: A stays unsealed
    const ta = b.add(ssa.readVariable(x, A), c32(1), 'ta');
    b.condBr(f.args[1], B, exit);
    b.setInsertPoint(B);
    ssa.sealBlock(B); // entry and A are filled
    const tb = b.add(ssa.readVariable(x, B), c32(2), 'tb');
    b.condBr(f.args[1], A, exit);
    ssa.sealBlock(A);
    ssa.sealBlock(exit);
    b.setInsertPoint(exit);
    b.ret(ssa.readVariable(x, exit));
    valid(m);
    expect(countPhis(f)).toBe(3); // A: phi(x, phiB); B: phi(x, phiA); exit: phi(phiA, phiB)
    const st = removeRedundantPhis(f);
    valid(m);
    expect(st).toEqual({ redundant: 2, trivial: 1 });
    expect(countPhis(f)).toBe(0);
    expect(ta.operand(0)).toBe(f.args[0]);
    expect(tb.operand(0)).toBe(f.args[0]);
    expect(printFunction(f)).toMatch(/ret i32 %a0/);
  });

  it('builds the while loop of its documentation', () => {
    const { m, f, block } = newFunction([i32]);
    const [entry, header, body, exit] = ['entry', 'header', 'body', 'exit'].map(block);
    const ssa = new SSABuilder(f);
    const i = ssa.declareVariable(i32, 'i');
    const n = f.args[0];
    const b = new IRBuilder(entry);
    ssa.sealBlock(entry);
    ssa.writeVariable(i, entry, c32(0));
    b.br(header);
    b.setInsertPoint(header);
    const c = b.icmp(Pred.SLT, ssa.readVariable(i, header), n, 'c');
    b.condBr(c, body, exit);
    ssa.sealBlock(body);
    ssa.sealBlock(exit);
    b.setInsertPoint(body);
    ssa.writeVariable(i, body, b.add(ssa.readVariable(i, body), c32(1), 'next'));
    b.br(header);
    ssa.sealBlock(header);
    b.setInsertPoint(exit);
    b.ret(ssa.readVariable(i, exit));
    valid(m);
    expect(ssa.unsealedBlocks()).toEqual([]);
    const text = printFunction(f);
    expect(text).toMatch(/header:[^\n]*\n {2}%i = phi i32 \[ 0, %entry \], \[ %next, %body \]\n {2}%c = icmp slt i32 %i, %a0/);
    expect(text).toMatch(/%next = add i32 %i, 1/);
    expect(text).toMatch(/ret i32 %i/);
  });

  it('reads undef where nothing was written, in the entry and in sealed blocks without predecessors', () => {
    const { f, block } = newFunction();
    const entry = block('entry');
    const dead = block('dead');
    const ssa = new SSABuilder(f);
    const v = ssa.declareVariable(i32);
    ssa.sealBlock(entry);
    ssa.sealBlock(dead);
    expect(ssa.readVariable(v, entry)).toBe(UndefValue.get(i32));
    expect(ssa.readVariable(v, dead)).toBe(UndefValue.get(i32));
  });

  it('gives a phi one entry per edge when a branch names a block twice', () => {
    const { m, f, block } = newFunction();
    const [entry, l, r, join] = ['entry', 'l', 'r', 'join'].map(block);
    const ssa = new SSABuilder(f);
    const v = ssa.declareVariable(i32, 'v');
    const b = new IRBuilder(entry);
    ssa.sealBlock(entry);
    b.condBr(f.args[1], l, r);
    ssa.sealBlock(l);
    ssa.sealBlock(r);
    b.setInsertPoint(l);
    ssa.writeVariable(v, l, c32(1));
    b.condBr(f.args[1], join, join);
    b.setInsertPoint(r);
    ssa.writeVariable(v, r, c32(2));
    b.br(join);
    ssa.sealBlock(join);
    b.setInsertPoint(join);
    b.ret(ssa.readVariable(v, join));
    valid(m);
    const phi = join.first!;
    expect(phi.op).toBe(Opcode.Phi);
    expect(phi.numIncoming).toBe(3);
  });

  it('the simplifyPhi hook folds phis on the fly (here: phi(x, undef) is x) and re-examines users', () => {
    const { m, f, block } = newFunction();
    const [entry, then, join] = ['entry', 'then', 'join'].map(block);
    const ssa = new SSABuilder(f, {
      simplifyPhi: (phi) => {
        let other = null;
        for (const u of phi.ops) {
          const val = u.value;
          if (val.kind === UndefValue.get(phi.type).kind || val === phi) continue;
          if (other !== null && other !== val) return null;
          other = val;
        }
        return other;
      },
    });
    const v = ssa.declareVariable(i32, 'v');
    const b = new IRBuilder(entry);
    ssa.sealBlock(entry);
    b.condBr(f.args[1], then, join);
    ssa.sealBlock(then);
    b.setInsertPoint(then);
    ssa.writeVariable(v, then, f.args[0]);
    b.br(join);
    ssa.sealBlock(join);
    b.setInsertPoint(join);
    b.ret(ssa.readVariable(v, join));
    valid(m);
    expect(countPhis(f)).toBe(0);
    expect(ssa.stats.phisRemovedByHook).toBe(1);
  });

  it('follows a 200,000-block chain of single predecessors without recursion', () => {
    const { m, f, block } = newFunction();
    const ssa = new SSABuilder(f);
    const v = ssa.declareVariable(i32, 'v');
    const entry = block('entry');
    ssa.sealBlock(entry);
    ssa.writeVariable(v, entry, f.args[0]);
    let prev = entry;
    for (let k = 0; k < 200_000; k++) {
      const nb = block('');
      new IRBuilder(prev).br(nb);
      ssa.sealBlock(nb);
      prev = nb;
    }
    new IRBuilder(prev).ret(ssa.readVariable(v, prev));
    expect(prev.last!.operand(0)).toBe(f.args[0]);
    valid(m);
  });

  it('reads through 20,000 nested joins (a frame stack, not the JS stack)', () => {
    // a chain of diamonds; v is written in every left arm and read at the very end
    const { m, f, block } = newFunction();
    const ssa = new SSABuilder(f);
    const v = ssa.declareVariable(i32, 'v');
    const entry = block('entry');
    ssa.sealBlock(entry);
    ssa.writeVariable(v, entry, c32(0));
    let cur = entry;
    const N = 20_000;
    for (let k = 0; k < N; k++) {
      const l = block('');
      const r = block('');
      const j = block('');
      new IRBuilder(cur).condBr(f.args[1], l, r);
      ssa.sealBlock(l);
      ssa.sealBlock(r);
      ssa.writeVariable(v, l, c32(k + 1));
      new IRBuilder(l).br(j);
      new IRBuilder(r).br(j);
      ssa.sealBlock(j);
      cur = j;
    }
    new IRBuilder(cur).ret(ssa.readVariable(v, cur));
    valid(m);
    expect(countPhis(f)).toBe(N);
  });

  it('rejects unknown variables and blocks outside the function', () => {
    const { f } = newFunction();
    const ssa = new SSABuilder(f);
    expect(() => ssa.readVariable(3, f.appendBlock(new BasicBlock('b')))).toThrow(/unknown variable/);
    const v = ssa.declareVariable(i32);
    expect(() => ssa.writeVariable(v, new BasicBlock('loose'), c32(1))).toThrow(/not in the builder's function/);
    void voidType;
  });
});
