/**
 * Turns a scalar evolution expression back into instructions at a point of the function
 * (LLVM's SCEVExpander): adds and muls as chains,
 * `(-1 * x)` terms as subtractions, smax/umax as icmp + select, casts as casts. Equal
 * subexpressions are emitted once per expander.
 *
 * Invariants: the emitted arithmetic carries no nsw/nuw (it is exact mod 2^bits, as the
 * expression is, so it never makes poison); every unknown must dominate the insertion point
 * (the caller checks with `dominatesPoint`); a recurrence (of a loop around the point) is
 * written with a phi of its loop that counts the iterations, else, when the caller allows
 * it, as new phis of that loop; otherwise it is declined (null; what was emitted by then is
 * dead code for dce).
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import { IRBuilder } from '../../ir/builder.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, Pred } from '../../ir/opcodes.js';
import { intType } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import type { DominatorTree } from '../../analysis/dominators.js';
import type { Loop } from '../../analysis/loops.js';
import { SK, type SCEV } from '../../analysis/scev-expr.js';
import type { ScalarEvolution } from '../../analysis/scalar-evolution.js';

function isPow2Const(s: SCEV): boolean {
  if (s.kind !== SK.Const) return false;
  const u = BigInt.asUintN(s.bits, s.c);
  return u > 0n && (u & (u - 1n)) === 0n;
}

function log2(u: bigint): number {
  let k = 0;
  while (u > 1n) {
    u >>= 1n;
    k++;
  }
  return k;
}

/** Instructions `s` would take (recurrences: Infinity); subexpressions counted once. */
export function expansionCost(s: SCEV): number {
  const seen = new Set<SCEV>();
  const stack = [s];
  let cost = 0;
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (seen.has(x)) continue;
    seen.add(x);
    switch (x.kind) {
      case SK.Const:
      case SK.Unknown:
        continue;
      case SK.AddRec:
        // an outer loop's recurrence: start + step * (iv - iv's start), or a new phi and an
        // add in its loop per order
        cost += x.isAffine() ? 3 : 2 * (x.ops.length - 1);
        break;
      case SK.Add:
      case SK.Mul:
        cost += x.ops.length - 1;
        break;
      case SK.SMax:
      case SK.UMax:
      case SK.SMin:
      case SK.UMin:
        cost += 2 * (x.ops.length - 1);
        break;
      case SK.UDiv:
        // a division is slow; by a power of two it is a shift (as LLVM's expander emits it)
        cost += isPow2Const(x.ops[1]) ? 1 : 4;
        break;
      default:
        cost += 1;
    }
    for (const o of x.ops) stack.push(o);
  }
  return cost;
}

/** Whether every unknown of `s` is available in `block` (its definition dominates it). */
export function dominatesPoint(s: SCEV, block: BasicBlock, dt: DominatorTree): boolean {
  const stack = [s];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === SK.Unknown && x.value instanceof Instruction) {
      const b = x.value.parent;
      if (b === null || b === block || !dt.dominatesBlock(b, block)) return false;
    }
    // a recurrence is expanded inside its loop only
    if (x.kind === SK.AddRec && !(block.id >= 0 && block.id < x.loop!.info.cfg.n && x.loop!.contains(block.id))) return false;
    for (const o of x.ops) stack.push(o);
  }
  return true;
}

/** Whether every unknown of `s` is defined in `block` or a block dominating it (usable at its end). */
function availableAtEnd(s: SCEV, block: BasicBlock, dt: DominatorTree): boolean {
  const stack = [s];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === SK.Unknown && x.value instanceof Instruction) {
      const b = x.value.parent;
      if (b === null || (b !== block && !dt.dominatesBlock(b, block))) return false;
    }
    if (x.kind === SK.AddRec && !(block.id >= 0 && block.id < x.loop!.info.cfg.n && x.loop!.contains(block.id))) return false;
    for (const o of x.ops) stack.push(o);
  }
  return true;
}

