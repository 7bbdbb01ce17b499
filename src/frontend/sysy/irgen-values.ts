/**
 * How IR generation makes pure values (arithmetic, comparisons, casts, GEPs):
 *
 *  - `PlainValues` emits every instruction as asked (clang -O0 style; Braun mode with
 *    `--no-fold`);
 *  - `FoldingValues` is the on-the-fly optimizer of Braun et al. ("Simple and Efficient
 *    Construction of Static Single Assignment Form", CC 2013, §3.3): before emitting, it
 *    asks InstructionSimplify (src/analysis/instsimplify.ts) for an existing equal value
 *    (constant folding and algebraic simplification), then looks the expression up in a
 *    per-block table of (opcode, operands) → value (local common subexpression
 *    elimination). Copy propagation needs nothing: SSA variables already name values.
 *
 * Invariant of the CSE table: it only holds instructions of the block being filled, so a
 * hit always dominates the new use; `startBlock` empties it (also when a function starts:
 * the table is shared by the functions of a module). Keys use value uids, which are never
 * reused, so an entry whose operand was replaced (a trivial phi removed by the SSA builder)
 * can only miss, never lie. A GEP key must tell `gep T, p, 0, i, j` from `gep T, p, i, j`:
 * its tag records whether a leading zero was skipped.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { IRBuilder } from '../../ir/builder.js';
import type { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode, Pred, isCommutative } from '../../ir/opcodes.js';
import type { Type } from '../../ir/types.js';
import { ConstantInt } from '../../ir/constants.js';
import type { Value } from '../../ir/value.js';
import { simplifyBinOp, simplifyCast, simplifyFCmp, simplifyFNeg, simplifyGEP, simplifyICmp } from '../../analysis/instsimplify.js';

export interface ValueMaker {
  /** A new block is being filled. */
  startBlock(bb: BasicBlock): void;
  binary(op: Opcode, a: Value, b: Value): Value;
  fneg(a: Value): Value;
  icmp(pred: Pred, a: Value, b: Value): Value;
  fcmp(pred: Pred, a: Value, b: Value): Value;
  cast(op: Opcode, v: Value, to: Type): Value;
  /** `getelementptr inbounds src, base, idx...`. */
  gep(src: Type, base: Value, idx: Value[]): Value;
  /** Instructions not emitted thanks to folding / CSE (for statistics). */
  folded: number;
  reused: number;
}

export class PlainValues implements ValueMaker {
  folded = 0;
  reused = 0;
  constructor(private readonly b: IRBuilder) {}
  startBlock(): void {}
  binary(op: Opcode, a: Value, b: Value): Value {
    return this.b.binary(op, a, b);
  }
  fneg(a: Value): Value {
    return this.b.fneg(a);
  }
  icmp(pred: Pred, a: Value, b: Value): Value {
    return this.b.icmp(pred, a, b);
  }
  fcmp(pred: Pred, a: Value, b: Value): Value {
    return this.b.fcmp(pred, a, b);
  }
  cast(op: Opcode, v: Value, to: Type): Value {
    return this.b.cast(op, v, to);
  }
  gep(src: Type, base: Value, idx: Value[]): Value {
    return this.b.gep(src, base, idx);
  }
}

/**
 * The local CSE table: open addressing on a key of four integers (an opcode tag and up to
 * three operand uids). A slot is five consecutive integers — the key and the epoch of the
 * block that wrote it — so a probe reads one cache line. Starting a block is O(1): entries
 * of older epochs read as empty. A miss remembers the free slot it ended on, where `add`
 * puts the new entry without hashing and probing again.
 */
export class ExprTable {
  private slots = new Int32Array(1024 * SLOT);
  private vals: (Instruction | null)[] = new Array<Instruction | null>(1024).fill(null);
  private mask = 1023;
  private epoch = 1;
  private count = 0;
  /** Where the last `find` missed: the free slot for its key (for `add`), or -1. */
  private missAt = -1;

  reset(): void {
    this.epoch++;
    this.count = 0;
    this.missAt = -1;
  }

  /** The value recorded for the key in this block, or null (then `add` may record one). */
  find(t: number, a: number, b: number, c: number): Instruction | null {
    const mask = this.mask;
    const sl = this.slots;
    const ep = this.epoch;
    for (let h = mix(t, a, b, c) & mask; ; h = (h + 1) & mask) {
      const o = h * SLOT;
      if (sl[o + 4] !== ep) {
        this.missAt = h;
        return null;
      }
      if (sl[o] === t && sl[o + 1] === a && sl[o + 2] === b && sl[o + 3] === c) return this.vals[h];
    }
  }

  /** Records `v` for the key, which the last `find` missed (it goes in the slot found free). */
  add(t: number, a: number, b: number, c: number, v: Instruction): void {
    const h = this.missAt;
    if (h < 0) throw new Error('internal error: ExprTable.add without a missed find');
    this.missAt = -1;
    this.write(h, t, a, b, c, v);
    if (++this.count * 2 > this.mask + 1) this.grow();
  }

  private write(h: number, t: number, a: number, b: number, c: number, v: Instruction): void {
    const o = h * SLOT;
    const sl = this.slots;
    sl[o] = t;
    sl[o + 1] = a;
    sl[o + 2] = b;
    sl[o + 3] = c;
    sl[o + 4] = this.epoch;
    this.vals[h] = v;
  }

