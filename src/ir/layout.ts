/**
 * Data layout: sizes, alignments and struct field offsets for x86-64 Linux, the target
 * clang-19 emits for (`e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128`).
 *
 * `storeSize` is the bytes a load/store touches; `allocSize` is the stride between array
 * elements and what `alloca` reserves (store size rounded up to the ABI alignment).
 */
import { Type, TypeKind } from './types.js';

const structLayouts = new WeakMap<Type, StructLayout>();

export interface StructLayout {
  size: number;
  align: number;
  offsets: number[];
}

export function abiAlign(t: Type): number {
  switch (t.kind) {
    case TypeKind.Int: {
      const b = t.bits;
      if (b <= 8) return 1;
      if (b <= 16) return 2;
      if (b <= 32) return 4;
      if (b <= 64) return 8;
      return 16;
    }
    case TypeKind.Half:
    case TypeKind.BFloat:
      return 2;
    case TypeKind.Float:
      return 4;
    case TypeKind.Double:
    case TypeKind.Ptr:
      return 8;
    case TypeKind.X86_FP80:
    case TypeKind.FP128:
      return 16;
    case TypeKind.Array: {
      // an array is aligned as its innermost element (a loop: arrays nest 10,000 deep)
      let e = t.elem!;
      while (e.kind === TypeKind.Array) e = e.elem!;
      return abiAlign(e);
    }
    case TypeKind.Vector: {
      const s = storeSize(t);
      let a = 1;
      while (a < s) a *= 2;
      return a;
    }
    case TypeKind.Struct:
      return structLayout(t).align;
    default:
      return 1;
  }
}

export function storeSize(t: Type): number {
  switch (t.kind) {
    case TypeKind.Int:
      return (t.bits + 7) >> 3;
    case TypeKind.Half:
    case TypeKind.BFloat:
      return 2;
    case TypeKind.Float:
      return 4;
    case TypeKind.Double:
    case TypeKind.Ptr:
      return 8;
    case TypeKind.X86_FP80:
      return 10;
    case TypeKind.FP128:
      return 16;
    case TypeKind.Array:
      return allocSize(t.elem!) * t.count;
    case TypeKind.Vector: {
      const e = t.elem!;
      const bits = e.kind === TypeKind.Int ? e.bits : storeSize(e) * 8;
      return (bits * t.count + 7) >> 3;
    }
    case TypeKind.Struct:
      return structLayout(t).size;
    default:
      return 0;
  }
}

const allocSizes = new WeakMap<Type, number>();

export function allocSize(t: Type): number {
  switch (t.kind) {
    case TypeKind.Int: {
      const s = (t.bits + 7) >> 3;
      const a = abiAlign(t);
      return Math.ceil(s / a) * a;
    }
    case TypeKind.Ptr:
    case TypeKind.Double:
      return 8;
    case TypeKind.Float:
      return 4;
    default: {
      // aggregates recurse through their members: computed once per (interned) type
      let r = allocSizes.get(t);
      if (r === undefined) {
        if (t.kind === TypeKind.Array || t.kind === TypeKind.Struct) warmNested(t);
        const s = storeSize(t);
        const a = abiAlign(t);
        allocSizes.set(t, (r = Math.ceil(s / a) * a));
      }
      return r;
    }
  }
}

/**
 * Computes (and caches) the sizes of `t`'s nested aggregates innermost first, with an
 * explicit stack: then the size of each level reads its parts' from the cache, and the
 * recursion of allocSize/structLayout stays one level deep however deep the type nests.
 */
function warmNested(t: Type): void {
  const stack: { x: Type; expanded: boolean }[] = [{ x: t, expanded: false }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    const x = top.x;
    if (allocSizes.has(x)) continue;
    if (!top.expanded) {
      stack.push({ x, expanded: true });
      const parts = x.kind === TypeKind.Array ? [x.elem!] : x.members;
      for (const p of parts) if ((p.kind === TypeKind.Array || p.kind === TypeKind.Struct) && !allocSizes.has(p)) stack.push({ x: p, expanded: false });
    } else if (x !== t) allocSize(x);
  }
}

export function structLayout(t: Type): StructLayout {
  let l = structLayouts.get(t);
  if (l !== undefined) return l;
  warmNested(t);
  const offsets: number[] = [];
  let off = 0;
  let align = 1;
  for (const m of t.members) {
    const a = t.packed ? 1 : abiAlign(m);
    off = Math.ceil(off / a) * a;
    offsets.push(off);
    off += allocSize(m);
    if (a > align) align = a;
  }
  off = Math.ceil(off / align) * align;
  l = { size: off, align, offsets };
  structLayouts.set(t, l);
  return l;
}
