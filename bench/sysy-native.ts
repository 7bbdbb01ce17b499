/**
 * bench/sysy-native: SysY programs run natively, where only the middle-end differs (#18).
 *
 * For each program P.sy of the given directories (default: bench/sysy-perf and
 * test/sysy/perf), four executables are built and linked with runtime/sylib.c (clang-19 -O2):
 *
 *  - ours:   `ssakit compile P.sy -O2`                         → llc-19 -O2 (PIC) → link
 *  - base:   `ssakit compile P.sy --ssa=alloca -O0` (the unoptimized frontend output)
 *  - llvm:   base → `opt-19 -O2`                                → llc-19 -O2 → link
 *  - llvmNV: base → `opt-19 -O2 -vectorize-loops=false -vectorize-slp=false` → same
 *
 * Each runs with P.in as stdin; its stdout followed by its exit code must equal P.out (or,
 * without a .out, what our interpreter prints, cached in bench/out/sysy-native/). The time is
 * the best of --reps=N (default 3) runs' CPU time (perf stat's task-clock, else user+system
 * from /usr/bin/time: on a shared machine the wall clock mostly measures the wait for a core),
 * the variants' runs interleaved so that a burst of load hits all alike. Printed per program: seconds and
 * ours/LLVM for both LLVM variants; then the summed times, the geomean of the ratios and the
 * programs above 1.5x. A program that fails to build or run (or prints the wrong output) is
 * skipped with the reason.
 *
 * --fresh=N adds N programs from the SysY generator (src/fuzz/sysy-gen.ts, medium preset with
 * loops widened so they run measurably) from a random seed that is printed (--seed=S repeats
 * a run); their reference output is clang-19 -O0 compiling the program as C.
 *
 * Run: npm run bench:sysy-native [-- DIR...] [--reps=3] [--fresh=10] [--seed=S] [--only=REGEX]
 *      [--timeout=60]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { generateSysYProgram, SYSY_C_PRELUDE } from '../src/fuzz/sysy-gen.js';
import { OUT, SSAKIT, fmt, table } from './common.js';

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const REPS = Math.max(1, Number(opt('reps') ?? 3));
const FRESH = Number(opt('fresh') ?? 0);
const SEED = Number(opt('seed') ?? Math.floor(Math.random() * 1e9));
const ONLY = opt('only') !== undefined ? new RegExp(opt('only')!) : null;
const TIMEOUT_MS = Number(opt('timeout') ?? 60) * 1000;
const dirs = argv.filter((a) => !a.startsWith('--'));
if (dirs.length === 0) dirs.push('bench/sysy-perf', 'test/sysy/perf');

const WORK = join(OUT, 'sysy-native');
mkdirSync(WORK, { recursive: true });
const SYLIB = join(process.cwd(), 'runtime', 'sylib.c');
const SYLIB_O = join(WORK, 'sylib.o');
const VARIANTS = ['ours', 'llvm', 'llvmNV'] as const;
type Variant = (typeof VARIANTS)[number];

function run(cmd: string, args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { input, timeout: TIMEOUT_MS, maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout?.toString('latin1') ?? '', stderr: (r.stderr?.toString() ?? '') + (r.error ? String(r.error) : '') };
}

function must(cmd: string, args: string[]): void {
  const r = run(cmd, args);
  if (r.status !== 0) throw new Error(`${basename(cmd)} failed: ${r.stderr.split('\n').slice(0, 3).join(' ')}`);
}

/** Output as the test corpus records it: stdout, a newline if missing, the exit code. */
function formatOut(stdout: string, code: number | null): string {
  return stdout + (stdout.length > 0 && !stdout.endsWith('\n') ? '\n' : '') + String(code) + '\n';
}

interface Program {
  name: string;
  sy: string;
  input: string;
  /** Expected output, or a function that computes it (cached). */
  expected: () => string;
}

function cached(key: string, make: () => string): string {
  const p = join(WORK, `ref-${createHash('sha1').update(key).digest('hex').slice(0, 16)}.out`);
  if (existsSync(p)) return readFileSync(p, 'latin1');
  const v = make();
  writeFileSync(p, v, 'latin1');
  return v;
}