  private grow(): void {
    const old = this.slots;
    const oldVals = this.vals;
    const ep = this.epoch;
    const cap = (this.mask + 1) * 2;
    this.slots = new Int32Array(cap * SLOT);
    this.vals = new Array<Instruction | null>(cap).fill(null);
    this.mask = cap - 1;
    const sl = this.slots;
    for (let i = 0; i < oldVals.length; i++) {
      const o = i * SLOT;
      if (old[o + 4] !== ep) continue;
      const t = old[o], a = old[o + 1], b = old[o + 2], c = old[o + 3];
      let h = mix(t, a, b, c) & this.mask;
      while (sl[h * SLOT + 4] === ep) h = (h + 1) & this.mask;
      this.write(h, t, a, b, c, oldVals[i]!);
    }
  }
}

/** Integers per slot: the four key parts and the epoch. */
const SLOT = 5;

function mix(t: number, a: number, b: number, c: number): number {
  let h = Math.imul(t, 0x9e3779b1) ^ a;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca77) ^ b;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae3d) ^ c;
  return (h ^ (h >>> 16)) >>> 0;
}

/** Key tags: the opcode in the low 8 bits, a predicate or type number above. */
const TAG_SHIFT = 8;

export class FoldingValues implements ValueMaker {
  folded = 0;
  reused = 0;
  /** Small numbers for the types that appear in keys. */
  private readonly typeNums = new Map<Type, number>();
  /** `table` may be shared by consecutive functions (it is reset at every block). */
  constructor(
    private readonly b: IRBuilder,
    private readonly table: ExprTable = new ExprTable(),
  ) {}

  startBlock(): void {
    this.table.reset();
  }

  private typeNum(t: Type): number {
    let n = this.typeNums.get(t);
    if (n === undefined) {
      n = this.typeNums.size + 1;
      this.typeNums.set(t, n);
    }
    return n;
  }

  binary(op: Opcode, a: Value, b: Value): Value {
    const s = simplifyBinOp(op, a, b);
    if (s !== null) {
      this.folded++;
      return s;
    }
    let x = a.uid;
    let y = b.uid;
    if (x > y && isCommutative(op)) {
      const t = x;
      x = y;
      y = t;
    }
    const hit = this.table.find(op, x, y, 0);
    if (hit !== null) {
      this.reused++;
      return hit;
    }
    const i = this.b.binary(op, a, b);
    this.table.add(op, x, y, 0, i);
    return i;
  }

  fneg(a: Value): Value {
    const s = simplifyFNeg(a);
    if (s !== null) {
      this.folded++;
      return s;
    }
    const hit = this.table.find(Opcode.FNeg, a.uid, 0, 0);
    if (hit !== null) {
      this.reused++;
      return hit;
    }
    const i = this.b.fneg(a);
    this.table.add(Opcode.FNeg, a.uid, 0, 0, i);
    return i;
  }

  icmp(pred: Pred, a: Value, b: Value): Value {
    const s = simplifyICmp(pred, a, b);
    if (s !== null) {
      this.folded++;
      return s;
    }
    return this.cmp(Opcode.ICmp, pred, a, b);
  }

  fcmp(pred: Pred, a: Value, b: Value): Value {
    const s = simplifyFCmp(pred, a, b);
    if (s !== null) {
      this.folded++;
      return s;
    }
    return this.cmp(Opcode.FCmp, pred, a, b);
  }

  private cmp(op: Opcode, pred: Pred, a: Value, b: Value): Value {
    const tag = op | (pred << TAG_SHIFT);
    const hit = this.table.find(tag, a.uid, b.uid, 0);
    if (hit !== null) {
      this.reused++;
      return hit;
    }
    const i = op === Opcode.ICmp ? this.b.icmp(pred, a, b) : this.b.fcmp(pred, a, b);
    this.table.add(tag, a.uid, b.uid, 0, i);
    return i;
  }

  cast(op: Opcode, v: Value, to: Type): Value {
    const s = simplifyCast(op, v, to);
    if (s !== null) {
      this.folded++;
      return s;
    }
    const tag = op | (this.typeNum(to) << TAG_SHIFT);
    const hit = this.table.find(tag, v.uid, 0, 0);
    if (hit !== null) {
      this.reused++;
      return hit;
    }
    const i = this.b.cast(op, v, to);
    this.table.add(tag, v.uid, 0, 0, i);
    return i;
  }

  gep(src: Type, base: Value, idx: Value[]): Value {
    const s = simplifyGEP(src, base, idx, Flag.InBounds);
    if (s !== null) {
      this.folded++;
      return s;
    }
    // keys hold at most three operands: the base and two indices, or a leading zero and two
    let skip = 0;
    if (idx.length === 3 && idx[0] instanceof ConstantInt && idx[0].num === 0) skip = 1;
    if (idx.length - skip > 2) return this.b.gep(src, base, idx);
    const tag = Opcode.GetElementPtr | (skip << TAG_SHIFT) | (this.typeNum(src) << (TAG_SHIFT + 1));
    const i0 = idx.length > skip ? idx[skip].uid : 0;
    const i1 = idx.length > skip + 1 ? idx[skip + 1].uid : 0;
    const hit = this.table.find(tag, base.uid, i0, i1);
    if (hit !== null) {
      this.reused++;
      return hit;
    }
    const i = this.b.gep(src, base, idx);
    this.table.add(tag, base.uid, i0, i1, i);
    return i;
  }
}
