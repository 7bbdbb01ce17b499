/**
 * Conditions (branching on a truth value, `&&`/`||` short-circuit) and expressions of SysY
 * (values, addresses of array elements, calls, unary/binary operators, conversions): each
 * kind's combining step shared by the recursive walk and the generator walk of irgen-statements.ts.
 */
import { BasicBlock } from '../../ir/basic-block.js';

import { Constant, ConstantFP, ConstantInt } from '../../ir/constants.js';
import { Opcode, Pred } from '../../ir/opcodes.js';
import { Type, doubleType, floatType, i1, i32, i64 } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import type { Call, Expr, LVal, Logical, VarDecl } from './ast.js';
import { scalarIRType } from './lower-init.js';
import { CondTask, EMPTY, FALSE, FunctionGenBase, Gen, TRUE, Task, TruthTask, ZERO_F, ZERO_I, c64 } from './irgen-function.js';

export function isComparison(op: string): boolean {
  return op === '<' || op === '>' || op === '<=' || op === '>=' || op === '==' || op === '!=';
}

export abstract class ExpressionGen extends FunctionGenBase {
  /** Evaluates a deep task with generators only (irgen-statements.ts). */
  protected abstract execDeep(root: Task): Value | null;

  /** A scalar variable or an array parameter's pointer. */
  protected readScalar(d: VarDecl): Value {
    if (d.storage === 'global') return this.b.load(scalarIRType(d.elem), this.mg.globals[d.id]!);
    return this.vars.read(d, this.cur!);
  }

  protected constantOf(e: Expr): Constant {
    const v = e.constValue!;
    switch (e.type.kind) {
      case 'float': {
        // ConstantFP.get keys by bit pattern (a string); most programs use few distinct floats
        if (v === 0 && Object.is(v, -0)) return ConstantFP.get(floatType, v);
        let c = this.mg.floats.get(v);
        if (c === undefined) this.mg.floats.set(v, (c = ConstantFP.get(floatType, v)));
        return c;
      }
      case 'double':
        return ConstantFP.get(doubleType, v);
      default:
        return this.mg.int(v);
    }
  }

  // ---- conditions --------------------------------------------------------------------------

  /** Branches on the truth of `e` (recursive while shallow). */
  protected cond(e: Expr, t: BasicBlock, f: BasicBlock, depth: number): void {
    if (e.constValue !== undefined) {
      this.b.br(e.constValue !== 0 ? t : f);
      this.cur = null;
      return;
    }
    if (depth >= this.maxDepth) {
      this.execDeep(new CondTask(e, t, f));
      return;
    }
    switch (e.kind) {
      case 'Logical': {
        const and = e.op === '&&';
        const rhs = this.block(and ? 'land.rhs' : 'lor.rhs');
        if (and) this.cond(e.lhs, rhs, f, depth + 1);
        else this.cond(e.lhs, t, rhs, depth + 1);
        this.enter(rhs);
        if (this.cur !== null) this.cond(e.rhs, t, f, depth + 1);
        return;
      }
      case 'Unary':
        if (e.op === '!') {
          this.cond(e.operand, f, t, depth + 1);
          return;
        }
        break;
      case 'Binary':
        if (isComparison(e.op)) {
          const a = this.value(e.lhs, depth + 1);
          const b = this.value(e.rhs, depth + 1);
          this.condBr(this.compare(e.op, a, b), t, f);
          return;
        }
        break;
      default:
        break;
    }
    this.condBr(this.truth(this.value(e, depth + 1)), t, f);
  }

