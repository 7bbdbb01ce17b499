/**
 * The code generator's state for one function (split from codegen.ts): the JS name of
 * every SSA value, the constants bound into the closure, value bounds that let i64 stay
 * plain JS numbers, and the entry-block allocas kept in JS locals.
 *
 * Invariants: every value has one name for the whole function (a JS local, or a slot of
 * the spill array above MAX_JS_LOCALS); an operand's atom is a literal, a bound constant
 * or that name; a promoted alloca is addressed only by loads and stores of its own type.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import { ConstantInt, ConstantFP } from '../ir/constants.js';
import { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { Type, TypeKind } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { numLit, valueLit } from './js-int.js';
import type { ExternalFn, FnInfo, Machine } from './machine.js';
import { MAX_SAFE } from './wide.js';

/** What the code generator needs from the loaded module. */
export interface ModuleContext {
  readonly machine: Machine;
  /** The interpreter value of a constant (globals and functions: their address). */
  constValue(c: Value): unknown;
  /** Index in machine.fns of a function. */
  fnIndex(f: Function): number;
  /** Implementation of an external function, or null when unknown. */
  externalFor(name: string): ExternalFn | null;
  /** Emit step-budget checks. */
  readonly limitSteps: boolean;
  /** Key of an opcode name in machine.opNames. */
  opKey(name: string): number;
  /** The address of a block (blockaddress). */
  blockAddress(bb: BasicBlock): number;
}


/** Above this many SSA values a function keeps them in an array rather than JS locals. */
export const MAX_JS_LOCALS = 20000;

/** Type codes of variadic arguments (for va_start's overflow area). */
export const enum VaType {
  Int32 = 0,
  Int64 = 1,
  Double = 2,
  Ptr = 3,
  Other = 4,
}

export function vaTypeOf(t: Type): VaType {
  if (t.kind === TypeKind.Int) return t.bits <= 32 ? VaType.Int32 : t.bits <= 64 ? VaType.Int64 : VaType.Other;
  if (t.kind === TypeKind.Double || t.kind === TypeKind.Float) return VaType.Double;
  if (t.kind === TypeKind.Ptr) return VaType.Ptr;
  return VaType.Other;
}

export function isWideInt(t: Type): boolean {
  return t.kind === TypeKind.Int && t.bits > 32;
}

export class Gen {
  readonly names = new Map<Value, string>();
  readonly siteOf = new Map<Instruction, number>();
  readonly binds: unknown[] = [];
  private bindIndex = new Map<unknown, string>();
  readonly blocks: BasicBlock[];
  readonly blockLabel = new Map<BasicBlock, number>();
  private tempCount = 0;
  /** Site of the instruction being emitted. */
  site = 0;
  /** Emit memory accesses inline (small functions: keeps big ones under V8's optimisation size limit). */
  inlineMemory = true;
  /**
   * Entry-block allocas of one scalar whose address is only ever used directly by loads and
   * stores of that scalar type (and lifetime markers): no access through them can fault or
   * alias, so the slot lives in a JS local (`m<site>`) instead of memory — what -O0 code
   * spends most of its time on. They are saved across suspending calls like SSA values.
   */
  readonly promoted = new Map<Instruction, string>();

  findPromotable(): void {
    const entry = this.blocks[0];
    if (entry === undefined || this.spill) return;
    for (let i = entry.first; i !== null; i = i.next) {
      if (i.op !== Opcode.Alloca) continue;
      const t = i.auxType!;
      const scalar = (t.kind === TypeKind.Int && t.bits <= 64 && t.bits % 8 === 0) || t.kind === TypeKind.Float || t.kind === TypeKind.Double || t.kind === TypeKind.Ptr;
      const cnt = i.ops[0].value;
      if (!scalar || cnt.kind !== ValueKind.ConstantInt || (cnt as ConstantInt).value !== 1n) continue;
      let ok = true;
      for (let u = i.firstUse; u !== null && ok; u = u.next) {
        const user = u.user as Instruction;
        if (user.op === Opcode.Load) ok = user.type === t && u.index === 0;
        else if (user.op === Opcode.Store) ok = u.index === 1 && user.ops[0].value.type === t && user.ops[0].value !== i;
        else if (user.op === Opcode.Call) {
          const c = user.ops[0].value;
          ok = u.index > 0 && c.kind === ValueKind.Function && /^llvm\.lifetime\.(start|end)/.test(c.name);
        } else ok = false;
      }
      if (ok) this.promoted.set(i, `m${this.siteOf.get(i)}`);
    }
  }

  constructor(
    readonly mc: ModuleContext,
    readonly info: FnInfo,
  ) {
    const f = info.fn;
    this.blocks = f.blocks();
    for (let i = 0; i < f.args.length; i++) this.names.set(f.args[i], `a${i}`);
    let results = 0;
    for (const bb of this.blocks) for (let i = bb.first; i !== null; i = i.next) if (i.type.kind !== TypeKind.Void) results++;
    // V8 gives every JS local a register in the function's frame: tens of thousands of them
    // overflow the native stack on entry. Huge functions keep their values in an array.
    this.spill = results > MAX_JS_LOCALS;
    let site = 0;
    let slot = 0;
    for (let b = 0; b < this.blocks.length; b++) {
      const bb = this.blocks[b];
      this.blockLabel.set(bb, b);
      for (let i = bb.first; i !== null; i = i.next) {
        this.siteOf.set(i, site);
        if (i.type.kind !== TypeKind.Void) this.names.set(i, this.spill ? `X[${slot++}]` : `v${site}`);
        site++;
      }
    }
    this.spillSlots = slot;
  }

