/**
 * bench/mem2reg: `ssakit opt -passes=mem2reg -S` against `opt-19 -passes=mem2reg -S`, whole
 * process, on the same files (best of 3 alternating runs, 1 for the scale input at 1M; --repeat=N), and the in-process time of the pass alone for
 * Cytron (mem2reg) and Braun (mem2reg-braun), with the cost per 1k instructions to show how
 * it grows. Inputs, at 10k, 100k and 1M instructions:
 *   - c:     clang-19 -O0 of large generated C (many functions; bench/common.ts largeInput);
 *   - scale: one function with instructions/10 variables (bench/mem2reg-input.ts).
 * Also checks that our phis per function equal opt-19's. opt-19 gets --opt-timeout=S seconds
 * (default 300): its mem2reg is quadratic on the scale input.
 *
 * Run: npm run build && npm run bench:mem2reg [-- --sizes=10000,100000 --inputs=c,scale]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Opcode } from '../src/ir/opcodes.js';
import type { Module } from '../src/ir/module.js';
import { runPipeline } from '../src/passes/index.js';
import { parseModule } from '../src/text/parser.js';
import { OUT, SSAKIT, countInstructions, fmt, hasTool, largeInput, repeatFromArgs, sizesFromArgs, table } from './common.js';
import { scaleFunctionIR } from './mem2reg-input.js';

interface Run {
  wall: number;
  cpu: number;
  rssMB: number;
}

/** One whole-process run: wall and user+system time, peak RSS (GNU time); null on timeout. */
function run(cmd: string[], timeoutS = 1800): Run | null {
  const r = spawnSync('/usr/bin/time', ['-f', '__T__ %e %U %S %M', ...cmd], { maxBuffer: 1 << 30, timeout: timeoutS * 1000, killSignal: 'SIGKILL' });
  if (r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') return null;
  const err = r.stderr?.toString() ?? '';
  const m = /__T__ ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(err);
  if (r.status !== 0 || m === null) throw new Error(`${cmd.join(' ')} failed: ${err.slice(0, 2000)}`);
  return { wall: Math.max(0.005, Number(m[1])), cpu: Math.max(0.005, Number(m[2]) + Number(m[3])), rssMB: Number(m[4]) / 1024 };
}

const timeoutArg = process.argv.find((a) => a.startsWith('--opt-timeout='));
/** opt-19's mem2reg is quadratic on the scale input (its IDF walks whole dominator subtrees). */
const OPT_TIMEOUT = timeoutArg ? Number(timeoutArg.slice(14)) : 300;

function phiCounts(m: Module): Map<string, number> {
  const r = new Map<string, number>();
  for (const f of m.functions) {
    if (f.isDeclaration()) continue;
    let c = 0;
    for (const b of f) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) c++;
    r.set(f.name, c);
  }
  return r;
}

function scaleInput(size: number): { path: string; instructions: number } {
  const path = join(OUT, `scale-${size}.ll`);
  if (!existsSync(path)) writeFileSync(path, scaleFunctionIR({ variables: Math.round(size / 10), instructions: size }));
  return { path, instructions: countInstructions(readFileSync(path, 'utf8')) };
}

/** In-process: the pass alone (its dominator trees included), on a freshly parsed module; CPU ms. */
function passTime(text: string, pass: string): { ms: number; module: Module } {
  const m = parseModule(text, 'bench.ll');
  (globalThis as { gc?: () => void }).gc?.();
  const c0 = process.cpuUsage();
  runPipeline(m, pass);
  const c = process.cpuUsage(c0);
  return { ms: (c.user + c.system) / 1000, module: m };
}

/**
 * The best of `n` runs of each command (least disturbed by other processes on a shared
 * machine); the commands' runs alternate, so a machine whose speed drifts during the
 * measurement favours none of them. A command that times out is not run again (null).
 */
function bestAlternating(n: number, cmds: { cmd: string[]; timeoutS?: number }[]): (Run | null)[] {
  const out: (Run | null | undefined)[] = cmds.map(() => undefined);
  for (let k = 0; k < n; k++) {
    cmds.forEach(({ cmd, timeoutS }, c) => {
      if (out[c] === null) return;
      const x = run(cmd, timeoutS);
      const r = out[c];
      if (x === null) out[c] = null;
      else if (r === undefined) out[c] = x;
      else out[c] = { wall: Math.min(r.wall, x.wall), cpu: Math.min(r.cpu, x.cpu), rssMB: Math.max(r.rssMB, x.rssMB) };
    });
  }
  return out.map((r) => r ?? null);
}

/**
 * Runs per measurement: 3, alternating (on a shared machine one run of each can land in
 * different slow spells); 1 for the scale input above 200k instructions, where opt-19's
 * quadratic mem2reg takes minutes (override with --repeat=N).
 */
const repeats = (kind: string, instructions: number): number => repeatFromArgs(kind === 'scale' && instructions > 200_000 ? 1 : 3);

if (!hasTool('opt-19') || !existsSync('/usr/bin/time')) {
  console.error('needs opt-19 (llvm-19) and /usr/bin/time');
  process.exit(1);
}
if (!existsSync(join('dist', 'ssakit.js'))) {
  console.error('build first: npm run build');
  process.exit(1);
}
const inputsArg = process.argv.find((a) => a.startsWith('--inputs='));
const kinds = inputsArg ? inputsArg.slice(9).split(',') : ['c', 'scale'];
const sizes = sizesFromArgs([10_000, 100_000, 1_000_000]);