  protected *genCond(c: CondTask): Gen {
    const { e, t, f } = c;
    if (e.constValue !== undefined) {
      this.b.br(e.constValue !== 0 ? t : f);
      this.cur = null;
      return null;
    }
    switch (e.kind) {
      case 'Logical': {
        const and = e.op === '&&';
        const rhs = this.block(and ? 'land.rhs' : 'lor.rhs');
        yield and ? new CondTask(e.lhs, rhs, f) : new CondTask(e.lhs, t, rhs);
        this.enter(rhs);
        if (this.cur !== null) yield new CondTask(e.rhs, t, f);
        return null;
      }
      case 'Unary':
        if (e.op === '!') {
          yield new CondTask(e.operand, f, t);
          return null;
        }
        break;
      case 'Binary':
        if (isComparison(e.op)) {
          const a = (yield e.lhs)!;
          const b = (yield e.rhs)!;
          this.condBr(this.compare(e.op, a, b), t, f);
          return null;
        }
        break;
      default:
        break;
    }
    const v = (yield e)!;
    this.condBr(this.truth(v), t, f);
    return null;
  }

  /** The truth of `e` as an i1 (a comparison directly, else `!= 0`). */
  protected truthValue(e: Expr, depth: number): Value {
    if (e.constValue !== undefined) return e.constValue !== 0 ? TRUE : FALSE;
    if (depth >= this.maxDepth) return this.execDeep(new TruthTask(e))!;
    if (e.kind === 'Binary' && isComparison(e.op)) {
      const a = this.value(e.lhs, depth + 1);
      const b = this.value(e.rhs, depth + 1);
      return this.compare(e.op, a, b);
    }
    return this.truth(this.value(e, depth + 1));
  }

  protected *genTruth(t: TruthTask): Gen {
    const e = t.e;
    if (e.constValue !== undefined) return e.constValue !== 0 ? TRUE : FALSE;
    if (e.kind === 'Binary' && isComparison(e.op)) {
      const a = (yield e.lhs)!;
      const b = (yield e.rhs)!;
      return this.compare(e.op, a, b);
    }
    return this.truth((yield e)!);
  }

  /** `v != 0` as an i1. */
  protected truth(v: Value): Value {
    return v.type === floatType ? this.values.fcmp(Pred.FCMP_UNE, v, ZERO_F) : this.values.icmp(Pred.NE, v, ZERO_I);
  }

  protected compare(op: string, a: Value, b: Value): Value {
    if (a.type === floatType) {
      const p = op === '<' ? Pred.FCMP_OLT : op === '>' ? Pred.FCMP_OGT : op === '<=' ? Pred.FCMP_OLE : op === '>=' ? Pred.FCMP_OGE : op === '==' ? Pred.FCMP_OEQ : Pred.FCMP_UNE;
      return this.values.fcmp(p, a, b);
    }
    const p = op === '<' ? Pred.SLT : op === '>' ? Pred.SGT : op === '<=' ? Pred.SLE : op === '>=' ? Pred.SGE : op === '==' ? Pred.EQ : Pred.NE;
    return this.values.icmp(p, a, b);
  }

  // ---- expressions -------------------------------------------------------------------------
  //
  // Each kind has a combining step shared by the recursive and the generator walk
  // (`lvalOf`, `callOf`, `unaryOf`, `binaryOf`, `convertOf`, `logicalEnd`).

