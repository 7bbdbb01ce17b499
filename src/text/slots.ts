/**
 * Slot numbering: the names values get when printed, as LLVM's SlotTracker assigns them.
 *
 * In a function, unnamed arguments, unnamed blocks and unnamed instructions with a result
 * are numbered 0, 1, 2, … in that order (arguments first, then each block's label followed
 * by its instructions). Named values keep their names; when a transform has left two
 * values with the same name (or a name that looks like a number), later ones get a unique
 * suffix so the output is still valid for `llvm-as`.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { Function } from '../ir/function.js';
import type { Module } from '../ir/module.js';
import { voidType } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';

const NUMERIC = /^[0-9]+$/;

export class FunctionSlots {
  private readonly argNames: string[];
  private readonly blockNames: string[];
  private readonly instNames: string[];
  private readonly fn: Function;

  constructor(fn: Function) {
    this.fn = fn;
    this.argNames = new Array(fn.args.length);
    this.blockNames = new Array(fn.blockIdBound);
    this.instNames = new Array(fn.instIdBound);
    const used = new Set<string>();
    let next = 0;
    const claim = (v: Value): string | null => {
      const n = v.name;
      if (n === '' || NUMERIC.test(n)) return null;
      if (!used.has(n)) {
        used.add(n);
        return n;
      }
      for (let k = 1; ; k++) {
        const cand = `${n}${k}`;
        if (!used.has(cand)) {
          used.add(cand);
          return cand;
        }
      }
    };
    // First claim every real name so that renamed duplicates cannot steal one.
    const argNames = this.argNames;
    for (let i = 0; i < fn.args.length; i++) {
      const a = fn.args[i];
      const s = claim(a);
      argNames[i] = s === null ? String(next++) : s;
    }
    const blockNames = this.blockNames;
    const instNames = this.instNames;
    for (let b = fn.firstBlock; b !== null; b = b.next) {
      const s = claim(b);
      blockNames[b.id] = s === null ? String(next++) : s;
      for (let i = b.first; i !== null; i = i.next) {
        if (i.type === voidType) continue;
        const t = claim(i);
        instNames[i.id] = t === null ? String(next++) : t;
      }
    }
  }

  /** The printed name of a local value without `%` (a name or LLVM's number), or undefined for non-locals. */
  nameOf(v: Value): string | undefined {
    switch (v.kind) {
      case ValueKind.Argument: {
        const a = v as unknown as { parent: Function | null; index: number };
        return a.parent === this.fn ? this.argNames[a.index] : undefined;
      }
      case ValueKind.BasicBlock: {
        const b = v as BasicBlock;
        return b.parent === this.fn ? this.blockNames[b.id] : undefined;
      }
      case ValueKind.Instruction: {
        const i = v as unknown as { parent: BasicBlock | null; id: number };
        return i.parent !== null && i.parent.parent === this.fn ? this.instNames[i.id] : undefined;
      }
      default:
        return undefined;
    }
  }
}

export function functionSlots(fn: Function): FunctionSlots {
  return new FunctionSlots(fn);
}

/** Numbers for unnamed globals and functions (`@0`, `@1`, …): globals, then aliases, then functions. */
export function moduleSlots(m: Module): Map<Value, number> {
  const slots = new Map<Value, number>();
  let n = 0;
  for (const g of m.globals) if (g.name === '') slots.set(g, n++);
  for (const a of m.aliases) if (a.name === '') slots.set(a, n++);
  for (const f of m.functions) if (f.name === '') slots.set(f, n++);
  return slots;
}
