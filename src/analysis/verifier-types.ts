/**
 * The verifier's type rules (LLVM's Verifier visit* methods for each instruction kind):
 * given one instruction, what is wrong with its operand count, operand types and result
 * type — binary operators, compares, casts, memory, GEP indices, aggregates, control flow,
 * calls — or null. verifier.ts reports what this returns; this file reads nothing but the
 * instruction and its operands' types.
 */
import { ConstantInt } from '../ir/constants.js';
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Flag, Opcode, OPCODE_NAMES, isBinaryOp, isFloatBinaryOp } from '../ir/opcodes.js';
import { intrinsicCallProblem } from '../ir/intrinsic-verifier.js';
import { callAttributeProblem } from './verifier-attrs.js';
import { mustTailProblem } from './verifier-musttail.js';
import { aggregateStepType, gepStepType, isSized, Type, TypeKind } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';


function isIntOrIntVector(t: Type): boolean {
  return t.scalarType().kind === TypeKind.Int;
}
function isFPOrFPVector(t: Type): boolean {
  return t.scalarType().isFloatingPoint();
}
function isPtrOrPtrVector(t: Type): boolean {
  return t.scalarType().kind === TypeKind.Ptr;
}
function vecCount(t: Type): number {
  return t.kind === TypeKind.Vector ? t.count : 0;
}
/** Size in bits of a non-aggregate first-class type (0 if unknown). */
function primitiveBits(t: Type): number {
  if (t.kind === TypeKind.Vector) return t.count * primitiveBits(t.elem!);
  if (t.kind === TypeKind.Int || t.isFloatingPoint()) return t.bits;
  return 0;
}
function isBlock(v: Value): boolean {
  return v.kind === ValueKind.BasicBlock;
}
function sameShape(a: Type, b: Type): boolean {
  return vecCount(a) === vecCount(b);
}

