/**
 * Compile-time arithmetic with C's semantics on a 32-bit-int, IEEE-single
 * machine (what clang does for SysY compiled as C):
 *
 * - int: two's-complement wrap to 32 bits after every operation (`|0`,
 *   `Math.imul`); `/` and `%` truncate toward zero (the sign of `%` follows
 *   the dividend); `x / 0` and `x % 0` have no value (undefined in C, an
 *   error where a constant is required).
 * - float: every result is rounded to single precision (`Math.fround`), so a
 *   chain of operations rounds at each step, as float arithmetic in C does
 *   (FLT_EVAL_METHOD 0, no contraction).
 * - conversions: int→float rounds to nearest; float→int truncates toward
 *   zero (out-of-range is undefined in C; we wrap).
 * - comparisons and `!`, `&&`, `||` give int 0/1; floats are "true" when != 0.
 *
 * Values are plain JS numbers; the caller knows from the expression type
 * whether a number is an int32 or a float32.
 */

import type { ArithOp, CompareOp } from './ast.js';

export function intToFloat(v: number): number {
  return Math.fround(v);
}

export function floatToInt(v: number): number {
  if (v !== v) return 0;
  return Math.trunc(v) | 0;
}

/** int arithmetic; undefined for division/remainder by zero. */
export function foldIntArith(op: ArithOp, a: number, b: number): number | undefined {
  switch (op) {
    case '+': return (a + b) | 0;
    case '-': return (a - b) | 0;
    case '*': return Math.imul(a, b);
    case '/': return b === 0 ? undefined : (a / b) | 0; // `|0` truncates toward zero
    case '%': return b === 0 ? undefined : (a % b) | 0; // `|0` also turns -0 into 0
  }
}

/** float arithmetic; `%` is not defined on floats (sema rejects it). */
export function foldFloatArith(op: ArithOp, a: number, b: number): number | undefined {
  switch (op) {
    case '+': return Math.fround(a + b);
    case '-': return Math.fround(a - b);
    case '*': return Math.fround(a * b);
    case '/': return Math.fround(a / b);
    case '%': return undefined;
  }
}

export function foldCompare(op: CompareOp, a: number, b: number): number {
  switch (op) {
    case '<': return a < b ? 1 : 0;
    case '>': return a > b ? 1 : 0;
    case '<=': return a <= b ? 1 : 0;
    case '>=': return a >= b ? 1 : 0;
    case '==': return a === b ? 1 : 0;
    case '!=': return a !== b ? 1 : 0;
  }
}

export function foldNeg(isFloat: boolean, a: number): number {
  return isFloat ? -a : (-a) | 0;
}

export function foldNot(a: number): number {
  return a === 0 ? 1 : 0;
}
