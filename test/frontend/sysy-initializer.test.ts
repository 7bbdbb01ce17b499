/**
 * Initializer flattening with C's brace elision, checked against fixed
 * expectations and cross-checked with clang-19 (a C program that prints the
 * arrays), so the rules are C's and not ours.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSysY } from '../../src/frontend/sysy/index.js';
import type { DeclStmt, VarDecl } from '../../src/frontend/sysy/ast.js';
import { CLANG, hasTool } from '../helpers/llvm.js';

/** Dense contents of global array `a` declared by `decl` (e.g. `int a[2][2] = {...}`). */
function dense(decl: string): number[] {
  const r = analyzeSysY(`${decl};\nint main() { return 0; }`, 'i.sy');
  expect(r.diagnostics.map((d) => d.message)).toEqual([]);
  const d = (r.ast.items[0] as DeclStmt).decls[0] as VarDecl;
  const init = d.initializer!;
  if (init.kind !== 'array') throw new Error('not an array');
  const out = new Array<number>(init.size).fill(0);
  let last = -1;
  for (const e of init.entries) {
    expect(e.index).toBeGreaterThan(last); // strictly increasing
    last = e.index;
    out[e.index] = e.expr.constValue!;
  }
  return out;
}

const CASES: [decl: string, expected: number[]][] = [
  ['int a[3][2] = {1, 2, 3, 4, 5, 6}', [1, 2, 3, 4, 5, 6]],
  ['int a[3][2] = {{1, 2}, {3, 4}, {5, 6}}', [1, 2, 3, 4, 5, 6]],
  ['int a[3][2] = {1, 2, {3, 4}, 5, 6}', [1, 2, 3, 4, 5, 6]],
  ['int a[3][2] = {{1, 2}, {3}, {5}}', [1, 2, 3, 0, 5, 0]],
  ['int a[3][2] = {1, 2, {3}, 5}', [1, 2, 3, 0, 5, 0]],
  ['int a[3][2] = {{}, {3, 4}, 5}', [0, 0, 3, 4, 5, 0]],
  ['int a[4][2] = {1, 2, 3, {4}, 5}', [1, 2, 3, 4, 5, 0, 0, 0]],
  ['int a[2][2][2] = {1, 2, {3}, 4}', [1, 2, 3, 0, 4, 0, 0, 0]],
  ['int a[2][2][2] = {1, {2}, 3}', [1, 2, 3, 0, 0, 0, 0, 0]],
  ['int a[2][2][2] = {1, 2, 3, 4, {5}}', [1, 2, 3, 4, 5, 0, 0, 0]],
  ['int a[2][3][2] = {{1}, 2, 3, {4, 5}, {6}}', [1, 0, 0, 0, 0, 0, 2, 3, 4, 5, 6, 0]],
  ['int a[2][2][3] = {{1, 2}, 3, 4, {5}, 6}', [1, 2, 0, 0, 0, 0, 3, 4, 5, 6, 0, 0]],
  ['int a[2][3] = {{1, {2}}, {{3}, 4}}', [1, 2, 0, 3, 4, 0]],
  ['int a[3] = {}', [0, 0, 0]],
  ['int a[3] = {{1}, 2, {3}}', [1, 2, 3]],
  ['int a[2][2] = {{}, {}}', [0, 0, 0, 0]],
  ['int a[3][2][2] = {{{1}}, {2, 3, 4}, 5, {6}}', [1, 0, 0, 0, 2, 3, 4, 0, 5, 6, 0, 0]],
  ['int a[2][2][2][2] = {1, 2, {3}, {{4}}, 5}', [1, 2, 3, 0, 4, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]],
  ['int a[4][3] = {1, 2, 3, {4, 5}, {6}, 7}', [1, 2, 3, 4, 5, 0, 6, 0, 0, 7, 0, 0]],
  ['int a[2][4] = {1, 2, 3, {4}, {5, 6}}', [1, 2, 3, 4, 5, 6, 0, 0]],
  ['int a[3][3] = {{1}, 2, {3}, 4}', [1, 0, 0, 2, 3, 4, 0, 0, 0]],
  ['int a[1][1][1] = {{{7}}}', [7]],
  ['int a[5] = {1, 2}', [1, 2, 0, 0, 0]],
];

describe('initializer flattening (C brace elision)', () => {
  for (const [decl, expected] of CASES) {
    it(decl, () => {
      expect(dense(decl)).toEqual(expected);
    });
  }

  it('flattens float arrays with conversions and keeps the listing sparse', () => {
    const r = analyzeSysY('float f[1000] = {1, [0] 2.5};', 'x.sy');
    expect(r.diagnostics.length).toBeGreaterThan(0); // designators are not SysY
    const ok = analyzeSysY('float f[10][100] = {{1}, {2.5}, {}, {3}};\nint main() { return 0; }', 'f.sy');
    expect(ok.diagnostics).toEqual([]);
    const d = (ok.ast.items[0] as DeclStmt).decls[0];
    const init = d.initializer!;
    expect(init.kind).toBe('array');
    if (init.kind !== 'array') return;
    expect(init.size).toBe(1000);
    expect(init.entries.map((e) => [e.index, e.expr.kind, e.expr.type.kind, e.expr.constValue])).toEqual([
      [0, 'Convert', 'float', 1], [100, 'FloatLiteral', 'float', 2.5], [300, 'Convert', 'float', 3],
    ]);
  });

  it('agrees with clang-19 on every case', () => {
    if (!hasTool(CLANG)) {
      console.warn(`${CLANG} not found: skipping the clang cross-check of initializer flattening`);
      return;
    }
    const lines = ['#include <stdio.h>'];
    const main: string[] = ['int main(void) {'];
    CASES.forEach(([decl], i) => {
      const name = `a${i}`;
      lines.push(decl.replace('int a', `int ${name}`) + ';');
      main.push(`  { int *p = (int *)${name}; for (unsigned k = 0; k < sizeof ${name} / sizeof(int); k++) printf("%d ", p[k]); printf("\\n"); }`);
    });
    main.push('  return 0;', '}');
    const dir = mkdtempSync(join(tmpdir(), 'sysy-init-'));
    writeFileSync(join(dir, 'init.c'), lines.join('\n') + '\n' + main.join('\n') + '\n');
    const cc = spawnSync(CLANG, ['-w', '-Werror=excess-initializers', '-o', join(dir, 'init'), join(dir, 'init.c')], { encoding: 'utf8' });
    expect(cc.stderr).toBe('');
    const run = spawnSync(join(dir, 'init'), { encoding: 'utf8' });
    const rows = run.stdout.trimEnd().split('\n').map((l) => l.trim().split(' ').map(Number));
    CASES.forEach(([decl], i) => {
      expect({ decl, values: dense(decl) }).toEqual({ decl, values: rows[i] });
    });
  });
});
