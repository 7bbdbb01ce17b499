/**
 * The SysY corpus (test/sysy, test/sysy/perf): every program is valid for
 * the frontend, and its .out matches a native run of the program compiled as
 * C with clang-19 and runtime/sylib.c (test/sysy/run-native.sh). The native
 * check runs on a sample; set SSAKIT_SYSY_NATIVE=1 (or run test/sysy/check.sh)
 * for all of them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSysY, formatDiagnostics } from '../../src/frontend/sysy/index.js';
import { CLANG, hasTool } from '../helpers/llvm.js';

const ROOT = join(import.meta.dirname, '..', 'sysy');
const files = [ROOT, join(ROOT, 'perf')].flatMap((dir) =>
  readdirSync(dir).filter((f) => f.endsWith('.sy')).sort().map((f) => join(dir, f)));

describe('SysY corpus', () => {
  it('has at least 110 programs plus performance programs, each with a .out', () => {
    expect(files.filter((f) => !f.includes('/perf/')).length).toBeGreaterThanOrEqual(110);
    expect(files.filter((f) => f.includes('/perf/')).length).toBeGreaterThanOrEqual(5);
    for (const f of files) expect(existsSync(f.replace(/\.sy$/, '.out')), f).toBe(true);
  });

  it('every program parses and checks with no diagnostics', () => {
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const r = analyzeSysY(text, f);
      expect(formatDiagnostics(r.diagnostics, text), f).toBe('');
    }
  });

  it('expected outputs match native runs (sample)', () => {
    if (!hasTool(CLANG)) {
      console.warn(`${CLANG} not found: skipping native checks of test/sysy .out files`);
      return;
    }
    const all = process.env.SSAKIT_SYSY_NATIVE === '1';
    const sample = all ? files : files.filter((_, i) => i % 15 === 0);
    for (const f of sample) {
      const r = spawnSync(join(ROOT, 'run-native.sh'), [f], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout, f).toBe(readFileSync(f.replace(/\.sy$/, '.out'), 'utf8'));
    }
  });
});
