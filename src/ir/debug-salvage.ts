/**
 * Debug-value salvage, after LLVM 19's Local.cpp (salvageDebugInfo,
 * salvageDebugInfoForDbgValues, salvageDebugInfoImpl, getSalvageOpsForGEP / BinOp / IcmpOp)
 * and DIExpression::appendOpsToArg / prependOpcodes / appendOffset / getExtOps.
 *
 * When an instruction that debug records describe is deleted, the records need not lose
 * the variable: `%y = add i32 %x, 4` gone, `#dbg_value(i32 %y, !v, !DIExpression())` becomes
 * `#dbg_value(i32 %x, !v, !DIExpression(DW_OP_plus_uconst, 4, DW_OP_stack_value))`; a binary
 * operation of two values becomes a `!DIArgList` with DW_OP_LLVM_arg operands; casts become
 * DW_OP_LLVM_convert pairs (or nothing for no-op casts); a GEP becomes its byte offset. What
 * cannot be expressed (loads, calls, phis, floating point, udiv, …) gets a kill location
 * (every location operand of the record `poison`), as LLVM's setKillLocation.
 *
 * Called from the erase hook of metadata.ts with the instruction's operands still in
 * place; invariant: a salvaged record names only values that are still in a function.
 */
import type { ConstantInt } from './constants.js';
import type { Instruction } from './instruction.js';
import { allocSize, structLayout } from './layout.js';
import { Opcode, Pred } from './opcodes.js';
import { TypeKind } from './types.js';
import { type Value, ValueKind } from './value.js';

/** Operands after each DWARF operation LLVM knows the arity of (others take none). */
const ARITY: Record<string, number> = {
  DW_OP_LLVM_arg: 1, DW_OP_LLVM_fragment: 2, DW_OP_plus_uconst: 1, DW_OP_constu: 1, DW_OP_consts: 1,
  DW_OP_LLVM_convert: 2, DW_OP_LLVM_tag_offset: 1, DW_OP_LLVM_entry_value: 1, DW_OP_deref_size: 1,
  DW_OP_xderef_size: 1, DW_OP_LLVM_extract_bits_sext: 2, DW_OP_LLVM_extract_bits_zext: 2, DW_OP_pick: 1,
  DW_OP_const1u: 1, DW_OP_const1s: 1, DW_OP_const2u: 1, DW_OP_const2s: 1, DW_OP_const4u: 1, DW_OP_const4s: 1,
  DW_OP_const8u: 1, DW_OP_const8s: 1, DW_OP_skip: 1, DW_OP_bra: 1, DW_OP_bregx: 2, DW_OP_regx: 1,
};

function arity(op: string): number {
  if (/^DW_OP_breg\d+$/.test(op)) return 1;
  return ARITY[op] ?? 0;
}

/** An expression's text split into operations, each its name and arguments. */
export function expressionOps(text: string): string[][] {
  const toks = text.split(',').map((t) => t.trim()).filter((t) => t !== '');
  const out: string[][] = [];
  for (let k = 0; k < toks.length; ) {
    const n = toks[k].startsWith('DW_OP_') ? arity(toks[k]) : 0;
    out.push(toks.slice(k, k + 1 + n));
    k += 1 + n;
  }
  return out;
}

/** DIExpression::getNumLocationOperands: 1 + the largest DW_OP_LLVM_arg, 0 without any. */
export function locationOperandCount(ops: string[][]): number {
  let n = 0;
  for (const o of ops) if (o[0] === 'DW_OP_LLVM_arg') n = Math.max(n, Number(o[1]) + 1);
  return n;
}

/** A 64-bit DWARF operand as LLVM prints it (unsigned). */
function u64(v: bigint): string {
  return BigInt.asUintN(64, v).toString();
}

/** DIExpression::appendOffset. */
function appendOffset(ops: string[], off: bigint): void {
  if (off > 0n) ops.push('DW_OP_plus_uconst', u64(off));
  else if (off < 0n) ops.push('DW_OP_constu', u64(-off), 'DW_OP_minus');
}