function corpusPrograms(dir: string): Program[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.sy')).sort().map((f) => {
    const sy = join(dir, f);
    const base = sy.slice(0, -3);
    const input = existsSync(base + '.in') ? readFileSync(base + '.in', 'latin1') : '';
    const expected = existsSync(base + '.out')
      ? () => readFileSync(base + '.out', 'latin1')
      : () => cached(readFileSync(sy, 'utf8') + '\0' + input, () => {
          const r = run(SSAKIT[0], [...SSAKIT.slice(1), 'run', sy], input);
          if (r.status === null) throw new Error(`the interpreter did not finish in ${TIMEOUT_MS / 1000} s`);
          return formatOut(r.stdout, r.status);
        });
    return { name: basename(dir) + '/' + f.slice(0, -3), sy, input, expected };
  });
}

/** Generated programs, widened so that their loops run long enough to time natively. */
function freshPrograms(n: number, seed: number): Program[] {
  const out: Program[] = [];
  for (let k = 0; k < n; k++) {
    const s = seed + k;
    const src = generateSysYProgram(s, { size: 'medium', maxTrip: 5000, maxLoopProduct: 100_000_000, workBudget: 400_000_000 });
    const sy = join(WORK, `gen-${s}.sy`);
    writeFileSync(sy, src);
    out.push({
      name: `gen-${s}`, sy, input: '',
      expected: () => cached('C\0' + src, () => {
        const c = join(WORK, `gen-${s}.c`);
        const exe = join(WORK, `gen-${s}.c.exe`);
        writeFileSync(c, SYSY_C_PRELUDE + src);
        must('clang-19', ['-O0', '-w', '-ffp-contract=off', c, SYLIB, '-lm', '-o', exe]);
        const r = run(exe, []);
        // not cached: a reference that did not finish (timeout, signal) is no reference
        if (r.status === null) throw new Error(`clang-19 -O0 build did not finish in ${TIMEOUT_MS / 1000} s`);
        return formatOut(r.stdout, r.status);
      }),
    });
  }
  return out;
}

