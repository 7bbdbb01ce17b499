/**
 * Dense numbering of a function's instructions and SSA values, for bit vectors and typed
 * arrays. Instruction ids (`Instruction.id`) are dense and unique after `fn.renumber()`;
 * when they are not (an instruction moved in from another function keeps its id), the
 * numbering falls back to a Map instead of mutating the function.
 */
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Value, ValueKind, Argument } from '../ir/value.js';

/** Records the layout numbering of a function while a caller walks it (`add` each instruction in order). */
export class LayoutRecorder {
  readonly insts: Instruction[] = [];
  /** Layout position by instruction id; null once the ids turn out not dense and unique. */
  byId: Int32Array | null;
  private readonly bound: number;

  constructor(fn: Function) {
    this.bound = Math.max(0, fn.instIdBound);
    this.byId = new Int32Array(this.bound).fill(-1);
  }

  /** Whether `i` has been added (false when unsure: the ids no longer index the layout). */
  recorded(i: Instruction): boolean {
    const byId = this.byId;
    if (byId === null) return false;
    const id = i.id;
    if (id < 0 || id >= this.bound) return false;
    const k = byId[id];
    return k >= 0 && this.insts[k] === i;
  }

  add(i: Instruction): void {
    const k = this.insts.length;
    this.insts.push(i);
    const byId = this.byId;
    if (byId !== null) {
      const id = i.id;
      if (id < 0 || id >= this.bound || byId[id] !== -1) this.byId = null;
      else byId[id] = k;
    }
  }
}

export class InstructionNumbering {
  /** Instructions in layout order. */
  readonly insts: Instruction[];
  private readonly byId: Int32Array | null;
  private readonly map: Map<Instruction, number> | null;

  /** Numbers `fn`'s layout, or takes the numbering a caller recorded while walking it (saves a second walk). */
  constructor(
    readonly fn: Function,
    walk?: LayoutRecorder,
  ) {
    let rec = walk;
    if (rec === undefined) {
      rec = new LayoutRecorder(fn);
      for (let b = fn.firstBlock; b !== null; b = b.next) for (let i = b.first; i !== null; i = i.next) rec.add(i);
    }
    const insts = rec.insts;
    const byId = rec.byId;
    this.insts = insts;
    if (byId !== null) {
      this.byId = byId;
      this.map = null;
    } else {
      this.byId = null;
      this.map = new Map();
      for (let k = 0; k < insts.length; k++) this.map.set(insts[k], k);
    }
  }

  /** Layout position of `i` in the function, or -1 if it is not one of its instructions. */
  indexOf(i: Instruction): number {
    if (this.byId !== null) {
      const id = i.id;
      if (id < 0 || id >= this.byId.length) return -1;
      const k = this.byId[id];
      return k >= 0 && this.insts[k] === i ? k : -1;
    }
    return this.map!.get(i) ?? -1;
  }
}

/**
 * The SSA values of a function in definition order: the arguments, then every instruction
 * with a result in layout order. `indexOf` gives a value's bit index (-1 for anything else:
 * constants, globals, blocks, values of other functions).
 */
export class ValueNumbering {
  readonly values: Value[];
  readonly numbering: InstructionNumbering;
  /** Bit index by instruction layout position (-1 = no result). */
  readonly instValue: Int32Array;

  constructor(readonly fn: Function, numbering?: InstructionNumbering) {
    const num = numbering ?? new InstructionNumbering(fn);
    this.numbering = num;
    const values: Value[] = [];
    for (const a of fn.args) values.push(a);
    const instValue = new Int32Array(num.insts.length).fill(-1);
    for (let k = 0; k < num.insts.length; k++) {
      const i = num.insts[k];
      if (i.hasResult()) {
        instValue[k] = values.length;
        values.push(i);
      }
    }
    this.values = values;
    this.instValue = instValue;
  }

  get size(): number {
    return this.values.length;
  }

  indexOf(v: Value): number {
    if (v.kind === ValueKind.Instruction) {
      const k = this.numbering.indexOf(v as Instruction);
      return k < 0 ? -1 : this.instValue[k];
    }
    if (v.kind === ValueKind.Argument) {
      const a = v as Argument;
      return a.parent === this.fn ? a.index : -1;
    }
    return -1;
  }
}
