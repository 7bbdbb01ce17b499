/**
 * Floating point: fcmp with every predicate (ordered/unordered NaN rules), float vs double
 * rounding, frem, fneg, conversions to and from integers at their edges, bitcasts.
 */
import { describe, expect, it } from 'vitest';
import { instance } from './helpers.js';

const FPREDS = ['false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'uno', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'true'];
function fref(p: string, a: number, b: number): boolean {
  const uno = Number.isNaN(a) || Number.isNaN(b);
  const base = p.length === 3 ? p.slice(1) : p;
  if (p === 'false') return false;
  if (p === 'true') return true;
  if (p === 'ord') return !uno;
  if (p === 'uno') return uno;
  if (uno) return p[0] === 'u';
  switch (base) {
    case 'eq': return a === b;
    case 'gt': return a > b;
    case 'ge': return a >= b;
    case 'lt': return a < b;
    case 'le': return a <= b;
    default: return a !== b; // ne
  }
}

describe('fcmp', () => {
  for (const ty of ['float', 'double']) {
    it(`${ty}: all 16 predicates with NaN, infinities and signed zeros`, () => {
      const text = FPREDS.map((p) => `define i1 @${p}(${ty} %a, ${ty} %b) {\n  %r = fcmp ${p} ${ty} %a, %b\n  ret i1 %r\n}\n`).join('\n');
      const m = instance(text);
      const vals = [0, -0, 1, -1, 1.5, Infinity, -Infinity, NaN, 3.4028234663852886e38, 5e-324];
      for (const p of FPREDS) for (const a of vals) for (const b of vals) {
        const got = m.call(p, [a, b]);
        const want = fref(p, a, b) ? 1 : 0;
        if (got !== want) expect({ p, a, b, got }).toEqual({ p, a, b, got: want });
      }
    });
  }
});

describe('float arithmetic', () => {
  const text = `
define float @faddf(float %a, float %b) {
  %r = fadd float %a, %b
  ret float %r
}
define float @fdivf(float %a, float %b) {
  %r = fdiv float %a, %b
  ret float %r
}
define double @fdivd(double %a, double %b) {
  %r = fdiv double %a, %b
  ret double %r
}
define double @fremd(double %a, double %b) {
  %r = frem double %a, %b
  ret double %r
}
define float @fremf(float %a, float %b) {
  %r = frem float %a, %b
  ret float %r
}
define double @fnegd(double %a) {
  %r = fneg double %a
  ret double %r
}
define float @fmulf(float %a, float %b) {
  %r = fmul float %a, %b
  ret float %r
}
`;
  it('rounds float results to single precision', () => {
    const m = instance(text);
    expect(m.call('faddf', [16777216, 1])).toBe(16777216);
    expect(m.call('fdivf', [1, 3])).toBe(Math.fround(1 / 3));
    expect(m.call('fdivd', [1, 3])).toBe(1 / 3);
    expect(m.call('fmulf', [3.4028234663852886e38, 2])).toBe(Infinity);
    expect(m.call('fmulf', [1e-30, 1e-30])).toBe(0);
  });
  it('frem is C fmod (sign of the dividend), fneg flips the sign of zero', () => {
    const m = instance(text);
    expect(m.call('fremd', [-5.5, 2])).toBe(-1.5);
    expect(m.call('fremd', [5.5, -2])).toBe(1.5);
    expect(Object.is(m.call('fremd', [-4, 2]), -0)).toBe(true);
    expect(Number.isNaN(m.call('fremd', [1, 0]) as number)).toBe(true);
    expect(m.call('fremf', [Math.fround(10.1), 3])).toBe(Math.fround(Math.fround(10.1) % 3));
    expect(Object.is(m.call('fnegd', [0]), -0)).toBe(true);
  });
});

describe('conversions', () => {
  const conv = (op: string, from: string, to: string): string => `define ${to} @${op}_${from}_${to}(${from} %a) {\n  %r = ${op} ${from} %a to ${to}\n  ret ${to} %r\n}\n`;
  const text = [
    conv('fptosi', 'double', 'i32'), conv('fptosi', 'double', 'i64'), conv('fptosi', 'float', 'i8'), conv('fptosi', 'double', 'i16'),
    conv('fptoui', 'double', 'i32'), conv('fptoui', 'double', 'i64'), conv('fptoui', 'float', 'i8'),
    conv('sitofp', 'i32', 'double'), conv('sitofp', 'i64', 'double'), conv('sitofp', 'i64', 'float'), conv('sitofp', 'i32', 'float'),
    conv('sitofp', 'i1', 'double'), conv('uitofp', 'i1', 'double'), conv('sitofp', 'i8', 'float'),
    conv('uitofp', 'i32', 'double'), conv('uitofp', 'i64', 'double'), conv('uitofp', 'i64', 'float'), conv('uitofp', 'i8', 'double'),
    conv('fptrunc', 'double', 'float'), conv('fpext', 'float', 'double'),
    conv('bitcast', 'float', 'i32'), conv('bitcast', 'i32', 'float'), conv('bitcast', 'double', 'i64'), conv('bitcast', 'i64', 'double'),
    conv('sitofp', 'i128', 'double'), conv('uitofp', 'i128', 'double'), conv('fptosi', 'double', 'i128'),
  ].join('\n');
  const m = instance(text);
  it('fptosi / fptoui truncate toward zero at the edges of the range', () => {
    expect(m.call('fptosi_double_i32', [-2147483648.9])).toBe(-2147483648);
    expect(m.call('fptosi_double_i32', [2147483647.9])).toBe(2147483647);
    expect(Object.is(m.call('fptosi_double_i32', [-0.5]), 0)).toBe(true);
    expect(m.call('fptosi_double_i16', [-32768.5])).toBe(-32768);
    expect(m.call('fptosi_float_i8', [-128.9])).toBe(-128);
    expect(m.call('fptosi_float_i8', [127.9])).toBe(127);
    expect(m.call('fptoui_float_i8', [255.5])).toBe(-1); // 0xff in signed form
    expect(m.call('fptoui_double_i32', [4294967295.5])).toBe(-1);
    expect(m.call('fptoui_double_i32', [2147483648])).toBe(-2147483648);
    expect(m.call('fptosi_double_i64', [-9223372036854775808])).toBe(-9223372036854775808n);
    expect(m.call('fptosi_double_i64', [9007199254740991])).toBe(9007199254740991);
    expect(m.call('fptosi_double_i64', [9007199254740992])).toBe(9007199254740992n);
    expect(Object.is(m.call('fptosi_double_i64', [-0.75]), 0)).toBe(true);
    expect(m.call('fptoui_double_i64', [18446744073709549568])).toBe(-2048);
    expect(m.call('fptoui_double_i64', [9223372036854775808])).toBe(-9223372036854775808n);
    expect(m.call('fptosi_double_i128', [1e30])).toBe(1000000000000000019884624838656n);
  });
  it('x86 results for out-of-range and NaN conversions to i32/i64 (INT_MIN)', () => {
    expect(m.call('fptosi_double_i32', [NaN])).toBe(-2147483648);
    expect(m.call('fptosi_double_i32', [3e9])).toBe(-2147483648);
    expect(m.call('fptosi_double_i64', [1e19])).toBe(-9223372036854775808n);
  });
  it('sitofp / uitofp round to nearest even without double rounding', () => {
    expect(m.call('sitofp_i32_double', [-2147483648])).toBe(-2147483648);
    expect(m.call('sitofp_i1_double', [1])).toBe(-1);
    expect(m.call('uitofp_i1_double', [1])).toBe(1);
    expect(m.call('sitofp_i8_float', [-128])).toBe(-128);
    expect(m.call('uitofp_i8_double', [-1])).toBe(255);
    expect(m.call('uitofp_i32_double', [-1])).toBe(4294967295);
    expect(m.call('sitofp_i32_float', [16777217])).toBe(16777216);
    expect(m.call('sitofp_i32_float', [16777219])).toBe(16777220);
    expect(m.call('sitofp_i64_double', [9223372036854775807n])).toBe(9223372036854775808);
    expect(m.call('uitofp_i64_double', [-1])).toBe(18446744073709551616);
    expect(m.call('uitofp_i64_double', [-9223372036854775808n])).toBe(9223372036854775808);
    // 2^62 + 3·2^38 − 1: below the halfway point between two floats; rounding through a
    // double first would land on the tie and then round up
    expect(m.call('sitofp_i64_float', [2n ** 62n + 3n * 2n ** 38n - 1n])).toBe(Math.fround(2 ** 62 + 2 ** 39));
    expect(m.call('sitofp_i64_float', [2n ** 62n + 3n * 2n ** 38n])).toBe(Math.fround(2 ** 62 + 2 ** 40));
    expect(m.call('uitofp_i64_float', [-1])).toBe(18446744073709551616);
    expect(m.call('sitofp_i128_double', [-(2n ** 100n)])).toBe(-(2 ** 100));
    expect(m.call('uitofp_i128_double', [-1])).toBe(2 ** 128);
  });
  it('fptrunc rounds to float, fpext is exact; bitcasts reinterpret bits', () => {
    expect(m.call('fptrunc_double_float', [0.1])).toBe(Math.fround(0.1));
    expect(m.call('fptrunc_double_float', [1e300])).toBe(Infinity);
    expect(m.call('fpext_float_double', [Math.fround(0.1)])).toBe(Math.fround(0.1));
    expect(m.call('bitcast_float_i32', [1])).toBe(0x3f800000);
    expect(m.call('bitcast_float_i32', [-0])).toBe(-2147483648);
    expect(m.call('bitcast_i32_float', [0x7f800000])).toBe(Infinity);
    expect(m.call('bitcast_double_i64', [-0])).toBe(-9223372036854775808n);
    expect(m.call('bitcast_double_i64', [1])).toBe(0x3ff0000000000000n);
    expect(m.call('bitcast_i64_double', [0x400921fb54442d18n])).toBe(Math.PI);
    expect(m.call('bitcast_i64_double', [1])).toBe(5e-324);
  });
});
