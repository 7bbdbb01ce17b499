/**
 * bench/realprog: the real-program bench of issue #24. Classic small C benchmarks in the
 * shapes benchmark collections have (bench/realprog/*.c, written for ssakit: nested counting
 * loops, a malloc'd result nobody reads, 4x4 matrices of constants, objects with method
 * pointers, whetstone-style float loops, bit reversal, salsa20, a random-number loop, matrix
 * multiply, string lower-casing, triangular sums, heapsort). Each is compiled by clang-19
 * -O0 -Xclang -disable-O0-optnone (noinline/optnone stripped, as for LLVM's own -O2 run),
 * optimized by our -O2 and by `opt-19 -O2` without vectorizers, and both are run in our
 * interpreter counting dynamic instructions; the outputs must agree with lli-19 on the
 * unoptimized IR. Prints per program and the geomean of ours / LLVM.
 *
 * Run: npm run bench:realprog [-- --only=NAME,NAME] [--o2=PIPELINE] [--verify-each]
 *      [--fresh=N [--seed=S]]: instead of the corpus, N loop programs of bench/loop-gen.ts
 *      from seeds S, S+1, … (by default a random S, printed, so a run can be repeated);
 *      with --corpus as well, both tables.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runModule } from '../src/interp/index.js';
import { runPipeline } from '../src/passes/index.js';
import { parseModule } from '../src/text/parser.js';
import { printModule } from '../src/text/printer.js';
import { verifyModule } from '../src/analysis/verifier.js';
import { stripNoinline } from '../test/helpers/noinline.js';
import { OUT, hasTool, table } from './common.js';
import { generateLoopProgram } from './loop-gen.js';

const DIR = 'bench/realprog';
const LLVM_O2 = ['-passes=default<O2>', '-vectorize-loops=false', '-vectorize-slp=false'];
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const O2 = arg('o2') ?? 'default<O2>';
const only = arg('only')?.split(',');

function sh(cmd: string, args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'latin1', input, maxBuffer: 1 << 28, timeout: 600_000 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function count(ll: string): { count: number; out: string; code: number } {
  const m = parseModule(ll, 'bench.ll');
  const r = runModule(m, { stdout: 'collect', stderr: 'collect', stats: true, maxSteps: 2e10 });
  return { count: r.stats!.total, out: r.stdoutBytes!.toString('latin1'), code: r.exitCode };
}

const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / Math.max(1, xs.length));

/** Runs the programs (name and C file) and prints their table; returns the failures. */
function bench(title: string, programs: { name: string; path: string }[]): number {
  const rows: (string | number)[][] = [];
  const ratios: number[] = [];
  let failures = 0;
  for (const { name, path } of programs) {
    const f = path;
    const base = join(OUT, `rp-${name}`);
    const r = sh('clang-19', ['-O0', '-Xclang', '-disable-O0-optnone', '-w', '-S', '-emit-llvm', path, '-o', `${base}.ll`]);
    if (r.status !== 0) throw new Error(`clang-19 ${f}: ${r.stderr}`);
    const ll = stripNoinline(readFileSync(`${base}.ll`, 'utf8'));
    writeFileSync(`${base}-in.ll`, ll);
    const ref = sh('lli-19', [`${base}-in.ll`]);
    const t0 = performance.now();
    const m = parseModule(ll, `${name}.ll`);
    let note = '';
    let oursCount: number | string = '-';
    try {
      runPipeline(m, O2, process.argv.includes('--verify-each') ? { verifyEach: true, verify: (mm: typeof m) => verifyModule(mm).map((d) => d.message) } : {});
      const ms = performance.now() - t0;
      const ourLL = printModule(m);
      writeFileSync(`${base}-ours.ll`, ourLL);
      const as = sh('llvm-as-19', [`${base}-ours.ll`, '-o', '/dev/null']);
      if (as.status !== 0) note += `llvm-as rejects: ${as.stderr.split('\n')[0]} `;
      const o = count(ourLL);
      const lo = sh('lli-19', [`${base}-ours.ll`]);
      if (o.out !== ref.stdout || o.code !== ref.status || lo.stdout !== ref.stdout || lo.status !== ref.status) note += 'OUTPUT DIFFERS from lli-19 ';
      oursCount = o.count;
      note += `${ms.toFixed(0)} ms`;
    } catch (e) {
      note += `error: ${(e as Error).message.split('\n')[0].slice(0, 80)}`;
    }
    const l = sh('opt-19', [...LLVM_O2, '-S', `${base}-in.ll`, '-o', `${base}-llvm.ll`]);
    if (l.status !== 0) throw new Error(`opt-19 ${f}: ${l.stderr}`);
    const lc = count(readFileSync(`${base}-llvm.ll`, 'utf8'));
    if (lc.out !== ref.stdout) note += ' (LLVM output differs?)';
    if (note.includes('DIFFERS') || note.includes('error') || note.includes('rejects')) failures++;
    const ratio = typeof oursCount === 'number' ? Math.max(1, oursCount) / Math.max(1, lc.count) : NaN;
    if (!Number.isNaN(ratio)) ratios.push(ratio);
    rows.push([name, count(ll).count, oursCount, lc.count, Number.isNaN(ratio) ? '-' : ratio.toFixed(2), note]);
  }
  console.log(`${title}: dynamic instructions executed (our interpreter), ours = ${O2}, LLVM = opt-19 ${LLVM_O2.join(' ')}\n`);
  console.log(table(['program', '-O0', 'ours -O2', 'opt-19 -O2', 'ours/LLVM', 'notes'], rows));
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`\ngeomean ours/LLVM: ${geomean(ratios).toFixed(3)} over ${ratios.length} programs; median ${(sorted[sorted.length >> 1] ?? NaN).toFixed(3)}; above 1.5x: ${ratios.filter((r) => r > 1.5).length}\n`);
  return failures;
}

function main(): void {
  for (const t of ['clang-19', 'opt-19', 'lli-19', 'llvm-as-19']) {
    if (!hasTool(t)) {
      console.error(`${t} not found: install clang-19 llvm-19`);
      process.exit(1);
    }
  }
  mkdirSync(OUT, { recursive: true });
  const fresh = Number(arg('fresh') ?? 0);
  let failures = 0;
  if (fresh === 0 || process.argv.includes('--corpus')) {
    const corpus = readdirSync(DIR).filter((x) => x.endsWith('.c')).sort().map((f) => ({ name: f.replace(/\.c$/, ''), path: join(DIR, f) }));
    failures += bench('bench/realprog', corpus.filter((p) => !only || only.includes(p.name)));
  }
  if (fresh > 0) {
    const seed = Number(arg('seed') ?? 1_000_000 + Math.floor(Math.random() * 1_999_000_000));
    console.log(`fresh sample: --fresh=${fresh} --seed=${seed}`);
    const dir = join(OUT, 'rp-fresh');
    mkdirSync(dir, { recursive: true });
    const programs = [];
    for (let k = 0; k < fresh; k++) {
      const path = join(dir, `loop-${seed + k}.c`);
      writeFileSync(path, generateLoopProgram(seed + k));
      programs.push({ name: `loop-${seed + k}`, path });
    }
    failures += bench(`fresh loop programs (bench/loop-gen.ts), --fresh=${fresh} --seed=${seed}`, programs);
  }
  if (failures > 0) {
    console.log(`${failures} program(s) failed`);
    process.exitCode = 1;
  }
}

main();
