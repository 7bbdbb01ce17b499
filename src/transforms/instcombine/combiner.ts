/**
 * The instcombine engine: a worklist of instructions visited to a fixed point (each visit:
 * delete if trivially dead, else replace by what instsimplify finds, else try the rules),
 * and the IRBuilder the rules create instructions with, inserting before the instruction
 * being combined and queueing what it inserts (LLVM's InstCombinerImpl with its
 * IRBuilderCallbackInserter). The rules live beside it, one file per family of
 * instructions, as LLVM's InstCombine*.cpp: add-sub.ts, mul-div-rem.ts, shifts.ts,
 * and-or-xor.ts, compares.ts, casts.ts, select.ts, load-store-alloca.ts, gep.ts; and the
 * rules that look at whole expression trees or known bits: evaluate-in-type.ts (casts of
 * trees), demanded-bits.ts (what an `and` mask demands).
 *
 * Invariants: an instruction is on the worklist at most once (`queued`); a rule returns
 * null (nothing), the instruction itself (changed in place: it, its users and its old
 * operands are revisited) or a replacement (new instructions were inserted before it and
 * queued; the replacement may take the old instruction's name).
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, isBinaryOp, swappedPred } from '../../ir/opcodes.js';
import { TypeKind, type Type } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import { isTriviallyDead } from '../../ir/effects.js';
import { IRBuilder } from '../../ir/builder.js';
import { simplifyInstruction } from '../../analysis/instsimplify.js';
import { isCInt, isInst } from '../../analysis/patterns.js';
import { isConst, swapOperands, canonicalizeOperands } from './helpers.js';
import { combineAddSub } from './add-sub.js';
import { combineMulDivRem } from './mul-div-rem.js';
import { combineShift } from './shifts.js';
import { combineAndOrXor } from './and-or-xor.js';
import { combineICmp } from './compares.js';
import { combineCast } from './casts.js';
import { combineSelect } from './select.js';
import { combineLoad, combineStore, combineAlloca } from './load-store-alloca.js';
import { combineGEP } from './gep.js';
import type { DemandedSink } from './demanded-bits.js';

export interface InstCombineOptions {
  /** Expand `sdiv x, 2^k` with the rounding fix-up (off by default, see the file comment). */
  sdivPow2: boolean;
}

export class InstCombiner {
  private readonly work: Instruction[] = [];
  /**
   * Whether an instruction is on the worklist, by its id (ids are unique in a function and
   * new instructions take fresh ones; an erased instruction's id becomes -1, and its old
   * mark is never read again). Grown as instructions are made.
   */
  private queued: Uint8Array;
  /** Inserts before the instruction being combined; what it inserts goes on the worklist. */
  private readonly builder = new IRBuilder();
  /** Instructions made by the current rule (they may take the old instruction's name). */
  private readonly created = new Set<Instruction>();
  /** Scratch: the instruction operands of the one being combined, before the rules ran. */
  private readonly oldOperands: Instruction[] = [];
  changed = false;
  cfgChanged = false;
  /** What evaluate-in-type.ts and demanded-bits.ts insert through: before a given instruction (not only the one combined). */
  readonly sink: DemandedSink = {
    insertAt: (inst, at) => {
      at.parent!.insertBefore(inst, at);
      this.created.add(inst);
      this.push(inst);
      return inst;
    },
    revisit: (inst) => this.push(inst),
  };
  stats = { combined: 0, simplified: 0, deleted: 0, constantLoads: 0, constantAllocas: 0 };

  constructor(
    fn: Function,
    private readonly reachable: (bb: BasicBlock) => boolean,
    readonly dominatesPhi: (v: Value, bb: BasicBlock) => boolean,
    readonly opts: InstCombineOptions,
  ) {
    this.queued = new Uint8Array(fn.instIdBound + 64);
    this.builder.onInsert = (inst) => {
      this.created.add(inst);
      this.push(inst);
    };
  }

  push(i: Instruction): void {
    if (i.parent === null) return;
    const id = i.id;
    if (id >= this.queued.length) {
      const grown = new Uint8Array(Math.max(id + 1, this.queued.length * 2));
      grown.set(this.queued);
      this.queued = grown;
    }
    if (this.queued[id] !== 0 || !this.reachable(i.parent)) return;
    this.queued[id] = 1;
    this.work.push(i);
  }

  pushUsers(v: Value): void {
    for (let u = v.firstUse; u !== null; u = u.next) if (isInst(u.user)) this.push(u.user as Instruction);
  }

  pushOperands(i: Instruction): void {
    for (const u of i.ops) if (isInst(u.value)) this.push(u.value);
  }

  run(order: BasicBlock[]): void {
    // seed in reverse so that popping visits the function in program order
    for (let k = order.length - 1; k >= 0; k--) for (let i = order[k].last; i !== null; i = i.prev) this.push(i);
    while (this.work.length > 0) {
      const i = this.work.pop()!;
      if (i.parent === null) continue;
      this.queued[i.id] = 0;
      this.visit(i);
    }
  }

