/**
 * The library runs in a browser: src/core.ts bundles with esbuild for the browser with no
 * externals (any `node:` import, or a bare Node builtin, fails the build), and the bundle
 * then compiles, optimizes, prints and runs a SysY program in a V8 context that has only
 * what a browser's worker has (no process, no Buffer, no require).
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

async function bundle(entry: string): Promise<{ errors: string[]; code: string }> {
  try {
    const r = await build({ entryPoints: [entry], bundle: true, platform: 'browser', format: 'iife', globalName: 'ssakit', write: false, logLevel: 'silent', target: 'es2022' });
    return { errors: [], code: r.outputFiles[0].text };
  } catch (e) {
    const errs = (e as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors ?? [];
    return { errors: errs.map((x) => `${x.location?.file}:${x.location?.line}: ${x.text}`), code: '' };
  }
}

describe('browser bundle of the library', () => {
  it('the Node entry (src/index.ts) is refused, so the check below can fail', async () => {
    const r = await bundle('src/index.ts');
    expect(r.errors.join('\n')).toMatch(/node:/);
  });

  it('src/core.ts bundles for the browser with no Node import and runs without Node globals', async () => {
    const r = await bundle('src/core.ts');
    expect(r.errors).toEqual([]);
    expect(r.code).not.toMatch(/require\(["']node:|require\(["'](fs|os|v8|worker_threads|url|path)["']\)/);
    const ctx = createContext({ TextEncoder, TextDecoder, performance, console, URL });
    runInContext(r.code, ctx);
    expect(runInContext('typeof process + typeof Buffer + typeof require', ctx)).toBe('undefinedundefinedundefined');
    ctx.src = readFileSync('examples/sort.sy', 'utf8');
    ctx.stdin = readFileSync('examples/sort.in', 'utf8');
    const out = runInContext(
      `(() => {
        const c = ssakit.compileSysY(src, 'sort.sy', { ssa: 'braun' });
        if (!c.module) throw new Error(ssakit.formatDiagnostics(c.diagnostics, src));
        const m = ssakit.parseModule(ssakit.printModule(c.module), 'sort.ll');
        ssakit.runPipeline(m, 'default<O2>');
        const text = ssakit.printModule(m);
        const r = ssakit.runModule(ssakit.parseModule(text, 'o2.ll'), { stdin, stdout: 'collect', stderr: 'collect', stats: true });
        const dot = ssakit.functionToDot(m.functions.find((f) => f.name === 'main'), 'cfg');
        return { exit: r.exitCode, stdout: r.stdout, isU8: r.stdoutBytes instanceof Uint8Array, steps: r.stats.total, dot, text };
      })()`,
      ctx,
    );
    expect(out.text).toMatch(/define .*@main/);
    expect(out.isU8).toBe(true);
    expect(out.steps).toBeGreaterThan(0);
    expect(out.dot).toMatch(/^digraph/);
    // the same answer as under Node
    const lib = await import('../../src/index.js');
    const c = lib.compileSysY(ctx.src, 'sort.sy', { ssa: 'braun', optLevel: 2 });
    const n = lib.runModule(c.module!, { stdin: ctx.stdin, stdout: 'collect', stderr: 'collect' });
    expect(out.stdout).toBe(n.stdout);
    expect(out.exit).toBe(n.exitCode);
  });
});
