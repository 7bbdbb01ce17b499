/**
 * What indvars reads a loop's induction variables as: loop-invariant expressions kept
 * symbolic (a constant, a value, a sum or product of them) and emitted in the preheader only
 * when needed, the basic IVs (`phi = [start, preheader], [phi + step, latch]`), their linear
 * functions, and the range a basic IV's phi is known to stay in (what LLVM's ScalarEvolution
 * gives IndVarSimplify, for the affine case).
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { inversePred, Opcode, Pred, swappedPred } from '../../ir/opcodes.js';
import { Type } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { signedMax, signedMin } from '../../util/apint.js';


// ---- symbolic loop-invariant expressions ---------------------------------------------------

export const enum SK {
  Const,
  Val,
  Add,
  Mul,
}

/** An invariant integer expression, folded while built, emitted in the preheader on demand. */
export interface Sym {
  k: SK;
  c: bigint;
  v: Value | null;
  a: Sym | null;
  b: Sym | null;
  key: string;
}

export function sConst(c: bigint, bits: number): Sym {
  const n = BigInt.asIntN(bits, c);
  return { k: SK.Const, c: n, v: null, a: null, b: null, key: 'c' + n };
}
export function sVal(v: Value, bits: number): Sym {
  if (v.kind === ValueKind.ConstantInt) return sConst((v as ConstantInt).value, bits);
  return { k: SK.Val, c: 0n, v, a: null, b: null, key: 'v' + v.uid };
}
export function sAdd(a: Sym, b: Sym, bits: number): Sym {
  if (a.k === SK.Const && b.k === SK.Const) return sConst(a.c + b.c, bits);
  if (a.k === SK.Const && a.c === 0n) return b;
  if (b.k === SK.Const && b.c === 0n) return a;
  if (b.k === SK.Const && a.k !== SK.Const) return { k: SK.Add, c: 0n, v: null, a, b, key: `(+ ${a.key} ${b.key})` };
  if (a.k === SK.Const) return sAdd(b, a, bits);
  return { k: SK.Add, c: 0n, v: null, a, b, key: `(+ ${a.key} ${b.key})` };
}
export function sMul(a: Sym, b: Sym, bits: number): Sym {
  if (a.k === SK.Const && b.k === SK.Const) return sConst(a.c * b.c, bits);
  if (a.k === SK.Const && a.c === 0n) return a;
  if (b.k === SK.Const && b.c === 0n) return b;
  if (a.k === SK.Const && a.c === 1n) return b;
  if (b.k === SK.Const && b.c === 1n) return a;
  if (a.k === SK.Const) return sMul(b, a, bits);
  return { k: SK.Mul, c: 0n, v: null, a, b, key: `(* ${a.key} ${b.key})` };
}
export function sNeg(a: Sym, bits: number): Sym {
  return sMul(a, sConst(-1n, bits), bits);
}
export function sSub(a: Sym, b: Sym, bits: number): Sym {
  return sAdd(a, sNeg(b, bits), bits);
}

/** Emits invariant expressions before a fixed point (the preheader's terminator), sharing equal ones. */
export class SymEmitter {
  private memo = new Map<string, Value>();
  constructor(
    readonly before: Instruction,
    readonly type: Type,
  ) {}

  emit(s: Sym): Value {
    if (s.k === SK.Const) return ConstantInt.get(this.type, s.c);
    if (s.k === SK.Val) return s.v!;
    const m = this.memo.get(s.key);
    if (m !== undefined) return m;
    const a = this.emit(s.a!);
    const b = this.emit(s.b!);
    const i = new Instruction(s.k === SK.Add ? Opcode.Add : Opcode.Mul, this.type, [a, b]);
    this.before.parent!.insertBefore(i, this.before);
    this.memo.set(s.key, i);
    return i;
  }
}

// ---- IVs ---------------------------------------------------------------------------------------

export interface BasicIV {
  phi: Instruction;
  next: Instruction;
  start: Value;
  /** The per-iteration step (negated already for `sub`). */
  step: Sym;
  bits: number;
}

export interface Linear {
  iv: BasicIV;
  scale: Sym;
  offset: Sym;
}

/**
 * The values the phi of `iv` takes, when the loop proves that no increment overflows:
 * constant start and step, and the latch continuing on `icmp pred next, B` for a constant
 * B. Every phi value but the first is an earlier `next` that passed the test, so with
 * step > 0 and `slt B` the phi stays in [start, max(start, B - 1)] (mirrored for step < 0).
 * Null when that bound cannot be shown, or its increment could pass the signed limit.
 */
export function ivRange(iv: BasicIV, header: BasicBlock, latch: BasicBlock): { lo: bigint; hi: bigint } | null {
  if (iv.start.kind !== ValueKind.ConstantInt || iv.step.k !== SK.Const || iv.step.c === 0n) return null;
  const t = latch.terminator();
  if (t === null || t.op !== Opcode.Br || t.numOperands !== 3) return null;
  const cmp = t.operand(0);
  if (cmp.kind !== ValueKind.Instruction || (cmp as Instruction).op !== Opcode.ICmp) return null;
  const ci = cmp as Instruction;
  let pred = ci.pred;
  let b: Value;
  if (ci.operand(0) === iv.next) b = ci.operand(1);
  else if (ci.operand(1) === iv.next) {
    b = ci.operand(0);
    pred = swappedPred(pred);
  } else return null;
  if (b.kind !== ValueKind.ConstantInt) return null;
  if (t.operand(1) !== header) {
    if (t.operand(2) !== header) return null;
    pred = inversePred(pred);
  }
  const s = (iv.start as ConstantInt).value;
  const c = iv.step.c;
  const B = (b as ConstantInt).value;
  const bits = iv.bits;
  const smin = signedMin(bits);
  const smax = signedMax(bits);
  if (c > 0n) {
    let hi: bigint;
    if (pred === Pred.SLT) hi = B - 1n;
    else if (pred === Pred.SLE) hi = B;
    else if (pred === Pred.NE && s <= B && (B - s) % c === 0n) hi = B - c;
    else return null;
    if (hi < s) hi = s;
    return hi + c <= smax ? { lo: s, hi } : null;
  }
  let lo: bigint;
  if (pred === Pred.SGT) lo = B + 1n;
  else if (pred === Pred.SGE) lo = B;
  else if (pred === Pred.NE && s >= B && (s - B) % -c === 0n) lo = B - c;
  else return null;
  if (lo > s) lo = s;
  return lo + c >= smin ? { lo, hi: s } : null;
}