const BINOP_DWARF: Partial<Record<Opcode, string>> = {
  [Opcode.Add]: 'DW_OP_plus', [Opcode.Sub]: 'DW_OP_minus', [Opcode.Mul]: 'DW_OP_mul', [Opcode.SDiv]: 'DW_OP_div',
  [Opcode.SRem]: 'DW_OP_mod', [Opcode.Or]: 'DW_OP_or', [Opcode.And]: 'DW_OP_and', [Opcode.Xor]: 'DW_OP_xor',
  [Opcode.Shl]: 'DW_OP_shl', [Opcode.LShr]: 'DW_OP_shr', [Opcode.AShr]: 'DW_OP_shra',
};

function icmpDwarf(p: Pred): string | null {
  switch (p) {
    case Pred.EQ: return 'DW_OP_eq';
    case Pred.NE: return 'DW_OP_ne';
    case Pred.UGT: case Pred.SGT: return 'DW_OP_gt';
    case Pred.UGE: case Pred.SGE: return 'DW_OP_ge';
    case Pred.ULT: case Pred.SLT: return 'DW_OP_lt';
    case Pred.ULE: case Pred.SLE: return 'DW_OP_le';
    default: return null;
  }
}

function smallConst(v: Value): ConstantInt | null {
  return v.kind === ValueKind.ConstantInt && v.type.bits <= 64 ? (v as ConstantInt) : null;
}

/** The salvage of `i` for a record with `curLocOps` location operands: operand 0, operations, extra values. */
export interface Salvage {
  op0: Value;
  ops: string[];
  extra: Value[];
}

/** handleSSAValueOperands: the second operand becomes DW_OP_LLVM_arg N of the list. */
function valueOperand(i: Instruction, curLocOps: number, s: Salvage): void {
  if (curLocOps === 0) {
    s.ops.push('DW_OP_LLVM_arg', '0');
    curLocOps = 1;
  }
  s.ops.push('DW_OP_LLVM_arg', String(curLocOps));
  s.extra.push(i.ops[1].value);
}

/** salvageDebugInfoImpl: how `i`'s value is computed from operand 0 (and extra values), or null. */
export function salvageOps(i: Instruction, curLocOps: number): Salvage | null {
  if (i.ops.length === 0 || i.type.kind === TypeKind.Vector) return null;
  const op = i.op;
  const s: Salvage = { op0: i.ops[0].value, ops: [], extra: [] };
  if (op >= Opcode.Trunc && op <= Opcode.AddrSpaceCast) {
    const from = i.ops[0].value.type;
    const to = i.type;
    if (op === Opcode.BitCast || ((op === Opcode.PtrToInt || op === Opcode.IntToPtr) && (op === Opcode.PtrToInt ? to : from).bits === 64)) return s;
    if (op !== Opcode.Trunc && op !== Opcode.ZExt && op !== Opcode.SExt && op !== Opcode.PtrToInt && op !== Opcode.IntToPtr) return null;
    const fb = from.kind === TypeKind.Ptr ? 64 : from.bits;
    const tb = to.kind === TypeKind.Ptr ? 64 : to.bits;
    const tk = op === Opcode.SExt ? 'DW_ATE_signed' : 'DW_ATE_unsigned';
    s.ops.push('DW_OP_LLVM_convert', String(fb), tk, 'DW_OP_LLVM_convert', String(tb), tk);
    return s;
  }
  if (op === Opcode.GetElementPtr) return gepOps(i, curLocOps, s);
  if (op >= Opcode.Add && op <= Opcode.Xor) {
    const c = i.ops[1].value.kind === ValueKind.ConstantInt ? (i.ops[1].value as ConstantInt) : null;
    if (c !== null && c.type.bits > 64) return null;
    if (c !== null) {
      if (op === Opcode.Add || op === Opcode.Sub) {
        appendOffset(s.ops, op === Opcode.Add ? c.value : -c.value);
        return s;
      }
      s.ops.push('DW_OP_constu', u64(c.value));
    } else valueOperand(i, curLocOps, s);
    const d = BINOP_DWARF[op];
    if (d === undefined) return null;
    s.ops.push(d);
    return s;
  }
  if (op === Opcode.ICmp) {
    const c = smallConst(i.ops[1].value);
    if (i.ops[1].value.kind === ValueKind.ConstantInt && c === null) return null;
    if (c !== null) s.ops.push(i.pred >= Pred.SGT && i.pred <= Pred.SLE ? 'DW_OP_consts' : 'DW_OP_constu', u64(c.value));
    else valueOperand(i, curLocOps, s);
    const d = icmpDwarf(i.pred);
    if (d === null) return null;
    s.ops.push(d);
    return s;
  }
  return null;
}

