/**
 * Sanity tests of the seeded program generators (src/fuzz/c-gen.ts, sysy-gen.ts):
 * determinism, option handling, and — with clang-19 — that generated programs
 * compile, agree between -O0 and -O2, and run clean under -fsanitize=undefined.
 * Bigger sweeps: `npx tsx test/fuzz-gen/run-seeds.ts --lang=c --count=500`.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/fuzz/rng.js';
import { generateCProgram, generateSysYProgram, SYSY_C_PRELUDE } from '../../src/fuzz/c-gen.js';
import { CLANG, checkProgram, pool, type CheckResult } from './harness.js';
import { hasTool } from '../helpers/llvm.js';

const HAVE_CLANG = hasTool(CLANG);
const SEEDS = Array.from({ length: 15 }, (_, i) => 1000 + i * 7919);

describe('Rng', () => {
  it('is mulberry32: a fixed stream for a fixed seed on every engine', () => {
    const r = new Rng(42);
    const xs = Array.from({ length: 6 }, () => r.next());
    // Recorded once; any change here changes every generated program.
    expect(xs).toEqual(REFERENCE_STREAM_42);
    for (const x of xs) expect(Number.isInteger(x) && x >= 0 && x < 2 ** 32).toBe(true);
  });

  it('below/range stay in range', () => {
    const r = new Rng(7);
    for (let i = 0; i < 2000; i++) {
      const n = 1 + (i % 37);
      const v = r.below(n);
      expect(v >= 0 && v < n).toBe(true);
      const w = r.range(-5, 5);
      expect(w >= -5 && w <= 5).toBe(true);
    }
  });
});

const REFERENCE_STREAM_42 = (() => {
  // Computed by the same algorithm written out longhand, so the test fails if Rng
  // ever stops being plain mulberry32 seeded with (seed ^ 0x9e3779b9) and one stir.
  let s = (42 ^ 0x9e3779b9) >>> 0;
  const step = (): number => {
    let t = (s = (s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  step();
  return Array.from({ length: 6 }, step);
})();

describe('generators are deterministic and honour their options', () => {
  it('same seed gives the same text, different seeds differ', () => {
    for (const seed of [0, 1, 12345, -7, 2 ** 31 + 5]) {
      expect(generateCProgram(seed)).toBe(generateCProgram(seed));
      expect(generateSysYProgram(seed)).toBe(generateSysYProgram(seed));
      expect(generateCProgram(seed, { size: 'small' })).toBe(generateCProgram(seed, { size: 'small' }));
    }
    expect(generateCProgram(1)).not.toBe(generateCProgram(2));
    expect(generateSysYProgram(1)).not.toBe(generateSysYProgram(2));
  });

  it('size presets scale the programs', () => {
    const lines = (s: string): number => s.split('\n').length;
    let small = 0, medium = 0;
    for (let seed = 0; seed < 10; seed++) {
      small += lines(generateCProgram(seed, { size: 'small' }));
      medium += lines(generateCProgram(seed, { size: 'medium' }));
    }
    expect(medium).toBeGreaterThan(small);
    const big = generateCProgram(3, { size: 'large', targetLines: 6000 });
    expect(lines(big)).toBeGreaterThan(5500);
    expect(lines(big)).toBeLessThan(7000);
    const bigSy = generateSysYProgram(3, { size: 'large', targetLines: 6000 });
    expect(lines(bigSy)).toBeGreaterThan(5500);
    expect(lines(bigSy)).toBeLessThan(7000);
  });

  it('C programs use only printf from libc; SysY programs only the SysY runtime', () => {
    for (let seed = 0; seed < 20; seed++) {
      const c = generateCProgram(seed);
      const calls = new Set([...c.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]!));
      for (const name of calls) expect(/^(f\d+|printf|main|if|for|while|switch|case|return|sizeof|unsigned|signed|int|long|short|char)$/.test(name), name).toBe(true);
      const s = generateSysYProgram(seed);
      expect(s).not.toMatch(/\bfor\b|\bswitch\b|\bgoto\b|\bunsigned\b|\bchar\b|\bstruct\b|\?|(?<!&)&(?!&)|(?<!\|)\|(?!\|)|\bprintf\b/);
      const sCalls = new Set([...s.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]!));
      for (const name of sCalls) expect(/^(f\d+|putint|putch|putarray|putfloat|putfarray|main|if|while|return)$/.test(name), name).toBe(true);
    }
  });

  it('options can switch features off', () => {
    for (let seed = 0; seed < 10; seed++) {
      const c = generateCProgram(seed, { structs: false, gotos: false, switches: false, pointers: false, recursion: false });
      expect(c).not.toMatch(/\bstruct\b|\bgoto\b|\bswitch\b|\*q0|depth/);
      const s = generateSysYProgram(seed, { floats: false, arrays2d: false });
      expect(s).not.toMatch(/\bfloat\b|\]\[/);
    }
  });
});

function explain(r: CheckResult): string {
  return `${r.stage}: ${r.detail.split('\n').slice(0, 4).join(' | ')}`;
}

// Reason: compiling the generated C (and UBSan) needs clang-19; without it these cannot run.
describe.skipIf(!HAVE_CLANG)('generated programs run the same at -O0, -O2 and under UBSan (clang-19)', () => {
  it(`C, ${SEEDS.length} seeds`, async () => {
    const results = await pool(SEEDS, 2, (seed) => checkProgram('c', generateCProgram(seed, { size: 'small' })));
    const bad = results.map((r, i) => (r.ok ? null : `seed ${SEEDS[i]}: ${explain(r)}`)).filter((x) => x);
    expect(bad).toEqual([]);
    // The exit code is a real check: it must vary between programs.
    expect(new Set(results.map((r) => r.exitCode)).size).toBeGreaterThan(10);
  }, 300_000);

  it(`SysY (as C with the prelude), ${SEEDS.length} seeds`, async () => {
    const results = await pool(SEEDS, 2, (seed) => checkProgram('sysy', generateSysYProgram(seed, { size: 'small' })));
    const bad = results.map((r, i) => (r.ok ? null : `seed ${SEEDS[i]}: ${explain(r)}`)).filter((x) => x);
    expect(bad).toEqual([]);
    expect(new Set(results.map((r) => r.exitCode)).size).toBeGreaterThan(10);
  }, 300_000);

  it('the SysY prelude declares the whole runtime', () => {
    for (const f of ['getint', 'getch', 'getfloat', 'getarray', 'getfarray', 'putint', 'putch', 'putfloat', 'putarray', 'putfarray', 'starttime', 'stoptime']) {
      expect(SYSY_C_PRELUDE).toMatch(new RegExp(`\\b${f}\\(`));
    }
  });
});

if (!HAVE_CLANG) {
  describe('generated programs (clang-19)', () => {
    // Reason: placeholder that names the missing clang-19 in the report instead of passing silently.
    it.skip(`skipped: ${CLANG} not found (apt-get install -y clang-19)`, () => {});
  });
}