/** `(-1 * t)`: emitted as a subtraction of t. */
function isNegTerm(o: SCEV): boolean {
  return o.kind === SK.Mul && o.ops.length === 2 && o.ops[0].kind === SK.Const && o.ops[0].c === -1n;
}

export class SCEVExpander {
  private readonly done = new Map<SCEV, Value>();
  private readonly b: IRBuilder;
  /** Instructions emitted, for statistics. */
  emitted = 0;
  /** Expanders at the preheaders of loops that got new phis (their starts are emitted there). */
  private readonly atPreheader = new Map<Loop, SCEVExpander>();

  constructor(
    before: Instruction,
    private readonly se: ScalarEvolution,
    /** Whether a recurrence of a loop around the point may become new phis of that loop. */
    private readonly newPhis = false,
  ) {
    this.b = new IRBuilder().setInsertPointBefore(before);
  }

  /**
   * A recurrence of a loop around the insertion point as phis of its own (LLVM's
   * expandAddRecExprLiterally): {o0,+,o1,…,+,on} is P0 with P_k = phi [o_k, preheader],
   * [P_k + P_(k+1), latch] and P_n = o_n, so every value is the running sum of the next
   * order's, as the recurrence's definition says. Needs a preheader and one latch; the
   * operands are invariant in the loop, so they are emitted in the preheader.
   */
  private literal(r: SCEV): Value | null {
    const loop = r.loop!;
    const cfg = loop.info.cfg;
    const ph = loop.preheader();
    const latches = loop.latches();
    if (!this.newPhis || ph < 0 || latches.length !== 1) return null;
    const preBlock = cfg.blockOf(ph)!;
    const header = cfg.blockOf(loop.header)!;
    const latch = cfg.blockOf(latches[0])!;
    const lt = latch.terminator();
    const pt = preBlock.terminator();
    if (lt === null || pt === null) return null;
    for (const o of r.ops) if (!this.se.ctx.isInvariantIn(o, loop) || !availableAtEnd(o, preBlock, this.se.dt)) return null;
    let pre = this.atPreheader.get(loop);
    if (pre === undefined) this.atPreheader.set(loop, (pre = new SCEVExpander(pt, this.se, this.newPhis)));
    const starts: Value[] = [];
    for (const o of r.ops) {
      const v = pre.expand(o);
      if (v === null) return null;
      starts.push(v);
    }
    this.emitted += pre.emitted;
    pre.emitted = 0;
    const ty = intType(r.bits);
    const hb = new IRBuilder(header);
    const phis: Instruction[] = [];
    for (let k = 0; k < r.ops.length - 1; k++) {
      phis.push(hb.phi(ty, 'scev.iv'));
      this.emitted++;
    }
    const lb = new IRBuilder().setInsertPointBefore(lt);
    for (let k = 0; k < phis.length; k++) {
      const next = k + 1 < phis.length ? phis[k + 1] : starts[k + 1];
      const inc = lb.binary(Opcode.Add, phis[k], next);
      this.emitted++;
      phis[k].addIncoming(starts[k], preBlock);
      phis[k].addIncoming(inc, latch);
    }
    return phis[0];
  }

  /**
   * An affine recurrence of a loop around the insertion point, written with one of the
   * loop's header phis that counts by one: {a,+,b} = a + b * (phi - phi's start).
   */
  private viaCountingPhi(r: SCEV): SCEV | null {
    const se = this.se;
    const ctx = se.ctx;
    const header = r.loop!.info.cfg.blockOf(r.loop!.header)!;
    // a phi that is the recurrence itself
    for (const p of header.phis()) if (p.type.isInt(r.bits) && se.get(p) === r) return ctx.unknown(p, r.bits);
    for (const p of header.phis()) {
      if (!p.type.isInt(r.bits)) continue;
      const ps = se.get(p);
      if (ps.kind !== SK.AddRec || ps.loop !== r.loop || !ps.isAffine() || ps.step.kind !== SK.Const) continue;
      // p - p's start = c * it: the step over c when c is ±1 or divides it exactly
      const c = ps.step.c;
      let factor: SCEV | null = null;
      if (c === 1n) factor = r.step;
      else if (c === -1n) factor = ctx.negate(r.step);
      else if (c !== 0n && r.step.kind === SK.Const && r.step.c % c === 0n) factor = ctx.constant(r.step.c / c, r.bits);
      if (factor !== null) return ctx.add([r.start, ctx.mul([factor, ctx.minus(ctx.unknown(p, r.bits), ps.start)])]);
    }
    return null;
  }

