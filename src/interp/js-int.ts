/**
 * JavaScript expressions that keep a ≤32-bit integer in the interpreter's canonical form
 * (signed, or read unsigned), and the JS literals of interpreter values. Shared by the code
 * generator's files and the intrinsics it emits; in a file of their own so that none of
 * them needs to import codegen.ts at run time.
 */
/** Expression that brings a ≤32-bit computation back to canonical signed form. */
export function norm(bits: number, e: string): string {
  if (bits === 32) return `((${e}) | 0)`;
  if (bits === 1) return `((${e}) & 1)`;
  const s = 32 - bits;
  return `((${e}) << ${s} >> ${s})`;
}
/** The unsigned reading of a ≤32-bit canonical value. */
export function uns(bits: number, e: string): string {
  if (bits === 32) return `(${e} >>> 0)`;
  if (bits === 1) return e;
  return `(${e} & ${2 ** bits - 1})`;
}

export function numLit(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '(-Infinity)';
  if (n === 0) return Object.is(n, -0) ? '(-0)' : '0';
  return n < 0 ? `(${n})` : String(n);
}

/** JS literal of an interpreter scalar value. */
export function valueLit(v: unknown): string | null {
  if (typeof v === 'number') return numLit(v);
  if (typeof v === 'bigint') return v < 0n ? `(${v}n)` : `${v}n`;
  return null;
}