/** Builds the three executables of one program; returns their paths or a reason. */
function buildAll(p: Program): Record<Variant, string> | string {
  const stem = join(WORK, basename(p.sy, '.sy') + '-' + createHash('sha1').update(p.sy).digest('hex').slice(0, 6));
  try {
    must(SSAKIT[0], [...SSAKIT.slice(1), 'compile', p.sy, '-O2', '-o', `${stem}.ours.ll`]);
    must(SSAKIT[0], [...SSAKIT.slice(1), 'compile', p.sy, '--ssa=alloca', '-O0', '-o', `${stem}.base.ll`]);
    must('opt-19', ['-O2', `${stem}.base.ll`, '-S', '-o', `${stem}.llvm.ll`]);
    must('opt-19', ['-O2', '-vectorize-loops=false', '-vectorize-slp=false', `${stem}.base.ll`, '-S', '-o', `${stem}.llvmNV.ll`]);
    const exes = {} as Record<Variant, string>;
    for (const v of VARIANTS) {
      must('llc-19', ['-O2', '-relocation-model=pic', '-filetype=obj', `${stem}.${v}.ll`, '-o', `${stem}.${v}.o`]);
      must('clang-19', [`${stem}.${v}.o`, SYLIB_O, '-lm', '-o', `${stem}.${v}.exe`]);
      exes[v] = `${stem}.${v}.exe`;
    }
    return exes;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * How a run is timed: CPU time of the process (perf's task-clock, else user + system time from
 * /usr/bin/time), since on a shared machine the wall clock mostly measures the wait for a core;
 * the wall clock only when neither tool works.
 */
const CLOCK: 'perf' | 'time' | 'wall' =
  spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', 'true']).status === 0 ? 'perf' : existsSync('/usr/bin/time') ? 'time' : 'wall';
const CLOCK_FILE = join(WORK, `clock-${process.pid}.txt`);

function timeRun(exe: string, input: string): { seconds: number; out: string } {
  const cmd = CLOCK === 'perf' ? ['perf', 'stat', '-x,', '-e', 'task-clock', '-o', CLOCK_FILE, exe] : CLOCK === 'time' ? ['/usr/bin/time', '-f', '%U %S', '-o', CLOCK_FILE, exe] : [exe];
  const t0 = performance.now();
  const r = spawnSync(cmd[0], cmd.slice(1), { input, timeout: TIMEOUT_MS, maxBuffer: 1 << 28 });
  let seconds = (performance.now() - t0) / 1000;
  if (r.error !== undefined || r.status === null) return { seconds: Infinity, out: `did not finish (${r.error ? 'timeout' : r.signal})` };
  if (CLOCK !== 'wall') {
    const text = readFileSync(CLOCK_FILE, 'utf8');
    const m = CLOCK === 'perf' ? /^([\d.]+),msec,task-clock/m.exec(text) : /^([\d.]+) ([\d.]+)$/m.exec(text);
    if (m !== null) seconds = CLOCK === 'perf' ? Number(m[1]) / 1000 : Number(m[1]) + Number(m[2]);
  }
  return { seconds, out: formatOut(r.stdout.toString('latin1'), r.status) };
}

function geomean(xs: number[]): number {
  return xs.length === 0 ? NaN : Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
}

function main(): void {
  must('clang-19', ['-O2', '-w', '-c', SYLIB, '-o', SYLIB_O]);
  let programs = dirs.flatMap(corpusPrograms);
  if (FRESH > 0) {
    console.log(`fresh sample: ${FRESH} generated SysY programs from seed ${SEED} (repeat with --fresh=${FRESH} --seed=${SEED})`);
    programs = programs.concat(freshPrograms(FRESH, SEED));
  }
  if (ONLY !== null) programs = programs.filter((p) => ONLY.test(p.name));
  const rows: (string | number)[][] = [];
  const kept: { name: string; t: Record<Variant, number> }[] = [];
  for (const p of programs) {
    const exes = buildAll(p);
    if (typeof exes === 'string') { console.log(`skip ${p.name}: ${exes}`); continue; }
    let expected: string;
    try { expected = p.expected(); } catch (e) { console.log(`skip ${p.name}: no reference output (${(e as Error).message})`); continue; }
    const best = { ours: Infinity, llvm: Infinity, llvmNV: Infinity } as Record<Variant, number>;
    let bad = '';
    for (let k = 0; k < REPS && bad === ''; k++) {
      for (const v of VARIANTS) {
        const r = timeRun(exes[v], p.input);
        if (r.out !== expected) {
          let at = 0;
          while (at < r.out.length && r.out[at] === expected[at]) at++;
          const win = (t: string): string => JSON.stringify(t.slice(Math.max(0, at - 30), at + 50));
          bad = `${v} (run ${k + 1}) differs at byte ${at}: ${win(r.out)}, expected ${win(expected)}`;
          break;
        }
        best[v] = Math.min(best[v], r.seconds);
      }
    }
    if (bad !== '') { console.log(`skip ${p.name}: ${bad}`); continue; }
    kept.push({ name: p.name, t: best });
    const row = [p.name, best.ours.toFixed(3), best.llvm.toFixed(3), best.llvmNV.toFixed(3), (best.ours / best.llvm).toFixed(2), (best.ours / best.llvmNV).toFixed(2)];
    rows.push(row);
    console.log(row.join('  '));
  }
  if (kept.length === 0) return;
  const sum = (v: Variant) => kept.reduce((s, k) => s + k.t[v], 0);
  console.log('\n' + table(['program', 'ours s', 'llvm s', 'llvm-novec s', 'ours/llvm', 'ours/novec'], rows));
  console.log(`\n${kept.length} programs, best of ${REPS} (${CLOCK === 'perf' ? 'CPU time, perf task-clock' : CLOCK === 'time' ? 'CPU time, user+sys' : 'wall clock'})`);
  for (const [v, label] of [['llvm', 'opt-19 -O2'], ['llvmNV', 'opt-19 -O2 -vectorize-loops=false -vectorize-slp=false']] as const) {
    const ratios = kept.map((k) => k.t.ours / k.t[v]);
    const above = kept.filter((k) => k.t.ours / k.t[v] > 1.5).map((k) => `${k.name} ${fmt(k.t.ours / k.t[v])}x`);
    console.log(`vs ${label}: sum ${sum('ours').toFixed(3)} s / ${sum(v).toFixed(3)} s = ${(sum('ours') / sum(v)).toFixed(3)}x, geomean ${geomean(ratios).toFixed(3)}x; above 1.5x: ${above.length === 0 ? 'none' : above.join(', ')}`);
  }
}

main();