  /** The value of `e` (recursive while shallow). */
  protected value(e: Expr, depth: number): Value {
    if (e.constValue !== undefined) return this.constantOf(e);
    if (depth >= this.maxDepth) return this.execDeep(e)!;
    const d1 = depth + 1;
    switch (e.kind) {
      case 'LVal': {
        const ix = e.indices;
        if (ix.length === 0) return e.access === 'address' ? this.lvalOf(e, EMPTY) : this.readScalar(e.decl!);
        const vals = new Array<Value>(ix.length);
        for (let k = 0; k < ix.length; k++) vals[k] = this.value(ix[k], d1);
        return this.lvalOf(e, vals);
      }
      case 'Call': {
        const args: Value[] = [];
        for (const a of e.args) args.push(a.kind === 'StringLiteral' ? this.mg.stringConstant(a.value) : this.value(a, d1));
        return this.callOf(e, args);
      }
      case 'Unary':
        return this.unaryOf(e.op, this.value(e.operand, d1));
      case 'Binary': {
        const a = this.value(e.lhs, d1);
        return this.binaryOf(e.op, a, this.value(e.rhs, d1));
      }
      case 'Logical': {
        const and = e.op === '&&';
        const rhs = this.block(and ? 'land.rhs' : 'lor.rhs');
        const end = this.block(and ? 'land.end' : 'lor.end');
        if (and) this.cond(e.lhs, rhs, end, d1);
        else this.cond(e.lhs, end, rhs, d1);
        this.enter(rhs);
        let rv: Value = FALSE;
        let rhsEnd: BasicBlock | null = null;
        if (this.cur !== null) {
          rv = this.truthValue(e.rhs, d1);
          rhsEnd = this.cur;
          this.br(end);
        }
        return this.logicalEnd(and, end, rhsEnd, rv);
      }
      case 'Convert':
        return this.convertOf(e.op, this.value(e.operand, d1));
      case 'IntLiteral':
        return ConstantInt.get(i32, e.value);
      case 'FloatLiteral':
        return ConstantFP.get(floatType, e.value);
      default:
        throw new Error(`internal error: cannot generate code for '${e.kind}'`);
    }
  }

  protected *genConstant(e: Task): Gen {
    if (e.kind === 'IntLiteral') return ConstantInt.get(i32, e.value);
    if (e.kind === 'FloatLiteral') return ConstantFP.get(floatType, e.value);
    throw new Error(`internal error: cannot generate code for '${e.kind}'`);
  }

  protected *genLVal(e: LVal): Gen {
    const ix = e.indices;
    if (ix.length === 0 && e.access !== 'address') return this.readScalar(e.decl!);
    const vals = new Array<Value>(ix.length);
    for (let k = 0; k < ix.length; k++) vals[k] = (yield ix[k])!;
    return this.lvalOf(e, vals);
  }

  /** An element's value, or (access 'address') the address of an element or sub-array. */
  protected lvalOf(e: LVal, indices: Value[]): Value {
    const d = e.decl!;
    const p = this.addressOf(d, indices);
    return e.access === 'address' ? p : this.b.load(scalarIRType(d.elem), p);
  }

  /** One GEP over the declared array type (or an array parameter's pointee type). */
  protected addressOf(d: VarDecl, indices: Value[]): Value {
    const t = d.type;
    let base: Value;
    let src: Type;
    let idx: Value[];
    let k = 0;
    if (t.kind === 'pointer') {
      base = this.vars.read(d, this.cur!);
      if (indices.length === 0) return base;
      src = this.mg.pointeeType(d);
      idx = new Array<Value>(indices.length);
    } else if (t.kind === 'array') {
      base = d.storage === 'global' ? this.mg.globals[d.id]! : this.declValue[d.id]!;
      if (indices.length === 0) return base;
      src = this.mg.pointeeType(d);
      idx = new Array<Value>(indices.length + 1);
      idx[k++] = c64(0);
    } else {
      throw new Error(`internal error: '${d.name}' is not an array`);
    }
    for (let j = 0; j < indices.length; j++) {
      const v = indices[j];
      idx[k++] = v instanceof ConstantInt ? c64(Number(v.value)) : this.values.cast(Opcode.SExt, v, i64);
    }
    return this.values.gep(src, base, idx);
  }

  protected *genCall(e: Call): Gen {
    const args: Value[] = [];
    for (const a of e.args) args.push(a.kind === 'StringLiteral' ? this.mg.stringConstant(a.value) : (yield a)!);
    return this.callOf(e, args);
  }

  protected callOf(e: Call, args: Value[]): Value {
    const callee = e.callee!;
    if (callee.lineArgument) args.push(ConstantInt.get(i32, e.line));
    return this.b.call(this.mg.functionFor(callee), args);
  }

