/**
 * bench/dominators: both dominator algorithms (Cooper–Harvey–Kennedy, Semi-NCA) and both
 * dominance-frontier algorithms (runner, Cytron) on generated CFGs of 10k–1M blocks in three
 * shapes, as ns per block; then whole-process `print<domtree>` against opt-19 on the same .ll
 * file (parse + dominator tree + print, one run each, ratio = ours / opt-19).
 *
 * Shapes:
 *   random  each block branches to two random blocks (10%: one; 2%: returns): a shallow
 *           dominator tree, joins everywhere, irreducible cycles, some unreachable blocks;
 *   ladder  two rails a_i, b_i, each rung branching to both a_{i+1} and b_{i+1}: every block
 *           is a join, idoms stay shallow;
 *   loops   loop nests 16 deep (h1..h16, then latches l16..l1 with back edges to h16..h1),
 *           reached through a balanced tree of branches: many back edges and nested
 *           loops, frontiers of up to 16 blocks, tree depth ~ 32 + log2(nests).
 *
 * (Shapes keep the dominator tree shallow because print<domtree> indents by depth: a deep
 * tree makes both printers' output quadratic.)
 *
 * Run: npm run bench:dominators  (`--sizes=10000,100000` to choose sizes)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { CFG } from '../src/analysis/cfg.js';
import { computeDominators } from '../src/analysis/dominators.js';
import { frontierOfTree } from '../src/analysis/frontier.js';
import { parseModule } from '../src/text/parser.js';
import { readFileSync } from 'node:fs';

const OUT = join(process.cwd(), 'bench', 'out');
mkdirSync(OUT, { recursive: true });

type Shape = 'random' | 'ladder' | 'loops';

/** A seeded xorshift generator (reproducible inputs). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

/** The .ll text of `define void @f(i1 %c)` with about `n` blocks of the given shape. */
function generate(shape: Shape, n: number): string {
  const lines: string[] = ['define void @f(i1 %c) {'];
  const br = (from: string, ...to: string[]): void => {
    lines.push(`${from}:`);
    if (to.length === 0) lines.push('  ret void');
    else if (to.length === 1) lines.push(`  br label %${to[0]}`);
    else lines.push(`  br i1 %c, label %${to[0]}, label %${to[1]}`);
  };
  if (shape === 'random') {
    // Two random targets anywhere (10%: one, 2%: return): a shallow dominator tree, many
    // joins and irreducible cycles; some blocks end up unreachable.
    const r = rng(n * 7 + 1);
    const pick = (): string => `b${1 + Math.floor(r() * (n - 1))}`;
    for (let i = 0; i < n; i++) {
      const x = r();
      if (x < 0.02 && i > 0) br(`b${i}`);
      else if (x < 0.12) br(`b${i}`, pick());
      else br(`b${i}`, pick(), pick());
    }
  } else if (shape === 'ladder') {
    const k = Math.max(1, Math.floor((n - 2) / 2));
    br('entry', 'a0', 'b0');
    for (let i = 0; i < k; i++) {
      const next = i + 1 < k ? [`a${i + 1}`, `b${i + 1}`] : ['exit'];
      br(`a${i}`, ...next);
      br(`b${i}`, ...next.slice().reverse());
    }
    br('exit');
  } else {
    // Loop nests 16 deep, reached through a balanced binary tree of branches (internal nodes
    // d1..d(K-1) in heap order, leaf K+k = nest k), all leaving to one exit.
    const depth = 16;
    const nests = Math.max(1, Math.floor((n - 2) / (2 * depth + 1)));
    const node = (j: number): string => (j >= nests ? `n${j - nests}h0` : `d${j}`);
    br('entry', node(1 < 2 * nests ? 1 : nests));
    for (let j = 1; j < nests; j++) br(`d${j}`, node(2 * j), node(2 * j + 1));
    for (let k = 0; k < nests; k++) {
      for (let d = 0; d < depth; d++) br(`n${k}h${d}`, d + 1 < depth ? `n${k}h${d + 1}` : `n${k}l${depth - 1}`);
      for (let d = depth - 1; d >= 0; d--) br(`n${k}l${d}`, `n${k}h${d}`, d > 0 ? `n${k}l${d - 1}` : 'exit');
    }
    br('exit');
  }
  lines.push('}', '');
  return lines.join('\n');
}

/**
 * Best of `runs` by CPU time (user + sys of this process, in ms): on a shared machine wall time
 * mostly measures waiting for a core.
 */
function bestOf(runs: number, f: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    f();
    const d = process.cpuUsage(c);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  return best;
}

const TIME = existsSync('/usr/bin/time');

