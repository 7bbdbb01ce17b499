/**
 * `ssakit compile` and `ssakit run` on SysY files, through the built CLI (dist/ssakit.js,
 * made by `npm test`'s pretest step).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasClangAndAs, llvmAsCheck, ROOT } from './harness.js';

const CLI = join(ROOT, 'dist/ssakit.js');
const dir = mkdtempSync(join(tmpdir(), 'ssakit-sysy-cli-'));

function ssakit(args: string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', cwd: dir, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const PROG = `// sums n numbers read from stdin
int a[100];
int main() {
  int n = getint();
  int i = 0;
  int s = 0;
  while (i < n) {
    a[i] = getint();
    s = s + a[i];
    i = i + 1;
  }
  putint(s);
  putch(10);
  return s;
}
`;

beforeAll(() => {
  if (!existsSync(CLI)) {
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(b.stderr);
  }
  writeFileSync(join(dir, 'sum.sy'), PROG);
  writeFileSync(join(dir, 'bad.sy'), 'int main() {\n  int x = 1\n  return y;\n}\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ssakit compile', () => {
  it('-o writes the .ll; Braun mode by default (phis, no allocas)', () => {
    const r = ssakit(['compile', 'sum.sy', '-o', 'sum.ll']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const text = readFileSync(join(dir, 'sum.ll'), 'utf8');
    expect(text).toContain('define dso_local i32 @main()');
    expect(text).toMatch(/%s = phi i32/);
    expect(text).not.toContain('alloca');
    if (hasClangAndAs()) expect(llvmAsCheck(text)).toBeNull();
  });

  it('--ssa=alloca prints clang-style code; -O1 promotes it', () => {
    const a = ssakit(['compile', 'sum.sy', '--ssa=alloca']);
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout).toContain('%s = alloca i32, align 4');
    expect(a.stdout).not.toContain('phi');
    const o = ssakit(['compile', 'sum.sy', '--ssa', 'alloca', '-O1']);
    expect(o.status, o.stderr).toBe(0);
    expect(o.stdout).not.toContain('alloca');
    expect(o.stdout).toContain('phi i32');
  });

  it('--no-fold and --stats', () => {
    const src = 'int main() { int x = 6; return x * 7; }';
    const folded = ssakit(['compile', '-', '--stats'], src);
    expect(folded.status).toBe(0);
    expect(folded.stdout).toContain('ret i32 42');
    expect(folded.stderr).toContain('values folded on the fly: 1');
    const plain = ssakit(['compile', '-', '--no-fold'], src);
    expect(plain.stdout).toContain('mul i32 6, 7');
  });

  it('--emit=ast prints the annotated tree', () => {
    const r = ssakit(['compile', 'sum.sy', '--emit=ast']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Program sum\.sy\n/);
    expect(r.stdout).toContain("VarDecl a #0 global 'int[100]'");
  });

  it('errors in the program: located messages with the line and a caret, exit 1', () => {
    const r = ssakit(['compile', 'bad.sy']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("bad.sy:2:12: error: expected ';' after declaration\n  int x = 1\n           ^\n");
    const s = ssakit(['compile', '-'], 'int main() { return y; }');
    expect(s.status).toBe(1);
    expect(s.stderr).toContain("<stdin>:1:21: error: use of undeclared identifier 'y'");
  });

  it('bad options', () => {
    expect(ssakit(['compile', 'sum.sy', '--ssa=cytron']).status).not.toBe(0);
    const r = ssakit(['compile', 'sum.sy', '-O7']);
    expect(r.status).toBe(1);
    expect(ssakit(['compile', 'missing.sy']).stderr).toContain("cannot read 'missing.sy'");
  });
});

describe('ssakit run FILE.sy', () => {
  it('compiles and interprets: stdin in, stdout out, exit code = main & 255', () => {
    for (const mode of [[], ['--ssa=alloca'], ['--no-fold'], ['-O1']]) {
      const r = ssakit(['run', 'sum.sy', ...mode], '4\n100 50 60 90\n');
      expect(r.stdout).toBe('300\n');
      expect(r.status).toBe(300 & 255);
    }
  });

  it('--stats counts executed instructions', () => {
    const r = ssakit(['run', 'sum.sy', '--stats'], '1 5');
    expect(r.status).toBe(5);
    expect(r.stderr).toMatch(/\d+/);
  });

  it('reports errors in the program like compile', () => {
    const r = ssakit(['run', 'bad.sy']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("bad.sy:2:12: error: expected ';' after declaration");
  });
});