function operandCountProblem(name: string, want: number, have: number): string {
  return `'${name}' needs ${want} operand${want === 1 ? '' : 's'}, has ${have}`;
}
/** What is wrong with the types of `i` (in `fn`), or null. */
export function typeProblem(i: Instruction, fn: Function): string | null {
  const ops = i.ops;
  const op = i.op;
  const name = OPCODE_NAMES[op];
  const t = i.type;
  if (isBinaryOp(op)) {
    const e = (ops.length === 2 ? null : operandCountProblem(name, 2, ops.length));
    if (e !== null) return e;
    const a = ops[0].value.type;
    const b = ops[1].value.type;
    if (a !== b) return `Both operands to a binary operator are not of the same type! ('${a}' and '${b}')`;
    if (t !== a) return `binary operator result type '${t}' differs from its operand type '${a}'`;
    if (isFloatBinaryOp(op)) {
      if (!isFPOrFPVector(a)) return `Floating-point arithmetic operators only work with floating-point types! ('${a}')`;
    } else if (!isIntOrIntVector(a)) return `Integer arithmetic operators only work with integral types! ('${a}')`;
    return null;
  }
  switch (op) {
    case Opcode.FNeg: {
      const e = (ops.length === 1 ? null : operandCountProblem(name, 1, ops.length));
      if (e !== null) return e;
      if (!isFPOrFPVector(ops[0].value.type)) return `fneg needs a floating-point operand, not '${ops[0].value.type}'`;
      if (t !== ops[0].value.type) return 'fneg result type differs from its operand type';
      return null;
    }
    case Opcode.Freeze: {
      const e = (ops.length === 1 ? null : operandCountProblem(name, 1, ops.length));
      if (e !== null) return e;
      if (t !== ops[0].value.type) return 'freeze result type differs from its operand type';
      return null;
    }
    case Opcode.ICmp:
    case Opcode.FCmp: {
      const e = (ops.length === 2 ? null : operandCountProblem(name, 2, ops.length));
      if (e !== null) return e;
      const a = ops[0].value.type;
      const b = ops[1].value.type;
      if (a !== b) return `Both operands to ${name} instruction are not of same type! ('${a}' and '${b}')`;
      if (op === Opcode.ICmp) {
        if (!isIntOrIntVector(a) && !isPtrOrPtrVector(a)) return `Invalid operand types for ICmp instruction ('${a}')`;
        if (i.pred < 32 || i.pred > 41) return 'Invalid predicate in ICmp instruction!';
      } else {
        if (!isFPOrFPVector(a)) return `Invalid operand types for FCmp instruction ('${a}')`;
        if (i.pred < 0 || i.pred > 15) return 'Invalid predicate in FCmp instruction!';
      }
      if (!t.scalarType().isInt(1) || !sameShape(t, a)) return `${name} result must be i1 or a vector of i1 matching the operands, not '${t}'`;
      return null;
    }
    case Opcode.Select: {
      const e = (ops.length === 3 ? null : operandCountProblem(name, 3, ops.length));
      if (e !== null) return e;
      const c = ops[0].value.type;
      const a = ops[1].value.type;
      const b = ops[2].value.type;
      if (!c.scalarType().isInt(1)) return `select condition must be i1 or <N x i1>, not '${c}'`;
      if (c.kind === TypeKind.Vector && vecCount(a) !== c.count) return 'vector select condition and values have different lengths';
      if (a !== b) return `Both values of a select must have the same type ('${a}' and '${b}')`;
      if (t !== a) return `select result type '${t}' differs from its values' type '${a}'`;
      return null;
    }
    case Opcode.Trunc:
    case Opcode.ZExt:
    case Opcode.SExt:
    case Opcode.FPTrunc:
    case Opcode.FPExt:
    case Opcode.FPToUI:
    case Opcode.FPToSI:
    case Opcode.UIToFP:
    case Opcode.SIToFP:
    case Opcode.PtrToInt:
    case Opcode.IntToPtr:
    case Opcode.BitCast:
    case Opcode.AddrSpaceCast: {
      const e = (ops.length === 1 ? null : operandCountProblem(name, 1, ops.length));
      if (e !== null) return e;
      return castProblem(op, ops[0].value.type, t);
    }
    case Opcode.Alloca: {
      const e = (ops.length === 1 ? null : operandCountProblem(name, 1, ops.length));
      if (e !== null) return e;
      if (!ops[0].value.type.isInt()) return `alloca element count must be an integer, not '${ops[0].value.type}'`;
      if (i.auxType === null || !isSized(i.auxType)) return `Cannot allocate unsized type '${i.auxType ?? 'none'}'`;
      if (!t.isPtr()) return 'alloca must produce a ptr';
      return null;
    }
    case Opcode.Load: {
      const e = (ops.length === 1 ? null : operandCountProblem(name, 1, ops.length));
      if (e !== null) return e;
      if (!ops[0].value.type.isPtr()) return `Load operand must be a pointer, not '${ops[0].value.type}'`;
      if (!t.isFirstClass() || !isSized(t)) return `loading unsized or non-first-class type '${t}'`;
      return null;
    }
    case Opcode.Store: {
      const e = (ops.length === 2 ? null : operandCountProblem(name, 2, ops.length));
      if (e !== null) return e;
      if (!ops[1].value.type.isPtr()) return `Store address operand must be a pointer, not '${ops[1].value.type}'`;
      const vt = ops[0].value.type;
      if (!vt.isFirstClass() || !isSized(vt)) return `storing unsized or non-first-class type '${vt}'`;
      if (t.kind !== TypeKind.Void) return 'store must not produce a value';
      return null;
    }
    case Opcode.GetElementPtr:
      return gepProblem(i);
    case Opcode.Phi: {
      if (!t.isFirstClass()) return `PHI node must have a first-class non-void type, not '${t}'`;
      for (let k = 0; k < ops.length; k++) {
        if (ops[k].value.type !== t) return `PHI node operands are not the same type as the result! (entry ${k} is '${ops[k].value.type}', phi is '${t}')`;
      }
      return null;
    }
    case Opcode.Call:
      return callProblem(i);
    case Opcode.Ret: {
      const rt = fn.returnType;
      if (rt.kind === TypeKind.Void) {
        if (ops.length !== 0) return `Found return instr that returns non-void in Function of void return type! ('${ops[0].value.type}')`;
      } else {
        if (ops.length !== 1) return `Function return type '${rt}' does not match operand type of return inst! (ret has no value)`;
        if (ops[0].value.type !== rt) return `Function return type '${rt}' does not match operand type of return inst! ('${ops[0].value.type}')`;
      }
      return null;
    }
    case Opcode.Br: {
      if (ops.length === 1) return isBlock(ops[0].value) ? null : 'unconditional br operand must be a block';
      if (ops.length !== 3) return `br needs 1 or 3 operands, has ${ops.length}`;
      if (!ops[0].value.type.isInt(1)) return `Branch condition is not 'i1' type! ('${ops[0].value.type}')`;
      if (!isBlock(ops[1].value) || !isBlock(ops[2].value)) return 'br targets must be blocks';
      return null;
    }
    case Opcode.Switch: {
      if (ops.length < 2 || ops.length % 2 !== 0) return `switch has a malformed operand list (${ops.length} operands)`;
      const ct = ops[0].value.type;
      if (!ct.isInt()) return `switch condition must be an integer, not '${ct}'`;
      if (!isBlock(ops[1].value)) return 'switch default destination must be a block';
      const seen = new Set<bigint>();
      for (let k = 2; k < ops.length; k += 2) {
        const cv = ops[k].value;
        if (cv.kind !== ValueKind.ConstantInt) return `switch case ${(k - 2) / 2} is not an integer constant`;
        if (cv.type !== ct) return `Switch constants must all be same type as switch value! (case '${cv.type}', condition '${ct}')`;
        const val = (cv as ConstantInt).value;
        if (seen.has(val)) return `Duplicate integer as switch case (${val})`;
        seen.add(val);
        if (!isBlock(ops[k + 1].value)) return `switch case ${(k - 2) / 2} destination must be a block`;
      }
      return null;
    }
    case Opcode.IndirectBr: {
      if (ops.length < 1 || !ops[0].value.type.isPtr()) return 'Indirectbr operand must have pointer type!';
      for (let k = 1; k < ops.length; k++) if (!isBlock(ops[k].value)) return 'indirectbr destinations must be blocks';
      return null;
    }
    case Opcode.Unreachable:
      return (ops.length === 0 ? null : operandCountProblem(name, 0, ops.length));
    case Opcode.ExtractValue:
    case Opcode.InsertValue: {
      const want = op === Opcode.ExtractValue ? 1 : 2;
      if (ops.length !== want) return operandCountProblem(name, want, ops.length);
      const agg = ops[0].value.type;
      if (!agg.isAggregate()) return `${name} operand must be an aggregate, not '${agg}'`;
      let cur = agg;
      for (const idx of i.indices ?? []) {
        const next = aggregateStepType(cur, idx);
        if (next === null) return cur.kind === TypeKind.Array || cur.kind === TypeKind.Struct ? `${name} index ${idx} out of range for '${cur}'` : `Invalid indices for ${name}`;
        cur = next;
      }
      if (op === Opcode.ExtractValue) return t === cur ? null : `extractvalue result type '${t}' should be '${cur}'`;
      if (ops[1].value.type !== cur) return `Inserted value type '${ops[1].value.type}' doesn't match the indexed type '${cur}'`;
      return t === agg ? null : 'insertvalue result type differs from the aggregate type';
    }
    case Opcode.ExtractElement: {
      const e = (ops.length === 2 ? null : operandCountProblem(name, 2, ops.length));
      if (e !== null) return e;
      const v = ops[0].value.type;
      if (v.kind !== TypeKind.Vector || !ops[1].value.type.isInt()) return 'Invalid extractelement operands!';
      return t === v.elem ? null : `extractelement result type should be '${v.elem}'`;
    }
    case Opcode.InsertElement: {
      const e = (ops.length === 3 ? null : operandCountProblem(name, 3, ops.length));
      if (e !== null) return e;
      const v = ops[0].value.type;
      if (v.kind !== TypeKind.Vector || ops[1].value.type !== v.elem || !ops[2].value.type.isInt()) return 'Invalid insertelement operands!';
      return t === v ? null : 'insertelement result type differs from the vector type';
    }
    case Opcode.ShuffleVector: {
      const e = (ops.length === 2 ? null : operandCountProblem(name, 2, ops.length));
      if (e !== null) return e;
      const a = ops[0].value.type;
      if (a.kind !== TypeKind.Vector || ops[1].value.type !== a) return 'Invalid shufflevector operands!';
      const len = i.indices?.length ?? 0;
      return t.kind === TypeKind.Vector && t.elem === a.elem && t.count === len ? null : 'shufflevector result type does not match its mask';
    }
    case Opcode.VAArg: {
      const e = (ops.length === 1 ? null : operandCountProblem(name, 1, ops.length));
      if (e !== null) return e;
      return ops[0].value.type.isPtr() ? null : 'va_arg operand must be a pointer';
    }
    default:
      return null;
  }
}