/** One run of a whole process: wall ms and, with /usr/bin/time, CPU ms (user + sys) and peak MB. */
function measure(cmd: string, args: string[]): { wall: number; cpu: number | null; mb: number | null } {
  const t = performance.now();
  const r = TIME
    ? spawnSync('/usr/bin/time', ['-f', '__T__ %U %S %M', cmd, ...args], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30, timeout: 900_000 })
    : spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30, timeout: 900_000 });
  const wall = performance.now() - t;
  const err = String(r.stderr);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${err.slice(-500)}`);
  const m = /__T__ ([\d.]+) ([\d.]+) (\d+)/.exec(err);
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : null, mb: m ? Number(m[3]) / 1024 : null };
}

function fmt(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const w = header.map((_, k) => Math.max(...all.map((r) => r[k].length)));
  const line = (r: string[]) => r.map((c, k) => (k === 0 ? c.padEnd(w[k]) : c.padStart(w[k]))).join('  ');
  return [line(header), w.map((x) => '-'.repeat(x)).join('  '), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const arg = process.argv.find((a) => a.startsWith('--sizes='));
  const sizes = arg ? arg.slice(8).split(',').map(Number) : [10_000, 100_000, 1_000_000];
  const haveOpt = spawnSync('opt-19', ['--version']).status === 0;
  if (!haveOpt) console.error('opt-19 not found: the comparison columns are skipped (apt-get install -y llvm-19)');

  // Our whole-process side, bundled like the CLI (one file, fast start-up).
  const mainJs = join(OUT, 'dominators-main.mjs');
  await build({
    entryPoints: [join(process.cwd(), 'bench', 'dominators-main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: mainJs,
    logLevel: 'warning',
  });

  const algoRows: string[][] = [];
  const procRows: string[][] = [];
  for (const shape of ['random', 'ladder', 'loops'] as Shape[]) {
    for (const n of sizes) {
      const file = join(OUT, `dom-${shape}-${n}.ll`);
      if (!existsSync(file)) writeFileSync(file, generate(shape, n));
      const fn = parseModule(readFileSync(file, 'utf8'), file).definedFunctions()[0];
      const blocks = fn.numBlocks;
      const runs = blocks > 200_000 ? 3 : 5;
      let cfg!: CFG;
      const tCfg = bestOf(runs, () => (cfg = new CFG(fn)));
      const tChk = bestOf(runs, () => computeDominators(cfg, { algorithm: 'chk' }));
      const tSnca = bestOf(runs, () => computeDominators(cfg, { algorithm: 'seminca' }));
      const dt = computeDominators(cfg);
      const tRunner = bestOf(runs, () => frontierOfTree(dt, { algorithm: 'runner' }));
      const tCytron = bestOf(runs, () => frontierOfTree(dt, { algorithm: 'cytron' }));
      const dfSize = frontierOfTree(dt).list.length;
      const ns = (ms: number) => fmt((ms * 1e6) / blocks);
      algoRows.push([shape, String(blocks), String(dt.depth.reduce((a, b) => Math.max(a, b), 0)), String(dfSize), ns(tCfg), ns(tChk), ns(tSnca), fmt(tChk / tSnca), ns(tRunner), ns(tCytron)]);

      if (haveOpt) {
        const ours = measure(process.execPath, [mainJs, file]);
        const llvm = measure('opt-19', ['-passes=print<domtree>', '-disable-output', file]);
        const dash = (x: number | null) => (x === null ? '-' : fmt(x));
        procRows.push([
          shape,
          String(blocks),
          dash(llvm.cpu),
          dash(ours.cpu),
          llvm.cpu !== null && ours.cpu !== null ? fmt(ours.cpu / llvm.cpu) : '-',
          fmt(llvm.wall),
          fmt(ours.wall),
          fmt(ours.wall / llvm.wall),
          dash(llvm.mb),
          dash(ours.mb),
        ]);
      }
      process.stderr.write(`  ${shape} ${blocks} done\n`);
    }
  }
  console.log('\nIn-process CPU time, best of 3-5 runs, ns per block (CHK/SNCA = time ratio):\n');
  console.log(table(['shape', 'blocks', 'dom depth', 'DF pairs', 'CFG', 'CHK', 'Semi-NCA', 'CHK/SNCA', 'DF runner', 'DF Cytron'], algoRows));
  if (haveOpt) {
    console.log("\nWhole process, parse + dominator tree + print, one run each; ratio = ours / opt-19 -passes='print<domtree>' -disable-output");
    console.log('(CPU = user + sys from /usr/bin/time; wall time includes waiting for a core on a busy machine):\n');
    console.log(table(['shape', 'blocks', 'opt-19 CPU ms', 'ours CPU ms', 'CPU ratio', 'opt-19 wall ms', 'ours wall ms', 'wall ratio', 'opt-19 MB', 'ours MB'], procRows));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
