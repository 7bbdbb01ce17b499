/**
 * JavaScript expressions that keep a ≤32-bit integer in the interpreter's canonical form
 * (signed, or read unsigned). Shared by the code generator and the intrinsics it emits;
 * in a file of their own so that intrinsics.ts need not import codegen.ts at run time.
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
