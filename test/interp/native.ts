/**
 * Native oracle: compile C with clang-19 to an executable (cached) and compare its output
 * with the interpreter's on the -O0 and -O2 IR of the same source.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CACHE_DIR, CLANG } from '../helpers/llvm.js';
import { runC } from './helpers.js';

export function nativeRun(source: string, stdin = ''): { stdout: Buffer; status: number | null } {
  mkdirSync(CACHE_DIR, { recursive: true });
  const key = createHash('sha1').update(source).digest('hex').slice(0, 16);
  const exe = join(CACHE_DIR, `native-${key}`);
  if (!existsSync(exe)) {
    const src = join(CACHE_DIR, `native-${key}.c`);
    writeFileSync(src, source);
    const r = spawnSync(CLANG, ['-O0', '-w', src, '-o', `${exe}.${process.pid}`, '-lm']);
    if (r.status !== 0) throw new Error(`clang-19 failed: ${r.stderr}`);
    renameSync(`${exe}.${process.pid}`, exe);
  }
  const r = spawnSync(exe, [], { input: stdin, timeout: 60_000 });
  return { stdout: r.stdout, status: r.status };
}

/** The program prints the same bytes and exits the same natively and in the interpreter (-O0 and -O2). */
export function expectSameAsNative(source: string, name: string, stdin = ''): void {
  const want = nativeRun(source, stdin);
  for (const level of ['O0', 'O2'] as const) {
    const got = runC(source, level, { stdin }, name);
    const g = got.stdoutBytes!.toString('latin1').split('\n');
    const w = want.stdout.toString('latin1').split('\n');
    for (let i = 0; i < Math.max(g.length, w.length); i++) {
      if (g[i] !== w[i]) expect(`${name} -${level} line ${i + 1}: ${g[i]}`).toBe(`${name} -${level} line ${i + 1}: ${w[i]}`);
    }
    expect(`${name} -${level} exit ${got.exitCode}`).toBe(`${name} -${level} exit ${want.status}`);
  }
}
