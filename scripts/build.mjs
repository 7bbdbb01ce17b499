// Bundles the CLI and the library with esbuild (fast start-up: one file to load),
// and, with --types, emits .d.ts files with tsc for library users.
//
// The CLI is two files: dist/ssakit.cjs (the command line, a CommonJS bundle exporting
// `main`) and the executable dist/ssakit.js (src/cli/launcher.ts), which loads the former
// through V8's code cache, dist/ssakit.cjs.cache, made here by a training run.
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { V8_FLAGS } from './node-flags.mjs';

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', sourcemap: true, logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);" } };
if (existsSync('src/cli/main.ts')) {
  rmSync('dist/ssakit.cjs.cache', { force: true });
  await build({ ...common, format: 'cjs', entryPoints: ['src/cli/main.ts'], outfile: 'dist/ssakit.cjs',
    // import.meta.url (the worker's location) in CommonJS: this file's URL
    define: { 'import.meta.url': '__ssakit_bundle_url' },
    banner: { js: "var __ssakit_bundle_url = require('url').pathToFileURL(__filename).href;" } });
  await build({ ...common, entryPoints: ['src/cli/launcher.ts'], outfile: 'dist/ssakit.js', sourcemap: false,
    banner: { js: `#!/usr/bin/env -S node ${V8_FLAGS.join(' ')}` } });
  chmodSync('dist/ssakit.js', 0o755);
  trainCodeCache();
}
if (existsSync('src/index.ts')) await build({ ...common, entryPoints: ['src/index.ts'], outfile: 'dist/index.js' });
// The platform-neutral library for browsers and bundlers (package.json's "browser" condition): no Node imports.
if (existsSync('src/core.ts')) {
  await build({ bundle: true, platform: 'browser', format: 'esm', target: 'es2022', sourcemap: true, logLevel: 'warning', entryPoints: ['src/core.ts'], outfile: 'dist/core.js' });
}
// The worker threads of `ssakit opt` (src/driver/streaming-parallel.ts finds it next to the bundle that loads it).
if (existsSync('src/driver/streaming-worker.ts')) {
  await build({ ...common, entryPoints: ['src/driver/streaming-worker.ts'], outfile: 'dist/streaming-worker.js' });
}
if (process.argv.includes('--types')) execFileSync('npx', ['tsc', '-p', '.', '--emitDeclarationOnly'], { stdio: 'inherit' });

/**
 * Runs the bundled examples through the CLI in one process (SysY compile, `opt -O1`/`-O2`
 * on IR text, the interpreter), with the shebang's V8 flags, and writes the code cache of
 * every function they called (src/cli/launcher.ts). Without the examples, or if the run
 * fails, there is no cache and the CLI compiles as before.
 */
function trainCodeCache() {
  if (!existsSync('examples/sort.sy') || !existsSync('examples/hello.ll')) return;
  const dir = mkdtempSync(join(tmpdir(), 'ssakit-train-'));
  const sortLL = join(dir, 'sort.ll');
  const runs = [
    ['compile', 'examples/sort.sy', '-o', sortLL],
    ['opt', '-O2', '-S', sortLL, '-o', join(dir, 'sort-o2.ll')],
    ['opt', '-O1', '-S', 'examples/hello.ll', '-o', join(dir, 'hello-o1.ll')],
    ['opt', '-O2', '-S', 'examples/hello.ll', '-o', join(dir, 'hello-o2.ll')],
    ['run', 'examples/sort.sy', '-O2'],
  ];
  const stdin = openSync('examples/sort.in', 'r');
  try {
    const r = spawnSync(process.execPath, [...V8_FLAGS, 'dist/ssakit.js'], {
      env: { ...process.env, SSAKIT_CODE_CACHE_TRAIN: JSON.stringify(runs) },
      stdio: [stdin, 'ignore', 'pipe'],
    });
    if (r.status !== 0 || !existsSync('dist/ssakit.cjs.cache')) {
      rmSync('dist/ssakit.cjs.cache', { force: true });
      console.warn(`build: no code cache (training run failed: ${r.stderr?.toString().trim() || r.status})`);
    }
  } finally {
    closeSync(stdin);
    rmSync(dir, { recursive: true, force: true });
  }
}