function castProblem(op: Opcode, src: Type, dst: Type): string | null {
  const ok = castOk(op, src, dst);
  if (ok === true) return null;
  const bad = `invalid cast: ${OPCODE_NAMES[op]} from '${src}' to '${dst}'`;
  return ok === false ? bad : `${bad} ${ok}`;
}

/** true when the cast is valid, false when not, or a parenthesised reason. */
function castOk(op: Opcode, src: Type, dst: Type): boolean | string {
  if (src.kind === TypeKind.Vector || dst.kind === TypeKind.Vector) {
    if (op !== Opcode.BitCast && vecCount(src) !== vecCount(dst)) return '(vector lengths differ)';
  }
  const s = src.scalarType();
  const d = dst.scalarType();
  switch (op) {
    case Opcode.Trunc:
      return s.isInt() && d.isInt() && s.bits > d.bits ? true : false;
    case Opcode.ZExt:
    case Opcode.SExt:
      return s.isInt() && d.isInt() && s.bits < d.bits ? true : false;
    case Opcode.FPTrunc:
      return s.isFloatingPoint() && d.isFloatingPoint() && s.bits > d.bits ? true : false;
    case Opcode.FPExt:
      return s.isFloatingPoint() && d.isFloatingPoint() && s.bits < d.bits ? true : false;
    case Opcode.FPToUI:
    case Opcode.FPToSI:
      return s.isFloatingPoint() && d.isInt() ? true : false;
    case Opcode.UIToFP:
    case Opcode.SIToFP:
      return s.isInt() && d.isFloatingPoint() ? true : false;
    case Opcode.PtrToInt:
      return s.isPtr() && d.isInt() ? true : false;
    case Opcode.IntToPtr:
      return s.isInt() && d.isPtr() ? true : false;
    case Opcode.AddrSpaceCast:
      return s.isPtr() && d.isPtr() && s.bits !== d.bits ? true : false;
    case Opcode.BitCast: {
      if (!src.isFirstClass() || !dst.isFirstClass() || src.isAggregate() || dst.isAggregate()) return false;
      if (s.isPtr() || d.isPtr()) return s.isPtr() && d.isPtr() && s.bits === d.bits && vecCount(src) === vecCount(dst) ? true : false;
      const a = primitiveBits(src);
      return a !== 0 && a === primitiveBits(dst) ? true : '(sizes differ)';
    }
    default:
      return false;
  }
}

