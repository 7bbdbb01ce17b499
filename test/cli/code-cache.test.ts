/**
 * The executable's code cache (src/cli/launcher.ts): the build makes it, the CLI uses it
 * with the shebang's V8 flags, and a cache that does not belong to the bundle beside it
 * (stale, corrupt, other flags, missing) is never used, so the CLI behaves the same. V8
 * checks only the source's length: the stale case below has a bundle of the same length
 * whose cached bytecode V8 would accept and run with the old text.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { V8_FLAGS } from '../../scripts/node-flags.mjs';

const ROOT = join(__dirname, '../..');
const DIST = join(ROOT, 'dist');
const built = existsSync(join(DIST, 'ssakit.js')) && existsSync(join(DIST, 'ssakit.cjs'));
const copies: string[] = [];

function copyDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ssakit-cache-'));
  cpSync(DIST, dir, { recursive: true });
  copies.push(dir);
  return dir;
}

function cli(dist: string, args: string[], flags: readonly string[] = V8_FLAGS) {
  const r = spawnSync(process.execPath, [...flags, join(dist, 'ssakit.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, SSAKIT_CODE_CACHE_DEBUG: '1' },
  });
  const m = /^ssakit: code cache (\w+)\n/.exec(r.stderr);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.replace(/^ssakit: code cache \w+\n/, ''), cache: m?.[1] };
}

afterAll(() => {
  for (const d of copies) rmSync(d, { recursive: true, force: true });
});

// Reason for skipIf: needs the built CLI (`npm test`'s pretest builds it; a bare `vitest run` before any build skips this).
describe.skipIf(!built)('code cache of the CLI bundle', () => {
  const example = join(ROOT, 'examples/hello.ll');

  it('is made by the build and used with the shebang flags', () => {
    expect(existsSync(join(DIST, 'ssakit.cjs.cache'))).toBe(true);
    const r = cli(DIST, ['opt', '-O2', '-S', example]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.cache).toBe('used');
    // the same output as a run that compiles everything itself (other V8 flags: V8 rejects the cache)
    const plain = cli(DIST, ['opt', '-O2', '-S', example], []);
    expect(plain.cache).toBe('rejected');
    expect(plain.status).toBe(0);
    expect(plain.stdout).toBe(r.stdout);
  });

  it('is not used for a bundle it was not made from, even of the same length', () => {
    const dir = copyDist();
    const file = join(dir, 'ssakit.cjs');
    const text = readFileSync(file, 'utf8');
    const edited = text.replace('.version("0.1.0")', '.version("0.1.9")');
    expect(edited).not.toBe(text);
    expect(edited.length).toBe(text.length);
    writeFileSync(file, edited);
    const r = cli(dir, ['--version']);
    expect(r.cache).toBe('stale');
    expect(r.stdout.trim()).toBe('0.1.9');
  });

  it('a corrupt or missing cache costs the compile, nothing else', () => {
    const dir = copyDist();
    const cache = join(dir, 'ssakit.cjs.cache');
    const good = readFileSync(cache);
    const want = cli(DIST, ['opt', '-O1', '-S', example]).stdout;
    // the right digest, a payload cut short
    writeFileSync(cache, good.subarray(0, 20 + Math.floor((good.length - 20) / 2)));
    let r = cli(dir, ['opt', '-O1', '-S', example]);
    expect(r.cache).toBe('rejected');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(want);
    rmSync(cache);
    r = cli(dir, ['opt', '-O1', '-S', example]);
    expect(r.cache).toBe('none');
    expect(r.stdout).toBe(want);
  });

  it('errors and exit codes pass through the launcher', () => {
    const dir = copyDist();
    const bad = join(dir, 'bad.ll');
    writeFileSync(bad, 'define i32 @f() {\n  ret i32 %x\n}\n');
    const r = cli(DIST, ['opt', '-O2', '-S', bad]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bad\.ll:2:\d+: error: /);
  });
});