/** getSalvageOpsForGEP: the constant byte offset, and each variable index times its scale. */
function gepOps(i: Instruction, curLocOps: number, s: Salvage): Salvage | null {
  let t = i.auxType!;
  let off = 0n;
  const vars = new Map<Value, bigint>();
  const addVar = (v: Value, scale: bigint): void => {
    vars.set(v, (vars.get(v) ?? 0n) + scale);
  };
  for (let k = 1; k < i.ops.length; k++) {
    const ix = i.ops[k].value;
    if (k === 1 || t.kind === TypeKind.Array) {
      const elem = k === 1 ? t : t.elem!;
      const size = BigInt(allocSize(elem));
      if (ix.kind === ValueKind.ConstantInt) off += (ix as ConstantInt).value * size;
      else if (ix.kind === ValueKind.ConstantZero) {
        /* zero */
      } else if (ix.type.kind === TypeKind.Int) {
        if (size !== 0n) addVar(ix, size);
      } else return null;
      if (k > 1) t = elem;
    } else if (t.kind === TypeKind.Struct) {
      const n = ix.kind === ValueKind.ConstantInt ? Number((ix as ConstantInt).value) : ix.kind === ValueKind.ConstantZero ? 0 : -1;
      if (n < 0) return null;
      off += BigInt(structLayout(t).offsets[n]);
      t = t.members[n];
    } else return null;
  }
  if (vars.size > 0 && curLocOps === 0) {
    s.ops.push('DW_OP_LLVM_arg', '0');
    curLocOps = 1;
  }
  for (const [v, scale] of vars) {
    if (scale <= 0n) return null;
    s.extra.push(v);
    s.ops.push('DW_OP_LLVM_arg', String(curLocOps++), 'DW_OP_constu', u64(scale), 'DW_OP_mul', 'DW_OP_plus');
  }
  appendOffset(s.ops, off);
  return s;
}

/** DIExpression::appendOpsToArg: `add` after DW_OP_LLVM_arg `argNo` (prepended to a non-variadic expression), stack value kept last but before a fragment. */
export function appendOpsToArg(expr: string[][], add: string[], argNo: number, stackValue: boolean): string[] {
  const variadic = expr.some((o) => o[0] === 'DW_OP_LLVM_arg');
  const out: string[] = variadic ? [] : add.slice();
  if (!variadic && add.length === 0) stackValue = false;
  for (const o of expr) {
    if (stackValue) {
      if (o[0] === 'DW_OP_stack_value') stackValue = false;
      else if (o[0] === 'DW_OP_LLVM_fragment') {
        out.push('DW_OP_stack_value');
        stackValue = false;
      }
    }
    out.push(...o);
    if (variadic && o[0] === 'DW_OP_LLVM_arg' && Number(o[1]) === argNo) out.push(...add);
  }
  if (stackValue) out.push('DW_OP_stack_value');
  return out;
}

/** LLVM's limits: longer expressions or wider argument lists are not made. */
export const MAX_EXPRESSION_SIZE = 128;
export const MAX_DEBUG_ARGS = 16;
