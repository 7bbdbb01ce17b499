/**
 * bench/debuginfo: debug info quality after -O2, measured as LLVM measures its own (#22):
 * clang-19 -g -O0 (optnone off) of each C program, then our `ssakit opt -O2` and
 * `opt-19 -O2` of the same file, each compiled by `llc-19 -O2 -filetype=obj`; from
 * `llvm-dwarfdump-19 --statistics`, the share of source variables with a location and the
 * share of their scope bytes that a location covers; `llvm-dwarfdump-19 --verify` must be clean.
 * Programs: test/programs (our corpus) and six generated C programs from a random first seed
 * (printed; `--seeds=1,2,3` repeats a run), summed apart and together.
 * Run: npm run build && npx tsx bench/debuginfo.ts [--seeds=1,2,3]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCProgram } from '../src/fuzz/c-gen.js';
import { OUT, SSAKIT, table } from './common.js';

const dir = join(OUT, 'debuginfo');
mkdirSync(dir, { recursive: true });

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

interface Stats {
  vars: number;
  withLoc: number;
  scope: number;
  covered: number;
  verify: boolean;
}

function stats(ll: string, obj: string): Stats {
  run('llc-19', ['-O2', '-filetype=obj', ll, '-o', obj]);
  const j = JSON.parse(run('llvm-dwarfdump-19', ['--statistics', obj])) as Record<string, number>;
  const v = spawnSync('llvm-dwarfdump-19', ['--verify', obj], { encoding: 'utf8' });
  return {
    vars: j['#source variables'] ?? 0,
    withLoc: j['#source variables with location'] ?? 0,
    scope: (j['sum_all_variables(#bytes in parent scope)'] ?? 0) + 0,
    covered: j['sum_all_variables(#bytes in parent scope covered by DW_AT_location)'] ?? 0,
    verify: v.status === 0,
  };
}

const seedsArg = process.argv.find((a) => a.startsWith('--seeds='));
// a fresh sample nobody chose: six consecutive seeds from a random first one (printed)
const first = 1 + Math.floor(Math.random() * 2 ** 30);
const seeds = seedsArg ? seedsArg.slice(8).split(',').map(Number) : [0, 1, 2, 3, 4, 5].map((k) => first + k);
const inputs: { name: string; c: string; fresh: boolean }[] = [];
for (const f of readdirSync('test/programs').filter((x) => x.endsWith('.c')).sort()) inputs.push({ name: f, c: join('test/programs', f), fresh: false });
for (const s of seeds) {
  const c = join(dir, `gen-${s}.c`);
  writeFileSync(c, generateCProgram(s));
  inputs.push({ name: `generated seed ${s}`, c, fresh: true });
}

const rows: (string | number)[][] = [];
const zero = (): { vars: number; withLoc: number; scope: number; covered: number } => ({ vars: 0, withLoc: 0, scope: 0, covered: 0 });
const sums = { corpus: { ours: zero(), llvm: zero() }, fresh: { ours: zero(), llvm: zero() }, all: { ours: zero(), llvm: zero() } };
let bad = 0;
for (const inp of inputs) {
  const base = join(dir, inp.name.replace(/[^\w.-]/g, '_'));
  run('clang-19', ['-g', '-O0', '-Xclang', '-disable-O0-optnone', '-w', '-S', '-emit-llvm', inp.c, '-o', base + '.ll']);
  const [exe, ...pre] = SSAKIT;
  run(exe, [...pre, 'opt', '-S', '-O2', base + '.ll', '-o', base + '.ours.ll']);
  run('opt-19', ['-S', '-O2', base + '.ll', '-o', base + '.llvm.ll']);
  const o = stats(base + '.ours.ll', base + '.ours.o');
  const l = stats(base + '.llvm.ll', base + '.llvm.o');
  if (!o.verify || !l.verify) bad++;
  for (const sum of [sums.all, inp.fresh ? sums.fresh : sums.corpus]) {
    for (const [k, s] of [['ours', o], ['llvm', l]] as const) {
      sum[k].vars += s.vars;
      sum[k].withLoc += s.withLoc;
      sum[k].scope += s.scope;
      sum[k].covered += s.covered;
    }
  }
  const pct = (a: number, b: number): string => (b === 0 ? '-' : ((100 * a) / b).toFixed(1) + '%');
  rows.push([inp.name, pct(o.withLoc, o.vars), pct(l.withLoc, l.vars), pct(o.covered, o.scope), pct(l.covered, l.scope), o.verify ? 'ok' : 'FAIL']);
}
const pct = (a: number, b: number): string => (b === 0 ? '-' : ((100 * a) / b).toFixed(1) + '%');
for (const [label, sum] of [['corpus (test/programs)', sums.corpus], ['fresh (generated)', sums.fresh], ['ALL', sums.all]] as const) {
  rows.push([label, pct(sum.ours.withLoc, sum.ours.vars), pct(sum.llvm.withLoc, sum.llvm.vars), pct(sum.ours.covered, sum.ours.scope), pct(sum.llvm.covered, sum.llvm.scope), bad === 0 ? 'ok' : `${bad} FAIL`]);
}
console.log(`seeds of the generated programs: ${seeds.join(', ')}\n`);
console.log(table(['program', 'vars with location (ssakit)', '(opt-19)', 'scope bytes covered (ssakit)', '(opt-19)', 'dwarfdump --verify'], rows));
