/**
 * The code generator's arithmetic: JavaScript expressions for integer and floating-point
 * binary operators, comparisons and casts of one IR instruction (split from codegen.ts).
 *
 * Integers of up to 32 bits are JS numbers kept normalised to their signed width (`norm`);
 * 64-bit ones are numbers while they stay within 2^53 and `Wide` otherwise (wide.ts).
 * Division and remainder by a zero divisor trap at the instruction's site (`S.divz`);
 * the guard is left out when the divisor is a nonzero literal.
 */
import { ConstantInt } from '../ir/constants.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode, Pred } from '../ir/opcodes.js';
import { Type, TypeKind } from '../ir/types.js';
import { ValueKind } from '../ir/value.js';
import { norm, uns } from './js-int.js';
import type { Gen } from './codegen-state.js';


function isZeroLit(s: string): boolean {
  return s === '0';
}
function isNonZeroLit(s: string): boolean {
  return /^\(?-?[0-9]+n?\)?$/.test(s) && !/^\(?-?0+n?\)?$/.test(s);
}

function divGuard(b: string, site: number, e: string): string {
  if (isNonZeroLit(b)) return e;
  if (isZeroLit(b)) return `S.divz(${site})`;
  return `(${b} === 0 ? S.divz(${site}) : ${e})`;
}

export function binExpr(op: Opcode, t: Type, a: string, b: string, site: number): string {
  switch (t.kind) {
    case TypeKind.Float:
    case TypeKind.Double:
    case TypeKind.X86_FP80:
    case TypeKind.FP128:
    case TypeKind.Half:
    case TypeKind.BFloat: {
      let e: string;
      switch (op) {
        case Opcode.FAdd: e = `${a} + ${b}`; break;
        case Opcode.FSub: e = `${a} - ${b}`; break;
        case Opcode.FMul: e = `${a} * ${b}`; break;
        case Opcode.FDiv: e = `${a} / ${b}`; break;
        case Opcode.FRem: e = `${a} % ${b}`; break;
        default: return `S.trap("integer op on float", ${site})`;
      }
      if (t.kind === TypeKind.Float) return `Math.fround(${e})`;
      if (t.kind === TypeKind.Half) return `roundHalf(${e})`;
      if (t.kind === TypeKind.BFloat) return `roundBfloat(${e})`;
      return `(${e})`;
    }
    case TypeKind.Int:
      break;
    default:
      return `S.trap("arithmetic on ${t}", ${site})`;
  }
  const bits = t.bits;
  if (bits === 1) {
    switch (op) {
      case Opcode.Add: case Opcode.Sub: case Opcode.Xor: return `(${a} ^ ${b})`;
      case Opcode.Mul: case Opcode.And: return `(${a} & ${b})`;
      case Opcode.Or: return `(${a} | ${b})`;
      case Opcode.SDiv: case Opcode.UDiv: return divGuard(b, site, a);
      case Opcode.SRem: case Opcode.URem: return divGuard(b, site, '0');
      case Opcode.Shl: case Opcode.LShr: case Opcode.AShr: return a; // shifting by 1 is poison
      default: break;
    }
  }
  if (bits <= 32) {
    switch (op) {
      case Opcode.Add: return norm(bits, `${a} + ${b}`);
      case Opcode.Sub: return norm(bits, `${a} - ${b}`);
      case Opcode.Mul: return bits === 32 ? `Math.imul(${a}, ${b})` : norm(bits, `Math.imul(${a}, ${b})`);
      case Opcode.SDiv: return divGuard(b, site, norm(bits, `${a} / ${b}`));
      case Opcode.UDiv: return divGuard(b, site, norm(bits, `${uns(bits, a)} / ${uns(bits, b)}`));
      case Opcode.SRem: return divGuard(b, site, norm(bits, `${a} % ${b}`));
      case Opcode.URem: return divGuard(b, site, norm(bits, `${uns(bits, a)} % ${uns(bits, b)}`));
      case Opcode.Shl: return bits === 32 ? `(${a} << ${b})` : norm(bits, `${a} << ${b}`);
      case Opcode.LShr: return bits === 32 ? `((${a} >>> ${b}) | 0)` : norm(bits, `${uns(bits, a)} >>> ${b}`);
      case Opcode.AShr: return `(${a} >> ${b})`;
      case Opcode.And: return `(${a} & ${b})`;
      case Opcode.Or: return `(${a} | ${b})`;
      case Opcode.Xor: return `(${a} ^ ${b})`;
      default: return `S.trap("float op on integer", ${site})`;
    }
  }
  if (bits === 64) {
    switch (op) {
      case Opcode.Add: return `add64(${a}, ${b})`;
      case Opcode.Sub: return `sub64(${a}, ${b})`;
      case Opcode.Mul: return `mul64(${a}, ${b})`;
      case Opcode.SDiv: return divGuard(b, site, `sdiv64(${a}, ${b})`);
      case Opcode.UDiv: return divGuard(b, site, `udiv64(${a}, ${b})`);
      case Opcode.SRem: return divGuard(b, site, `srem64(${a}, ${b})`);
      case Opcode.URem: return divGuard(b, site, `urem64(${a}, ${b})`);
      case Opcode.Shl: return `shl64(${a}, ${b})`;
      case Opcode.LShr: return `lshr64(${a}, ${b})`;
      case Opcode.AShr: return `ashr64(${a}, ${b})`;
      case Opcode.And: return `and64(${a}, ${b})`;
      case Opcode.Or: return `or64(${a}, ${b})`;
      case Opcode.Xor: return `xor64(${a}, ${b})`;
      default: return `S.trap("float op on integer", ${site})`;
    }
  }
  const code: Partial<Record<Opcode, number>> = {
    [Opcode.Add]: 0, [Opcode.Sub]: 1, [Opcode.Mul]: 2, [Opcode.SDiv]: 3, [Opcode.UDiv]: 4, [Opcode.SRem]: 5,
    [Opcode.URem]: 6, [Opcode.Shl]: 7, [Opcode.LShr]: 8, [Opcode.AShr]: 9, [Opcode.And]: 10, [Opcode.Or]: 11, [Opcode.Xor]: 12,
  };
  const c = code[op];
  if (c === undefined) return `S.trap("float op on integer", ${site})`;
  const e = `binW(${c}, ${a}, ${b}, ${bits})`;
  return c >= 3 && c <= 6 ? divGuard(b, site, e) : e;
}

