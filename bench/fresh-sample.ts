/**
 * bench/quality's second part: our -O2 against `opt-19 -O2` (vectorizers off) on programs
 * the pipeline was never tuned on, generated fresh from random seeds for each run.
 *
 *   --csmith=N          Csmith programs, `--no-structs --no-unions --no-float --max-funcs 4`
 *   --csmith-structs=N  Csmith programs with structs and unions (`--no-float --max-funcs 4`)
 *   --cgen=N            generated C (src/fuzz/c-gen.ts, medium size)
 *   --sysy=N            generated SysY (src/fuzz/sysy-gen.ts, medium size, clang-style allocas)
 *   --seed=S            the first seed (each sample uses S, S+1, ...); printed by every run
 *                       so that a run can be repeated; by default a random one in
 *                       [10^6, 2·10^9), far from the tests' seeds (all below 10^5)
 *
 * C programs: clang-19 -O0 -Xclang -disable-O0-optnone, `noinline`/`optnone` stripped (as
 * the tests do); kept when lli-19 finishes them within 10 s. SysY programs: our frontend
 * (alloca form, as `--ssa=alloca -O0`); kept when our interpreter finishes them within 3·10^8
 * steps. Both optimized programs are counted by our interpreter (dynamic instructions) and
 * must print the reference output (lli-19's for C, the unoptimized run's for SysY): a
 * difference is reported as a miscompile, not counted.
 *
 * "Folded" means the optimized program executed at most FOLDED_MAX instructions (for a
 * Csmith program: `printf` of a constant checksum and `ret`, the loops all gone).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSysY } from '../src/frontend/sysy/index.js';
import { generateCProgram } from '../src/fuzz/c-gen.js';
import { generateSysYProgram } from '../src/fuzz/sysy-gen.js';
import { InterpError, runModule } from '../src/interp/index.js';
import { runPipeline } from '../src/passes/index.js';
import { parseModule } from '../src/text/parser.js';
import { printModule } from '../src/text/printer.js';
import { stripNoinline } from '../test/helpers/noinline.js';
import { OUT, table } from './common.js';

const LLVM_O2 = ['-passes=default<O2>', '-vectorize-loops=false', '-vectorize-slp=false'];
const FRESH = join(OUT, 'fresh');
const FOLDED_MAX = 16;
const LLI_MS = 10_000;
const SYSY_STEPS = 3e8;
const CSMITH_INCLUDE = ['/usr/include/csmith', '/usr/local/include/csmith', '/usr/include/csmith-2.3.0'].find((d) => existsSync(join(d, 'csmith.h')));

export type SampleKind = 'csmith' | 'csmith-structs' | 'cgen' | 'sysy';

const CSMITH_ARGS: Record<'csmith' | 'csmith-structs', string[]> = {
  csmith: ['--no-structs', '--no-unions', '--no-float', '--max-funcs', '4', '--no-packed-struct'],
  'csmith-structs': ['--no-float', '--max-funcs', '4', '--no-packed-struct'],
};

interface Sample {
  name: string;
  ll: string;
  /** The reference stdout and exit code (lli-19 for C, the unoptimized run for SysY). */
  out: string;
  code: number;
}

function clang(cPath: string, llPath: string, extra: string[]): boolean {
  const r = spawnSync('clang-19', ['-O0', '-Xclang', '-disable-O0-optnone', '-w', '-S', '-emit-llvm', ...extra, cPath, '-o', llPath], { encoding: 'utf8' });
  return r.status === 0;
}

function lli(llPath: string): { out: string; code: number } | null {
  const r = spawnSync('lli-19', [llPath], { timeout: LLI_MS, maxBuffer: 1 << 28 });
  if (r.error !== undefined || r.status === null) return null;
  return { out: r.stdout.toString('latin1'), code: r.status };
}

/** One program of a kind for a seed, or a reason it is not kept. */
function makeSample(kind: SampleKind, seed: number): Sample | string {
  mkdirSync(FRESH, { recursive: true });
  const name = `${kind}-${seed}`;
  if (kind === 'sysy') {
    const r = compileSysY(generateSysYProgram(seed, { size: 'medium' }), `${name}.sy`, { ssa: 'alloca' });
    if (r.module === undefined) return 'does not compile';
    const ll = printModule(r.module);
    const base = count(ll, SYSY_STEPS);
    if (typeof base === 'string') return `unoptimized: ${base}`;
    return { name, ll, out: base.out, code: base.code };
  }
  const cPath = join(FRESH, `${name}.c`);
  const llPath = join(FRESH, `${name}.ll`);
  let flags: string[] = [];
  if (kind === 'cgen') writeFileSync(cPath, generateCProgram(seed, { size: 'medium' }));
  else {
    if (CSMITH_INCLUDE === undefined) return 'csmith.h not found';
    const r = spawnSync('csmith', ['--seed', String(seed), ...CSMITH_ARGS[kind], '-o', cPath]);
    if (r.status !== 0) return 'csmith failed';
    flags = ['-I' + CSMITH_INCLUDE];
  }
  if (!clang(cPath, llPath, flags)) return 'clang-19 failed';
  const want = lli(llPath);
  if (want === null) return `lli-19 did not finish in ${LLI_MS / 1000} s`;
  return { name, ll: stripNoinline(readFileSync(llPath, 'utf8')), out: want.out, code: want.code };
}

