/**
 * SSA repair: duplicate a block for one of its predecessors (what jump threading does), then
 * repair every value the block defines. Hand-written cases with exact expectations, and random
 * duplications in the corpus and generated programs checked with the verifier, llvm-as-19
 * and lli-19.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/fuzz/rng.js';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { BasicBlock } from '../../src/ir/basic-block.js';
import type { Function } from '../../src/ir/function.js';
import type { Instruction } from '../../src/ir/instruction.js';
import { Opcode } from '../../src/ir/opcodes.js';
import type { Value } from '../../src/ir/value.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import { repairSSA } from '../../src/transforms/utils/ssa-repair.js';
import { parseModule } from '../../src/text/parser.js';
import { printFunction, printModule } from '../../src/text/printer.js';
import { inputIR } from '../helpers/differential.js';
import { candidates, duplicateForPredecessor } from './duplicate.js';
import { CACHE_DIR, hasLlvm, listPrograms, llvmAsError, runLli } from '../helpers/llvm.js';

describe('repairSSA', () => {
  it('jump-threading a join: the join keeps one predecessor, its successors merge the two copies', () => {
    const m = parseModule(`
declare void @use(i32)
define i32 @f(i1 %c, i32 %a) {
entry:
  br i1 %c, label %l, label %r
l:
  br label %j
r:
  br label %j
j:
  %p = phi i32 [ 1, %l ], [ 2, %r ]
  %x = add i32 %p, %a
  br label %exit
exit:
  call void @use(i32 %x)
  ret i32 %p
}`);
    const f = m.functions.find((g) => g.name === 'f')!;
    const j = [...f].find((b) => b.name === 'j')!;
    const r = [...f].find((b) => b.name === 'r')!;
    duplicateForPredecessor(f, j, r);
    expect(verifyModule(m).map((e) => e.message)).toEqual([]);
    const text = printFunction(f);
    expect(text).toMatch(/j\.dup:[^\n]*\n {2}%x1 = add i32 2, %a\n {2}br label %exit/);
    expect(text).toMatch(/exit:[^\n]*\n {2}%(\w+) = phi i32 \[ %x, %j \], \[ %x1, %j\.dup \]/);
    expect(text).toMatch(/ %(\w+) = phi i32 \[ %p, %j \], \[ 2, %j\.dup \]/);
  });

  it('a use above a new definition in the same block reads the value on entry (new phi)', () => {
    // v is redefined in the middle of %b; the use above it must see the entry value
    const m = parseModule(`
declare void @use(i32)
define void @f(i1 %c, i32 %a) {
entry:
  %v = add i32 %a, 1
  br i1 %c, label %b, label %o
o:
  br label %b
b:
  call void @use(i32 %v)
  %w = mul i32 %a, 5
  call void @use(i32 %v)
  ret void
}`);
    const f = m.functions[1];
    const v = f.entry.first!;
    const b = [...f].find((x) => x.name === 'b')!;
    const w = b.instructions().find((i) => i.name === 'w')!;
    const r = repairSSA(f, v, [{ block: b, value: w }]);
    expect(verifyModule(m).map((e) => e.message)).toEqual([]);
    expect(r.phis).toHaveLength(0); // both predecessors carry %v: the entry phi was trivial
    expect(printFunction(f)).toMatch(/call void @use\(i32 %v\)\n {2}%w = mul i32 %a, 5\n {2}call void @use\(i32 %w\)/);
  });

  it('keepOriginal: false, one definition per exit (LICM sinking)', () => {
    const m = parseModule(`
declare void @use(i32)
define void @f(i1 %c, i32 %a) {
entry:
  br label %loop
loop:
  %x = mul i32 %a, 3
  br i1 %c, label %e1, label %e2
e1:
  call void @use(i32 %x)
  ret void
e2:
  call void @use(i32 %x)
  ret void
}`);
    const f = m.functions[1];
    const loop = [...f].find((x) => x.name === 'loop')!;
    const x = loop.first!;
    const copies: { block: BasicBlock; value: Value }[] = [];
    for (const e of [...f].filter((b) => b.name.startsWith('e'))) {
      const c = x.clone();
      c.name = `x.${e.name}`;
      e.insertBefore(c, e.first!);
      copies.push({ block: e, value: c });
    }
    repairSSA(f, x, copies, { keepOriginal: false });
    x.eraseFromParent();
    expect(verifyModule(m).map((e) => e.message)).toEqual([]);
    expect(printFunction(f)).toMatch(/e1:[^\n]*\n {2}%x\.e1 = mul i32 %a, 3\n {2}call void @use\(i32 %x\.e1\)/);
  });

  // Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
  describe.runIf(hasLlvm())('random block duplications keep behaviour (lli-19)', () => {
    const progs = [
      ...listPrograms('test/programs')
        .filter((_, k) => k % 3 === 0)
        .map((p) => ({ name: p.name, source: readFileSync(p.path, 'utf8'), stdin: p.stdin })),
      ...Array.from({ length: 20 }, (_, k) => ({ name: `gen-${500 + k}`, source: generateCProgram(500 + k, { size: 'small' }), stdin: undefined as string | undefined })),
    ];
    for (const p of progs) {
      it(p.name, () => {
        const before = inputIR(p.source, p.name, { prePasses: 'mem2reg' });
        const m = parseModule(before, p.name);
        const rng = new Rng(p.name.length * 7919 + 17);
        let done = 0;
        for (const f of m.functions) {
          if (f.isDeclaration()) continue;
          for (let round = 0; round < 4; round++) {
            const cs = candidates(f);
            if (cs.length === 0) break;
            const [b, pred] = cs[rng.below(cs.length)];
            duplicateForPredecessor(f, b, pred);
            done++;
            const errs = verifyModule(m).map((e) => e.message);
            expect(errs, `after duplicating a block of @${f.name}`).toEqual([]);
          }
        }
        expect(done).toBeGreaterThan(0);
        const text = printModule(m);
        expect(llvmAsError(text)).toBeNull();
        const bf = join(CACHE_DIR, `repair-before-${process.pid}.ll`);
        const af = join(CACHE_DIR, `repair-after-${process.pid}.ll`);
        writeFileSync(bf, before);
        writeFileSync(af, text);
        const a = runLli(bf, p.stdin);
        const b = runLli(af, p.stdin);
        expect(b.stdout.toString('latin1')).toBe(a.stdout.toString('latin1'));
        expect(b.exitCode).toBe(a.exitCode);
      });
    }
  });
});
