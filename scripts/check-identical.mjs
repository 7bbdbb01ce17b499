// Runs the built CLI (dist/ssakit.cjs, in this process, as dist/ssakit.js would) over a
// corpus and writes every output to a folder, so that two trees can be compared byte for
// byte: a restructuring that must not change what the compiler prints (issue #20) runs it
// before and after and compares the folders.
//
//   npm run build
//   node scripts/check-identical.mjs --out /tmp/before            # writes the outputs
//   node scripts/check-identical.mjs --out /tmp/after --compare /tmp/before
//   (--quick: a subset that takes a few minutes; the comparison then covers what both ran)
//
// The corpus (made once, under --corpus, default /tmp/ssakit-identical-corpus; clang-19
// and tsx needed only then):
//   - test/programs/*.c, bench/programs/*.c, bench/interp/*.c through clang-19 -O0
//     -Xclang -disable-O0-optnone, as is and with noinline/optnone stripped (-inl);
//   - C programs of the fuzz generator (src/fuzz/gen-cli.ts), seeds 1..GEN, the same way,
//     and one large one (about 400k instructions, bodies over 16 MB: the parallel path);
//   - examples/*.ll and test/analysis/fixtures/*.ll;
//   - examples/*.sy, test/sysy/*.sy and generated SysY programs (seeds 1..GEN).
// What runs on it: `opt -O1 -S` and `opt -O2 -S` (with `--stats` at -O2) on every .ll;
// `compile -O1` and `compile -O2`, with --ssa=braun and --ssa=alloca, on every .sy; and
// every registered pass alone and after mem2reg (`-passes=P`, `-passes=mem2reg,P`) on the
// small .ll files. A command that fails writes its stderr and exit code instead.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const OUT = resolve(opt('--out', '/tmp/ssakit-identical-out'));
const CORPUS = resolve(opt('--corpus', '/tmp/ssakit-identical-corpus'));
const COMPARE = opt('--compare', null);
const GEN = Number(opt('--gen', '40'));
const ONLY = opt('--only', null); // a substring of the job names to run (for a quick look)
// --quick: not the large file, and each pass only on the test/programs files with noinline stripped
const QUICK = args.includes('--quick');
const ROOT = process.cwd();

function prepareCorpus() {
  if (fs.existsSync(join(CORPUS, '.done'))) return;
  fs.mkdirSync(join(CORPUS, 'll'), { recursive: true });
  fs.mkdirSync(join(CORPUS, 'sy'), { recursive: true });
  fs.mkdirSync(join(CORPUS, 'big'), { recursive: true });
  const strip = (ll) => ll.replace(/^(attributes #\d+ = \{[^}]*?)\bnoinline\b ?/gm, '$1').replace(/\boptnone\b ?/g, '');
  const clang = (c, name, dir = 'll') => {
    const out = join(CORPUS, dir, `${name}.ll`);
    execFileSync('clang-19', ['-O0', '-Xclang', '-disable-O0-optnone', '-w', '-S', '-emit-llvm', c, '-o', out]);
    fs.writeFileSync(join(CORPUS, dir, `${name}-inl.ll`), strip(fs.readFileSync(out, 'latin1')), 'latin1');
  };
  const cFiles = [];
  for (const d of ['test/programs', 'bench/programs', 'bench/interp']) {
    for (const f of fs.readdirSync(join(ROOT, d)).sort()) if (f.endsWith('.c')) cFiles.push([join(ROOT, d, f), `${d.replace(/\//g, '_')}_${f.slice(0, -2)}`]);
  }
  for (const [c, name] of cFiles) clang(c, name);
  const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
  const gen = (lang, seed, extra = []) => execFileSync(tsx, ['src/fuzz/gen-cli.ts', `--lang=${lang}`, '--seed', String(seed), ...extra], { maxBuffer: 1 << 30 }).toString('latin1');
  for (let s = 1; s <= GEN; s++) {
    const c = join(CORPUS, `gen-c-${s}.c`);
    fs.writeFileSync(c, gen('c', s), 'latin1');
    clang(c, `gen_c_${s}`);
    fs.writeFileSync(join(CORPUS, 'sy', `gen_sysy_${s}.sy`), gen('sysy', s), 'latin1');
  }
  const big = join(CORPUS, 'gen-c-big.c');
  fs.writeFileSync(big, gen('c', 7, ['--large', '--lines', '52000']), 'latin1');
  clang(big, 'gen_c_big', 'big');
  for (const d of ['examples', 'test/analysis/fixtures']) {
    for (const f of fs.readdirSync(join(ROOT, d)).sort()) if (f.endsWith('.ll')) fs.copyFileSync(join(ROOT, d, f), join(CORPUS, 'll', `${d.replace(/\//g, '_')}_${f}`));
  }
  for (const d of ['examples', 'test/sysy']) {
    for (const f of fs.readdirSync(join(ROOT, d)).sort()) if (f.endsWith('.sy')) fs.copyFileSync(join(ROOT, d, f), join(CORPUS, 'sy', `${d.replace(/\//g, '_')}_${f}`));
  }
  fs.writeFileSync(join(CORPUS, '.done'), '');
}

function jobs() {
  const list = [];
  const ll = fs.readdirSync(join(CORPUS, 'll')).sort();
  const sy = fs.readdirSync(join(CORPUS, 'sy')).sort();
  for (const f of ll) {
    const p = join(CORPUS, 'll', f);
    list.push([`${f}.O1`, ['opt', '-O1', '-S', p]]);
    list.push([`${f}.O2`, ['opt', '-O2', '-S', '--stats', p]]);
  }
  for (const f of QUICK ? [] : fs.readdirSync(join(CORPUS, 'big')).sort()) {
    const p = join(CORPUS, 'big', f);
    list.push([`${f}.O1`, ['opt', '-O1', '-S', p]]);
    list.push([`${f}.O1-t1`, ['opt', '-O1', '-S', '--threads', '1', p]]);
    list.push([`${f}.O2`, ['opt', '-O2', '-S', p]]);
  }
  for (const f of sy) {
    const p = join(CORPUS, 'sy', f);
    for (const lvl of ['1', '2']) for (const ssa of ['braun', 'alloca']) list.push([`${f}.${ssa}.O${lvl}`, ['compile', `-O${lvl}`, `--ssa=${ssa}`, p]]);
  }
  // every pass, alone and after mem2reg, on the small programs
  const small = QUICK
    ? ll.filter((f) => f.startsWith('test_programs_') && f.endsWith('-inl.ll'))
    : ll.filter((f) => f.startsWith('test_programs_') || f.startsWith('bench_') || /^gen_c_([1-9]|1[0-9])(-inl)?\.ll$/.test(f));
  for (const pass of passNames()) {
    for (const f of small) {
      const p = join(CORPUS, 'll', f);
      list.push([`${f}.pass-${pass}`, ['opt', '-S', `-passes=${pass}`, p]]);
      list.push([`${f}.pass-mem2reg-${pass}`, ['opt', '-S', `-passes=mem2reg,${pass}`, p]]);
    }
  }
  return ONLY === null ? list : list.filter(([n]) => n.includes(ONLY));
}

function passNames() {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'ssakit.js'), 'opt', '--list-passes'], { encoding: 'utf8' });
  return r.stdout.split('\n').map((l) => l.trim().split(/\s+/)[0]).filter((n) => n);
}

