/**
 * Computed goto (GCC's `&&label` and `goto *p`: LLVM's blockaddress and indirectbr)
 * through every pass, the pipelines, the printer, the verifier and the interpreter.
 *
 * The programs of test/programs/computed-goto (a threaded bytecode interpreter as CPython
 * and Lua write theirs, a lexer state machine, jump tables of label addresses and of label
 * differences, label addresses that constant propagation resolves) go through clang-19
 * -O0, then each registered pass alone, each pass after opt-19's mem2reg, and our
 * -O1/-O2, with --verify-each. The oracle is lli-19: on our output (which also checks that
 * LLVM accepts it: lli verifies what it loads) it must print the same bytes and return the
 * same code as on clang's IR; our interpreter must agree on the transformed module too.
 * The hand-written cases check LLVM's rules one at a time.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runModule } from '../../src/interp/index.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import { passInfos } from '../../src/pm/registry.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { inputIR, transform } from '../helpers/differential.js';
import { CACHE_DIR, clangFileToLL, hasLlvm, listPrograms, llvmAsError, LLVM_MISSING, runLli } from '../helpers/llvm.js';
import { opt } from './cfg-helpers.js';
import { readFileSync } from 'node:fs';

const DIR = join(__dirname, '..', 'programs', 'computed-goto');
if (!hasLlvm()) console.warn(LLVM_MISSING);

function lliOn(text: string): { out: string; code: number | null } {
  const f = join(CACHE_DIR, `cgoto-${process.pid}.ll`);
  writeFileSync(f, text);
  const r = runLli(f);
  expect(r.stderr, 'lli-19 rejected or crashed on our output').toBe('');
  return { out: r.stdout.toString('latin1'), code: r.exitCode };
}

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('computed goto through every pass (differential against lli-19)', () => {
  const programs = listPrograms(DIR);
  it('finds the programs', () => expect(programs.map((p) => p.name)).toEqual(['bytecode_vm', 'dead_labels', 'jump_table', 'state_machine']));
  const passes = passInfos().map((p) => p.name);
  for (const p of programs) {
    it(`${p.name}: every pass alone, every pass after mem2reg, -O1, -O2`, () => {
      const o0 = readFileSync(clangFileToLL(p.path, 'O0'), 'utf8');
      expect(o0).toMatch(/indirectbr/);
      expect(o0).toMatch(/blockaddress/);
      const ssa = inputIR(readFileSync(p.path, 'utf8'), `cgoto-${p.name}`, { prePasses: 'mem2reg' });
      const ref = lliOn(o0);
      const cases: [string, string][] = [];
      for (const pass of passes) cases.push([o0, pass], [ssa, pass]);
      cases.push([o0, 'default<O1>'], [o0, 'default<O2>'], [ssa, 'default<O2>']);
      for (const [input, pipeline] of cases) {
        const { module, text } = transform(input, pipeline, p.name);
        const got = lliOn(text);
        expect(got.out, `lli-19 output after '${pipeline}'`).toBe(ref.out);
        expect(got.code, `lli-19 exit code after '${pipeline}'`).toBe(ref.code);
        const r = runModule(module, { stdout: 'collect', stderr: 'collect', maxSteps: 1e8 });
        expect(r.stdoutBytes!.toString('latin1'), `our interpreter after '${pipeline}'`).toBe(ref.out);
        expect(r.exitCode, `our interpreter's exit code after '${pipeline}'`).toBe(ref.code);
      }
    }, 120_000);
  }
});

const TABLE = `
@tbl = internal constant [2 x ptr] [ptr blockaddress(@f, %2), ptr blockaddress(@f, %4)]

define i32 @f(i32 %x) {
  %p = getelementptr [2 x ptr], ptr @tbl, i64 0, i32 %x
  %a = load ptr, ptr %p
  br label %1

1:
  indirectbr ptr %a, [label %2, label %4]

2:
  br label %3

3:
  ret i32 10

4:
  ret i32 20
}
`;

describe('blockaddress and indirectbr: LLVM rules', () => {
  it('blockaddress of unnamed blocks prints with LLVM\'s numbering; a later function\'s one names the block', () => {
    const m = parseModule(`${TABLE}
define ptr @g() {
  %p = getelementptr [2 x ptr], ptr @tbl, i64 0, i32 1
  %a = load ptr, ptr %p
  ret ptr %a
}`, 't.ll');
    expect(printModule(m)).toContain('@tbl = internal constant [2 x ptr] [ptr blockaddress(@f, %2), ptr blockaddress(@f, %4)]');
    // instcombine folds the load from the constant table (as opt-19 does); opt-19 then
    // prints blockaddress(@f, %4) in @g, which its own reader refuses
    const r = opt(printModule(m), 'instcombine');
    expect(r.fnText('g')).toContain('ret ptr blockaddress(@f, %addr.taken)');
    expect(r.text).toContain('[ptr blockaddress(@f, %2), ptr blockaddress(@f, %addr.taken)]');
    expect(r.text).toContain('indirectbr ptr %a, [label %2, label %addr.taken]');
    expect(() => parseModule(r.text.replace('blockaddress(@f, %addr.taken)\n', 'blockaddress(@f, %4)\n'), 'r.ll')).toThrow(/cannot take address of numeric label after the function is defined/);
    if (hasLlvm()) expect(llvmAsError(r.text)).toBeNull();
  });

  it('simplifycfg keeps a block whose address is taken (no merge into its predecessor, no forwarding)', () => {
    const r = opt(TABLE, 'simplifycfg');
    // %2 only branches to %3 and has one predecessor: without its address taken it would go
    // entry and %1 merge, and %3 into %2: the old %2 and %4 stay, renumbered %1 and %2
    expect(r.fnText('f')).toMatch(/indirectbr ptr %a, \[label %1, label %2\]/);
    expect(r.text).toContain('[ptr blockaddress(@f, %1), ptr blockaddress(@f, %2)]');
    expect(r.fn('f').numBlocks).toBe(3);
    for (const x of [0, 1]) expect(runModule(parseModule(r.text + '\ndefine i32 @main() {\n  %r = call i32 @f(i32 ' + x + ')\n  ret i32 %r\n}\n', 'm.ll')).exitCode).toBe([10, 20][x]);
    if (hasLlvm()) expect(llvmAsError(r.text)).toBeNull();
  });

  it('a deleted block\'s blockaddress becomes inttoptr (i32 1 to ptr), as LLVM leaves it', () => {
    const r = opt(`
@saved = global ptr null
define i32 @f() {
entry:
  store ptr blockaddress(@f, %dead), ptr @saved
  ret i32 0
dead:
  ret i32 1
}`, 'simplifycfg');
    expect(r.text).toContain('@saved = global ptr null');
    expect(r.text).toContain('store ptr inttoptr (i32 1 to ptr), ptr @saved');
    expect(r.text).not.toContain('dead:');
    if (hasLlvm()) expect(llvmAsError(r.text)).toBeNull();
  });

  it('the inliner refuses a callee whose block address is taken, and keeps it', () => {
    const r = opt(`${TABLE}
define i32 @main() {
  %r = call i32 @f(i32 1)
  ret i32 %r
}`, 'inline');
    expect(r.fnText('main')).toContain('call i32 @f');
    expect(runModule(r.m).exitCode).toBe(20);
  });

  it('the verifier rejects a blockaddress of the entry block; the parser one of a declaration', () => {
    const m = parseModule(`
@t = global ptr blockaddress(@f, %entry)
define void @f() {
entry:
  ret void
}`, 'e.ll');
    expect(verifyModule(m).map((e) => e.message)).toEqual(['@f, block %entry: blockaddress may not be used with the entry block']);
    expect(() => parseModule('declare void @g()\n@t = global ptr blockaddress(@g, %a)\n', 'd.ll')).toThrow(/d\.ll:2:\d+: error: cannot take blockaddress inside a declaration/);
  });
});