  /** Values live in the frame's array `X` instead of JS locals (huge functions). */
  readonly spill: boolean;
  readonly spillSlots: number;

  /** A JS object the generated code refers to by name. */
  bind(obj: unknown): string {
    let n = this.bindIndex.get(obj);
    if (n === undefined) {
      n = `E${this.binds.length}`;
      this.binds.push(obj);
      this.bindIndex.set(obj, n);
    }
    return n;
  }

  /**
   * Magnitude bounds of wide integer values: |v| < 2^bound. A bound ≤ 53 means the value is
   * always a JS number (a safe integer), so arithmetic whose result bound is ≤ 53 is exact
   * in doubles and needs neither overflow checks nor typeof tests. Computed once, forward
   * in layout order (an operand not yet seen, or a phi, is unbounded).
   */
  readonly bound = new Map<Value, number>();

  boundOf(v: Value): number {
    if (v.kind === ValueKind.ConstantInt) {
      const c = (v as ConstantInt).value;
      return (c < 0n ? -c : c).toString(2).length;
    }
    if (v.type.kind === TypeKind.Int && v.type.bits <= 32) return v.type.bits;
    if (v.type.kind === TypeKind.Ptr) return 53;
    return this.bound.get(v) ?? 999;
  }

  computeBounds(): void {
    for (const bb of this.blocks) {
      for (let i = bb.first; i !== null; i = i.next) {
        if (i.type.kind !== TypeKind.Int || i.type.bits <= 32) continue;
        const o = (k: number): number => this.boundOf(i.ops[k].value);
        let b = 999;
        switch (i.op) {
          case Opcode.SExt:
          case Opcode.ZExt:
            b = o(0);
            break;
          case Opcode.Add:
          case Opcode.Sub:
            b = Math.max(o(0), o(1)) + 1;
            break;
          case Opcode.Mul:
            b = o(0) + o(1);
            break;
          case Opcode.And: {
            const x = i.ops[0].value, y = i.ops[1].value;
            const nonNegConst = (v: Value): number => (v.kind === ValueKind.ConstantInt && (v as ConstantInt).value >= 0n ? this.boundOf(v) : 999);
            b = Math.min(Math.max(o(0), o(1)), nonNegConst(x), nonNegConst(y));
            break;
          }
          case Opcode.Or:
          case Opcode.Xor:
            b = Math.max(o(0), o(1));
            break;
          case Opcode.Shl: {
            const k = i.ops[1].value;
            if (k.kind === ValueKind.ConstantInt) b = o(0) + Number((k as ConstantInt).value);
            break;
          }
          case Opcode.AShr:
          case Opcode.SDiv:
            b = o(0);
            break;
          case Opcode.SRem:
            b = Math.min(o(0), o(1));
            break;
          case Opcode.Select:
            b = Math.max(o(1), o(2));
            break;
          case Opcode.PtrToInt:
            b = 53;
            break;
          case Opcode.Freeze:
            b = o(0);
            break;
          default:
            break;
        }
        if (b < 999) this.bound.set(i, Math.min(b, 999));
      }
    }
  }

  /** Whether an operand is always a JS number (narrow ints, pointers, bounded wide ints). */
  isNum(v: Value): boolean {
    return this.boundOf(v) <= 53;
  }

  temp(): string {
    return `t${this.tempCount++}`;
  }
  get temps(): number {
    return this.tempCount;
  }

  /** JS expression (a name or a literal) for an operand. */
  atom(v: Value): string {
    const n = this.names.get(v);
    if (n !== undefined) return n;
    switch (v.kind) {
      case ValueKind.ConstantInt: {
        const c = v as ConstantInt;
        const bits = c.type.bits;
        if (bits === 1) return c.value !== 0n ? '1' : '0';
        if (bits <= 32) return numLit(Number(c.value));
        if (c.value >= -BigInt(MAX_SAFE) && c.value <= BigInt(MAX_SAFE)) return numLit(Number(c.value));
        return c.value < 0n ? `(${c.value}n)` : `${c.value}n`;
      }
      case ValueKind.ConstantFP:
        return numLit((v as ConstantFP).value);
      case ValueKind.ConstantNull:
        return '0';
      case ValueKind.Undef:
      case ValueKind.Poison:
      case ValueKind.ConstantZero: {
        const k = v.type.kind;
        if (k === TypeKind.Array || k === TypeKind.Struct || k === TypeKind.Vector) return this.bind(this.mc.constValue(v));
        return '0';
      }
      case ValueKind.Metadata:
        return 'undefined';
      case ValueKind.BasicBlock:
        return String(this.blockLabel.get(v as BasicBlock) ?? -1);
      default: {
        const val = this.mc.constValue(v);
        const l = valueLit(val);
        return l !== null ? l : this.bind(val);
      }
    }
  }

  res(i: Instruction): string {
    return this.names.get(i)!;
  }
}
