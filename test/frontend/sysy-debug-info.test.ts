/**
 * SysY `-g` (#22): the IR carries a DICompileUnit, a DISubprogram per function and a
 * DILocation per statement. Checked by LLVM: llvm-as-19 and `opt-19 -passes=verify` accept
 * it (at -O0 and after our -O2), llc-19 compiles it, `llvm-dwarfdump-19 --verify` finds no
 * error, and `--debug-line` gives exactly the lines of the source's statements (read off
 * the program below, which puts one statement per line). Runtime errors of `ssakit run`
 * name the SysY line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSysY } from '../../src/frontend/sysy/index.js';
import { InterpError, runModule } from '../../src/interp/index.js';
import { printModule } from '../../src/text/printer.js';
import { hasTool, llvmAsError, OPT, runTool } from '../helpers/llvm.js';

const PROGRAM = [
  'int a[4];', // 1
  'int sum(int n) {', // 2
  '  int s = 0;', // 3
  '  int i = 0;', // 4
  '  while (i < n) {', // 5
  '    s = s + a[i];', // 6
  '    i = i + 1;', // 7
  '  }', // 8
  '  return s;', // 9
  '}', // 10
  'int main() {', // 11
  '  int k = getint();', // 12
  '  a[k] = 7;', // 13
  '  putint(sum(4));', // 14
  '  return 0;', // 15
  '}', // 16
].join('\n');
/**
 * The lines holding a statement or a declaration with an initializer, inside functions,
 * and the function headers (the prologue rows). Braun's construction makes no instruction
 * for `int s = 0;` (a value, not a store), so lines 3 and 4 have no row there.
 */
const LINES = { alloca: [2, 3, 4, 5, 6, 7, 9, 11, 12, 13, 14, 15], braun: [2, 5, 6, 7, 9, 11, 12, 13, 14, 15] };

function compile(optLevel: number, ssa: 'braun' | 'alloca' = 'braun'): string {
  const r = compileSysY(PROGRAM, 'prog.sy', { debugInfo: true, optLevel, ssa });
  expect(r.module).toBeDefined();
  return printModule(r.module!);
}

const tools = hasTool('llvm-as-19') && hasTool(OPT) && hasTool('llc-19') && hasTool('llvm-dwarfdump-19');

// Reason for runIf: needs llvm-as-19, opt-19, llc-19 and llvm-dwarfdump-19 (the oracles of debug info); without them these skip.
describe.runIf(tools)('ssakit compile -g, checked by LLVM', () => {
  for (const [level, ssa] of [[0, 'braun'], [0, 'alloca'], [2, 'braun']] as const) {
    it(`-O${level} --ssa=${ssa}: verified, compiles, dwarfdump --verify clean${level === 0 ? ', line table = the statements' : ''}`, () => {
      const ll = compile(level, ssa);
      expect(llvmAsError(ll)).toBeNull();
      const v = runTool(OPT, ['-passes=verify', '-S', '-', '-o', '/dev/null'], { input: ll });
      expect(v.stderr).toBe('');
      const dir = mkdtempSync(join(tmpdir(), 'sysy-g-'));
      writeFileSync(join(dir, 'prog.ll'), ll);
      const llc = runTool('llc-19', ['-O0', '-filetype=obj', join(dir, 'prog.ll'), '-o', join(dir, 'prog.o')]);
      expect(llc.stderr.toString()).toBe('');
      const verify = runTool('llvm-dwarfdump-19', ['--verify', join(dir, 'prog.o')]);
      expect(verify.stdout.toString()).toContain('No errors.');
      if (level !== 0) return;
      const table = runTool('llvm-dwarfdump-19', ['--debug-line', join(dir, 'prog.o')]).stdout.toString();
      const lines = new Set<number>();
      for (const m of table.matchAll(/^0x[0-9a-f]+\s+(\d+)\s+\d+/gm)) if (Number(m[1]) !== 0) lines.add(Number(m[1]));
      expect([...lines].sort((x, y) => x - y)).toEqual(LINES[ssa]);
    });
  }
});

// Reason for runIf: needs llvm-as-19, llc-19 and llvm-dwarfdump-19 (the oracles of debug info); without them these skip.
describe.runIf(tools)('ssakit compile -g describes the locals and parameters', () => {
  for (const [level, ssa] of [[0, 'braun'], [0, 'alloca'], [2, 'braun'], [2, 'alloca']] as const) {
    it(`-O${level} --ssa=${ssa}: llvm-dwarfdump-19 lists every variable with its line, the parameter as a formal parameter`, () => {
      const ll = compile(level, ssa);
      expect(llvmAsError(ll)).toBeNull();
      expect(ll).toMatch(/!DILocalVariable\(name: "n", arg: 1, /);
      const dir = mkdtempSync(join(tmpdir(), 'sysy-g-vars-'));
      writeFileSync(join(dir, 'prog.ll'), ll);
      const llc = runTool('llc-19', ['-O2', '-filetype=obj', join(dir, 'prog.ll'), '-o', join(dir, 'prog.o')]);
      expect(llc.stderr.toString()).toBe('');
      const info = runTool('llvm-dwarfdump-19', ['--debug-info', join(dir, 'prog.o')]).stdout.toString();
      const found: string[] = [];
      // each DIE: its tag line, then attribute lines up to the next blank line
      for (const die of info.split(/\n\s*\n/)) {
        const tag = /DW_TAG_(formal_parameter|variable)/.exec(die);
        const name = /DW_AT_name\s*\("([^"]*)"\)/.exec(die);
        const line = /DW_AT_decl_line\s*\((\d+)\)/.exec(die);
        if (tag !== null && name !== null && line !== null && !/DW_AT_external/.test(die)) found.push(`${name[1]}:${line[1]}${tag[1] === 'formal_parameter' ? ':param' : ''}`);
      }
      // the variables of PROGRAM with their declaration lines (n is sum's parameter 1)
      expect(found.sort()).toEqual(['i:4', 'k:12', 'n:2:param', 's:3']);
      expect(runTool('llvm-dwarfdump-19', ['--verify', join(dir, 'prog.o')]).stdout.toString()).toContain('No errors.');
    });
  }
});

describe('runtime errors name the SysY line', () => {
  it('an out-of-bounds store: prog.sy:13, the statement `a[k] = 7;`', () => {
    const r = compileSysY(PROGRAM, 'prog.sy', { debugInfo: true });
    let err: unknown = null;
    try {
      runModule(r.module!, { stdin: '9\n' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InterpError);
    expect((err as Error).message).toMatch(/out of bounds .* at prog\.sy:13:\d+, in @main/);
  });
});
