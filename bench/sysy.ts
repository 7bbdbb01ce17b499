/**
 * bench/sysy: compile time of the SysY frontend's two SSA modes on large generated programs
 * (src/fuzz/sysy-gen.ts, 'large' preset, 10k–1M lines), against each other and against
 * clang-19 compiling the same program as C (with SYSY_C_PRELUDE) to IR at -O0.
 *
 *  - in-process (a fresh process per measurement, times taken inside it): parse + check,
 *    IR generation, mem2reg, total to a module in SSA form — Braun mode (SSA directly,
 *    with on-the-fly folding) vs alloca mode + mem2reg; also printing the .ll;
 *  - whole process: `ssakit compile FILE.sy -o /dev/null` (Braun) vs
 *    `ssakit compile --ssa=alloca --mem2reg` vs `clang-19 -O0 -S -emit-llvm -x c`.
 *
 * Each ratio is measured in the same run on the same file; with --reps=N (default 1) each
 * time is the best of N runs, which tames a shared machine, and the runs of the modes
 * alternate, so a machine whose speed drifts favours neither. "ratio (SSA only)" leaves out
 * parsing and checking, which both modes share: Braun IR generation against alloca IR
 * generation + mem2reg. Inputs are cached in bench/out/.
 *
 * Run: npm run bench:sysy [-- --sizes=10000,100000,1000000] [--reps=3] [--no-clang]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { generateSysYProgram, SYSY_C_PRELUDE } from '../src/fuzz/c-gen.js';
import { OUT, SSAKIT, fmt, hasTool, measureBest, sizesFromArgs, table } from './common.js';
import { V8_FLAGS } from '../scripts/node-flags.mjs';

const sizes = sizesFromArgs([10_000, 100_000, 1_000_000]);
const repsArg = process.argv.find((a) => a.startsWith('--reps='));
const REPS = repsArg ? Math.max(1, Number(repsArg.slice(7))) : 1;
const clang = !process.argv.includes('--no-clang') && hasTool('clang-19');
/**
 * The V8 flags the shipped `ssakit` command runs with (its shebang line), so in-process
 * times are production's; big inputs also need more than V8's default old space.
 */
const NODE_FLAGS = [...V8_FLAGS, '--max-old-space-size=16384'];

interface InProc {
  frontend: number;
  irgen: number;
  mem2reg: number;
  print: number;
  instructions: number;
  phis: number;
  bytes: number;
}

function input(lines: number): { sy: string; c: string; lines: number } {
  mkdirSync(OUT, { recursive: true });
  const sy = join(OUT, `sysy-${lines}.sy`);
  const c = join(OUT, `sysy-${lines}.c`);
  if (!existsSync(sy) || !existsSync(c)) {
    const src = generateSysYProgram(1, { size: 'large', targetLines: lines });
    writeFileSync(sy, src);
    writeFileSync(c, SYSY_C_PRELUDE + src);
  }
  return { sy, c, lines: readFileSync(sy, 'utf8').split('\n').length - 1 };
}

