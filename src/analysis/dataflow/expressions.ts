/**
 * Expression universes for available / anticipated expressions (and later PRE).
 *
 * An expression is a class of instructions that compute the same thing: `lexicalExpressions`
 * groups pure instructions by opcode, flags, predicate, types and operands (commutative
 * operands in a canonical order), so `add i32 %a, %b` in two blocks is one expression.
 * Operands are SSA values, so an expression is "killed" only where one of its operands is
 * (re)defined — at the operand's definition, which a loop can execute again (a phi at a loop
 * header gives a new value to everything computed from it).
 *
 * Invariants: expression ids are dense, in order of first occurrence in layout; `exprOf`
 * maps an instruction's layout position to its expression (-1 if none); `usersOff/users`
 * lists, for each instruction position, the expressions having that instruction as operand.
 */
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode, isBinaryOp, isCastOp } from '../../ir/opcodes.js';
import { ValueKind } from '../../ir/value.js';
import { expressionHash, LEXICAL, sameExpression } from '../expression-equality.js';
import { InstructionNumbering } from '../numbering.js';

export class ExpressionUniverse {
  constructor(
    readonly numbering: InstructionNumbering,
    /** A representative instruction of each expression (its first occurrence). */
    readonly representatives: Instruction[],
    /** Expression of each instruction (by layout position), -1 if none. */
    readonly exprOf: Int32Array,
    readonly usersOff: Int32Array,
    readonly users: Int32Array,
  ) {}

  get size(): number {
    return this.representatives.length;
  }

  /** The expression computed by `inst`, or -1. */
  expressionOf(inst: Instruction): number {
    const k = this.numbering.indexOf(inst);
    return k < 0 ? -1 : this.exprOf[k];
  }
}

/** Whether an instruction is a pure computation PRE may move (no memory, no side effects). */
export function isPureExpression(i: Instruction): boolean {
  const op = i.op;
  return (
    isBinaryOp(op) || isCastOp(op) || op === Opcode.ICmp || op === Opcode.FCmp || op === Opcode.Select ||
    op === Opcode.FNeg || op === Opcode.GetElementPtr
  );
}

/** Lexically equal pure instructions as expressions (see the file comment). */
export function lexicalExpressions(fn: Function, numbering?: InstructionNumbering): ExpressionUniverse {
  const num = numbering ?? new InstructionNumbering(fn);
  const insts = num.insts;
  const exprOf = new Int32Array(insts.length).fill(-1);
  // hash buckets: the first expression with a hash, then a chain through `sameHash`
  const byHash = new Map<number, number>();
  const sameHash: number[] = [];
  const reps: Instruction[] = [];
  const pairsOp: number[] = [];
  const pairsExpr: number[] = [];
  for (let k = 0; k < insts.length; k++) {
    const i = insts[k];
    if (!isPureExpression(i)) continue;
    const ops = i.ops;
    const h = expressionHash(i, LEXICAL);
    let e = byHash.get(h);
    while (e !== undefined && e >= 0 && !sameExpression(reps[e], i, LEXICAL)) e = sameHash[e];
    if (e === undefined || e < 0) {
      e = reps.length;
      sameHash.push(byHash.get(h) ?? -1);
      byHash.set(h, e);
      reps.push(i);
      // operands that are instructions of this function kill the expression where defined
      const seen: number[] = [];
      for (const u of ops) {
        if (u.value.kind !== ValueKind.Instruction) continue;
        const p = num.indexOf(u.value as Instruction);
        if (p >= 0 && !seen.includes(p)) {
          seen.push(p);
          pairsOp.push(p);
          pairsExpr.push(e);
        }
      }
    }
    exprOf[k] = e;
  }
  const usersOff = new Int32Array(insts.length + 1);
  for (const p of pairsOp) usersOff[p + 1]++;
  for (let k = 0; k < insts.length; k++) usersOff[k + 1] += usersOff[k];
  const fill = usersOff.slice(0, insts.length);
  const users = new Int32Array(pairsOp.length);
  for (let j = 0; j < pairsOp.length; j++) users[fill[pairsOp[j]]++] = pairsExpr[j];
  return new ExpressionUniverse(num, reps, exprOf, usersOff, users);
}
