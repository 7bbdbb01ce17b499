/**
 * bench/parse-print: whole-process `ssakit opt -S` (parse + verify + print) against
 * `opt-19 -S` on the same clang-19 -O0 files of 10k, 100k and 1M instructions, the best of
 * three interleaved runs each, with peak memory and the cost per 1k instructions. `ssakit`
 * is the command as shipped (big inputs are streamed on worker threads: see
 * src/driver/streaming-parallel.ts); `1 thread` is the same with `--threads 1`.
 * Run: npm run bench:parse-print. `--sizes=10000,100000` to choose sizes, `--repeat=N` runs.
 */
import { join } from 'node:path';
import { OUT, SSAKIT, hasTool, largeInput, measureBest, repeatFromArgs, sizesFromArgs, table } from './common.js';

if (!hasTool('opt-19')) {
  console.error('opt-19 not found: install llvm-19');
  process.exit(1);
}
const rows: (string | number)[][] = [];
for (const size of sizesFromArgs([10_000, 100_000, 1_000_000])) {
  const { path, instructions } = largeInput(size);
  const [llvm, ours, one] = measureBest(
    [
      ['opt-19', '-S', path, '-o', join(OUT, 'pp-llvm.ll')],
      [...SSAKIT, 'opt', '-S', path, '-o', join(OUT, 'pp-ours.ll')],
      [...SSAKIT, 'opt', '-S', path, '-o', join(OUT, 'pp-ours1.ll'), '--threads', '1'],
    ],
    repeatFromArgs(3),
  );
  if (ours.status !== 0 || one.status !== 0) throw new Error(`ssakit failed: ${ours.stderr}${one.stderr}`);
  rows.push([
    instructions,
    llvm.seconds,
    ours.seconds,
    ours.seconds / llvm.seconds,
    one.seconds / llvm.seconds,
    (ours.seconds * 1e6) / instructions,
    llvm.maxRssMB ?? '-',
    ours.maxRssMB ?? '-',
  ]);
}
console.log(`parse + verify + print, whole process, best of ${repeatFromArgs(3)} runs (ratio = ssakit / opt-19)\n`);
console.log(table(['instructions', 'opt-19 s', 'ssakit s', 'ratio', 'ratio 1 thread', 'ssakit µs/1k', 'opt-19 MB', 'ssakit MB'], rows));