async function bundleDriver(): Promise<string> {
  const out = join(OUT, 'sysy-inproc.mjs');
  await build({
    entryPoints: [join(process.cwd(), 'bench', 'sysy-inproc.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);" },
  });
  return out;
}

function inProcessOnce(driver: string, file: string, mode: string): InProc {
  const r = spawnSync('node', [...NODE_FLAGS, driver, file, mode], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`in-process ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as InProc;
}

/** Keeps each phase's best time (phases are measured independently). */
function keepBest(best: InProc | null, m: InProc): InProc {
  if (best === null) return m;
  best.frontend = Math.min(best.frontend, m.frontend);
  best.irgen = Math.min(best.irgen, m.irgen);
  best.mem2reg = Math.min(best.mem2reg, m.mem2reg);
  best.print = Math.min(best.print, m.print);
  return best;
}

/**
 * In-process times of both modes, best of REPS runs each. The runs alternate (Braun,
 * alloca, Braun, …) so that a machine whose speed drifts during the measurement favours
 * neither mode.
 */
function inProcess(driver: string, file: string): { b: InProc; a: InProc } {
  let b: InProc | null = null;
  let a: InProc | null = null;
  for (let k = 0; k < REPS; k++) {
    b = keepBest(b, inProcessOnce(driver, file, 'braun'));
    a = keepBest(a, inProcessOnce(driver, file, 'alloca+mem2reg'));
  }
  return { b: b!, a: a! };
}

/** Whole-process runs, alternating, best of REPS each (measureBest); a failed run is an error. */
function wholeProcess(cmds: string[][]): { seconds: number; mb: number | null }[] {
  return measureBest(cmds, REPS, { timeout: 3_600_000 }).map((m, c) => {
    if (m.status !== 0) throw new Error(`${cmds[c].join(' ')} failed: ${m.stderr}`);
    return { seconds: m.seconds, mb: m.maxRssMB };
  });
}

const ms = (x: number): string => fmt(Math.round(x));

async function main(): Promise<void> {
  if (!existsSync(SSAKIT[SSAKIT.length - 1])) throw new Error('dist/ssakit.js is missing: run `node scripts/build.mjs` (npm run bench:sysy does)');
  const driver = await bundleDriver();
  const inRows: (string | number)[][] = [];
  const wholeRows: (string | number)[][] = [];
  for (const target of sizes) {
    const { sy, c, lines } = input(target);
    process.stderr.write(`${lines} lines: in-process…\n`);
    const { b, a } = inProcess(driver, sy);
    // parse + check is the same work in both modes: count its best time in both totals
    const fe = Math.min(b.frontend, a.frontend);
    const bt = fe + b.irgen;
    const at = fe + a.irgen + a.mem2reg;
    inRows.push([
      lines, b.instructions, a.instructions, ms(fe),
      ms(b.irgen), ms(a.irgen), ms(a.mem2reg),
      ms(bt), ms(at), (bt / at).toFixed(2), (b.irgen / (a.irgen + a.mem2reg)).toFixed(2),
      ms(b.print), ms(a.print),
    ]);
    process.stderr.write(`${lines} lines: whole process…\n`);
    const [wb, wa, wc = null] = wholeProcess([
      ['node', ...NODE_FLAGS, SSAKIT[SSAKIT.length - 1], 'compile', sy, '-o', '/dev/null'],
      ['node', ...NODE_FLAGS, SSAKIT[SSAKIT.length - 1], 'compile', sy, '--ssa=alloca', '--mem2reg', '-o', '/dev/null'],
      ...(clang ? [['clang-19', '-O0', '-w', '-S', '-emit-llvm', '-x', 'c', c, '-o', '/dev/null']] : []),
    ]);
    wholeRows.push([
      lines, fmt(wb.seconds), fmt(wa.seconds), (wb.seconds / wa.seconds).toFixed(2),
      wc ? fmt(wc.seconds) : '-', wc ? (wb.seconds / wc.seconds).toFixed(2) : '-', wc ? (wa.seconds / wc.seconds).toFixed(2) : '-',
      wb.mb === null ? '-' : ms(wb.mb), wa.mb === null ? '-' : ms(wa.mb), wc?.mb == null ? '-' : ms(wc.mb),
    ]);
  }
  console.log(`\nSysY compile time, in-process (ms${REPS > 1 ? `, best of ${REPS}` : ''}): Braun SSA (with folding) vs alloca + mem2reg; the module in SSA form, then printing\n`);
  console.log(table(
    ['lines', 'insts braun', 'insts a+m2r', 'parse+check', 'braun irgen', 'alloca irgen', 'mem2reg', 'braun total', 'a+m2r total', 'ratio', 'ratio (SSA only)', 'print braun', 'print a+m2r'],
    inRows,
  ));
  console.log(`\nWhole process (s${REPS > 1 ? `, best of ${REPS}` : ''}): ssakit compile (Braun) vs ssakit compile --ssa=alloca --mem2reg vs clang-19 -O0 -S -emit-llvm (as C)\n`);
  console.log(table(['lines', 'braun', 'alloca+m2r', 'braun/a+m2r', 'clang-19', 'braun/clang', 'a+m2r/clang', 'braun MB', 'a+m2r MB', 'clang MB'], wholeRows));
  console.log('\nratio < 1: Braun mode is faster. Target: Braun faster than alloca + mem2reg.');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
