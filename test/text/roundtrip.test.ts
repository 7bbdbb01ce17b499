/**
 * The reader/writer against LLVM: every test program, compiled by clang-19 at -O0 and
 * -O2, parses; our print is stable under a second round trip; llvm-as-19 accepts it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { clangFileToLL, hasLlvm, listPrograms, LLVM_MISSING, llvmAsError, OptLevel } from '../helpers/llvm.js';

const programs = listPrograms('test/programs');
const llvm = hasLlvm();

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(llvm)('round trip of clang-19 output', () => {
  for (const level of ['O0', 'O2'] as OptLevel[]) {
    for (const p of programs) {
      it(`${p.name} -${level}`, () => {
        const ll = clangFileToLL(p.path, level);
        const text = readFileSync(ll, 'utf8');
        const once = printModule(parseModule(text, ll));
        const twice = printModule(parseModule(once, 'printed'));
        expect(twice).toBe(once);
        expect(llvmAsError(once)).toBeNull();
      });
    }
  }
});

// Registered only when clang-19/llvm-as-19 are absent, so the skipped oracle tests above are
// explained in the report (with the tools present it does not exist, rather than showing as skipped).
if (!llvm) {
  // Reason: placeholder naming the missing LLVM tools (the oracles of the tests above).
  // Reason for skip: needs clang-19/llvm-19 as the oracles (apt-get install clang-19 llvm-19); .ci/run installs them, and the skipped entry names what is missing.
  it.skip(`LLVM tools are missing: ${LLVM_MISSING}`, () => {});
}

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(llvm)('debug information (-g) is read and kept', () => {
  for (const level of ['O0', 'O2'] as OptLevel[]) {
    it(`clang-19 -g -${level}: parses, prints valid IR with its debug info, same behaviour`, async () => {
      const { clangToLL, runLli } = await import('../helpers/llvm.js');
      const { writeFileSync } = await import('node:fs');
      const src = readFileSync('test/programs/recursion.c', 'utf8');
      const ll = clangToLL(src, level, ['-g'], 'recursion-g');
      const text = readFileSync(ll, 'utf8');
      expect(text).toMatch(/#dbg_|llvm\.dbg\./);
      const out = printModule(parseModule(text, ll));
      expect(out.match(/!dbg !\d+/g)?.length).toBe(text.match(/!dbg !\d+/g)?.length);
      expect(out.match(/#dbg_\w+/g)?.length).toBe(text.match(/#dbg_\w+/g)?.length);
      expect(llvmAsError(out)).toBeNull();
      const outFile = ll.replace(/\.ll$/, '.dbg.ll');
      writeFileSync(outFile, out);
      const a = runLli(ll);
      const b = runLli(outFile);
      expect(b.stdout.toString()).toBe(a.stdout.toString());
      expect(b.exitCode).toBe(a.exitCode);
    });
  }
});

describe('memory operand suffixes', () => {
  it('reads `, align N` after a load/store/alloca whatever follows it (metadata, a new line, nothing)', () => {
    const m = parseModule(`define i32 @f(ptr %p) {
  %x = alloca i32, align 16
  %a = load i32, ptr %p, align 4, !tbaa !0
  %b = load i32, ptr %p, !tbaa !0
  %c = load i32, ptr %p,
      align 8
  %d = load volatile i32, ptr %p, ; a comment between
      align 2
  store i32 %a, ptr %p, align 4, !nontemporal !1
  %y = alloca i32, align 4, !annotation !0
  %g = getelementptr inbounds [4 x i32], ptr %p, i64 0, i64 1, !foo !0
  %h = getelementptr [4 x i32], ptr %p, i64 0,
      i64 2
  %e = add i32 %a, 1, !bar !1
  ret i32 %a
}
!0 = !{}
!1 = !{i32 1}
`);
    const aligns = [...m.functions[0].entry].map((i) => `${i.opcodeName}:${i.align}:${(i.md ?? []).map((a) => `, !${a.kind} !${a.node.inputId}`).join('')}`);
    expect(aligns).toEqual([
      'alloca:16:', 'load:4:, !tbaa !0', 'load:0:, !tbaa !0', 'load:8:', 'load:2:', 'store:4:, !nontemporal !1',
      'alloca:4:, !annotation !0', 'getelementptr:0:, !foo !0', 'getelementptr:0:', 'add:0:, !bar !1', 'ret:0:',
    ]);
    expect(m.functions[0].entry.instructions().filter((i) => i.opcodeName === 'getelementptr').map((i) => i.numOperands)).toEqual([3, 3]);
  });
});

describe('names and strings are byte strings, printed as LLVM prints them', () => {
  // Expected lines are opt-19's output for the same input.
  const input = [
    '@"\\FF\\41x" = global i32 1', // not UTF-8: the byte survives
    '@"a\\5Cb" = global i32 2', // a backslash prints as \\
    '@"h\\C3\\A9llo" = global i32 3', // UTF-8: the name is "héllo"
    '@"\\E2\\82" = global i32 4', // a truncated UTF-8 sequence
    '@"\u{1F600}" = global i32 5', // raw UTF-8 in the file
    '%"t\\C3\\A9" = type { i32 }',
    '@x = global %"t\\C3\\A9" zeroinitializer',
    '@s = constant [4 x i8] c"a\\5Cb\\00"',
    '@"q\\22" = global i32 6',
  ].join('\n');
  const expected = [
    '%"t\\C3\\A9" = type { i32 }',
    '',
    '@"\\FFAx" = global i32 1',
    '@"a\\\\b" = global i32 2',
    '@"h\\C3\\A9llo" = global i32 3',
    '@"\\E2\\82" = global i32 4',
    '@"\\F0\\9F\\98\\80" = global i32 5',
    '@x = global %"t\\C3\\A9" zeroinitializer',
    '@s = constant [4 x i8] c"a\\\\b\\00"',
    '@"q\\22" = global i32 6',
  ];
  it('round trips every byte and matches opt-19 -S', () => {
    const m = parseModule(input);
    expect(m.globals.find((g) => g.name.startsWith('h'))!.name).toBe('héllo');
    const out = printModule(m).trim().split('\n');
    expect(out).toEqual(expected);
    expect(printModule(parseModule(out.join('\n'))).trim().split('\n')).toEqual(expected);
  });
});

describe('integer literals', () => {
  it('read with the value the lexer computes, as llvm-dis-19 prints them', () => {
    // expected lines checked against `llvm-as-19 | llvm-dis-19` of the same text
    const src = [
      'define i64 @f(i64 %x) {',
      '  %a = add i64 %x, -42',
      '  %b = add i64 %a, s0xFF',
      '  %c = add i64 %b, u0x10',
      '  %d = add i64 %c, 123456789012345',
      '  %e = add i64 %d, 1234567890123456789',
      '  %g = add i64 %e, -0',
      '  %h = add i64 %g, 007',
      '  %i = add i64 %h, 5',
      '  %t = trunc i64 %i to i8',
      '  %j = add i8 %t, 255',
      '  ret i64 %i',
      '}',
    ].join('\n');
    const adds = printModule(parseModule(src, 'ints.ll'))
      .split('\n')
      .filter((l) => / add /.test(l))
      .map((l) => l.slice(l.lastIndexOf(',') + 2));
    expect(adds).toEqual(['-42', '-1', '16', '123456789012345', '1234567890123456789', '0', '7', '5', '-1']);
  });
});