async function run() {
  prepareCorpus();
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const bundle = join(ROOT, 'dist', 'ssakit.cjs');
  const cli = createRequire(bundle)(bundle);
  // The CLI writes with fs.writeSync: capture what goes to stdout and stderr.
  let captured = [];
  const realWrite = fs.writeSync;
  fs.writeSync = (fd, buf, off, len, ...rest) => {
    if (fd === 1 || fd === 2) {
      const b = typeof buf === 'string' ? Buffer.from(buf) : Buffer.from(buf.buffer, buf.byteOffset + (off ?? 0), len ?? buf.length - (off ?? 0));
      captured.push(fd === 1 ? b : Buffer.concat([Buffer.from('[stderr] '), b]));
      return b.length;
    }
    return realWrite(fd, buf, off, len, ...rest);
  };
  const list = jobs();
  const t0 = performance.now();
  for (const [name, argv] of list) {
    captured = [];
    process.exitCode = 0;
    try {
      await cli.main([process.execPath, bundle, ...argv]);
    } catch (e) {
      captured.push(Buffer.from(`[thrown] ${e?.stack ?? e}\n`));
    }
    const code = process.exitCode ?? 0;
    if (code !== 0) captured.push(Buffer.from(`[exit ${code}]\n`));
    fs.writeFileSync(join(OUT, name), Buffer.concat(captured));
  }
  fs.writeSync = realWrite;
  process.exitCode = 0;
  console.log(`check-identical: ${list.length} outputs in ${OUT} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  if (COMPARE !== null) process.exitCode = compare(resolve(COMPARE), OUT) ? 0 : 1;
}

function compare(a, b) {
  const fa = new Set(fs.readdirSync(a));
  const fb = new Set(fs.readdirSync(b));
  const differ = [];
  let same = 0;
  // a partial run (--quick, --only) is compared on what it ran
  const names = QUICK || ONLY !== null ? [...fb] : [...new Set([...fa, ...fb])];
  for (const f of names.sort()) {
    if (!fa.has(f) || !fb.has(f)) differ.push(`${f}: only in ${fa.has(f) ? a : b}`);
    else if (!fs.readFileSync(join(a, f)).equals(fs.readFileSync(join(b, f)))) differ.push(`${f}: differs`);
    else same++;
  }
  console.log(`check-identical: ${same} identical, ${differ.length} differ (compared ${basename(a)} with ${basename(b)})`);
  for (const d of differ.slice(0, 50)) console.log('  ' + d);
  if (differ.length > 50) console.log(`  … and ${differ.length - 50} more`);
  return differ.length === 0;
}

await run();
