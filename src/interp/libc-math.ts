/**
 * The special functions of math.h for the interpreter's C library: erf, erfc (libm-erf.ts),
 * lgamma, lgamma_r, tgamma (libm-gamma.ts) and their float variants. lgamma stores the
 * sign of Γ(x) in the program's `signgam` when the module declares it (the loader gives
 * that external global its 4 bytes, Machine.lib.signgam holds its address). The float
 * variants compute in double and round once (glibc's own float code is a separate
 * approximation: the two can differ in the last bit).
 */
import type { ExternalFn, Machine } from './machine.js';
import { num, SITE } from './libc-args.js';
import { erf, erfc } from './libm-erf.js';
import { lgammaR, tgamma } from './libm-gamma.js';

function setSigngam(S: Machine, sign: number): void {
  const p = S.lib.signgam as number | undefined;
  if (p !== undefined) S.mem.st32(p, sign, SITE);
}

function lgammaWithSign(S: Machine, x: number, p: unknown, isF: boolean): number {
  const [r, sign] = lgammaR(x);
  S.mem.st32(num(p), sign, SITE);
  return isF ? Math.fround(r) : r;
}

export const LIBC_MATH: Record<string, ExternalFn> = {
  erf: (S, a) => erf(num(a[0])),
  erff: (S, a) => Math.fround(erf(num(a[0]))),
  erfc: (S, a) => erfc(num(a[0])),
  erfcf: (S, a) => Math.fround(erfc(num(a[0]))),
  tgamma: (S, a) => tgamma(num(a[0])),
  tgammaf: (S, a) => Math.fround(tgamma(num(a[0]))),
  lgamma: (S, a) => {
    const [r, sign] = lgammaR(num(a[0]));
    setSigngam(S, sign);
    return r;
  },
  lgammaf: (S, a) => {
    const [r, sign] = lgammaR(num(a[0]));
    setSigngam(S, sign);
    return Math.fround(r);
  },
  lgamma_r: (S, a) => lgammaWithSign(S, num(a[0]), a[1], false),
  lgammaf_r: (S, a) => lgammaWithSign(S, num(a[0]), a[1], true),
};
