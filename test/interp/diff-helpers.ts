/**
 * Differential execution against lli-19: compile C (cached), run both, compare stdout bytes
 * and exit code. Shared by test/interp/differential.test.ts and test/fuzz/interp-diff.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { InterpError, runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';
import { CACHE_DIR, clangToLL, hasTool, runLli, type OptLevel } from '../helpers/llvm.js';

export const LEVELS: OptLevel[] = ['O0', 'O2'];

/** Runs a .ll file in the interpreter; runtime errors become exit code 1 (as the CLI does). */
export function runOurs(llFile: string, stdin?: string | Buffer, maxSteps = 2e9): { stdout: Buffer; exitCode: number; error?: string } {
  const m = parseModule(readFileSync(llFile, 'utf8'), llFile);
  try {
    const r = runModule(m, { stdin: stdin === undefined ? undefined : typeof stdin === 'string' ? stdin : new Uint8Array(stdin), stderr: 'collect', maxSteps });
    return { stdout: r.stdoutBytes!, exitCode: r.exitCode };
  } catch (e) {
    if (e instanceof InterpError) return { stdout: e.stdoutBytes ?? Buffer.alloc(0), exitCode: 1, error: e.message };
    throw e;
  }
}

/**
 * Compiles `source` at `level`, runs lli-19 and the interpreter, and expects the same
 * stdout bytes and exit code. Returns false (and checks nothing) when lli-19 timed out.
 */
/**
 * lli-19's result, or null when it is no oracle: a program lli-19 cannot finish in time,
 * or that crashes it (undefined behaviour). Timeouts are remembered so later runs do not
 * wait again.
 */
export function lliOracle(ll: string, stdin: string | undefined, lliTimeout: number): ReturnType<typeof runLli> | null {
  const marker = `${ll}.lli-timeout-${lliTimeout}`;
  if (existsSync(marker)) return null;
  const want = runLli(ll, stdin, [], lliTimeout);
  if (want.timedOut) {
    writeFileSync(marker, '');
    return null;
  }
  return want.exitCode === null ? null : want;
}

/** Lets the test worker answer vitest's RPC between long synchronous steps. */
export function tick(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

export async function expectSameAsLli(source: string, name: string, level: OptLevel, stdin?: string, extraFlags: string[] = [], lliTimeout = 60_000): Promise<boolean> {
  await tick();
  const ll = clangToLL(source, level, extraFlags, name);
  await tick();
  const want = lliOracle(ll, stdin, lliTimeout);
  if (want === null) return false;
  await tick();
  const got = runOurs(ll, stdin);
  await tick();
  expectSameOutput(`${name} at -${level}`, got, want);
  return true;
}

/** Same stdout bytes and exit code; on a difference, `label: first difference at line N` shows both lines. */
export function expectSameOutput(
  label: string,
  got: { stdout: Buffer; exitCode: number | null; error?: string | null },
  want: { stdout: Buffer; exitCode: number | null },
): void {
  if (!got.stdout.equals(want.stdout)) {
    const g = got.stdout.toString('latin1').split('\n');
    const w = want.stdout.toString('latin1').split('\n');
    let i = 0;
    while (i < g.length && i < w.length && g[i] === w[i]) i++;
    expect(`${label}, first difference at line ${i + 1}: ${g[i] ?? '<eof>'}${got.error ? `\n(interpreter error: ${got.error})` : ''}`).toBe(
      `${label}, first difference at line ${i + 1}: ${w[i] ?? '<eof>'}`,
    );
  }
  expect(`${label}: exit ${got.exitCode}${got.error ? ` (${got.error})` : ''}`).toBe(`${label}: exit ${want.exitCode}`);
}

export const CSMITH = process.env.SSAKIT_CSMITH ?? 'csmith';
const CSMITH_INCLUDE = ['/usr/include/csmith', '/usr/local/include/csmith', '/usr/include/csmith-2.3.0'].find((d) => existsSync(join(d, 'csmith.h')));

/** Whether csmith and its runtime header are installed. */
export function hasCsmith(): boolean {
  return CSMITH_INCLUDE !== undefined && spawnSync(CSMITH, ['--version']).status === 0 && hasTool('clang-19');
}
export const CSMITH_MISSING = 'csmith (or its header csmith.h, package libcsmith-dev) not found: skipping Csmith programs. Install with `apt-get install -y csmith libcsmith-dev`.';

/**
 * A Csmith program for a seed (cached), and the include flag it needs. `extraArgs` are
 * given to csmith after the defaults (a later option wins, e.g. `--max-funcs 8`, `--float`);
 * they are part of the cache name.
 */
export function csmithProgram(seed: number, extraArgs: string[] = []): { source: string; flags: string[] } {
  mkdirSync(CACHE_DIR, { recursive: true });
  const variant = extraArgs.length === 0 ? '' : `-${extraArgs.join(' ').replace(/[^A-Za-z0-9]+/g, '_')}`;
  const path = join(CACHE_DIR, `csmith-${seed}${variant}.c`);
  if (!existsSync(path)) {
    const r = spawnSync(CSMITH, ['--seed', String(seed), '--max-funcs', '4', '--no-packed-struct', ...extraArgs, '-o', `${path}.${process.pid}.tmp`]);
    if (r.status !== 0) throw new Error(`csmith failed: ${r.stderr}`);
    spawnSync('mv', [`${path}.${process.pid}.tmp`, path]);
  }
  return { source: readFileSync(path, 'utf8'), flags: ['-I' + CSMITH_INCLUDE!] };
}

export function writeFailing(name: string, source: string): string {
  const p = join(CACHE_DIR, `failing-${name}.c`);
  writeFileSync(p, source);
  return p;
}