function count(ll: string, maxSteps: number): { count: number; out: string; code: number } | string {
  try {
    const r = runModule(parseModule(ll, 'fresh.ll'), { stdout: 'collect', stderr: 'collect', stats: true, maxSteps });
    return { count: r.stats!.total, out: r.stdoutBytes!.toString('latin1'), code: r.exitCode };
  } catch (e) {
    if (e instanceof InterpError) return e.message.split('\n')[0].slice(0, 80);
    throw e;
  }
}

function llvmO2(ll: string): string | null {
  const inPath = join(FRESH, 'in.ll');
  const outPath = join(FRESH, 'llvm.ll');
  writeFileSync(inPath, ll);
  const r = spawnSync('opt-19', [...LLVM_O2, '-S', inPath, '-o', outPath], { encoding: 'utf8' });
  return r.status === 0 ? readFileSync(outPath, 'utf8') : null;
}

const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / Math.max(1, xs.length));

export interface SampleReport {
  kind: SampleKind;
  firstSeed: number;
  ratios: number[];
  geomean: number;
}

/**
 * Generates `n` programs of `kind` from seeds firstSeed, firstSeed+1, ..., measures them and
 * prints the table. `o2` is our pipeline (default<O2>, or bench/quality's --o2=).
 */
export function freshSample(kind: SampleKind, n: number, firstSeed: number, o2: string): SampleReport {
  console.log(`\n== fresh ${kind} sample: ${n} seeds from ${firstSeed} (repeat with --${kind}=${n} --seed=${firstSeed}) ==\n`);
  const rows: (string | number)[][] = [];
  const ratios: number[] = [];
  const worse: string[] = [];
  const folded: string[] = [];
  const skipped: string[] = [];
  const errors: string[] = [];
  const t0 = performance.now();
  for (let seed = firstSeed; seed < firstSeed + n; seed++) {
    const s = makeSample(kind, seed);
    if (typeof s === 'string') {
      skipped.push(`${seed} (${s})`);
      continue;
    }
    let ours: number | string;
    try {
      const m = parseModule(s.ll, `${s.name}.ll`);
      runPipeline(m, o2);
      const r = count(printModule(m), SYSY_STEPS * 4);
      if (typeof r === 'string') ours = `error: ${r}`;
      else if (r.out !== s.out || r.code !== s.code) ours = 'error: output differs';
      else ours = r.count;
    } catch (e) {
      ours = `error: ${(e as Error).message.split('\n')[0].slice(0, 60)}`;
    }
    const l = llvmO2(s.ll);
    const lr = l === null ? 'opt-19 failed' : count(l, SYSY_STEPS * 4);
    const llvm = typeof lr === 'string' ? lr : lr.count;
    if (typeof ours === 'string') errors.push(`${s.name}: ${ours}`);
    let ratio: number | string = '-';
    if (typeof ours === 'number' && typeof llvm === 'number') {
      ratio = Math.max(1, ours) / Math.max(1, llvm);
      ratios.push(ratio);
      if (ratio > 1.5) worse.push(`${s.name} ${ratio.toFixed(2)}`);
      if (ours <= FOLDED_MAX || llvm <= FOLDED_MAX) folded.push(`${s.name} (ours ${ours}, LLVM ${llvm})`);
    }
    rows.push([s.name, ours, llvm, ratio]);
  }
  console.log(table(['program', 'ours -O2', 'opt-19 -O2', 'ratio'], rows));
  const g = geomean(ratios);
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`\n${kind}: geomean ours -O2 / opt-19 -O2 = ${g.toFixed(3)} over ${ratios.length} programs (median ${sorted.length ? sorted[sorted.length >> 1].toFixed(3) : '-'}, worst ${sorted.length ? sorted[sorted.length - 1].toFixed(2) : '-'}), ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  console.log(`worse than 1.5x (${worse.length}): ${worse.join(', ') || 'none'}`);
  console.log(`folded to at most ${FOLDED_MAX} executed instructions by either side (${folded.length}): ${folded.join(', ') || 'none'}`);
  console.log(`skipped (${skipped.length}): ${skipped.join(', ') || 'none'}`);
  if (errors.length) console.log(`ERRORS (${errors.length}): ${errors.join('; ')}`);
  return { kind, firstSeed, ratios, geomean: g };
}

/** The samples asked for on the command line (`--csmith=N` ...), with their first seed. */
export function requestedSamples(argv: string[]): { kind: SampleKind; n: number }[] {
  const out: { kind: SampleKind; n: number }[] = [];
  for (const kind of ['csmith', 'csmith-structs', 'cgen', 'sysy'] as const) {
    const a = argv.find((x) => x.startsWith(`--${kind}=`));
    if (a !== undefined) out.push({ kind, n: Number(a.slice(kind.length + 3)) });
  }
  return out;
}

export function firstSeedFromArgs(argv: string[]): number {
  const a = argv.find((x) => x.startsWith('--seed='));
  return a !== undefined ? Number(a.slice(7)) : 1_000_000 + Math.floor(Math.random() * 1_999_000_000);
}