  /** The value of `s` at the insertion point (null for a recurrence; check expansionCost first). */
  expand(s: SCEV): Value | null {
    // post-order over the expression with an explicit stack (expressions can be deep)
    const stack: [SCEV, boolean][] = [[s, false]];
    while (stack.length > 0) {
      const [x, ready] = stack.pop()!;
      if (this.done.has(x)) continue;
      if (x.kind === SK.AddRec) {
        const y = x.isAffine() ? this.viaCountingPhi(x) : null;
        const v = y !== null ? this.expand(y) : this.literal(x);
        if (v === null) return null;
        this.done.set(x, v);
        continue;
      }
      if (!ready) {
        stack.push([x, true]);
        for (const o of x.ops) {
          const c = x.kind === SK.Add && isNegTerm(o) ? o.ops[1] : o;
          if (!this.done.has(c)) stack.push([c, false]);
        }
        continue;
      }
      this.done.set(x, this.emit(x));
    }
    return this.done.get(s)!;
  }

  private emit(x: SCEV): Value {
    const b = this.b;
    const ty = intType(x.bits);
    const v = (o: SCEV) => this.done.get(o)!;
    const inst = (i: Instruction) => {
      this.emitted++;
      return i;
    };
    switch (x.kind) {
      case SK.Const:
        return ConstantInt.get(ty, x.c);
      case SK.Unknown:
        return x.value!;
      case SK.Add: {
        // positive terms first, then `(-1 * t)` terms subtracted
        const pos: Value[] = [];
        const neg: Value[] = [];
        for (const o of x.ops) {
          if (isNegTerm(o)) neg.push(v(o.ops[1]));
          else pos.push(v(o));
        }
        let acc: Value = pos.length > 0 ? pos[0] : ConstantInt.get(ty, 0);
        for (let k = 1; k < pos.length; k++) acc = inst(b.binary(Opcode.Add, acc, pos[k]));
        for (const n of neg) acc = inst(b.binary(Opcode.Sub, acc, n));
        return acc;
      }
      case SK.Mul: {
        let acc = v(x.ops[x.ops.length - 1]);
        for (let k = x.ops.length - 2; k >= 0; k--) acc = inst(b.binary(Opcode.Mul, acc, v(x.ops[k])));
        return acc;
      }
      case SK.UDiv:
        if (isPow2Const(x.ops[1])) return inst(b.binary(Opcode.LShr, v(x.ops[0]), ConstantInt.get(ty, log2(BigInt.asUintN(x.bits, x.ops[1].c)))));
        return inst(b.binary(Opcode.UDiv, v(x.ops[0]), v(x.ops[1])));
      case SK.SMax:
      case SK.UMax:
      case SK.SMin:
      case SK.UMin: {
        const p = x.kind === SK.SMax ? Pred.SGT : x.kind === SK.UMax ? Pred.UGT : x.kind === SK.SMin ? Pred.SLT : Pred.ULT;
        let acc = v(x.ops[0]);
        for (let k = 1; k < x.ops.length; k++) {
          const r = v(x.ops[k]);
          acc = inst(b.select(inst(b.icmp(p, acc, r)), acc, r));
        }
        return acc;
      }
      case SK.ZExt:
        return inst(b.cast(Opcode.ZExt, v(x.ops[0]), ty));
      case SK.SExt:
        return inst(b.cast(Opcode.SExt, v(x.ops[0]), ty));
      case SK.Trunc:
        return inst(b.cast(Opcode.Trunc, v(x.ops[0]), ty));
    }
    throw new Error(`SCEVExpander: cannot expand kind ${x.kind}`);
  }
}