function gepProblem(i: Instruction): string | null {
  const ops = i.ops;
  if (ops.length < 1) return 'getelementptr needs a pointer operand';
  const base = ops[0].value.type;
  if (!isPtrOrPtrVector(base)) return `GEP base pointer is not a vector or a vector of pointers ('${base}')`;
  const src = i.auxType;
  if (src === null || !isSized(src)) return `GEP into unsized type '${src ?? 'none'}'`;
  let vec = vecCount(base);
  for (let k = 1; k < ops.length; k++) {
    const it = ops[k].value.type;
    if (!isIntOrIntVector(it)) return `GEP indexes must be integers ('${it}' at index ${k})`;
    if (it.kind === TypeKind.Vector) {
      if (vec !== 0 && vec !== it.count) return 'GEP vector index lengths differ';
      vec = it.count;
    }
  }
  let cur: Type = src;
  for (let k = 2; k < ops.length; k++) {
    const idx = ops[k].value;
    let f: number | null = null;
    if (cur.kind === TypeKind.Struct) {
      if (idx.kind !== ValueKind.ConstantInt || !idx.type.isInt(32)) return `struct indices in a GEP must be i32 constants (index ${k - 1} into '${cur}')`;
      f = (idx as ConstantInt).toNumber();
      if (f < 0 || f >= cur.members.length) return `Invalid indices for GEP pointer type (field ${f} of '${cur}')`;
    }
    const next = gepStepType(cur, f);
    if (next === null) return `Invalid indices for GEP pointer type (cannot index into '${cur}')`;
    cur = next;
  }
  const t = i.type;
  if (vec === 0 ? !t.isPtr() : !(t.kind === TypeKind.Vector && t.count === vec && t.elem!.isPtr())) return `GEP result type '${t}' should be ${vec === 0 ? 'ptr' : `<${vec} x ptr>`}`;
  return null;
}

