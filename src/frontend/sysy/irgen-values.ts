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
 * hit always dominates the new use; `startBlock` empties it. Keys use value uids, which
 * are never reused, so an entry whose operand was replaced (a trivial phi removed by the
 * SSA builder) can only miss, never lie.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { IRBuilder } from '../../ir/builder.js';
import type { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode, Pred, isCommutative } from '../../ir/opcodes.js';
import { Type, typeId } from '../../ir/types.js';
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

export class FoldingValues implements ValueMaker {
  folded = 0;
  reused = 0;
  private readonly table = new Map<string, Instruction>();
  constructor(private readonly b: IRBuilder) {}

  startBlock(): void {
    if (this.table.size > 0) this.table.clear();
  }

  binary(op: Opcode, a: Value, b: Value): Value {
    const s = simplifyBinOp(op, a, b);
    if (s !== null) {
      this.folded++;
      return s;
    }
    let x = a.uid;
    let y = b.uid;
    if (isCommutative(op) && x > y) {
      const t = x;
      x = y;
      y = t;
    }
    const key = `${op},${x},${y}`;
    const hit = this.table.get(key);
    if (hit !== undefined) {
      this.reused++;
      return hit;
    }
    const i = this.b.binary(op, a, b);
    this.table.set(key, i);
    return i;
  }

  fneg(a: Value): Value {
    const s = simplifyFNeg(a);
    if (s !== null) {
      this.folded++;
      return s;
    }
    const key = `${Opcode.FNeg},${a.uid}`;
    const hit = this.table.get(key);
    if (hit !== undefined) {
      this.reused++;
      return hit;
    }
    const i = this.b.fneg(a);
    this.table.set(key, i);
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
    const key = `${op},${pred},${a.uid},${b.uid}`;
    const hit = this.table.get(key);
    if (hit !== undefined) {
      this.reused++;
      return hit;
    }
    const i = op === Opcode.ICmp ? this.b.icmp(pred, a, b) : this.b.fcmp(pred, a, b);
    this.table.set(key, i);
    return i;
  }

  cast(op: Opcode, v: Value, to: Type): Value {
    const s = simplifyCast(op, v, to);
    if (s !== null) {
      this.folded++;
      return s;
    }
    const key = `${op},${typeId(to)},${v.uid}`;
    const hit = this.table.get(key);
    if (hit !== undefined) {
      this.reused++;
      return hit;
    }
    const i = this.b.cast(op, v, to);
    this.table.set(key, i);
    return i;
  }

  gep(src: Type, base: Value, idx: Value[]): Value {
    const s = simplifyGEP(src, base, idx, Flag.InBounds);
    if (s !== null) {
      this.folded++;
      return s;
    }
    let key = `${Opcode.GetElementPtr},${typeId(src)},${base.uid}`;
    for (const x of idx) key += ',' + x.uid;
    const hit = this.table.get(key);
    if (hit !== undefined) {
      this.reused++;
      return hit;
    }
    const i = this.b.gep(src, base, idx);
    this.table.set(key, i);
    return i;
  }
}
