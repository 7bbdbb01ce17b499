/**
 * bench/scev-time: how much of -O2's compile time scalar evolution takes (issue #24: SCEV
 * results are cached per function and dropped by the pass manager; the budget is the -O2
 * issue's). SCEV is computed on demand inside the loop passes, so `--time-passes` charges it
 * to them; this runs `default<O2>` in process on bench's inputs (the clang-19 -O0 files of
 * generated C, noinline stripped, as bench/quality's compile-time table uses) under V8's
 * sampling profiler and sums the self time of the samples in SCEV's files (the analysis,
 * its expressions, the expander), beside the pass timing of the passes that ask it.
 *
 * Run: npx tsx bench/scev-time.ts [--sizes=10000,100000] [--repeat=N]
 */
import { Session } from 'node:inspector';
import { readFileSync } from 'node:fs';
import { runPipeline } from '../src/passes/index.js';
import { parseModule } from '../src/text/parser.js';
import { inlinableInput, sizesFromArgs, table } from './common.js';

interface Node {
  id: number;
  callFrame: { url: string; functionName: string };
  hitCount?: number;
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const SCEV_FILES = /(analysis\/(scalar-evolution|scev-[\w-]+|constant-range)|utils\/scev-expander|loop\/indvars-lftr)\.ts/;
const post = <T>(s: Session, method: string, params?: object): Promise<T> =>
  new Promise((res, rej) => s.post(method, params ?? {}, (e, r) => (e ? rej(e) : res(r as T))));

async function main(): Promise<void> {
  const s = new Session();
  s.connect();
  await post(s, 'Profiler.enable');
  await post(s, 'Profiler.setSamplingInterval', { interval: 200 });
  const repeat = Number(process.argv.find((a) => a.startsWith('--repeat='))?.slice(9) ?? 2);
  const rows: (string | number)[][] = [];
  for (const size of sizesFromArgs([10_000, 100_000])) {
    const { path, instructions } = inlinableInput(size);
    const text = readFileSync(path, 'utf8');
    for (let rep = 0; rep < repeat; rep++) {
      const m = parseModule(text, path);
      await post(s, 'Profiler.start');
      const t0 = performance.now();
      const pm = runPipeline(m, 'default<O2>', { timePasses: true });
      const ms = performance.now() - t0;
      const { profile } = await post<{ profile: Profile }>(s, 'Profiler.stop');
      // self time per node: the time deltas of the samples that landed in it
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      let all = 0;
      let scev = 0;
      for (let k = 0; k < profile.samples.length; k++) {
        const dt = profile.timeDeltas[k] ?? 0;
        all += dt;
        if (SCEV_FILES.test(byId.get(profile.samples[k])!.callFrame.url)) scev += dt;
      }
      const timing = pm.timings;
      const passMs = (name: string) => timing.get(name)?.ms ?? 0;
      const loopPasses = ['indvars', 'loop-deletion', 'loop-unroll'].map(passMs).reduce((a, b) => a + b, 0);
      rows.push([`${size} (${instructions})`, rep + 1, ms.toFixed(0), ((scev / 1000)).toFixed(1), `${((100 * scev) / all).toFixed(2)}%`, loopPasses.toFixed(0), `${((100 * loopPasses) / ms).toFixed(1)}%`]);
    }
  }
  console.log('default<O2> in process, V8 sampling profiler (200 µs); SCEV = self time in analysis/scalar-evolution, analysis/scev-*, analysis/constant-range, utils/scev-expander, loop/indvars-lftr\n');
  console.log(table(['input (instructions)', 'run', '-O2 ms', 'SCEV ms', 'SCEV share', 'indvars+loop-deletion+loop-unroll ms', 'their share'], rows));
}

void main();
