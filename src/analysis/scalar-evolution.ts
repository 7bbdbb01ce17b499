/**
 * ScalarEvolution: every integer value of a function as a closed-form expression of loop
 * iterations (src/analysis/scev-expr.ts), backedge-taken counts of loops as expressions, and
 * the values loop values have when their loop exits. After LLVM's ScalarEvolution
 * (createSCEV, createAddRecFromPHI, howFarToZero / howManyLessThans / howManyGreaterThans,
 * getSCEVAtScope) and Bachmann, Wang and Zima's chains of recurrences.
 *
 * What is built:
 *  - add/sub/mul/shl-by-constant/udiv/zext/sext/trunc of integer values; anything else (loads,
 *    calls, selects, and/or…) is an unknown;
 *  - a loop header phi `[start, outside], [next, latch]` whose `next` is the phi plus an
 *    invariant (or plus a recurrence of the loop, giving higher orders) is `{start,+,step}<L>`,
 *    with nsw/nuw when the increment is an `add nsw/nuw` of the phi run on every iteration;
 *  - a phi after a loop taking one value from inside it is that value's exit value, so an
 *    outer loop sees what its inner loops leave behind (LLVM sees it once indvars has
 *    rewritten the LCSSA phi; doing it here lets one run solve a whole nest);
 *  - backedge-taken counts for loops with one latch that is also the only exiting block, whose
 *    test compares an affine recurrence of the loop with an invariant: ne/eq with step ±1,
 *    slt/sle/ult/ule counting up, sgt/sge/ugt/uge counting down (steps other than ±1 when the
 *    recurrence has the matching no-wrap flag), using facts of dominating branches at loop
 *    entry to drop the max (so `for (i = 0; i < n; i++)` guarded by `0 < n` counts `n - 1`).
 *
 * Invariants: results are exact or absent (null), never estimates; arithmetic is mod 2^bits;
 * analysis never changes the IR; recursion through operands is capped (MAX_DEPTH; a value
 * deeper than that is an unknown), so depth never grows with the input. Results are cached
 * per function by the pass manager and dropped by any pass that changes the function.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { Function } from '../ir/function.js';
import { Instruction } from '../ir/instruction.js';
import { Flag, inversePred, Opcode, Pred, swappedPred } from '../ir/opcodes.js';
import { ValueKind, type Value } from '../ir/value.js';
import type { ConstantInt } from '../ir/constants.js';
import type { DominatorTree } from './dominators.js';
import { CFG } from './cfg.js';
import { findLoops, type Loop, type LoopInfo } from './loops.js';
import { NW, SCEV, SCEVContext, SK } from './scev-expr.js';
import { scevRanges } from './scev-range.js';
import { loopIsFiniteByAssumption } from './loop-finite.js';

const MAX_DEPTH = 48;

export class ScalarEvolution {
  readonly ctx = new SCEVContext();
  private readonly cache = new Map<Value, SCEV>();
  /** Values cached while a header phi stood for itself (forgotten once it is resolved). */
  private log: Value[] | null = null;
  private readonly btc = new Map<Loop, SCEV | null>();
  private readonly finite = new Map<Loop, boolean>();

  constructor(
    readonly fn: Function,
    readonly li: LoopInfo,
    readonly dt: DominatorTree,
  ) {}

  loopOf(b: BasicBlock): Loop | null {
    return b.id >= 0 && b.id < this.li.cfg.n ? this.li.loopFor(b.id) : null;
  }

  /** The expression for integer value `v`. */
  get(v: Value): SCEV {
    return this.getAt(v, 0);
  }

  private getAt(v: Value, depth: number): SCEV {
    const c = this.cache.get(v);
    if (c !== undefined) return c;
    const bits = v.type.bits;
    let s: SCEV;
    if (v.kind === ValueKind.ConstantInt) s = this.ctx.constant((v as ConstantInt).value, bits);
    else if (!(v instanceof Instruction) || depth > MAX_DEPTH) s = this.ctx.unknown(v, bits);
    else s = this.create(v, depth + 1);
    this.cache.set(v, s);
    this.log?.push(v);
    return s;
  }

  private create(i: Instruction, d: number): SCEV {
    const ctx = this.ctx;
    const bits = i.type.bits;
    const op = (k: number) => this.atUse(i.operand(k), i.parent!, d);
    switch (i.op) {
      case Opcode.Add:
        return ctx.add([op(0), op(1)]);
      case Opcode.Sub:
        return ctx.minus(op(0), op(1));
      case Opcode.Mul:
        return ctx.mul([op(0), op(1)]);
      case Opcode.Shl: {
        const k = op(1);
        if (k.kind === SK.Const && k.c >= 0n && k.c < BigInt(bits)) return ctx.mul([op(0), ctx.constant(1n << k.c, bits)]);
        break;
      }
      case Opcode.UDiv: {
        const b = op(1);
        if (b.kind === SK.Const && b.c !== 0n) return ctx.udiv(op(0), b);
        break;
      }
      case Opcode.ZExt:
        if (i.operand(0).type.isInt()) return ctx.zext(op(0), bits);
        break;
      case Opcode.SExt:
        if (i.operand(0).type.isInt()) return ctx.sext(op(0), bits);
        break;
      case Opcode.Trunc:
        if (i.operand(0).type.isInt()) return ctx.trunc(op(0), bits);
        break;
      case Opcode.Select: {
        const r = this.selectMax(i, d);
        if (r !== null) return r;
        break;
      }
      case Opcode.Phi: {
        const r = this.phi(i, d);
        if (r !== null) return r;
        break;
      }
    }
    return ctx.unknown(i, bits);
  }

  /**
   * The expression of `v` where `block` uses it: a value of a loop that does not hold the
   * use has left that loop (and every loop around it that does not hold the use), so it
   * is its exit value (what LLVM reads through LCSSA phis).
   */
  private atUse(v: Value, block: BasicBlock, d: number): SCEV {
    const s = this.getAt(v, d);
    if (!(v instanceof Instruction) || v.parent === null) return s;
    let from = this.loopOf(v.parent);
    let out: SCEV | null = s;
    while (out !== null && from !== null && !from.contains(block.id)) {
      out = this.exitValue(out, from);
      from = from.parent;
    }
    return out ?? this.ctx.unknown(v, v.type.bits);
  }

  /** `select (icmp p x, y), x, y` and its mirror images as smax/umax (LLVM does the same). */
  private selectMax(i: Instruction, d: number): SCEV | null {
    const c = i.operand(0);
    if (!(c instanceof Instruction) || c.op !== Opcode.ICmp) return null;
    const [x, y, a, b] = [c.operand(0), c.operand(1), i.operand(1), i.operand(2)];
    let p = c.pred;
    if (a === y && b === x) p = inversePred(p);
    else if (!(a === x && b === y)) return null;
    // now: select (x p y), x, y
    const sx = this.atUse(x, i.parent!, d);
    const sy = this.atUse(y, i.parent!, d);
    if (p === Pred.SGT || p === Pred.SGE) return this.ctx.smax(sx, sy);
    if (p === Pred.UGT || p === Pred.UGE) return this.ctx.umax(sx, sy);
    return null;
  }

  private phi(p: Instruction, d: number): SCEV | null {
    const b = p.parent!;
    const loop = this.loopOf(b);
    if (loop !== null && this.li.cfg.blockOf(loop.header) === b) return this.headerPhi(p, loop, d);
    // one value from every predecessor: a copy, or a loop's value after it exits
    let v: Value | null = null;
    for (let k = 0; k < p.numIncoming; k++) {
      const x = p.incomingValue(k);
      if (v !== null && x !== v) return null;
      v = x;
    }
    if (v === null || v === p) return null;
    const s = this.getAt(v, d);
    if (!(v instanceof Instruction)) return s;
    let from = this.loopOf(v.parent!);
    let out: SCEV | null = s;
    // leave each loop around v that does not also hold the phi
    while (out !== null && from !== null && !from.contains(b.id)) {
      out = this.exitValue(out, from);
      from = from.parent;
    }
    return out;
  }

  private headerPhi(p: Instruction, loop: Loop, d: number): SCEV | null {
    const cfg = this.li.cfg;
    const latches = loop.latches();
    if (latches.length !== 1 || p.numIncoming !== 2) return null;
    const latch = cfg.blockOf(latches[0])!;
    const be = p.incomingValueFor(latch);
    let startV: Value | undefined;
    for (let k = 0; k < 2; k++) if (p.incomingBlock(k) !== latch) startV = p.incomingValue(k);
    if (be === undefined || startV === undefined) return null;
    const ctx = this.ctx;
    const self = ctx.unknown(p, p.type.bits);
    // the phi stands for itself while its increment is read; what was derived from that
    // is forgotten afterwards (it would otherwise keep the placeholder)
    this.cache.set(p, self);
    const outer = this.log;
    const log: Value[] = [];
    this.log = log;
    const next = this.atUse(be, latch, d);
    this.log = outer;
    for (const v of log) this.cache.delete(v);
    this.cache.delete(p);
    const start = this.atUse(startV, b0(p), d);
    if (!ctx.isInvariantIn(start, loop)) return null;
    let rest: SCEV[] | null = null;
    if (next.kind === SK.Add) {
      const k = next.ops.indexOf(self);
      if (k >= 0) {
        const others = next.ops.filter((_, j) => j !== k);
        const step = others.length === 1 ? others[0] : ctx.add(others);
        if (step.kind === SK.AddRec && step.loop === loop) rest = [step.start, ...step.ops.slice(1)];
        else if (ctx.isInvariantIn(step, loop)) rest = [step];
      }
    } else if (next.kind === SK.AddRec && next.loop === loop) {
      // {self + A0,+,A1,…}: self = {start,+,A0,+,A1,…}
      const s0 = next.start;
      let a0: SCEV | null = null;
      if (s0 === self) a0 = ctx.constant(0n, s0.bits);
      else if (s0.kind === SK.Add && s0.ops.includes(self)) {
        const others = s0.ops.filter((x) => x !== self);
        a0 = others.length === 1 ? others[0] : ctx.add(others);
      }
      if (a0 !== null && ctx.isInvariantIn(a0, loop)) rest = [a0, ...next.ops.slice(1)];
    }
    if (rest === null || rest.some((x) => !ctx.isInvariantIn(x, loop) || containsValue(x, p))) return null;
    let flags = 0;
    // an `add nsw/nuw %p, step` run on every iteration makes the recurrence not wrap
    if (be instanceof Instruction && be.op === Opcode.Add && (be.operand(0) === p || be.operand(1) === p) && rest.length === 1 && this.dt.dominatesBlock(be.parent!, latch)) {
      if (be.flags & Flag.NSW) flags |= NW.NSW;
      if (be.flags & Flag.NUW) flags |= NW.NUW;
    }
    const rec = ctx.addRec([start, ...rest], loop, flags);
    if (flags !== 0 && be instanceof Instruction) {
      // the increment itself: the same flags (it is the wrapped-or-poison value)
      this.cache.set(be, ctx.addRec(rec.ops.map((o, k) => (k === 0 ? ctx.add([o, rest![0]]) : o)), loop, flags));
      this.log?.push(be);
    }
    return rec;
  }

  /** The loop's backedge-taken count (runs of the body minus one), or null. */
  backedgeTakenCount(loop: Loop): SCEV | null {
    if (this.btc.has(loop)) return this.btc.get(loop)!;
    this.btc.set(loop, null);
    const r = this.computeBTC(loop);
    this.btc.set(loop, r);
    return r;
  }

  private computeBTC(loop: Loop): SCEV | null {
    const latches = loop.latches();
    const exiting = loop.exitingBlocks();
    if (latches.length !== 1 || exiting.length !== 1 || exiting[0] !== latches[0]) return null;
    return this.exitCount(loop, exiting[0]);
  }

  /**
   * The test of exiting block `exiting` (a block id) as `a pred n`, true while the loop goes
   * on, with `a` an affine recurrence of the loop and `n` invariant in it; or null.
   */
  exitTest(loop: Loop, exiting: number): { pred: Pred; a: SCEV; n: SCEV } | null {
    const cfg = this.li.cfg;
    const t = cfg.blockOf(exiting)!.terminator();
    if (t === null || !t.isConditionalBranch()) return null;
    const c = t.operand(0);
    if (!(c instanceof Instruction) || c.op !== Opcode.ICmp || !c.operand(0).type.isInt()) return null;
    const s0 = t.successor(0);
    const s1 = t.successor(1);
    const inside = (b: BasicBlock) => b.id >= 0 && b.id < cfg.n && loop.contains(b.id);
    if (inside(s0) === inside(s1)) return null;
    let pred = inside(s0) ? c.pred : inversePred(c.pred);
    let a = this.get(c.operand(0));
    let n = this.get(c.operand(1));
    if (!(a.kind === SK.AddRec && a.loop === loop)) {
      [a, n] = [n, a];
      pred = swappedPred(pred);
    }
    if (!(a.kind === SK.AddRec && a.loop === loop) || !a.isAffine() || !this.ctx.isInvariantIn(n, loop)) return null;
    return { pred, a, n };
  }

  /**
   * How many times the backedge is taken before exiting block `exiting` leaves the loop, if
   * no other exit is taken first (LLVM's computeExitLimit): only for a block of the loop
   * itself (not of an inner loop) that dominates the single latch, so its test runs once in
   * every iteration.
   */
  exitCount(loop: Loop, exiting: number): SCEV | null {
    const latches = loop.latches();
    if (latches.length !== 1 || this.li.loopFor(exiting) !== loop || !this.dt.dominates(exiting, latches[0])) return null;
    const t = this.exitTest(loop, exiting);
    return t === null ? null : this.countWhile(t.pred, t.a, t.n, loop, loop.exitingBlocks().length === 1);
  }

  /** Runs of `a pred n` being true from iteration 0 on, before the first false. */
  private countWhile(pred: Pred, a: SCEV, n: SCEV, loop: Loop, onlyExit: boolean): SCEV | null {
    const ctx = this.ctx;
    const bits = a.bits;
    const s = a.start;
    const step = a.step;
    if (step.kind !== SK.Const) return null;
    const c = step.c;
    const nsw = (a.flags & NW.NSW) !== 0;
    const nuw = (a.flags & NW.NUW) !== 0;
    switch (pred) {
      case Pred.NE:
        // the first k with s + c*k == n
        if (c === 1n) return ctx.minus(n, s);
        if (c === -1n) return ctx.minus(s, n);
        // constants: c*k = n - s mod 2^bits, LLVM's SolveLinEquationWithOverflow (no
        // solution: the test never fails, the loop is infinite or leaves otherwise)
        if (s.kind === SK.Const && n.kind === SK.Const) {
          const k = solveLinear(c, n.c - s.c, bits);
          return k === null ? null : ctx.constant(k, bits);
        }
        // a recurrence that does not wrap meets n exactly, at distance / |step|, when the test
        // is the loop's only way out (else it may never meet n, and leave by another exit;
        // LLVM's howFarToZero with ControlsOnlyExit)
        if ((nsw || nuw) && onlyExit) return c > 0n ? ctx.udiv(ctx.minus(n, s), step) : ctx.udiv(ctx.minus(s, n), ctx.constant(-c, bits));
        return null;
      case Pred.SLT:
      case Pred.ULT: {
        // counting up to n (exclusive): max(n, s) - s over c, rounded up
        const signed = pred === Pred.SLT;
        if (c <= 0n || (c !== 1n && !(signed ? nsw : nuw) && !this.cannotOverflowPast(n, c, signed) && !this.finiteNoWrap(c, onlyExit, loop))) return null;
        const ge = signed ? Pred.SGE : Pred.UGE;
        // n >= s - c + 1 is enough to drop the max: from there up to s, n - s + c - 1 lies
        // in [0, c - 2] and the division gives 0 as it should (LLVM's howManyLessThans tests
        // the guard against Start - Stride the same way)
        const low = s.kind === SK.Const ? s.c - c + 1n : null;
        const lowOk = low !== null && c > 1n && (signed ? low >= -(1n << BigInt(bits - 1)) : BigInt.asUintN(bits, s.c) - c + 1n >= 0n);
        const top = this.knownAtEntry(ge, n, s, loop) || (lowOk && this.knownAtEntry(ge, n, ctx.constant(low!, bits), loop)) ? n : signed ? ctx.smax(n, s) : ctx.umax(n, s);
        const dist = ctx.minus(top, s);
        return c === 1n ? dist : ctx.udiv(ctx.add([dist, ctx.constant(c - 1n, bits)]), step);
      }
      case Pred.SLE:
      case Pred.ULE: {
        // x <= n is x < n + 1 when the recurrence cannot pass n's type's maximum
        const signed = pred === Pred.SLE;
        if (c <= 0n || !(signed ? nsw : nuw)) return null;
        const sm1 = ctx.add([s, ctx.constant(-1n, bits)]);
        if (s.kind !== SK.Const || (signed ? s.c === -(1n << BigInt(bits - 1)) : s.c === 0n)) return null;
        const top = this.knownAtEntry(signed ? Pred.SGE : Pred.UGE, n, sm1, loop) ? n : signed ? ctx.smax(n, sm1) : ctx.umax(n, sm1);
        const dist = ctx.minus(top, sm1);
        return c === 1n ? dist : ctx.udiv(ctx.add([dist, ctx.constant(c - 1n, bits)]), step);
      }
      case Pred.SGT:
      case Pred.UGT: {
        // counting down to n (exclusive)
        const signed = pred === Pred.SGT;
        if (c >= 0n || (c !== -1n && !(signed ? nsw : nuw) && !this.cannotOverflowPast(n, c, signed) && !this.finiteNoWrap(-c, onlyExit, loop))) return null;
        const top = this.knownAtEntry(signed ? Pred.SGE : Pred.UGE, s, n, loop) ? s : signed ? ctx.smax(s, n) : ctx.umax(s, n);
        const dist = ctx.minus(top, n);
        return c === -1n ? dist : ctx.udiv(ctx.add([dist, ctx.constant(-c - 1n, bits)]), ctx.constant(-c, bits));
      }
      case Pred.SGE:
      case Pred.UGE: {
        // x >= n is x > n - 1; with the no-wrap flag n at the type's minimum would be UB
        const signed = pred === Pred.SGE;
        if (c >= 0n || !(signed ? nsw : nuw)) return null;
        const nm1 = ctx.add([n, ctx.constant(-1n, bits)]);
        if (n.kind === SK.Const && (signed ? n.c === -(1n << BigInt(bits - 1)) : n.c === 0n)) return null;
        const top = signed ? ctx.smax(s, nm1) : ctx.umax(s, nm1);
        const dist = ctx.minus(top, nm1);
        return c === -1n ? dist : ctx.udiv(ctx.add([dist, ctx.constant(-c - 1n, bits)]), ctx.constant(-c, bits));
      }
      default:
        return null;
    }
  }

  /**
   * Whether a recurrence stepping by |c| = 2^k past an invariant bound in the only exit of a
   * loop that may be assumed finite (loop-finite.ts) leaves before it wraps: if it wrapped,
   * every later lap would visit the same residues mod 2^k as the first, none of them past
   * the bound, and the loop would never end. (Not so for other steps: a later lap visits
   * other residues and may leave there, so the count of the first lap would be wrong.)
   */
  private finiteNoWrap(c: bigint, onlyExit: boolean, loop: Loop): boolean {
    if (!onlyExit || (c & (c - 1n)) !== 0n) return false;
    if (!this.finite.has(loop)) this.finite.set(loop, loopIsFiniteByAssumption(this.fn, loop));
    return this.finite.get(loop)!;
  }

  /**
   * Whether a recurrence stepping by `c` cannot wrap before it passes `n` (LLVM's
   * canIVOverflowOnLT/GT): n's range stays a step away from the type's end, so the last
   * value below (above) n plus the step still fits.
   */
  private cannotOverflowPast(n: SCEV, c: bigint, signed: boolean): boolean {
    const r = scevRanges(this);
    const w = n.bits;
    if (c > 0n) return signed ? r.signed(n).smax() <= (1n << BigInt(w - 1)) - 1n - (c - 1n) : r.unsigned(n).umax() <= (1n << BigInt(w)) - 1n - (c - 1n);
    return signed ? r.signed(n).smin() >= -(1n << BigInt(w - 1)) + (-c - 1n) : r.unsigned(n).umin() >= -c - 1n;
  }

  /**
   * Whether `x pred y` holds whenever the loop is entered, from the conditions of the
   * branches that dominate its header (LLVM's isLoopEntryGuardedByCond, for the simple
   * cases: the same operands, or y one more than the other side of a strict test).
   */
  knownAtEntry(pred: Pred, x: SCEV, y: SCEV, loop: Loop): boolean {
    const ctx = this.ctx;
    const signed = pred === Pred.SGE;
    if (x.kind === SK.Const && y.kind === SK.Const) {
      return signed ? x.c >= y.c : BigInt.asUintN(x.bits, x.c) >= BigInt.asUintN(y.bits, y.c);
    }
    if (x === y) return true;
    const cfg = this.li.cfg;
    let b: BasicBlock | null = cfg.blockOf(loop.header);
    for (let steps = 0; b !== null && steps < 32; steps++) {
      const id = b.id < this.dt.idom.length ? this.dt.idom[b.id] : -1;
      const idom: BasicBlock | null = id >= 0 ? cfg.blockOf(id) : null;
      if (idom === null) break;
      // the edge idom -> b is the only way in when b's only predecessor is idom
      const t = idom.terminator();
      if (t !== null && b.singlePredecessor() === idom && this.edgeImplies(t, b, signed, x, y)) return true;
      b = idom;
    }
    // a phi (invariant here) each of whose entries satisfies it, as a constant or on its edge
    if (x.kind === SK.Unknown && x.value instanceof Instruction && x.value.op === Opcode.Phi && y.kind === SK.Const) {
      const phi = x.value;
      for (let k = 0; k < phi.numIncoming; k++) {
        const v = this.get(phi.incomingValue(k));
        if (v.kind === SK.Const ? !(signed ? v.c >= y.c : BigInt.asUintN(v.bits, v.c) >= BigInt.asUintN(y.bits, y.c)) : !this.edgeImplies(phi.incomingBlock(k).terminator(), phi.parent!, signed, v, y)) return false;
      }
      return phi.numIncoming > 0;
    }
    return false;
  }

  /** Whether taking the edge of branch `t` to `to` implies `x >= y` (signed or unsigned). */
  private edgeImplies(t: Instruction | null, to: BasicBlock, signed: boolean, x: SCEV, y: SCEV): boolean {
    if (t === null || !t.isConditionalBranch() || t.successor(0) === t.successor(1)) return false;
    const cond = t.operand(0);
    if (!(cond instanceof Instruction) || cond.op !== Opcode.ICmp || !cond.operand(0).type.isInt()) return false;
    const ctx = this.ctx;
    let p = t.successor(0) === to ? cond.pred : inversePred(cond.pred);
    let l = this.get(cond.operand(0));
    let r = this.get(cond.operand(1));
    // normalise to l > r or l >= r
    if (p === Pred.SLT || p === Pred.SLE || p === Pred.ULT || p === Pred.ULE) {
      [l, r] = [r, l];
      p = swappedPred(p);
    }
    const strict = signed ? Pred.SGT : Pred.UGT;
    const weak = signed ? Pred.SGE : Pred.UGE;
    if ((p === weak || p === strict) && l === x && r === y) return true;
    if (p !== strict) return false;
    // l > r gives l >= r + 1 (r + 1 cannot wrap: r is below l)
    if (l === x && ctx.add([r, ctx.constant(1n, r.bits)]) === y) return true;
    // and l - 1 >= r (l - 1 cannot wrap: l is above r)
    return ctx.add([l, ctx.constant(-1n, l.bits)]) === x && r === y;
  }

  /**
   * The value `s` (an expression of values of `loop` and loops around it) has when `loop`
   * exits, or null: recurrences of `loop` evaluated at the backedge-taken count. Only for
   * loops whose one exiting block is the latch, where that count is exact.
   */
  exitValue(s: SCEV, loop: Loop): SCEV | null {
    if (this.ctx.isInvariantIn(s, loop)) return s;
    const n = this.backedgeTakenCount(loop);
    if (n === null) return null;
    return this.rewrite(s, loop, n);
  }

  private rewrite(s: SCEV, loop: Loop, n: SCEV): SCEV | null {
    const ctx = this.ctx;
    if (ctx.isInvariantIn(s, loop)) return s;
    switch (s.kind) {
      case SK.AddRec: {
        if (s.loop === loop) {
          // the count is unsigned; a recurrence of another width counts the same iterations
          const it = n.bits === s.bits ? n : n.bits < s.bits ? ctx.zext(n, s.bits) : ctx.trunc(n, s.bits);
          return ctx.evaluateAtIteration(s, it);
        }
        // a recurrence of an outer loop whose start varies in this one
        if (s.loop!.containsLoop(loop)) {
          const ops: SCEV[] = [];
          for (const o of s.ops) {
            const r = this.rewrite(o, loop, n);
            if (r === null) return null;
            ops.push(r);
          }
          return ctx.addRec(ops, s.loop!, 0);
        }
        return null;
      }
      case SK.Add:
      case SK.Mul: {
        const ops: SCEV[] = [];
        for (const o of s.ops) {
          const r = this.rewrite(o, loop, n);
          if (r === null) return null;
          ops.push(r);
        }
        return s.kind === SK.Add ? ctx.add(ops) : ctx.mul(ops);
      }
      case SK.ZExt:
      case SK.SExt:
      case SK.Trunc: {
        const r = this.rewrite(s.ops[0], loop, n);
        if (r === null) return null;
        return s.kind === SK.ZExt ? ctx.zext(r, s.bits) : s.kind === SK.SExt ? ctx.sext(r, s.bits) : ctx.trunc(r, s.bits);
      }
      default:
        return null;
    }
  }
}

