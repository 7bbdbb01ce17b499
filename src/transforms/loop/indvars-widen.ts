/**
 * IV widening for indvars (LLVM's WidenIV, IndVarSimplify.cpp/SimplifyIndVar.cpp, for the
 * common case of sign-extended IVs on 64-bit targets).
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { i1, Type } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { Loop } from '../../analysis/loops.js';
import { deleteIfDead } from '../utils/local.js';
import { SK, BasicIV, ivRange } from './iv-expr.js';
import { signedMax, signedMin } from '../../util/apint.js';

import type { IndVars } from './indvars.js';

/**
 * IV widening (LLVM's WidenIV, for the common case): when `next = add nsw phi, step` and
 * the loop's values are sign-extended (`sext phi/next to iM`, array indices on 64-bit
 * targets), a second IV of type iM replaces the extensions. nsw means no step overflows,
 * so sext(phi + step) = sext(phi) + sext(step) on every executed iteration (an overflow
 * would have made the narrow value poison, which the wide one refines). Comparisons of
 * the narrow IV with an invariant move to the wide one too (sext keeps both signed and
 * unsigned order), and a narrow IV left with no other use dies.
 */
export function widenIV(ind: IndVars, l: Loop, iv: BasicIV, header: BasicBlock, ph: BasicBlock, latch: BasicBlock): void {
  const { phi, next } = iv;
  if (next.op !== Opcode.Add) return;
  const range = ivRange(iv, header, latch);
  if ((next.flags & Flag.NSW) === 0 && range === null) return;
  const bits = iv.bits;
  const smin = signedMin(bits);
  const smax = signedMax(bits);
  const stepC = iv.step.k === SK.Const ? iv.step.c : 0n;
  // sext users of the IV, and of `IV + constant` computed in the loop (array[i - 1])
  const exts: Instruction[] = [];
  const derived: { x: Instruction; base: Instruction; c: ConstantInt; exts: Instruction[] }[] = [];
  let wide: Type | null = null;
  for (const v of [phi, next]) {
    for (let u = v.firstUse; u !== null; u = u.next) {
      const x = u.user as Instruction;
      if (x.op === Opcode.SExt) {
        if (wide === null) wide = x.type;
        if (x.type === wide) exts.push(x);
        continue;
      }
      if (x.op !== Opcode.Add || x === next || !ind.inLoop(l, x.parent!)) continue;
      const c = x.operand(0) === v ? x.operand(1) : x.operand(0);
      if (c.kind !== ValueKind.ConstantInt) continue;
      const cv = (c as ConstantInt).value;
      let safe = (x.flags & Flag.NSW) !== 0;
      if (!safe && range !== null) {
        const lo = v === phi ? range.lo : range.lo + stepC;
        const hi = v === phi ? range.hi : range.hi + stepC;
        safe = lo + cv >= smin && hi + cv <= smax;
      }
      if (!safe) continue;
      const xs: Instruction[] = [];
      for (let w = x.firstUse; w !== null; w = w.next) {
        const y = w.user as Instruction;
        if (y.op !== Opcode.SExt) continue;
        if (wide === null) wide = y.type;
        if (y.type === wide) xs.push(y);
      }
      if (xs.length > 0) derived.push({ x, base: v, c: c as ConstantInt, exts: xs });
    }
  }
  if (wide === null || exts.length + derived.length === 0) return;
  // profitable? The wide IV costs a phi and an add per iteration; it saves the extensions
  // executed in the loop, the derived adds that die, and the narrow IV when nothing else
  // needs it (otherwise both IVs run side by side, which was a loss on quicksort)
  const inLoop = (x: Instruction): boolean => ind.inLoop(l, x.parent!);
  const dyingDerived = new Set<Instruction>();
  for (const d of derived) {
    let all = true;
    for (let u = d.x.firstUse; u !== null && all; u = u.next) if (!d.exts.includes(u.user as Instruction)) all = false;
    if (all) dyingDerived.add(d.x);
  }
  let gain = -2;
  for (const x of exts) if (inLoop(x)) gain++;
  for (const x of dyingDerived) if (inLoop(x)) gain++;
  const wt0 = wide;
  let narrowDies = true;
  for (const v of [phi, next]) {
    for (let u = v.firstUse; u !== null && narrowDies; u = u.next) {
      const x = u.user as Instruction;
      if (x === phi || x === next || (x.op === Opcode.SExt && x.type === wt0) || dyingDerived.has(x)) continue;
      if (x.op === Opcode.ICmp && inLoop(x)) {
        const other = x.operand(x.operand(0) === v ? 1 : 0);
        if (other !== v && ind.invariant(l, other) && other !== phi && other !== next) continue;
      }
      narrowDies = false;
    }
  }
  if (narrowDies) gain += 2;
  if (gain <= 0) return;
  next.flags |= Flag.NSW; // given, or proven by ivRange: no increment the loop executes overflows
  const wt = wide;
  const phTerm = ph.terminator()!;
  const extend = (v: Value): Value => {
    if (v.kind === ValueKind.ConstantInt) return ConstantInt.get(wt, (v as ConstantInt).value);
    const e = new Instruction(Opcode.SExt, wt, [v]);
    e.insertBefore(phTerm);
    return e;
  };
  const stepV = next.operand(0) === phi ? next.operand(1) : next.operand(0);
  const pw = new Instruction(Opcode.Phi, wt, []);
  pw.blocks = [];
  pw.name = (phi.name === '' ? 'iv' : phi.name) + '.wide';
  header.insertAfterPhis(pw);
  const nw = new Instruction(Opcode.Add, wt, [pw, extend(stepV)]);
  nw.flags = Flag.NSW;
  nw.name = pw.name + '.next';
  nw.insertAfter(next);
  pw.addIncoming(extend(iv.start), ph);
  pw.addIncoming(nw, latch);
  for (const x of exts) {
    x.replaceAllUsesWith(x.operand(0) === phi ? pw : nw);
    x.eraseFromParent();
  }
  for (const d of derived) {
    const xw = new Instruction(Opcode.Add, wt, [d.base === phi ? pw : nw, ConstantInt.get(wt, d.c.value)]);
    xw.flags = Flag.NSW;
    xw.name = d.x.name === '' ? '' : d.x.name + '.wide';
    xw.insertAfter(d.x);
    for (const y of d.exts) {
      y.replaceAllUsesWith(xw);
      y.eraseFromParent();
    }
    deleteIfDead(d.x);
  }
  // comparisons with loop invariants (the exit test)
  for (const v of [phi, next]) {
    for (let u = v.firstUse; u !== null; ) {
      const x = u.user as Instruction;
      u = u.next;
      if (x.op !== Opcode.ICmp || !ind.inLoop(l, x.parent!)) continue;
      const k = x.operand(0) === v ? 1 : 0;
      const other = x.operand(k);
      if (other === v || !ind.invariant(l, other)) continue;
      const c = new Instruction(Opcode.ICmp, i1, k === 1 ? [v === phi ? pw : nw, extend(other)] : [extend(other), v === phi ? pw : nw]);
      c.pred = x.pred;
      c.name = x.name;
      c.insertBefore(x);
      x.replaceAllUsesWith(c);
      x.eraseFromParent();
    }
  }
  // the narrow IV dies when only its own recurrence uses it
  const onlyRecurrence = (v: Instruction, other: Instruction): boolean => {
    for (let u = v.firstUse; u !== null; u = u.next) if (u.user !== other) return false;
    return true;
  };
  if (onlyRecurrence(phi, next) && onlyRecurrence(next, phi)) {
    phi.dropAllReferences();
    next.eraseFromParent();
    phi.eraseFromParent();
  }
  ind.stats.widened++;
}
