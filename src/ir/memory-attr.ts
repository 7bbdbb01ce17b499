/**
 * LLVM's `memory(...)` function attribute (llvm/IR/ModRef.h, MemoryEffects) read from and
 * written to attribute text, in the two locations we distinguish: memory reached through
 * the function's pointer arguments (`argmem`) and everything else (globals, escaped
 * objects and LLVM's `inaccessiblemem`, which we fold into "other").
 *
 * Each location holds a mod/ref mask: bit 1 = may read (ref), bit 2 = may write (mod).
 * The legacy words `readnone`, `readonly`, `writeonly`, `argmemonly` are understood too.
 * Printing follows LLVM: `memory(none)`, `memory(read)`, `memory(argmem: readwrite)`,
 * `memory(read, argmem: readwrite)` (the default first, then the locations that differ).
 */

export const REF = 1;
export const MOD = 2;
export const MODREF = 3;

export interface MemoryEffects {
  /** Through the function's pointer arguments. */
  arg: number;
  /** Anything else (globals, escaped memory, inaccessible memory). */
  other: number;
}

export const UNKNOWN_MEMORY: MemoryEffects = { arg: MODREF, other: MODREF };

const MASK_OF: Record<string, number> = { none: 0, read: REF, write: MOD, readwrite: MODREF };
const NAME_OF = ['none', 'read', 'write', 'readwrite'];

function word(text: string, w: string): boolean {
  return new RegExp(`(^|[\\s{])${w}([\\s}]|$)`).test(text);
}

/** The memory effects an attribute text states, or null when it states none. */
export function parseMemoryEffects(text: string): MemoryEffects | null {
  const m = /\bmemory\(([^)]*)\)/.exec(text);
  if (m !== null) {
    // a location not named takes the default, and without a default it is `none`
    const me: MemoryEffects = { arg: 0, other: 0 };
    let inaccessible = -1;
    for (const raw of m[1].split(',')) {
      const part = raw.trim();
      const colon = part.indexOf(':');
      if (colon < 0) {
        const k = MASK_OF[part] ?? MODREF;
        me.arg = me.other = k;
        continue;
      }
      const loc = part.slice(0, colon).trim();
      const k = MASK_OF[part.slice(colon + 1).trim()] ?? MODREF;
      if (loc === 'argmem') me.arg = k;
      else if (loc === 'inaccessiblemem') inaccessible = k;
      else me.other = MODREF;
    }
    // "other" also stands for inaccessible memory: the union of the two
    if (inaccessible >= 0) me.other |= inaccessible;
    return me;
  }
  if (word(text, 'readnone')) return { arg: 0, other: 0 };
  if (word(text, 'readonly')) return { arg: REF, other: REF };
  if (word(text, 'writeonly')) return { arg: MOD, other: MOD };
  if (word(text, 'argmemonly')) return { arg: MODREF, other: 0 };
  return null;
}

/** The whole-function summary: how a call may touch memory anywhere. */
export function overallMask(me: MemoryEffects): number {
  return me.arg | me.other;
}

/** LLVM's spelling of the effects. */
export function printMemoryEffects(me: MemoryEffects): string {
  if (me.arg === me.other) return `memory(${NAME_OF[me.arg]})`;
  if (me.other === 0) return `memory(argmem: ${NAME_OF[me.arg]})`;
  return `memory(${NAME_OF[me.other]}, argmem: ${NAME_OF[me.arg]})`;
}

/** Removes memory-effect attributes (`memory(...)` and the legacy words) from attribute text. */
export function stripMemoryEffects(text: string): string {
  return text
    .replace(/\bmemory\([^)]*\)/g, '')
    .replace(/(^|\s)(readnone|readonly|writeonly|argmemonly)(?=\s|$)/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
