/**
 * bench/quality: how good is our code? For every program of the corpus (C: test/programs
 * and bench/programs; SysY: test/sysy/perf and test/sysy), the dynamic instruction count
 * (our interpreter's --stats) of the unoptimized IR, of our -O1 and -O2, and of
 * `opt-19 -O2` on the same input; the geometric mean of ours/LLVM; the worst programs.
 * Then whole-process compile time of `ssakit opt -O2` vs `opt-19 -O2` on 10k–1M inputs
 * (alternating runs, best of 3, or --repeat=N; one run at 1M).
 *
 * clang -O0 marks every function `noinline`; that attribute is stripped from the input
 * for both optimizers (our inliner respects it as LLVM's does).
 *
 * Run: npm run bench:quality [-- --only=c|sysy] [--sizes=10000,100000] [--no-compile-time]
 *      [--o2=PIPELINE] (try another pipeline in place of our -O2, e.g. to evaluate a pass)
 *      [--heavy] (only the compute-heavy programs) [--repeat=N] (compile-time runs)
 *      [--csmith=N] [--csmith-structs=N] [--cgen=N] [--sysy=N] [--seed=S]: instead of the
 *      corpus, fresh programs from random seeds (bench/fresh-sample.ts; add --corpus to run
 *      the corpus part too)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSysY } from '../src/frontend/sysy/index.js';
import { runModule } from '../src/interp/index.js';
import { runPipeline } from '../src/passes/index.js';
import { parseModule } from '../src/text/parser.js';
import { printModule } from '../src/text/printer.js';
import { firstSeedFromArgs, freshSample, requestedSamples } from './fresh-sample.js';
import { OUT, SSAKIT, hasTool, inlinableInput, measureBest, repeatFromArgs, sizesFromArgs, stripNoinline, table } from './common.js';

const LLVM_O2 = ['-passes=default<O2>', '-vectorize-loops=false', '-vectorize-slp=false'];


interface Program {
  name: string;
  lang: 'c' | 'sysy';
  ll: string;
  stdin: string;
  /** From the compute-heavy sets (bench/programs, test/sysy/perf). */
  heavy: boolean;
}

function cPrograms(dir: string): Program[] {
  if (!existsSync(dir)) return [];
  const out: Program[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.c')).sort()) {
    const path = join(dir, f);
    const llPath = join(OUT, `q-${f.replace(/\.c$/, '')}.ll`);
    const r = spawnSync('clang-19', ['-O0', '-Xclang', '-disable-O0-optnone', '-w', '-S', '-emit-llvm', path, '-o', llPath], { encoding: 'utf8' });
    if (r.status !== 0) continue;
    const inPath = path.replace(/\.c$/, '.in');
    out.push({ name: f.replace(/\.c$/, ''), lang: 'c', ll: stripNoinline(readFileSync(llPath, 'utf8')), stdin: existsSync(inPath) ? readFileSync(inPath, 'utf8') : '', heavy: dir.startsWith('bench') });
  }
  return out;
}

function sysyPrograms(dir: string): Program[] {
  if (!existsSync(dir)) return [];
  const out: Program[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.sy')).sort()) {
    const path = join(dir, f);
    const r = compileSysY(readFileSync(path, 'utf8'), path, { ssa: 'alloca' });
    if (!r.module) continue;
    const inPath = path.replace(/\.sy$/, '.in');
    out.push({ name: f.replace(/\.sy$/, ''), lang: 'sysy', ll: printModule(r.module), stdin: existsSync(inPath) ? readFileSync(inPath, 'utf8') : '', heavy: dir.endsWith('perf') });
  }
  return out;
}

function dynamicCount(llText: string, stdin: string): { count: number; out: string; code: number } {
  const m = parseModule(llText, 'bench.ll');
  const r = runModule(m, { stdin, stdout: 'collect', stderr: 'collect', stats: true, maxSteps: 5e9 });
  return { count: r.stats!.total, out: r.stdoutBytes!.toString('latin1'), code: r.exitCode };
}

const O2_OVERRIDE = process.argv.find((a) => a.startsWith('--o2='))?.slice(5);

function ours(llText: string, level: 'O1' | 'O2'): string {
  const m = parseModule(llText, 'bench.ll');
  runPipeline(m, level === 'O2' && O2_OVERRIDE !== undefined ? O2_OVERRIDE : `default<${level}>`);
  return printModule(m);
}

function llvmO2(llText: string): string | null {
  const inPath = join(OUT, 'q-in.ll');
  const outPath = join(OUT, 'q-llvm.ll');
  writeFileSync(inPath, llText);
  const r = spawnSync('opt-19', [...LLVM_O2, '-S', inPath, '-o', outPath], { encoding: 'utf8' });
  return r.status === 0 ? readFileSync(outPath, 'utf8') : null;
}

const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / Math.max(1, xs.length));