/**
 * i64 arithmetic: plain double arithmetic when the operands' bounds make the result exact,
 * else an inline number fast path (checked against the safe range) with the bigint helper
 * as fallback.
 */
export function wide64Expr(g: Gen, i: Instruction, a: string, b: string, site: number): string {
  const x = i.ops[0].value;
  const y = i.ops[1].value;
  const nx = g.isNum(x);
  const ny = g.isNum(y);
  const exact = g.boundOf(i) <= 53;
  const guard = (nx ? '' : `typeof ${a} === 'number' && `) + (ny ? '' : `typeof ${b} === 'number' && `);
  const fast = (e: string, helper: string): string =>
    `(${guard}(tr = ${e}) <= 9007199254740991 && tr >= -9007199254740991 ? tr : ${helper}(${a}, ${b}))`;
  switch (i.op) {
    case Opcode.Add:
      return exact ? `(${a} + ${b})` : fast(`${a} + ${b}`, 'add64');
    case Opcode.Sub:
      return exact ? `(${a} - ${b})` : fast(`${a} - ${b}`, 'sub64');
    case Opcode.Mul:
      return exact ? `(${a} * ${b} + 0)` : `(${guard}(tr = ${a} * ${b}) <= 9007199254740991 && tr >= -9007199254740991 ? tr + 0 : mul64(${a}, ${b}))`;
    case Opcode.And:
    case Opcode.Or:
    case Opcode.Xor: {
      const op = i.op === Opcode.And ? '&' : i.op === Opcode.Or ? '|' : '^';
      if (g.boundOf(x) <= 31 && g.boundOf(y) <= 31) return `(${a} ${op} ${b})`;
      const h = i.op === Opcode.And ? 'and64' : i.op === Opcode.Or ? 'or64' : 'xor64';
      return `(${guard}(${a} | 0) === ${a} && (${b} | 0) === ${b} ? ${a} ${op} ${b} : ${h}(${a}, ${b}))`;
    }
    case Opcode.Shl: {
      if (y.kind === ValueKind.ConstantInt && exact) return `(${a} * ${2 ** Number((y as ConstantInt).value)})`;
      break;
    }
    case Opcode.SDiv:
      if (nx && ny) return divGuard(b, site, `(Math.trunc(${a} / ${b}) + 0)`);
      break;
    case Opcode.SRem:
      if (nx && ny) return divGuard(b, site, `(${a} % ${b} + 0)`);
      break;
    default:
      break;
  }
  return binExpr(i.op, i.type, a, b, site);
}

