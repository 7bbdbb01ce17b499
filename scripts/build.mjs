// Bundles the CLI and the library with esbuild (fast start-up: one file to load),
// and, with --types, emits .d.ts files with tsc for library users.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { V8_FLAGS } from './node-flags.mjs';

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', sourcemap: true, logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);" } };
if (existsSync('src/cli/main.ts')) {
  await build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/ssakit.js',
    banner: { js: `#!/usr/bin/env -S node ${V8_FLAGS.join(' ')}\n` + common.banner.js } });
  chmodSync('dist/ssakit.js', 0o755);
}
if (existsSync('src/index.ts')) await build({ ...common, entryPoints: ['src/index.ts'], outfile: 'dist/index.js' });
// The worker threads of `ssakit opt` (src/passes/streaming-parallel.ts finds it next to the bundle that loads it).
if (existsSync('src/passes/streaming-worker.ts')) {
  await build({ ...common, entryPoints: ['src/passes/streaming-worker.ts'], outfile: 'dist/streaming-worker.js' });
}
if (process.argv.includes('--types')) execFileSync('npx', ['tsc', '-p', '.', '--emitDeclarationOnly'], { stdio: 'inherit' });
