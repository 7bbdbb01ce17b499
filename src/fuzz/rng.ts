// Seeded pseudo-random numbers for the program generators: mulberry32 (Tommy Ettinger).
//
// Invariants: the state is one uint32; every operation is integer arithmetic through
// Math.imul and `>>> 0`, so a seed gives the same stream in every JS engine and Node
// version (Math.random is never used). Floating point appears only in `chance`, where
// a 32-bit integer divided by 2^32 is exact.

export class Rng {
  private state: number;

  constructor(seed: number) {
    // Fold arbitrary (possibly negative or fractional) seeds into a uint32 and stir once
    // so that nearby seeds do not produce correlated first outputs.
    this.state = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
    this.next();
  }

  /** Next uint32. */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform integer in [0, n). n must be a positive integer <= 2^32. */
  below(n: number): number {
    // r / 2^32 is exact; the product is one IEEE rounding, identical on every engine.
    const r = this.next();
    return Math.floor((r / 4294967296) * n);
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  range(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() / 4294967296 < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)]!;
  }

  /** Index chosen with the given non-negative weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = (this.next() / 4294967296) * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** Random 64-bit value as a BigInt (for constants). */
  u64(): bigint {
    return (BigInt(this.next()) << 32n) | BigInt(this.next());
  }
}
