/**
 * Shared benchmark plumbing: large LLVM IR inputs made by clang-19 from generated C
 * (cached under bench/out/), whole-process timing with peak memory, and table printing.
 * Every ratio a benchmark prints is measured in the same run on the same input file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCProgram } from '../src/fuzz/c-gen.js';
import { V8_FLAGS } from '../scripts/node-flags.mjs';

export const OUT = join(process.cwd(), 'bench', 'out');
// every benchmark writes its inputs and outputs here; a fresh clone has no such folder
mkdirSync(OUT, { recursive: true });
/** How the `ssakit` command runs (node with the flags of its shebang line). */
export const SSAKIT = ['node', ...V8_FLAGS, join(process.cwd(), 'dist', 'ssakit.js')];

export function hasTool(t: string): boolean {
  return spawnSync(t, ['--version']).status === 0;
}

/** Counts instructions (indented non-label lines inside function bodies). */
export function countInstructions(llText: string): number {
  let n = 0;
  let inFn = false;
  for (const line of llText.split('\n')) {
    if (line.startsWith('define ')) inFn = true;
    else if (line === '}') inFn = false;
    else if (inFn && line.startsWith('  ') && !line.startsWith('    ') && line.trim() !== ']') n++;
  }
  return n;
}

/**
 * A clang-19 -O0 .ll file with about `target` instructions, from the seeded C generator.
 * Returns its path and its exact instruction count.
 */
export function largeInput(target: number, seed = 1): { path: string; instructions: number } {
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `large-${target}-s${seed}.ll`);
  if (!existsSync(path)) {
    const c = generateCProgram(seed, { size: 'large', targetLines: Math.max(200, Math.round(target / 12)) });
    const cPath = path.replace(/\.ll$/, '.c');
    writeFileSync(cPath, c);
    const r = spawnSync('clang-19', ['-O0', '-Xclang', '-disable-O0-optnone', '-w', '-S', '-emit-llvm', cPath, '-o', path], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`clang-19 failed: ${r.stderr}`);
  }
  return { path, instructions: countInstructions(readFileSync(path, 'utf8')) };
}

/**
 * clang -O0 marks every function `noinline` (and `optnone`); benchmarks of -O2 strip both,
 * for opt-19 and for us alike (our inliner respects them as LLVM's does).
 */
export function stripNoinline(ll: string): string {
  return ll.replace(/^(attributes #\d+ = \{[^}]*?)\bnoinline\b ?/gm, '$1').replace(/\boptnone\b ?/g, '');
}

/** largeInput with noinline/optnone stripped (`large-N-s1-inl.ll`, made once). */
export function inlinableInput(target: number): { path: string; instructions: number } {
  const { path, instructions } = largeInput(target);
  const stripped = path.replace(/\.ll$/, '-inl.ll');
  if (!existsSync(stripped)) writeFileSync(stripped, stripNoinline(readFileSync(path, 'utf8')));
  return { path: stripped, instructions };
}

export interface Measured {
  seconds: number;
  maxRssMB: number | null;
  status: number | null;
  stderr: string;
}

const HAVE_TIME = existsSync('/usr/bin/time');

/** Runs a whole process once; wall time and (when /usr/bin/time exists) peak RSS. */
export function measure(cmd: string[], opts: { input?: string | Buffer; timeout?: number } = {}): Measured {
  const args = HAVE_TIME ? ['-f', '__TIME__ %e %M', ...cmd] : cmd.slice(1);
  const exe = HAVE_TIME ? '/usr/bin/time' : cmd[0];
  const t0 = performance.now();
  const r = spawnSync(exe, args, { input: opts.input, timeout: opts.timeout ?? 600_000, maxBuffer: 1 << 30 });
  const wall = (performance.now() - t0) / 1000;
  const stderr = r.stderr?.toString() ?? '';
  const m = /__TIME__ ([\d.]+) (\d+)/.exec(stderr);
  return {
    seconds: m ? Math.max(Number(m[1]), 0.005) : wall,
    maxRssMB: m ? Number(m[2]) / 1024 : null,
    status: r.status,
    stderr: stderr.replace(/__TIME__.*\n?/, ''),
  };
}

/**
 * Runs each command `n` times, interleaved (a, b, a, b, ...) so that a burst of load on a
 * shared machine hits both alike, and keeps each one's fastest run and largest memory.
 */
export function measureBest(cmds: string[][], n: number, opts: { input?: string | Buffer; timeout?: number } = {}): Measured[] {
  const best: (Measured | null)[] = cmds.map(() => null);
  for (let k = 0; k < n; k++) {
    cmds.forEach((cmd, j) => {
      const r = measure(cmd, opts);
      const b = best[j];
      if (b === null || r.status !== 0) best[j] = r;
      else best[j] = { ...b, seconds: Math.min(b.seconds, r.seconds), maxRssMB: Math.max(b.maxRssMB ?? 0, r.maxRssMB ?? 0) };
    });
  }
  return best as Measured[];
}

/** `--repeat=N` from the command line, else the default. */
export function repeatFromArgs(dflt: number): number {
  const a = process.argv.find((x) => x.startsWith('--repeat='));
  return a ? Math.max(1, Number(a.slice(9))) : dflt;
}

export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = header.map((_, k) => Math.max(...cells.map((r) => String(r[k]).length)));
  const line = (r: (string | number)[]) => r.map((c, k) => String(c).padStart(widths[k])).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

export function sizesFromArgs(defaults: number[]): number[] {
  const a = process.argv.find((x) => x.startsWith('--sizes='));
  return a ? a.slice(8).split(',').map(Number) : defaults;
}
