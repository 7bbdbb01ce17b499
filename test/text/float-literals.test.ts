/**
 * Float and double constants print exactly as LLVM's AsmWriter prints them: scientific with six
 * digits when APFloat::toString's text reads back to the same value, else the hex pattern.
 * Oracle: opt-19 -S (AsmWriter) on a module of random constants; ours must print the same
 * text for every one. The sample mixes random bit patterns (all exponents, subnormals),
 * short decimals (k / 10^j, the common case in C programs), their neighbours one ulp away,
 * and float values (printed as the double pattern of the float).
 */
import { describe, expect, it } from 'vitest';
import { hasLlvm, OPT, runTool } from '../helpers/llvm.js';
import { parseModule, printModule } from '../../src/text/index.js';

const view = new DataView(new ArrayBuffer(8));
const bitsOf = (v: number): string => {
  view.setFloat64(0, v);
  return '0x' + view.getBigUint64(0).toString(16).toUpperCase().padStart(16, '0');
};
const nextUp = (v: number): number => {
  view.setFloat64(0, v);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
};

function sample(seed: number, n: number): number[] {
  let s = seed >>> 0;
  const rnd = (): number => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 2 ** 32;
  };
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const kind = k % 4;
    let v: number;
    if (kind === 0) {
      view.setUint32(0, Math.floor(rnd() * 2 ** 32));
      view.setUint32(4, Math.floor(rnd() * 2 ** 32));
      v = view.getFloat64(0);
      if (!Number.isFinite(v)) v = rnd();
    } else if (kind === 1) v = Math.floor(rnd() * 100000) / 10 ** Math.floor(rnd() * 14);
    else if (kind === 2) v = nextUp(Math.floor(rnd() * 1000) / 10 ** Math.floor(rnd() * 8));
    else v = Math.fround((rnd() - 0.5) * 10 ** Math.floor(rnd() * 20 - 10));
    out.push(rnd() < 0.2 ? -v : v);
  }
  return out;
}

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('float literals as opt-19 prints them', () => {
  it('2000 random constants print byte-identically', () => {
    const values = sample(20261126, 2000);
    const text = values.map((v, k) => `@g${k} = global ${k % 4 === 3 ? 'float' : 'double'} ${bitsOf(v)}`).join('\n') + '\n';
    const llvm = runTool(OPT, ['-S', '-', '-o', '-'], { input: text });
    expect(llvm.status, llvm.stderr).toBe(0);
    const theirs = llvm.stdout.toString('utf8').split('\n').filter((l) => l.startsWith('@g'));
    const ours = printModule(parseModule(text, 'floats.ll')).split('\n').filter((l) => l.startsWith('@g'));
    expect(ours.length).toBe(values.length);
    const diffs = ours.map((l, k) => (l === theirs[k] ? null : `${l}  vs opt-19: ${theirs[k]}`)).filter((x) => x !== null);
    expect(diffs.slice(0, 10)).toEqual([]);
  });
});
