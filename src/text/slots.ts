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

/** Whether `n` is all digits (such a name would read as a slot number); most names fail at the first character. */
function isNumeric(n: string): boolean {
  for (let k = 0; k < n.length; k++) {
    const c = n.charCodeAt(k);
    if (c < 48 || c > 57) return false;
  }
  return n.length > 0;
}

export class FunctionSlots {
  /** Slot number per argument / block id / instruction id, or -1 when the value prints by name. */
  private readonly argSlots: Int32Array;
  private readonly blockSlots: Int32Array;
  private readonly instSlots: Int32Array;
  /** Names that had to change to stay unique (rare). */
  private readonly renamed = new Map<Value, string>();
  readonly fn: Function;

  constructor(fn: Function) {
    this.fn = fn;
    const argSlots = (this.argSlots = new Int32Array(fn.args.length));
    const blockSlots = (this.blockSlots = new Int32Array(fn.blockIdBound));
    const instSlots = (this.instSlots = new Int32Array(fn.instIdBound));
    const used = new Set<string>();
    let next = 0;
    // Returns true when v prints by its (possibly uniqued) name, false when it needs a number.
    const claim = (v: Value): boolean => {
      const n = v.name;
      if (n === '') return false;
      if (!used.has(n)) {
        if (isNumeric(n)) return false;
        used.add(n);
        return true;
      }
      for (let k = 1; ; k++) {
        const cand = `${n}${k}`;
        if (!used.has(cand)) {
          used.add(cand);
          this.renamed.set(v, cand);
          return true;
        }
      }
    };
    for (let i = 0; i < fn.args.length; i++) argSlots[i] = claim(fn.args[i]) ? -1 : next++;
    for (let b = fn.firstBlock; b !== null; b = b.next) {
      blockSlots[b.id] = claim(b) ? -1 : next++;
      for (let i = b.first; i !== null; i = i.next) {
        if (i.type === voidType) continue;
        instSlots[i.id] = claim(i) ? -1 : next++;
      }
    }
  }

  /** The slot number of a local value printed by number, -1 when it prints by name, -2 when not local. */
  slotOf(v: Value): number {
    switch (v.kind) {
      case ValueKind.Argument: {
        const a = v as unknown as { parent: Function | null; index: number };
        return a.parent === this.fn ? this.argSlots[a.index] : -2;
      }
      case ValueKind.BasicBlock: {
        const b = v as BasicBlock;
        return b.parent === this.fn ? this.blockSlots[b.id] : -2;
      }
      case ValueKind.Instruction: {
        const i = v as unknown as { parent: BasicBlock | null; id: number };
        return i.parent !== null && i.parent.parent === this.fn ? this.instSlots[i.id] : -2;
      }
      default:
        return -2;
    }
  }

  /** The printed name of a local value without `%` (a name or LLVM's number), or undefined for non-locals. */
  nameOf(v: Value): string | undefined {
    const s = this.slotOf(v);
    if (s >= 0) return String(s);
    if (s === -2) return undefined;
    return this.renamed.get(v) ?? v.name;
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