/**
 * The least k ≥ 0 with a*k = b (mod 2^bits), unsigned, or null when there is none: with
 * a = 2^t * odd, b must have t low zero bits, and then k = (b / 2^t) * odd^-1 mod 2^(bits - t).
 */
export function solveLinear(a: bigint, b: bigint, bits: number): bigint | null {
  const A = BigInt.asUintN(bits, a);
  const B = BigInt.asUintN(bits, b);
  if (A === 0n) return B === 0n ? 0n : null;
  let t = 0;
  while (((A >> BigInt(t)) & 1n) === 0n) t++;
  if ((B & ((1n << BigInt(t)) - 1n)) !== 0n) return null;
  const w = bits - t;
  const odd = A >> BigInt(t);
  const m = (1n << BigInt(w)) - 1n;
  let inv = odd;
  for (let i = 0; i < 7; i++) inv = (inv * (2n - odd * inv)) & m;
  return ((B >> BigInt(t)) * inv) & m;
}

/** Scalar evolution of `fn` as it is now (for a pass that changed it before asking). */
export function freshScalarEvolution(fn: Function): ScalarEvolution {
  const li = findLoops(new CFG(fn));
  return new ScalarEvolution(fn, li, li.domTree);
}

const b0 = (p: Instruction): BasicBlock => p.parent!;

function containsValue(s: SCEV, v: Value): boolean {
  const stack = [s];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === SK.Unknown && x.value === v) return true;
    for (const o of x.ops) stack.push(o);
  }
  return false;
}
