/**
 * Interpreter benchmark: for each compute-heavy C program (bench/programs/*.c and
 * bench/interp/*.c), clang-19 makes -O0 (`-Xclang -disable-O0-optnone`) and -O2
 * (`-fno-vectorize -fno-slp-vectorize`) IR; then `lli-19 -force-interpreter FILE.ll` and
 * `ssakit run FILE.ll` run it as whole processes, one run each, on the same file. Prints
 * wall time and CPU time (user+sys) of both and the ratio lli/ssakit (> 1: ssakit faster),
 * and checks that both printed the same bytes with the same exit code.
 *
 * Usage: npm run bench:interp [-- --only=NAME,NAME] [--timeout=SECONDS]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = process.cwd();
const OUT = join(ROOT, 'bench', 'out', 'interp');
const SSAKIT = join(ROOT, 'dist', 'ssakit.js');
const DIRS = [join(ROOT, 'bench', 'programs'), join(ROOT, 'bench', 'interp')];
const FLAGS: Record<string, string[]> = {
  O0: ['-O0', '-Xclang', '-disable-O0-optnone'],
  O2: ['-O2', '-fno-vectorize', '-fno-slp-vectorize'],
};

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = arg('only')?.split(',');
const timeoutS = Number(arg('timeout') ?? 600);

function tool(t: string): boolean {
  return spawnSync(t, ['--version']).status === 0;
}

interface Timed {
  wall: number;
  cpu: number;
  status: number | null;
  stdout: Buffer;
  note: string;
}

function timed(cmd: string, args: string[], input: Buffer | undefined): Timed {
  const useTime = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const r = useTime
    ? spawnSync('/usr/bin/time', ['-f', '__T__ %e %U %S', cmd, ...args], { input, timeout: timeoutS * 1000, maxBuffer: 1 << 30 })
    : spawnSync(cmd, args, { input, timeout: timeoutS * 1000, maxBuffer: 1 << 30 });
  const wall = (performance.now() - t0) / 1000;
  const err = r.stderr?.toString() ?? '';
  const m = /__T__ ([\d.]+) ([\d.]+) ([\d.]+)/.exec(err);
  let status = r.status;
  const sig = /Command terminated by signal (\d+)/.exec(err);
  if (sig) status = null;
  if (useTime) {
    const st = /Command exited with non-zero status (\d+)/.exec(err);
    if (st) status = Number(st[1]);
    else if (!sig && r.status === 0) status = 0;
  }
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  const firstErr = err.split('\n').find((l) => /error|ERROR|Assertion|unsupported|not supported/.test(l)) ?? '';
  return {
    wall: m ? Number(m[1]) : wall,
    cpu: m ? Number(m[2]) + Number(m[3]) : wall,
    status,
    stdout: r.stdout ?? Buffer.alloc(0),
    note: timedOut ? `timeout ${timeoutS}s` : status === null ? 'crashed' : firstErr.slice(0, 60),
  };
}

function compile(c: string, level: string): string {
  mkdirSync(OUT, { recursive: true });
  const key = createHash('sha1').update(readFileSync(c)).update(level).digest('hex').slice(0, 12);
  const name = c.split('/').pop()!.replace(/\.c$/, '');
  const out = join(OUT, `${name}-${level}-${key}.ll`);
  if (!existsSync(out)) {
    const r = spawnSync('clang-19', [...FLAGS[level], '-w', '-S', '-emit-llvm', c, '-o', out + '.tmp']);
    if (r.status !== 0) throw new Error(`clang-19 failed on ${c}: ${r.stderr}`);
    renameSync(out + '.tmp', out);
  }
  return out;
}

function f(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

function main(): void {
  for (const t of ['clang-19', 'lli-19']) {
    if (!tool(t)) {
      console.log(`bench:interp: ${t} not found (apt-get install -y clang-19 llvm-19); nothing to measure`);
      return;
    }
  }
  if (!existsSync(SSAKIT)) spawnSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
  const programs = DIRS.filter(existsSync)
    .flatMap((d) => readdirSync(d).filter((x) => x.endsWith('.c')).sort().map((x) => join(d, x)))
    .filter((p) => only === undefined || only.some((o) => p.endsWith(`/${o}.c`)));
  console.log(`lli-19 -force-interpreter vs ssakit run: whole process, one run each, same .ll (wall s / cpu s; ratio = lli / ssakit)\n`);
  const header = ['program', 'level', 'lli wall', 'ssakit wall', 'ratio', 'lli cpu', 'ssakit cpu', 'cpu ratio', 'same output', 'note'];
  const rows: string[][] = [];
  const ratios: number[] = [];
  for (const c of programs) {
    const inPath = c.replace(/\.c$/, '.in');
    const input = existsSync(inPath) ? readFileSync(inPath) : undefined;
    for (const level of ['O0', 'O2']) {
      const ll = compile(c, level);
      const lli = timed('lli-19', ['-force-interpreter', ll], input);
      const ours = timed('node', [SSAKIT, 'run', ll], input);
      const ok = lli.status !== null && lli.note === '' || lli.status !== null;
      const same = lli.status === ours.status && lli.stdout.equals(ours.stdout);
      const lliFailed = lli.status === null || lli.note.startsWith('timeout');
      const ratio = lli.wall / ours.wall;
      const cpuRatio = lli.cpu / ours.cpu;
      if (!lliFailed && ok) ratios.push(cpuRatio);
      rows.push([
        c.split('/').pop()!.replace(/\.c$/, ''), level,
        lliFailed ? '—' : f(lli.wall), f(ours.wall), lliFailed ? '—' : f(ratio) + 'x',
        lliFailed ? '—' : f(lli.cpu), f(ours.cpu), lliFailed ? '—' : f(cpuRatio) + 'x',
        lliFailed ? 'n/a' : same ? 'yes' : 'NO',
        lliFailed ? `lli: ${lli.note}` : ours.note,
      ]);
      printRow(header, rows[rows.length - 1]);
    }
  }
  console.log('\n' + table(header, rows));
  if (ratios.length > 0) {
    const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
    console.log(`\ngeometric mean of cpu ratios (where lli finished): ${f(geo)}x`);
  }
}

let printed = false;
function printRow(header: string[], row: string[]): void {
  if (!printed) {
    console.log(header.join('\t'));
    printed = true;
  }
  console.log(row.join('\t'));
}

function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const w = header.map((_, k) => Math.max(...all.map((r) => r[k].length)));
  const line = (r: string[]): string => r.map((c, k) => (k < 2 || k >= 8 ? c.padEnd(w[k]) : c.padStart(w[k]))).join('  ');
  return [line(header), w.map((x) => '-'.repeat(x)).join('  '), ...rows.map(line)].join('\n');
}

main();