  erase(i: Instruction): void {
    const ops = i.operands();
    i.eraseFromParent();
    this.stats.deleted++;
    this.changed = true;
    for (const o of ops) if (isInst(o) && o.firstUse === null) this.push(o);
  }

  private replace(i: Instruction, v: Value, isNew: boolean): void {
    this.pushUsers(i);
    if (isInst(v)) {
      this.push(v);
      if (isNew && v.name === '' && i.name !== '') {
        v.name = i.name;
        i.name = '';
      }
    }
    i.replaceAllUsesWith(v);
    this.changed = true;
    if (isTriviallyDead(i)) this.erase(i);
  }

  private visit(i: Instruction): void {
    if (isTriviallyDead(i)) {
      this.erase(i);
      return;
    }
    const s = simplifyInstruction(i, { dominatesPhi: this.dominatesPhi });
    if (s !== null) {
      this.stats.simplified++;
      this.replace(i, s, false);
      return;
    }
    this.builder.setInsertPointBefore(i);
    // the operands before the rules run: an in-place change may leave some of them dead
    const before = this.oldOperands;
    let n = 0;
    for (let k = 0; k < i.ops.length; k++) {
      const v = i.ops[k].value;
      if (isInst(v)) before[n++] = v;
    }
    const r = this.combine(i);
    if (r === null) {
      this.created.clear();
      return;
    }
    this.stats.combined++;
    this.changed = true;
    if (r === i) {
      this.created.clear();
      // changed in place: look at it, its users and its old operands (maybe dead now) again
      this.push(i);
      this.pushUsers(i);
      this.pushOperands(i);
      for (let k = 0; k < n; k++) {
        const o = before[k];
        if (o.parent !== null && o.firstUse === null) this.push(o);
      }
      return;
    }
    this.replace(i, r, isInst(r) && this.created.has(r));
    this.created.clear();
  }

  // ---- building (with the IRBuilder, as LLVM's InstCombine) ----------------------------------

  /** Inserts a new instruction before the one being combined and queues it. */
  insert(inst: Instruction): Instruction {
    return this.builder.insert(inst);
  }
  bin(op: Opcode, a: Value, b: Value, flags = 0): Instruction {
    return this.builder.binary(op, a, b, '', flags);
  }
  cast(op: Opcode, v: Value, to: Type, flags = 0): Instruction {
    return this.builder.cast(op, v, to, '', flags);
  }
  select(c: Value, a: Value, b: Value): Instruction {
    return this.builder.select(c, a, b);
  }
  not(c: Value): Instruction {
    return this.builder.xor(c, ConstantInt.true());
  }

  // ---- rules -------------------------------------------------------------------------------

  private combine(i: Instruction): Value | null {
    const op = i.op;
    if (isBinaryOp(op)) {
      const r = canonicalizeOperands(i);
      if (r !== null || i.type.kind !== TypeKind.Int) return r;
      return combineIntBinary(this, i);
    }
    switch (op) {
      case Opcode.ICmp:
        return i.ops[0].value.type.kind === TypeKind.Vector ? null : combineICmp(this, i);
      case Opcode.FCmp:
        if (isConst(i.ops[0].value) && !isConst(i.ops[1].value)) {
          swapOperands(i);
          i.pred = swappedPred(i.pred);
          return i;
        }
        return null;
      case Opcode.Select:
        return combineSelect(this, i);
      case Opcode.ZExt:
      case Opcode.SExt:
      case Opcode.Trunc:
      case Opcode.BitCast:
        return i.type.kind === TypeKind.Vector ? null : combineCast(this, i);
      case Opcode.GetElementPtr:
        return combineGEP(this, i);
      case Opcode.Br:
        return this.combineBranch(i);
      case Opcode.Load:
        return combineLoad(this, i);
      case Opcode.Store:
        return combineStore(this, i);
      case Opcode.Alloca:
        return combineAlloca(this, i);
      default:
        return null;
    }
  }

  private combineBranch(i: Instruction): Value | null {
    if (!i.isConditionalBranch()) return null;
    const c = i.ops[0].value;
    if (!isInst(c) || c.op !== Opcode.Xor || !isCInt(c.ops[1].value) || (c.ops[1].value as ConstantInt).value !== -1n) return null;
    const t = i.ops[1].value;
    const f = i.ops[2].value;
    i.setOperand(0, c.ops[0].value);
    i.setOperand(1, f);
    i.setOperand(2, t);
    this.cfgChanged = true;
    return i;
  }
}

/** The rules for an integer binary operation, by family. */
function combineIntBinary(ic: InstCombiner, i: Instruction): Value | null {
  switch (i.op) {
    case Opcode.Add:
    case Opcode.Sub:
      return combineAddSub(ic, i);
    case Opcode.Mul:
    case Opcode.UDiv:
    case Opcode.SDiv:
    case Opcode.URem:
    case Opcode.SRem:
      return combineMulDivRem(ic, i);
    case Opcode.Shl:
    case Opcode.LShr:
    case Opcode.AShr:
      return combineShift(ic, i);
    case Opcode.And:
    case Opcode.Or:
    case Opcode.Xor:
      return combineAndOrXor(ic, i);
    default:
      return null;
  }
}