function main(): void {
  if (!hasTool('opt-19') || !hasTool('clang-19')) {
    console.error('clang-19/opt-19 not found: install clang-19 llvm-19');
    process.exit(1);
  }
  const samples = requestedSamples(process.argv);
  if (samples.length > 0) {
    const first = firstSeedFromArgs(process.argv);
    const o2 = O2_OVERRIDE ?? 'default<O2>';
    const reports = samples.map(({ kind, n }) => freshSample(kind, n, first, o2));
    console.log(`\nfresh samples, first seed ${first}: ${reports.map((r) => `${r.kind} ${r.geomean.toFixed(3)} over ${r.ratios.length}`).join(', ')}`);
    if (!process.argv.includes('--corpus')) return;
  }
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
  const programs = [
    ...(only === 'sysy' ? [] : [...cPrograms('test/programs'), ...cPrograms('bench/programs')]),
    ...(only === 'c' ? [] : [...sysyPrograms('test/sysy/perf'), ...sysyPrograms('test/sysy')]),
  ].filter((p) => p.heavy || !process.argv.includes('--heavy'));
  const rows: (string | number)[][] = [];
  const ratios: number[] = [];
  const ratiosO1: number[] = [];
  const heavyRatios: number[] = [];
  const worst: [number, string][] = [];
  for (const p of programs) {
    const base = dynamicCount(p.ll, p.stdin);
    let o1: number | string = '-';
    let o2: number | string = '-';
    let llvm: number | string = '-';
    try {
      const r1 = dynamicCount(ours(p.ll, 'O1'), p.stdin);
      if (r1.out !== base.out || r1.code !== base.code) throw new Error('behaviour changed at O1');
      o1 = r1.count;
      const r2 = dynamicCount(ours(p.ll, 'O2'), p.stdin);
      if (r2.out !== base.out || r2.code !== base.code) throw new Error('behaviour changed at O2');
      o2 = r2.count;
    } catch (e) {
      o2 = `error: ${(e as Error).message.split('\n')[0].slice(0, 60)}`;
    }
    const l = llvmO2(p.ll);
    if (l !== null) llvm = dynamicCount(l, p.stdin).count;
    if (typeof o2 === 'number' && typeof llvm === 'number') {
      const ratio = o2 / llvm;
      ratios.push(ratio);
      worst.push([ratio, p.name]);
    }
    if (typeof o1 === 'number' && typeof llvm === 'number') ratiosO1.push(o1 / llvm);
    if (p.heavy && typeof o2 === 'number' && typeof llvm === 'number') heavyRatios.push(o2 / llvm);
    rows.push([p.lang, p.name, base.count, o1, o2, llvm, typeof o2 === 'number' && typeof llvm === 'number' ? o2 / llvm : '-']);
  }
  console.log('dynamic instructions executed (our interpreter, --stats)\n');
  console.log(table(['lang', 'program', 'unoptimized', 'ours -O1', 'ours -O2', 'opt-19 -O2', 'O2/LLVM'], rows));
  console.log(`\ngeomean ours -O2 / opt-19 -O2: ${geomean(ratios).toFixed(3)} over ${ratios.length} programs`);
  console.log(`geomean ours -O1 / opt-19 -O2: ${geomean(ratiosO1).toFixed(3)}`);
  console.log(`geomean ours -O2 / opt-19 -O2 on the compute-heavy programs (bench/programs, test/sysy/perf): ${geomean(heavyRatios).toFixed(3)} over ${heavyRatios.length}`);
  worst.sort((a, b) => b[0] - a[0]);
  console.log(`worst: ${worst.slice(0, 8).map(([r, n]) => `${n} ${r.toFixed(2)}`).join(', ')}`);

  if (process.argv.includes('--no-compile-time')) return;
  const crow: (string | number)[][] = [];
  for (const size of sizesFromArgs([10_000, 100_000, 1_000_000])) {
    const { path: stripped, instructions } = inlinableInput(size);
    // alternating runs, the best of each (this machine's speed drifts): 3 below 1M, 1 at 1M
    const reps = repeatFromArgs(instructions < 500_000 ? 3 : 1);
    const [l, o] = measureBest(
      [
        ['opt-19', ...LLVM_O2, '-S', stripped, '-o', join(OUT, 'q-c-llvm.ll')],
        [...SSAKIT, 'opt', '-O2', '-S', stripped, '-o', join(OUT, 'q-c-ours.ll')],
      ],
      reps,
    );
    crow.push([instructions, l.seconds, o.status === 0 ? o.seconds : 'failed', o.status === 0 ? o.seconds / l.seconds : '-', l.maxRssMB ?? '-', o.maxRssMB ?? '-']);
  }
  console.log('\ncompile time, whole process, best of alternating runs (3 below 1M, 1 at 1M; --repeat=N for all)\n');
  console.log(table(['instructions', 'opt-19 -O2 s', 'ssakit -O2 s', 'ratio', 'opt-19 MB', 'ssakit MB'], crow));
}

main();