export function icmpExpr(p: Pred, t: Type, a: string, b: string): string {
  let c: string;
  if (t.kind === TypeKind.Int && t.bits === 1 && p >= Pred.SGT) {
    // i1 true is −1 when signed
    a = `(0 - ${a})`;
    b = `(0 - ${b})`;
  }
  const wide = t.kind === TypeKind.Int && t.bits > 32;
  const narrow = t.kind === TypeKind.Int && t.bits <= 32;
  const bits = t.bits;
  const ua = narrow ? uns(bits, a) : a;
  const ub = narrow ? uns(bits, b) : b;
  switch (p) {
    case Pred.EQ: c = `${a} === ${b}`; break;
    case Pred.NE: c = `${a} !== ${b}`; break;
    case Pred.SGT: c = `${a} > ${b}`; break;
    case Pred.SGE: c = `${a} >= ${b}`; break;
    case Pred.SLT: c = `${a} < ${b}`; break;
    case Pred.SLE: c = `${a} <= ${b}`; break;
    case Pred.ULT: c = wide ? `ult(${a}, ${b})` : `${ua} < ${ub}`; break;
    case Pred.UGT: c = wide ? `ult(${b}, ${a})` : `${ua} > ${ub}`; break;
    case Pred.ULE: c = wide ? `!ult(${b}, ${a})` : `${ua} <= ${ub}`; break;
    case Pred.UGE: c = wide ? `!ult(${a}, ${b})` : `${ua} >= ${ub}`; break;
    default: c = 'false';
  }
  return `(${c} ? 1 : 0)`;
}

export function fcmpExpr(p: Pred, a: string, b: string): string {
  let c: string;
  switch (p) {
    case Pred.FCMP_FALSE: return '0';
    case Pred.FCMP_TRUE: return '1';
    case Pred.FCMP_OEQ: c = `${a} === ${b}`; break;
    case Pred.FCMP_OGT: c = `${a} > ${b}`; break;
    case Pred.FCMP_OGE: c = `${a} >= ${b}`; break;
    case Pred.FCMP_OLT: c = `${a} < ${b}`; break;
    case Pred.FCMP_OLE: c = `${a} <= ${b}`; break;
    case Pred.FCMP_ONE: c = `(${a} < ${b} || ${a} > ${b})`; break;
    case Pred.FCMP_ORD: c = `(${a} === ${a} && ${b} === ${b})`; break;
    case Pred.FCMP_UNO: c = `(${a} !== ${a} || ${b} !== ${b})`; break;
    case Pred.FCMP_UEQ: c = `!(${a} < ${b} || ${a} > ${b})`; break;
    case Pred.FCMP_UGT: c = `!(${a} <= ${b})`; break;
    case Pred.FCMP_UGE: c = `!(${a} < ${b})`; break;
    case Pred.FCMP_ULT: c = `!(${a} >= ${b})`; break;
    case Pred.FCMP_ULE: c = `!(${a} > ${b})`; break;
    case Pred.FCMP_UNE: c = `${a} !== ${b}`; break;
    default: return '0';
  }
  return `(${c} ? 1 : 0)`;
}

function isFloatTy(t: Type): boolean {
  return t.kind >= TypeKind.Half && t.kind <= TypeKind.FP128;
}

