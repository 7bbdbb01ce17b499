/**
 * Reading the argument values of external (libc) functions: the interpreter passes an
 * integer of up to 32 bits as a JS number, an i64 as a number or, beyond 2^53, a bigint.
 * Shared by libc.ts and the files that extend its table; faults they raise carry SITE
 * (the driver puts the call site in Machine.site).
 */
import { MAX_SAFE, type Wide } from './wide.js';

export const SITE = -1;

export function num(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
}
export function i32(v: unknown): number {
  return typeof v === 'number' ? v | 0 : typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : 0;
}
/** size_t argument (i64) as a JS number; absurd sizes become −1 (callers treat as failure). */
export function size(v: unknown): number {
  const n = num(v);
  return n < 0 || n > MAX_SAFE ? -1 : n;
}
export function wide(v: bigint): Wide {
  return v >= -BigInt(MAX_SAFE) && v <= BigInt(MAX_SAFE) ? Number(v) : v;
}