function callProblem(i: Instruction): string | null {
  const ops = i.ops;
  if (ops.length < 1) return 'call has no callee';
  const ft = i.auxType;
  if (ft === null || ft.kind !== TypeKind.Function) return 'call has no function type';
  const callee = ops[0].value;
  if (!callee.type.isPtr() && callee.kind !== ValueKind.InlineAsm) return `Called value must be a pointer, not '${callee.type}'`;
  const params = ft.params;
  const nargs = ops.length - 1;
  if (ft.vararg ? nargs < params.length : nargs !== params.length) {
    return `Incorrect number of arguments passed to called function! (${nargs} given, ${ft.vararg ? 'at least ' : ''}${params.length} expected)`;
  }
  for (let k = 0; k < params.length; k++) {
    const at = ops[k + 1].value.type;
    if (at !== params[k]) return `Call parameter type does not match function signature! (argument ${k} is '${at}', parameter is '${params[k]}')`;
  }
  for (let k = params.length + 1; k < ops.length; k++) {
    if (!ops[k].value.type.isFirstClass()) return `variadic argument ${k - 1} has non-first-class type '${ops[k].value.type}'`;
  }
  if (i.type !== ft.returnType) return `call result type '${i.type}' differs from the callee's return type '${ft.returnType}'`;
  const attrs = callAttributeProblem(i, ft);
  if (attrs !== null) return attrs;
  if ((i.flags & Flag.MustTail) !== 0) {
    const mt = mustTailProblem(i, ft);
    if (mt !== null) return mt;
  }
  // a callee not yet in a module is a forward reference whose declaration the streaming
  // reader has not reached: its type is a placeholder, so only the call's own type is
  // checked against the intrinsic's signature (the name tells it), not against the declaration
  if (callee.kind === ValueKind.Function && callee.name.startsWith('llvm.')) return intrinsicCallProblem(i, callee as Function, ft, (callee as Function).parent === null);
  return null;
}