  protected *genUnary(e: Extract<Expr, { kind: 'Unary' }>): Gen {
    return this.unaryOf(e.op, (yield e.operand)!);
  }

  protected unaryOf(op: string, v: Value): Value {
    const isFloat = v.type === floatType;
    switch (op) {
      case '+':
        return v;
      case '-':
        return isFloat ? this.values.fneg(v) : this.values.binary(Opcode.Sub, ZERO_I, v);
      default: {
        const c = isFloat ? this.values.fcmp(Pred.FCMP_OEQ, v, ZERO_F) : this.values.icmp(Pred.EQ, v, ZERO_I);
        return this.values.cast(Opcode.ZExt, c, i32);
      }
    }
  }

  protected *genBinary(e: Extract<Expr, { kind: 'Binary' }>): Gen {
    const a = (yield e.lhs)!;
    return this.binaryOf(e.op, a, (yield e.rhs)!);
  }

  protected binaryOf(op: string, a: Value, b: Value): Value {
    if (isComparison(op)) return this.values.cast(Opcode.ZExt, this.compare(op, a, b), i32);
    const isFloat = a.type === floatType;
    switch (op) {
      case '+':
        return this.values.binary(isFloat ? Opcode.FAdd : Opcode.Add, a, b);
      case '-':
        return this.values.binary(isFloat ? Opcode.FSub : Opcode.Sub, a, b);
      case '*':
        return this.values.binary(isFloat ? Opcode.FMul : Opcode.Mul, a, b);
      case '/':
        return this.values.binary(isFloat ? Opcode.FDiv : Opcode.SDiv, a, b);
      default:
        return this.values.binary(Opcode.SRem, a, b);
    }
  }

  /** `a && b` / `a || b` as a value: short-circuit branches, an i1 phi, `zext` to int. */
  protected *genLogical(e: Logical): Gen {
    const and = e.op === '&&';
    const rhs = this.block(and ? 'land.rhs' : 'lor.rhs');
    const end = this.block(and ? 'land.end' : 'lor.end');
    yield and ? new CondTask(e.lhs, rhs, end) : new CondTask(e.lhs, end, rhs);
    this.enter(rhs);
    let rhsEnd: BasicBlock | null = null;
    let rv: Value = FALSE;
    if (this.cur !== null) {
      rv = (yield new TruthTask(e.rhs))!;
      rhsEnd = this.cur;
      this.br(end);
    }
    return this.logicalEnd(and, end, rhsEnd, rv);
  }

  /**
   * Enters the join of a `&&`/`||` value: every edge into `end` but the one from `rhsEnd`
   * (which carries `rv`) is a short circuit and carries false (&&) or true (||).
   */
  protected logicalEnd(and: boolean, end: BasicBlock, rhsEnd: BasicBlock | null, rv: Value): Value {
    const preds = end.predecessors();
    this.enter(end);
    const short = and ? FALSE : TRUE;
    let v: Value;
    if (preds.length === 1) {
      v = preds[0] === rhsEnd ? rv : short;
    } else {
      const phi = this.b.phi(i1);
      for (const p of preds) phi.addIncoming(p === rhsEnd ? rv : short, p);
      v = phi;
    }
    return this.values.cast(Opcode.ZExt, v, i32);
  }

  protected *genConvert(e: Extract<Expr, { kind: 'Convert' }>): Gen {
    return this.convertOf(e.op, (yield e.operand)!);
  }

  protected convertOf(op: string, v: Value): Value {
    switch (op) {
      case 'itof':
        return this.values.cast(Opcode.SIToFP, v, floatType);
      case 'ftoi':
        return this.values.cast(Opcode.FPToSI, v, i32);
      case 'fpext':
        return this.values.cast(Opcode.FPExt, v, doubleType);
      default:
        // decay: the operand (an LVal with access 'address') is already the address
        return v;
    }
  }
}
