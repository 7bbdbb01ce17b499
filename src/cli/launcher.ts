/**
 * The `ssakit` executable (dist/ssakit.js): loads the CLI bundle, dist/ssakit.cjs, through
 * V8's code cache and runs it. The idea is Node 22's module compile cache (and the
 * v8-compile-cache package), for Node 20, which has neither for a single bundle.
 *
 * A `ssakit` process is short, so V8 never gets far with our code: every function it calls
 * is first parsed and compiled to bytecode, lazily, on its first call. The cache holds that
 * bytecode for each function a training run called (scripts/build.mjs runs one when it
 * builds: SysY compile, `opt -O2`, the interpreter), so a process starts with it. This is
 * about 60–80 ms of the 0.75 s `ssakit opt -O2` takes on a 10k-instruction file.
 *
 * Invariants:
 *  - The cache is used only for the exact bundle it was made from: the file starts with the
 *    SHA-1 of the bundle's bytes (V8 itself checks only the source's length, its version
 *    and its flags). A missing, stale or rejected cache costs the compile, nothing else.
 *  - V8 rejects a cache made with other V8 flags: the training runs with the shebang's flags
 *    (scripts/node-flags.mjs), so `node dist/ssakit.js` with other flags compiles as usual.
 *  - The bundle sees the module wrapper Node gives a CommonJS file (exports, require,
 *    module, __filename, __dirname), so it runs the same as `node dist/ssakit.cjs` would.
 *
 * SSAKIT_CODE_CACHE_DEBUG=1 prints what became of the cache (used, rejected by V8, stale:
 * made from another bundle, none) to stderr.
 * SSAKIT_CODE_CACHE_TRAIN (build time only): a JSON list of argument lists. They run one
 * after another in this process, and then the cache is written.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as vmConstants, Script } from 'node:vm';

interface CliBundle {
  main(argv: string[]): Promise<void>;
}

const DIGEST_BYTES = 20;
const here = dirname(fileURLToPath(import.meta.url));
const bundlePath = join(here, 'ssakit.cjs');
const cachePath = bundlePath + '.cache';

const bytes = readFileSync(bundlePath);
const digest = createHash('sha1').update(bytes).digest();
let cachedData: Buffer | undefined;
let state = 'none';
try {
  const c = readFileSync(cachePath);
  if (c.length > DIGEST_BYTES && c.subarray(0, DIGEST_BYTES).equals(digest)) cachedData = c.subarray(DIGEST_BYTES);
  else state = 'stale';
} catch {
  // no cache: compile as usual
}
// Node's CommonJS module wrapper
const wrapped = `(function (exports, require, module, __filename, __dirname) { ${bytes.toString('utf8')}\n});`;
const script = new Script(wrapped, {
  filename: bundlePath,
  cachedData,
  // the bundle's one dynamic import (@viz-js/viz, loaded on first use) goes to Node's own
  // loader, as in a file Node loads (Node 20.12 and later)
  importModuleDynamically: (vmConstants as unknown as { USE_MAIN_CONTEXT_DEFAULT_LOADER?: symbol }).USE_MAIN_CONTEXT_DEFAULT_LOADER as never,
});
if (cachedData !== undefined) state = script.cachedDataRejected === true ? 'rejected' : 'used';
if (process.env.SSAKIT_CODE_CACHE_DEBUG) process.stderr.write(`ssakit: code cache ${state}\n`);
const mod = { exports: {} as CliBundle };
(script.runInThisContext() as (...a: unknown[]) => void)(mod.exports, createRequire(bundlePath), mod, bundlePath, here);

const train = process.env.SSAKIT_CODE_CACHE_TRAIN;
if (train === undefined) {
  void mod.exports.main(process.argv);
} else {
  for (const args of JSON.parse(train) as string[][]) await mod.exports.main([process.argv[0], bundlePath, ...args]);
  // written whole, then renamed: a process starting meanwhile sees the old file or the new
  const tmp = `${cachePath}.${process.pid}`;
  writeFileSync(tmp, Buffer.concat([digest, script.createCachedData()]));
  renameSync(tmp, cachePath);
  process.exitCode = 0;
}
