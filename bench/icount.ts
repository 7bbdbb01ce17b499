/**
 * bench/icount: instructions executed (valgrind's cachegrind, no cache simulation) by
 * `ssakit opt -passes=PASSES -S` and by `opt-19` on the same file, with the ratio. A count
 * barely moves between runs, so it compares two builds where wall time on a shared machine
 * drifts by more than the change. V8 runs --single-threaded so that compilation and GC are
 * counted on the one thread and in the same order each time; Node's start-up is counted
 * too (about 0.8 G), shown on its own line.
 *
 * Run: npm run build && npx tsx bench/icount.ts [-- --sizes=100000 --passes=mem2reg --dist=DIR]
 * (DIR: another build's dist/ to compare with; 10k–100k take 15–40 s each under valgrind)
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { OUT, hasTool, largeInput, sizesFromArgs, table } from './common.js';
import { V8_FLAGS } from '../scripts/node-flags.mjs';

const arg = (name: string, dflt: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const passes = arg('passes', 'mem2reg');
const dist = arg('dist', 'dist');

/** Instructions executed by `cmd` (cachegrind's "I refs"). */
function icount(cmd: string[]): number {
  const r = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--smc-check=all-non-file', '--cachegrind-out-file=/dev/null', ...cmd], { maxBuffer: 1 << 30, encoding: 'utf8' });
  const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr ?? '');
  if (r.status !== 0 || m === null) throw new Error(`${cmd.join(' ')} failed: ${(r.stderr ?? '').slice(-2000)}`);
  return Number(m[1].replace(/,/g, ''));
}

if (!hasTool('valgrind') || !hasTool('opt-19')) {
  console.error('needs valgrind and opt-19 (llvm-19)');
  process.exit(1);
}
const node = ['node', ...V8_FLAGS, '--single-threaded'];
const ssakit = join(dist, 'ssakit.js');
const G = (n: number): string => (n / 1e9).toFixed(3);
const rows: (string | number)[][] = [['node start-up (ssakit --version)', '', G(icount([...node, ssakit, '--version'])), '']];
for (const size of sizesFromArgs([100_000])) {
  const { path, instructions } = largeInput(size);
  const ours = icount([...node, ssakit, 'opt', path, `-passes=${passes}`, '-S', '-o', join(OUT, 'icount-ours.ll'), '--threads', '1']);
  const llvm = icount(['opt-19', `-passes=${passes}`, '-S', path, '-o', join(OUT, 'icount-llvm.ll')]);
  rows.push([`${instructions} instructions`, G(llvm), G(ours), (ours / llvm).toFixed(2)]);
}
console.log(`instructions executed (G), opt -passes=${passes} -S, ${dist}\n`);
console.log(table(['input', 'opt-19', 'ssakit', 'ratio'], rows));
