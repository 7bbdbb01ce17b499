/**
 * bench/o2-warmup: how much of `ssakit opt -O2` is JIT warm-up. Runs our -O2 pipeline on
 * the same freshly parsed module several times in one process and prints, per pass, the
 * time of the first run (what a `ssakit opt` process pays, its code not yet optimized by
 * V8) against the last one (the code warm), with the totals. The gap is what the
 * whole-process ratios of bench/quality carry at 10k–100k instructions on top of the
 * passes' own cost; opt-19 has no such gap.
 *
 * Run: npm run bench:o2-warmup [-- --sizes=10000,100000] [--repeat=N] (runs per size, default 3)
 */
import { readFileSync } from 'node:fs';
import { runPipeline } from '../src/passes/index.js';
import { parseModule } from '../src/text/parser.js';
import { inlinableInput, repeatFromArgs, sizesFromArgs, table } from './common.js';

const runs = Math.max(2, repeatFromArgs(3));
for (const size of sizesFromArgs([10_000, 100_000])) {
  const { path, instructions } = inlinableInput(size);
  const text = readFileSync(path, 'utf8');
  const perRun: Map<string, number>[] = [];
  const totals: number[] = [];
  for (let k = 0; k < runs; k++) {
    const m = parseModule(text, path);
    const t0 = performance.now();
    const pm = runPipeline(m, 'O2', { timePasses: true });
    totals.push(performance.now() - t0);
    perRun.push(new Map([...pm.timings.values()].map((t) => [t.pass, t.ms])));
  }
  const first = perRun[0];
  const last = perRun[runs - 1];
  const rows = [...first.keys()]
    .sort((a, b) => first.get(b)! - first.get(a)!)
    .map((p) => [p, first.get(p)!, last.get(p) ?? 0, first.get(p)! / Math.max(0.001, last.get(p) ?? 0)]);
  console.log(`\n-O2 on ${instructions} instructions (${path}), ${runs} runs in one process: ms per pass, first run and last run\n`);
  console.log(table(['pass', 'first ms', 'last ms', 'first/last'], rows));
  console.log(`\nwhole pipeline: ${totals.map((t) => t.toFixed(0)).join(' → ')} ms (first/last ${(totals[0] / totals[runs - 1]).toFixed(2)})`);
}