const rows: (string | number)[][] = [];
const passRows: (string | number)[][] = [];
let mismatches = 0;
let warmedUp = false;
for (const kind of kinds) {
  for (const size of sizes) {
    const { path, instructions } = kind === 'c' ? largeInput(size) : scaleInput(size);
    const label = `${kind} ${instructions}`;
    const optOut = join(OUT, 'm2r-llvm.ll');
    const ourOut = join(OUT, 'm2r-ours.ll');
    const R = repeats(kind, instructions);
    const [llvm, ours1, ours, llvmPP, oursPP] = bestAlternating(R, [
      { cmd: ['opt-19', '-passes=mem2reg', '-S', path, '-o', optOut], timeoutS: OPT_TIMEOUT },
      { cmd: [...SSAKIT, 'opt', path, '-passes=mem2reg', '-S', '-o', ourOut, '--threads', '1'] },
      { cmd: [...SSAKIT, 'opt', path, '-passes=mem2reg', '-S', '-o', ourOut] }, // last: its output is the one checked
      { cmd: ['opt-19', '-S', path, '-o', join(OUT, 'm2r-llvm-pp.ll')] },
      { cmd: [...SSAKIT, 'opt', path, '-S', '-o', join(OUT, 'm2r-ours-pp.ll')] },
    ]) as [Run | null, Run, Run, Run, Run];
    rows.push([
      label,
      llvm === null ? `>${OPT_TIMEOUT}` : llvm.wall,
      ours.wall,
      llvm === null ? '-' : ours.wall / llvm.wall,
      llvm === null ? '-' : ours1.wall / llvm.wall,
      llvm === null ? `>${OPT_TIMEOUT}` : llvm.cpu,
      ours.cpu,
      llvm === null ? '-' : ours.cpu / llvm.cpu,
      oursPP.cpu / llvmPP.cpu,
      ours.cpu - oursPP.cpu,
      llvm === null ? '-' : llvm.cpu - llvmPP.cpu,
      (ours.cpu * 1e6) / instructions,
      llvm === null ? '-' : Math.round(llvm.rssMB),
      Math.round(ours.rssMB),
    ]);
    // phi counts: ours (whole process output) against opt-19's
    let phis = 0;
    const b = phiCounts(parseModule(readFileSync(ourOut, 'utf8'), 'ours'));
    if (llvm !== null) {
      const a = phiCounts(parseModule(readFileSync(optOut, 'utf8'), 'opt'));
      for (const [fn, c] of a) {
        phis += c;
        if (b.get(fn) !== c) {
          mismatches++;
          console.log(`phi count differs in @${fn} of ${path}: opt-19 ${c}, ssakit ${b.get(fn)}`);
        }
      }
    } else {
      for (const c of b.values()) phis += c;
      console.log(`opt-19 timed out on ${path}: phi counts not compared`);
    }
    const text = readFileSync(path, 'utf8');
    if (!warmedUp) {
      // let the JIT compile both passes first (on the smallest input), as a long run would
      for (let k = 0; k < 3; k++) {
        passTime(text, 'mem2reg');
        passTime(text, 'mem2reg-braun');
      }
      warmedUp = true;
    }
    const pr = Math.min(3, R);
    let cy = passTime(text, 'mem2reg');
    let br = passTime(text, 'mem2reg-braun');
    for (let k = 1; k < pr; k++) {
      const c2 = passTime(text, 'mem2reg');
      if (c2.ms < cy.ms) cy = c2;
      const b2 = passTime(text, 'mem2reg-braun');
      if (b2.ms < br.ms) br = b2;
    }
    const bPhis = [...phiCounts(br.module).values()].reduce((s, c) => s + c, 0);
    passRows.push([label, cy.ms, br.ms, (cy.ms * 1000) / instructions, (br.ms * 1000) / instructions, br.ms / cy.ms, phis, bPhis]);
    console.error(`done: ${label}`);
  }
}
console.log('mem2reg, whole process (parse + verify + mem2reg + verify + print), same file, best of 3 alternating runs (1 for the scale input at 1M)');
console.log('wall ratio = ssakit / opt-19 wall time; cpu ratio = the same in user+system time (steadier on a shared');
console.log('machine); 1 thread = wall ratio with --threads 1 (big inputs are otherwise streamed on worker threads);');
console.log('pp cpu ratio = the same without the pass (opt -S); +pass = cpu seconds the pass adds\n');
console.log(
  table(
    ['input', 'opt-19 wall', 'ssakit wall', 'wall ratio', '1 thread', 'opt-19 cpu', 'ssakit cpu', 'cpu ratio', 'pp cpu ratio', 'ssakit +pass', 'opt-19 +pass', 'ssakit cpu ms/1k', 'opt-19 MB', 'ssakit MB'],
    rows,
  ),
);
console.log('\nthe pass alone, in process, after warm-up (CPU ms, dominator trees included), best of 3 (1 for the scale input at 1M)\n');
console.log(table(['input', 'Cytron ms', 'Braun ms', 'Cytron ms/1k', 'Braun ms/1k', 'Braun/Cytron', 'phis', 'Braun phis'], passRows));
console.log(mismatches === 0 ? '\nphi counts: equal to opt-19 in every function' : `\nphi counts: ${mismatches} function(s) differ from opt-19`);
void fmt;
