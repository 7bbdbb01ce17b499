/**
 * By-hand sweep of the program generators over many seeds (not part of `npm test`):
 *
 *   npx tsx test/fuzz-gen/run-seeds.ts --lang=c|sysy [--from=0] [--count=500]
 *        [--sanitize=undefined,address] [--lli] [--jobs=2] [--size=medium] [--lines=N] [--keep=DIR]
 *
 * Prints one line per failing seed and a summary (passes, failures by stage, -Wall
 * warning flags seen, output sizes and run times). Failing programs are written to
 * --keep (default /tmp/ssakit-gen-failures).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCProgram, generateSysYProgram } from '../../src/fuzz/c-gen.js';
import { checkProgram, pool } from './harness.js';

const args = new Map<string, string>();
for (const a of process.argv.slice(2)) {
  const m = /^--([^=]+)(?:=(.*))?$/.exec(a);
  if (m) args.set(m[1]!, m[2] ?? 'true');
}
const lang = (args.get('lang') ?? 'c') as 'c' | 'sysy';
const from = Number(args.get('from') ?? 0);
const count = Number(args.get('count') ?? 500);
const jobs = Number(args.get('jobs') ?? 2);
const size = (args.get('size') ?? 'medium') as 'small' | 'medium' | 'large';
const gopts = { size, ...(args.has('lines') ? { targetLines: Number(args.get('lines')) } : {}) };
const keep = args.get('keep') ?? '/tmp/ssakit-gen-failures';
const sanitize = args.get('sanitize') ?? 'undefined,address';
const lli = args.has('lli');

const seeds = Array.from({ length: count }, (_, i) => from + i);
const byStage = new Map<string, number>();
const warnCount = new Map<string, number>();
let pass = 0;
let lines = 0, outLines = 0, maxMs = 0;
const exitCodes = new Set<number>();
const t0 = Date.now();
await pool(seeds, jobs, async (seed) => {
  const src = lang === 'c' ? generateCProgram(seed, gopts) : generateSysYProgram(seed, gopts);
  lines += src.split('\n').length;
  const dir = mkdtempSync(join(tmpdir(), 'ssakit-seed-'));
  const r = await checkProgram(lang, src, { sanitize, lli, dir });
  rmSync(dir, { recursive: true, force: true });
  for (const w of r.warnings) warnCount.set(w, (warnCount.get(w) ?? 0) + 1);
  if (r.ok) {
    pass++;
    outLines += r.outputLines;
    maxMs = Math.max(maxMs, r.ms.o0);
    exitCodes.add(r.exitCode!);
  } else {
    byStage.set(r.stage, (byStage.get(r.stage) ?? 0) + 1);
    mkdirSync(keep, { recursive: true });
    const f = join(keep, `${lang}-${seed}.${lang === 'c' ? 'c' : 'sy'}`);
    writeFileSync(f, src);
    console.log(`FAIL seed ${seed}: ${r.stage}: ${r.detail.split('\n').slice(0, 3).join(' | ')} (${f})`);
  }
});
console.log(`${lang} ${size} seeds ${from}..${from + count - 1}: passed ${pass}/${count}` +
  (byStage.size ? `; failures: ${[...byStage].map(([k, v]) => `${k}=${v}`).join(' ')}` : ''));
console.log(`avg program lines ${Math.round(lines / count)}, avg output lines ${Math.round(outLines / Math.max(1, pass))}, ` +
  `max -O0 run ${maxMs} ms, distinct exit codes ${exitCodes.size}, wall ${((Date.now() - t0) / 1000).toFixed(0)} s`);
console.log(`-Wall warnings (programs): ${[...warnCount].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' ') || 'none'}`);