export function castExpr(op: Opcode, from: Type, to: Type, a: string): string {
  const fb = from.kind === TypeKind.Int ? from.bits : 64;
  const tb = to.kind === TypeKind.Int ? to.bits : 64;
  switch (op) {
    case Opcode.Trunc:
      if (fb > 32) {
        if (tb > 32) return `truncW(${a}, ${tb})`;
        const t32 = `(typeof ${a} === 'number' ? ${a} | 0 : trunc32(${a}))`;
        return tb === 32 ? t32 : norm(tb, t32);
      }
      return tb === 32 ? a : norm(tb, a);
    case Opcode.ZExt:
      if (fb === 1) return a;
      if (fb <= 32) return tb > 32 || fb < tb ? uns(fb, a) : a;
      return `zextW(${a}, ${fb})`;
    case Opcode.SExt:
      if (fb === 1) return `(0 - ${a})`;
      return a;
    case Opcode.FPToSI:
      if (tb > 32) return tb === 64 ? `fptosi64(${a})` : tb > 64 ? `fptoiW(${a}, ${tb}, true)` : `truncW(fptosi64(${a}), ${tb})`;
      return tb === 32 ? `fptosi32(${a})` : norm(tb, `fptosi32(${a})`);
    case Opcode.FPToUI:
      if (tb > 32) return tb === 64 ? `fptoui64(${a})` : tb > 64 ? `fptoiW(${a}, ${tb}, false)` : `truncW(fptoui64(${a}), ${tb})`;
      return tb === 32 ? `fptoui32(${a})` : norm(tb, `fptoui32(${a})`);
    case Opcode.SIToFP: {
      const toF = to.kind === TypeKind.Float;
      if (fb === 1) return toF ? `Math.fround(0 - ${a})` : `(0 - ${a})`;
      if (fb <= 32) return toF ? `Math.fround(${a})` : a;
      return toF ? `sitofpF(${a})` : `sitofpD(${a})`;
    }
    case Opcode.UIToFP: {
      const toF = to.kind === TypeKind.Float;
      if (fb <= 32) return toF ? `Math.fround(${uns(fb, a)})` : uns(fb, a);
      return toF ? `uitofpF(${a}, ${fb})` : `uitofpD(${a}, ${fb})`;
    }
    case Opcode.FPTrunc:
      if (to.kind === TypeKind.Float) return `Math.fround(${a})`;
      if (to.kind === TypeKind.Half) return `roundHalf(${a})`;
      if (to.kind === TypeKind.BFloat) return `roundBfloat(${a})`;
      return a;
    case Opcode.FPExt:
      return a;
    case Opcode.PtrToInt:
      if (tb > 32) return tb >= 54 ? a : `truncW(${a}, ${tb})`;
      return tb === 32 ? `(${a} | 0)` : norm(tb, a);
    case Opcode.IntToPtr:
      if (fb <= 32) return uns(fb, a) === a ? a : `(${a} >>> 0)`;
      return `i2p(${a}, ${fb})`;
    case Opcode.AddrSpaceCast:
      return a;
    default:
      return `S.trap("bad cast", -1)`;
  }
}

export function bitcastExpr(g: Gen, a: string, from: Type, to: Type): string {
  if (from === to) return a;
  if (from.kind === TypeKind.Ptr && to.kind === TypeKind.Ptr) return a;
  if (from.kind === TypeKind.Float && to.kind === TypeKind.Int && to.bits === 32) return `f2i(${a})`;
  if (from.kind === TypeKind.Int && from.bits === 32 && to.kind === TypeKind.Float) return `i2f(${a})`;
  if (from.kind === TypeKind.Double && to.kind === TypeKind.Int && to.bits === 64) return `d2l(${a})`;
  if (from.kind === TypeKind.Int && from.bits === 64 && to.kind === TypeKind.Double) return `l2d(${a})`;
  if (isFloatTy(from) && isFloatTy(to)) return a;
  return `bitcastValue(${a}, ${g.bind(from)}, ${g.bind(to)})`;
}
