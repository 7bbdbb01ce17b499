/**
 * The ends of the w-bit integer ranges, as bigints (LLVM's APInt::getSignedMinValue and
 * friends), shared by constant folding, instsimplify, instcombine and indvars. Each is made
 * once per width: compares and range queries ask for them on every visit, and a BigInt
 * shift allocates.
 */
const SMIN: bigint[] = [];
const SMAX: bigint[] = [];
const UMAX: bigint[] = [];

/** -2^(w-1). */
export function signedMin(w: number): bigint {
  return (SMIN[w] ??= -(1n << BigInt(w - 1)));
}
/** 2^(w-1) - 1. */
export function signedMax(w: number): bigint {
  return (SMAX[w] ??= (1n << BigInt(w - 1)) - 1n);
}
/** 2^w - 1. */
export function unsignedMax(w: number): bigint {
  return (UMAX[w] ??= (1n << BigInt(w)) - 1n);
}
/** Whether `v` is a w-bit signed value. */
export function fitsSigned(v: bigint, w: number): boolean {
  return v >= signedMin(w) && v <= signedMax(w);
}
/** Whether `v` is a w-bit unsigned value. */
export function fitsUnsigned(v: bigint, w: number): boolean {
  return v >= 0n && v <= unsignedMax(w);
}
