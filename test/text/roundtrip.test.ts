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

// Reason: shown only when clang-19/llvm-as-19 are absent, so the skipped oracle tests above are visible in the report.
it.skipIf(llvm)('LLVM tools are missing', () => {
  console.warn(LLVM_MISSING);
});

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(llvm)('debug information (-g) is read and dropped', () => {
  for (const level of ['O0', 'O2'] as OptLevel[]) {
    it(`clang-19 -g -${level}: parses, prints valid IR, same behaviour`, async () => {
      const { clangToLL, runLli } = await import('../helpers/llvm.js');
      const { writeFileSync } = await import('node:fs');
      const src = readFileSync('test/programs/recursion.c', 'utf8');
      const ll = clangToLL(src, level, ['-g'], 'recursion-g');
      const text = readFileSync(ll, 'utf8');
      expect(text).toMatch(/#dbg_|llvm\.dbg\./);
      const out = printModule(parseModule(text, ll));
      expect(out).not.toMatch(/#dbg_|!dbg/);
      expect(llvmAsError(out)).toBeNull();
      const outFile = ll.replace(/\.ll$/, '.nodbg.ll');
      writeFileSync(outFile, out);
      const a = runLli(ll);
      const b = runLli(outFile);
      expect(b.stdout.toString()).toBe(a.stdout.toString());
      expect(b.exitCode).toBe(a.exitCode);
    });
  }
});
