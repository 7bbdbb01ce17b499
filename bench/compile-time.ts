/**
 * Whole-process compile time of `ssakit opt -O2 -S` against `opt-19 -O2 -S`, on the two
 * shapes of input issue #18 names:
 *  - one large generated program (bench/common.ts inlinableInput: c-gen's large mode, clang
 *    -O0, noinline stripped), at 10k and 100k instructions;
 *  - a module of many small functions: fresh Csmith programs (random seeds, printed; as
 *    bench/fresh-sample.ts makes them, clang-19 -O0 -disable-O0-optnone, noinline stripped)
 *    concatenated and renamed apart at the IR level until the module holds about 100k
 *    instructions (every program's `main` stays an external definition, so nothing is dead).
 *
 *   npx tsx bench/compile-time.ts [--seed=S] [--repeat=N] [--target=100000] [--only=small|large]
 *
 * Best of N alternating runs (default 3), wall and CPU (user+sys, which the machine's load
 * inflates less), and peak memory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countInstructions, inlinableInput, OUT, repeatFromArgs, SSAKIT, stripNoinline, table } from './common.js';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SEED = Number(arg('seed') ?? 1_000_000 + Math.floor(Math.random() * 2e9));
const TARGET = Number(arg('target') ?? 100_000);
const REPEAT = repeatFromArgs(3);
const ONLY = arg('only');
const CSMITH_INCLUDE = ['/usr/include/csmith', '/usr/local/include/csmith', '/usr/include/csmith-2.3.0'].find((d) => existsSync(join(d, 'csmith.h')));
const DIR = join(OUT, 'compile-time');

/**
 * One program's IR renamed apart as program k: its globals and functions (definitions),
 * struct types, attribute groups and numbered metadata get a prefix or an offset; its
 * declarations, target lines and named metadata are kept only when not seen before.
 */
function renameApart(ll: string, k: number, seenDecls: Set<string>): string {
  const defined = new Set<string>();
  for (const m of ll.matchAll(/^@([-\w$.]+) = /gm)) defined.add(m[1]);
  for (const m of ll.matchAll(/^define [^@]*@([-\w$.]+)\(/gm)) defined.add(m[1]);
  const out: string[] = [];
  for (let line of ll.split('\n')) {
    if (/^(target |source_filename|; ModuleID)/.test(line)) {
      if (k === 0) out.push(line);
      continue;
    }
    if (/^!llvm\./.test(line)) {
      if (k === 0) out.push(line);
      continue;
    }
    const decl = /^declare [^@]*@([-\w$.]+)\(/.exec(line);
    if (decl) {
      if (seenDecls.has(decl[1])) continue;
      seenDecls.add(decl[1]);
    }
    line = line
      .replace(/@([-\w$.]+)/g, (s, n: string) => (defined.has(n) ? `@p${k}.${n}` : s))
      .replace(/%(struct|union)\./g, `%p${k}.$1.`)
      .replace(/#(\d+)\b/g, (_, n: string) => `#${k * 1000 + Number(n)}`);
    if (!decl) line = line.replace(/!(\d+)\b/g, (_, n: string) => `!${k * 1000 + Number(n)}`);
    out.push(line);
  }
  return out.join('\n');
}

/** Csmith programs from `seed` on, renamed apart into one module of about `target` instructions. */
function manySmallFunctions(seed: number, target: number): { path: string; instructions: number; programs: number } {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, `csmith-many-${seed}-${target}.ll`);
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    return { path, instructions: countInstructions(text), programs: (text.match(/^define [^@]*@p\d+\.main\(/gm) ?? []).length };
  }
  if (CSMITH_INCLUDE === undefined) throw new Error('csmith.h not found');
  const parts: string[] = [];
  const decls = new Set<string>();
  let instructions = 0;
  for (let s = seed; instructions < target; s++) {
    const c = join(DIR, 'prog.c');
    const ll = join(DIR, 'prog.ll');
    if (spawnSync('csmith', ['--seed', String(s), '--max-funcs', '4', '--no-packed-struct', '-o', c]).status !== 0) continue;
    const r = spawnSync('clang-19', ['-O0', '-Xclang', '-disable-O0-optnone', '-w', '-I', CSMITH_INCLUDE, '-S', '-emit-llvm', c, '-o', ll]);
    if (r.status !== 0) continue;
    const text = stripNoinline(readFileSync(ll, 'utf8'));
    parts.push(renameApart(text, parts.length, decls));
    instructions += countInstructions(text);
  }
  writeFileSync(path, parts.join('\n') + '\n');
  return { path, instructions, programs: parts.length };
}

interface Run {
  wall: number;
  cpu: number;
  mb: number;
}

function run(cmd: string[]): Run {
  const r = spawnSync('/usr/bin/time', ['-f', '__TIME__ %e %U %S %M', ...cmd], { maxBuffer: 1 << 30 });
  const m = /__TIME__ ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr.toString());
  if (r.status !== 0 || m === null) throw new Error(`${cmd.join(' ')} failed:\n${r.stderr.toString().slice(0, 2000)}`);
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), mb: Number(m[4]) / 1024 };
}

/** Best of REPEAT alternating runs of each command (least wall, least CPU, most memory). */
function best(cmds: string[][]): Run[] {
  const b: (Run | null)[] = cmds.map(() => null);
  for (let k = 0; k < REPEAT; k++) {
    cmds.forEach((cmd, j) => {
      const r = run(cmd);
      const o = b[j];
      b[j] = o === null ? r : { wall: Math.min(o.wall, r.wall), cpu: Math.min(o.cpu, r.cpu), mb: Math.max(o.mb, r.mb) };
    });
  }
  return b as Run[];
}

const inputs: { name: string; path: string; instructions: number }[] = [];
if (ONLY !== 'small') {
  for (const n of [10_000, TARGET]) {
    const { path, instructions } = inlinableInput(n);
    inputs.push({ name: `one program (c-gen large, ${n})`, path, instructions });
  }
}
if (ONLY !== 'large') {
  const m = manySmallFunctions(SEED, TARGET);
  console.log(`many small functions: ${m.programs} Csmith programs, seeds ${SEED}..${SEED + m.programs - 1} (--seed=${SEED})`);
  inputs.push({ name: `${m.programs} Csmith programs`, path: m.path, instructions: m.instructions });
}
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`best of ${REPEAT} alternating runs; load average before: ${load()}\n`);
const rows: (string | number)[][] = [];
for (const inp of inputs) {
  const [ours, llvm] = best([
    [...SSAKIT, 'opt', '-O2', '-S', inp.path, '-o', '/dev/null'],
    ['opt-19', '-O2', '-S', inp.path, '-o', '/dev/null'],
  ]);
  rows.push([inp.name, inp.instructions, llvm.wall, ours.wall, ours.wall / llvm.wall, llvm.cpu, ours.cpu, ours.cpu / llvm.cpu, Math.round(llvm.mb), Math.round(ours.mb)]);
}
console.log(table(['input', 'instructions', 'opt-19 s', 'ssakit s', 'ratio', 'opt-19 CPU s', 'ssakit CPU s', 'CPU ratio', 'opt-19 MB', 'ssakit MB'], rows));
console.log(`\nload average after: ${load()}`);
