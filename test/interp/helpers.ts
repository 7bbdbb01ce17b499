/**
 * Helpers for the interpreter tests: run IR text or C source, call single functions, and
 * convert between interpreter values and bigints.
 */
import { readFileSync } from 'node:fs';
import { callFunction, Interpreter, runModule, type RunOptions, type RunResult } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';
import { clangToLL, type OptLevel } from '../helpers/llvm.js';

export function runIR(text: string, opts: RunOptions = {}): RunResult {
  return runModule(parseModule(text, 'test.ll'), { stderr: 'collect', ...opts });
}

export function callIR(text: string, name: string, args: unknown[], opts: RunOptions = {}): unknown {
  return callFunction(parseModule(text, 'test.ll'), name, args, { stderr: 'collect', ...opts }).value;
}

/** An interpreter over IR text, for many calls. */
export function instance(text: string, opts: RunOptions = {}): Interpreter {
  return new Interpreter(parseModule(text, 'test.ll'), { stderr: 'collect', ...opts });
}

/** Compiles C with clang-19 (cached) and runs it in the interpreter. */
export function runC(source: string, level: OptLevel = 'O0', opts: RunOptions = {}, name = 'prog'): RunResult {
  const ll = clangToLL(source, level, [], name);
  return runModule(parseModule(readFileSync(ll, 'utf8'), ll), { stderr: 'collect', ...opts });
}

/** Interpreter form of an iN value given as a bigint (signed or unsigned reading). */
export function toInterp(v: bigint, bits: number): number | bigint {
  if (bits === 1) return Number(BigInt.asUintN(1, v));
  const s = BigInt.asIntN(bits, v);
  if (bits <= 32) return Number(s);
  return s >= -9007199254740991n && s <= 9007199254740991n ? Number(s) : s;
}

/** The unsigned bigint reading of an interpreter integer. */
export function fromInterp(v: unknown, bits: number): bigint {
  if (typeof v === 'number') return BigInt.asUintN(bits, BigInt(v));
  return BigInt.asUintN(bits, v as bigint);
}

/** Whether a value is in canonical interpreter form for iN. */
export function isCanonical(v: unknown, bits: number): boolean {
  if (bits === 1) return v === 0 || v === 1;
  if (bits <= 32) return typeof v === 'number' && Number.isInteger(v) && !Object.is(v, -0) && (v | 0) === v && BigInt.asIntN(bits, BigInt(v)) === BigInt(v);
  if (typeof v === 'number') return Number.isSafeInteger(v) && !Object.is(v, -0);
  return typeof v === 'bigint' && (v > 9007199254740991n || v < -9007199254740991n) && BigInt.asIntN(bits, v) === v;
}

export function edgeValues(bits: number): bigint[] {
  const min = bits === 1 ? -1n : -(1n << BigInt(bits - 1));
  const max = bits === 1 ? 0n : (1n << BigInt(bits - 1)) - 1n;
  const set = new Set<bigint>([0n, 1n, -1n, 2n, -2n, 3n, 7n, -7n, min, max, min + 1n, max - 1n, 100n, -100n]);
  if (bits > 8) for (const k of [8, 16, 31, 32, 33, 52, 53, 54, 63, 64]) if (k < bits) {
    set.add(1n << BigInt(k));
    set.add(-(1n << BigInt(k)));
    set.add((1n << BigInt(k)) - 1n);
    set.add((1n << BigInt(k)) + 1n);
  }
  set.add(BigInt.asIntN(bits, 0x5555555555555555555555555555555n));
  set.add(BigInt.asIntN(bits, 0x1234567890abcdef1234567890abcdefn));
  return [...set].map((v) => BigInt.asIntN(bits, v)).filter((v, i, a) => a.indexOf(v) === i);
}
