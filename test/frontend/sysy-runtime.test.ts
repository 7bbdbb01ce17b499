/**
 * runtime/sylib.c: the contest's output formats, input functions and the
 * timer report, exercised through a C program linked with it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLANG, hasTool } from '../helpers/llvm.js';

const RUNTIME = join(import.meta.dirname, '..', '..', 'runtime');

describe('SysY runtime (sylib)', () => {
  it('reads, prints and times as the contest library does', () => {
    if (!hasTool(CLANG)) {
      console.warn(`${CLANG} not found: skipping the sylib runtime test`);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'sylib-'));
    const prog = join(dir, 'p.sy');
    writeFileSync(prog, [
      'int a[10]; float f[10];',
      'int main() {',
      '  starttime();',
      '  int x = getint();',
      '  float y = getfloat();',
      '  int n = getarray(a);',
      '  int m = getfarray(f);',
      '  int c = getch();',
      '  int d = getch();',
      '  int e = getch();',
      '  stoptime();',
      '  putint(x); putch(32); putfloat(y); putch(10);',
      '  putarray(n, a); putfarray(m, f); putarray(0, a);',
      '  putint(c); putch(32); putint(d); putch(32); putint(e); putch(10);',
      '  putf("%d-%f-%s|\\n", 7, y, "s");',
      '  return 3;',
      '}',
    ].join('\n'));
    // -Wall -Werror on sylib.c itself: the library must compile cleanly.
    const lib = spawnSync(CLANG, ['-Wall', '-Wextra', '-Werror', '-c', join(RUNTIME, 'sylib.c'), '-o', join(dir, 'sylib.o')], { encoding: 'utf8' });
    expect(lib.stderr).toBe('');
    const cc = spawnSync(CLANG, ['-w', '-x', 'c', prog, '-x', 'none', '-include', join(RUNTIME, 'sylib.h'), join(dir, 'sylib.o'), '-o', join(dir, 'p')], { encoding: 'utf8' });
    expect(cc.stderr).toBe('');
    const run = spawnSync(join(dir, 'p'), { input: '-12\n0x1.8p1\n3 1 2 3\n2 0.5 -1.25\nZ', encoding: 'utf8' });
    expect(run.status).toBe(3);
    expect(run.stdout).toBe([
      '-12 0x1.8p+1',
      '3: 1 2 3',
      '2: 0x1p-1 -0x1.4p+0',
      '0:',
      '10 90 -1', // the newline after the last number, 'Z', then EOF
      '7-3.000000-s|',
      '',
    ].join('\n'));
    expect(run.stderr).toMatch(/^Timer@0003-0011: 0H-0M-0S-\d+us\nTOTAL: 0H-0M-0S-\d+us\n$/);
  });
});
