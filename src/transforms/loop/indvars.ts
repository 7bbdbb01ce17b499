/**
 * Induction variables: recognition, strength reduction, elimination of redundant IVs, exit
 * values and linear-function test replacement. After the dragon book (Aho, Lam, Sethi,
 * Ullman, §9.1.7 "Induction variables and reduction in strength"; Cooper & Torczon, EaC §10.7.2,
 * operator strength reduction) and the parts of LLVM's IndVarSimplify (rewriteLoopExitValues,
 * linearFunctionTestReplace) that need no scalar evolution framework.
 *
 * Loops are in LoopSimplify form (`simplifyLoops` runs first: preheader, one latch) and are
 * visited inner first. What is done:
 *  - a basic IV is a header phi `[start, preheader], [next, latch]` with next = phi + s or
 *    phi - s, s loop-invariant; a derived value is linear in one basic IV's phi:
 *    `scale * phi + offset`, through add/sub/mul/shl-by-constant with invariant operands,
 *    all in the IV's integer type (no casts: sext/zext of an IV are not followed);
 *  - redundant IVs: two basic IVs of one loop with the same type, start and step become
 *    one (the increments too, when one dominates the other; differing nsw/nuw are dropped);
 *  - strength reduction: a derived value that is used as a plain value (a root) and is
 *    computed through a `mul` becomes a new IV `phi [scale*start + offset, preheader],
 *    [p + scale*step, latch]`, its increment placed right after the basic IV's, invariant
 *    parts computed in the preheader (equal derived values share one IV). A new IV costs a
 *    phi and an add per iteration, so by default (`strength-reduce=profitable`) only roots
 *    whose replacement kills at least two instructions are reduced (`always`: any; `never`).
 *    Arithmetic is mod 2^n and the new instructions carry no nsw/nuw, so wrapping never
 *    becomes poison;
 *  - exit values: when the loop has one exit edge, leaving from a block that dominates the
 *    latch on `icmp pred A, B` (A the phi or next of a basic IV with step ±1, B invariant),
 *    the values of that IV and of its derived values used after the loop are replaced by
 *    their closed form (`ne`: B; `<`: max(A0, B); `<=`: max(A0, B+1); mirrored for step -1,
 *    A0 the first tested value) — only when it folds to a constant or an existing value
 *    (`exit-values=always` also emits the max as icmp+select);
 *  - LFTR: when the trip count is a known constant T and the IV tested is used only by its
 *    own phi/increment and the exit test, the test is rewritten as `icmp ne/eq` on another
 *    IV of the loop with a constant step against its value after T steps (exact when
 *    T*|step| < 2^bits), and the old IV dies.
 *  - widening: an IV `next = add nsw phi, step` whose values are sign-extended gets a
 *    wide twin that replaces the extensions and the invariant comparisons (indvars-widen.ts).
 *  - LFTR with symbolic trip counts on scalar evolution: indvars-lftr.ts, after the above.
 * Not done: widening through zext or through derived values, non-affine recurrences,
 * loops with several exits, pointer IVs (GEP strength
 * reduction), loop deletion.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, inversePred, Opcode, Pred, swappedPred } from '../../ir/opcodes.js';
import { i1, Type } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { CFG } from '../../analysis/cfg.js';
import type { DominatorTree } from '../../analysis/dominators.js';
import { findLoops, Loop, type LoopInfo } from '../../analysis/loops.js';
import { LoopAnalysis } from '../../pm/analyses.js';
import type { PassContext } from '../../pm/pass.js';
import { definePass, param, reportStats } from '../../pm/define-pass.js';
import { computeLoopExits, simplifyLoops, type LoopExits } from '../utils/loop-simplify.js';
import { deleteIfDead } from '../utils/local.js';
import { SK, Sym, sConst, sVal, sAdd, sMul, sNeg, sSub, SymEmitter, BasicIV, Linear } from './iv-expr.js';
import { widenIV } from './indvars-widen.js';
import { indvarsExitValuesSCEV } from './indvars-scev.js';
import { indvarsComparesSCEV } from './indvars-compares.js';
import { indvarsLFTRSCEV } from './indvars-lftr.js';

export interface IndVarsOptions {
  /** 'profitable': only when the replaced chain has at least two instructions (a mul among them). */
  strengthReduce: 'never' | 'profitable' | 'always';
  exitValues: 'never' | 'cheap' | 'always';
  lftr: boolean;
  /** Widen sign-extended IVs to the extension's type. */
  widen: boolean;
}

export const DEFAULT_INDVARS_OPTIONS: IndVarsOptions = { strengthReduce: 'profitable', exitValues: 'cheap', lftr: true, widen: true };

export interface IndVarsStats {
  redundant: number;
  reduced: number;
  exitValues: number;
  lftr: number;
  widened: number;
}

export class IndVars {
  readonly stats: IndVarsStats = { redundant: 0, reduced: 0, exitValues: 0, lftr: 0, widened: 0 };
  private readonly exits: LoopExits;

  constructor(
    readonly li: LoopInfo,
    readonly cfg: CFG,
    readonly dt: DominatorTree,
    readonly opts: IndVarsOptions,
  ) {
    this.exits = computeLoopExits(li);
  }

  inLoop(l: Loop, b: BasicBlock): boolean {
    return b.id < this.cfg.n && this.cfg.blocks[b.id] === b && l.contains(b.id);
  }

  invariant(l: Loop, v: Value): boolean {
    if (v.kind === ValueKind.Instruction) return !this.inLoop(l, (v as Instruction).parent!);
    return v.kind !== ValueKind.BasicBlock;
  }

  /** Whether instruction a is available right after b executes (a dominates b's position). */
  private dominatesInst(a: Instruction, b: Instruction): boolean {
    if (a.parent !== b.parent) return this.dt.dominates(a.parent!.id, b.parent!.id);
    for (let i = a.next; i !== null; i = i.next) if (i === b) return true;
    return false;
  }

  processLoop(l: Loop): void {
    const phId = l.preheader();
    const latches = l.latches();
    if (phId < 0 || latches.length !== 1) return;
    const ph = this.cfg.blockOf(phId)!;
    const latch = this.cfg.blockOf(latches[0])!;
    const header = this.cfg.blockOf(l.header)!;
    const ivs = this.findBasicIVs(l, header, ph, latch);
    if (ivs.length === 0) return;
    this.mergeRedundant(ivs);
    const live = ivs.filter((iv) => iv.phi.parent !== null);
    const created: BasicIV[] = [];
    if (this.opts.strengthReduce !== 'never') this.strengthReduce(l, live, header, ph, latch, created);
    const all = [...live, ...created];
    if (this.opts.exitValues !== 'never' || this.opts.lftr) this.exitAndTest(l, all, ph);
    if (this.opts.widen) for (const iv of all) if (iv.phi.parent !== null && iv.next.parent !== null) widenIV(this, l, iv, header, ph, latch);
  }



  private findBasicIVs(l: Loop, header: BasicBlock, ph: BasicBlock, latch: BasicBlock): BasicIV[] {
    const out: BasicIV[] = [];
    for (let p = header.first; p !== null && p.op === Opcode.Phi; p = p.next) {
      if (!p.type.isInt() || p.numIncoming !== 2) continue;
      const start = p.incomingValueFor(ph);
      const next = p.incomingValueFor(latch);
      if (start === undefined || next === undefined || next.kind !== ValueKind.Instruction) continue;
      const n = next as Instruction;
      if (!this.inLoop(l, n.parent!)) continue;
      const bits = p.type.bits;
      let step: Sym | null = null;
      if (n.op === Opcode.Add) {
        if (n.operand(0) === p && this.invariant(l, n.operand(1))) step = sVal(n.operand(1), bits);
        else if (n.operand(1) === p && this.invariant(l, n.operand(0))) step = sVal(n.operand(0), bits);
      } else if (n.op === Opcode.Sub && n.operand(0) === p && this.invariant(l, n.operand(1))) {
        step = sNeg(sVal(n.operand(1), bits), bits);
      }
      if (step === null) continue;
      out.push({ phi: p, next: n, start, step, bits });
    }
    return out;
  }

  private mergeRedundant(ivs: BasicIV[]): void {
    for (let a = 0; a < ivs.length; a++) {
      const x = ivs[a];
      if (x.phi.parent === null) continue;
      for (let b = a + 1; b < ivs.length; b++) {
        const y = ivs[b];
        if (y.phi.parent === null || y.phi.type !== x.phi.type || y.start !== x.start || y.step.key !== x.step.key) continue;
        y.phi.replaceAllUsesWith(x.phi);
        y.phi.eraseFromParent();
        if (y.next.parent !== null && this.dominatesInst(x.next, y.next)) {
          if ((x.next.flags & (Flag.NSW | Flag.NUW)) !== (y.next.flags & (Flag.NSW | Flag.NUW))) x.next.flags &= ~(Flag.NSW | Flag.NUW);
          y.next.replaceAllUsesWith(x.next);
          deleteIfDead(y.next);
        }
        this.stats.redundant++;
      }
    }
  }

  /** Linear forms of the loop's values in one basic IV (computed in dominator order). */
  private linearForms(l: Loop, ivs: BasicIV[]): Map<Instruction, Linear> {
    const lin = new Map<Instruction, Linear>();
    for (const iv of ivs) {
      lin.set(iv.phi, { iv, scale: sConst(1n, iv.bits), offset: sConst(0n, iv.bits) });
    }
    for (const iv of ivs) {
      if (iv.next.parent !== null) lin.set(iv.next, { iv, scale: sConst(1n, iv.bits), offset: iv.step });
    }
    const linOf = (v: Value): Linear | undefined => (v.kind === ValueKind.Instruction ? lin.get(v as Instruction) : undefined);
    // Forward from the IVs through their users: only derived chains are visited (linear even
    // in deep nests). A user whose other operand is derived but not known yet is retried
    // when that operand becomes known (it is a user of it too).
    const work: Instruction[] = [...lin.keys()];
    const isCandidate = (v: Value): v is Instruction =>
      v.kind === ValueKind.Instruction && (v as Instruction).op !== Opcode.Phi && (v as Instruction).type.isInt() && this.inLoop(l, (v as Instruction).parent!);
    while (work.length > 0) {
      const v = work.pop()!;
      for (let u = v.firstUse; u !== null; u = u.next) {
        const i = u.user as Instruction;
        if (lin.has(i) || !isCandidate(i)) continue;
        const bits = i.type.bits;
        let r: Linear | null = null;
        switch (i.op) {
          case Opcode.Add:
          case Opcode.Sub: {
            const x = linOf(i.operand(0));
            const y = linOf(i.operand(1));
            const sub = i.op === Opcode.Sub;
            if (x !== undefined && y === undefined && this.invariant(l, i.operand(1))) {
              const c = sVal(i.operand(1), bits);
              r = { iv: x.iv, scale: x.scale, offset: sub ? sSub(x.offset, c, bits) : sAdd(x.offset, c, bits) };
            } else if (y !== undefined && x === undefined && this.invariant(l, i.operand(0))) {
              const c = sVal(i.operand(0), bits);
              r = sub ? { iv: y.iv, scale: sNeg(y.scale, bits), offset: sSub(c, y.offset, bits) } : { iv: y.iv, scale: y.scale, offset: sAdd(c, y.offset, bits) };
            } else if (x !== undefined && y !== undefined && x.iv === y.iv) {
              r = sub
                ? { iv: x.iv, scale: sSub(x.scale, y.scale, bits), offset: sSub(x.offset, y.offset, bits) }
                : { iv: x.iv, scale: sAdd(x.scale, y.scale, bits), offset: sAdd(x.offset, y.offset, bits) };
            }
            break;
          }
          case Opcode.Mul: {
            const x = linOf(i.operand(0));
            const y = linOf(i.operand(1));
            let lx: Linear | undefined;
            let c: Value | null = null;
            if (x !== undefined && y === undefined && this.invariant(l, i.operand(1))) {
              lx = x;
              c = i.operand(1);
            } else if (y !== undefined && x === undefined && this.invariant(l, i.operand(0))) {
              lx = y;
              c = i.operand(0);
            }
            if (lx !== undefined && c !== null) {
              const s = sVal(c, bits);
              r = { iv: lx.iv, scale: sMul(lx.scale, s, bits), offset: sMul(lx.offset, s, bits) };
            }
            break;
          }
          case Opcode.Shl: {
            const x = linOf(i.operand(0));
            const c = i.operand(1);
            if (x !== undefined && c.kind === ValueKind.ConstantInt) {
              const sh = (c as ConstantInt).zext();
              if (sh < BigInt(bits)) {
                const s = sConst(1n << sh, bits);
                r = { iv: x.iv, scale: sMul(x.scale, s, bits), offset: sMul(x.offset, s, bits) };
              }
            }
            break;
          }
          default:
            break;
        }
        if (r !== null && r.iv.phi.type === i.type) {
          lin.set(i, r);
          work.push(i);
        }
      }
    }
    return lin;
  }

  /** Whether the IV's phi and increment feed nothing but each other, `dying` and one compare. */
  private onlyExitTestLeft(iv: BasicIV, dying: Set<Instruction>): boolean {
    let cmp: Instruction | null = null;
    for (const v of [iv.phi, iv.next]) {
      for (let u = v.firstUse; u !== null; u = u.next) {
        const user = u.user as Instruction;
        if (user === iv.phi || user === iv.next || dying.has(user)) continue;
        if (user.op !== Opcode.ICmp || (cmp !== null && cmp !== user)) return false;
        cmp = user;
      }
    }
    // LFTR needs a constant trip count: constant start and bound, step ±1
    if (cmp === null || iv.start.kind !== ValueKind.ConstantInt || iv.step.k !== SK.Const) return false;
    if (iv.step.c !== 1n && iv.step.c !== -1n) return false;
    return cmp.operand(0).kind === ValueKind.ConstantInt || cmp.operand(1).kind === ValueKind.ConstantInt;
  }

  private strengthReduce(l: Loop, ivs: BasicIV[], header: BasicBlock, ph: BasicBlock, latch: BasicBlock, created: BasicIV[]): void {
    const lin = this.linearForms(l, ivs);
    const byKey = new Map<string, Instruction>();
    const emitters = new Map<Type, SymEmitter>();
    const phTerm = ph.terminator()!;
    const emitterFor = (t: Type): SymEmitter => {
      let e = emitters.get(t);
      if (e === undefined) emitters.set(t, (e = new SymEmitter(phTerm, t)));
      return e;
    };
    const basic = new Set<Instruction>();
    for (const iv of ivs) {
      basic.add(iv.phi);
      basic.add(iv.next);
    }
    const derived = (v: Value, iv: BasicIV): boolean =>
      v.kind === ValueKind.Instruction && !basic.has(v as Instruction) && lin.get(v as Instruction)?.iv === iv;
    // roots: derived values some user takes as a plain value (not as part of a longer derived chain)
    const roots: Instruction[] = [];
    for (const [inst, f] of lin) {
      if (basic.has(inst)) continue;
      for (let u = inst.firstUse; u !== null; u = u.next) {
        if (!derived(u.user as Instruction, f.iv)) {
          roots.push(inst);
          break;
        }
      }
    }
    for (const inst of roots) {
      if (inst.parent === null) continue;
      const f = lin.get(inst)!;
      // the derived instructions feeding the root, and how many of them die with it
      const chain: Instruction[] = [inst];
      const inChain = new Set<Instruction>(chain);
      for (let k = 0; k < chain.length; k++) {
        for (const o of chain[k].operands()) {
          if (derived(o, f.iv) && !inChain.has(o as Instruction)) {
            inChain.add(o as Instruction);
            chain.push(o as Instruction);
          }
        }
      }
      if (!chain.some((c) => c.op === Opcode.Mul)) continue;
      const dying = new Set<Instruction>([inst]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const c of chain) {
          if (dying.has(c)) continue;
          let all = true;
          for (let u = c.firstUse; u !== null && all; u = u.next) if (!dying.has(u.user as Instruction)) all = false;
          if (all) {
            dying.add(c);
            grew = true;
          }
        }
      }
      // a new IV costs a phi and an add per iteration: replace at least that much (or
      // anything, in 'always' mode); when the basic IV is then left to its exit test, LFTR
      // can remove it too
      let gain = dying.size;
      if (gain < 2 && this.onlyExitTestLeft(f.iv, dying)) gain += 2;
      if (gain < (this.opts.strengthReduce === 'always' ? 1 : 2)) continue;
      const bits = f.iv.bits;
      const key = `${f.iv.phi.uid}|${f.scale.key}|${f.offset.key}`;
      let p = byKey.get(key);
      if (p === undefined) {
        const em = emitterFor(inst.type);
        const start = em.emit(sAdd(sMul(f.scale, sVal(f.iv.start, bits), bits), f.offset, bits));
        const stepSym = sMul(f.scale, f.iv.step, bits);
        const step = em.emit(stepSym);
        p = new Instruction(Opcode.Phi, inst.type, []);
        p.blocks = [];
        p.name = inst.name === '' ? 'iv.sr' : inst.name + '.sr';
        header.insertAfterPhis(p);
        const next = new Instruction(Opcode.Add, inst.type, [p, step]);
        next.name = p.name + '.next';
        next.insertAfter(f.iv.next);
        p.addIncoming(start, ph);
        p.addIncoming(next, latch);
        byKey.set(key, p);
        created.push({ phi: p, next, start, step: stepSym, bits });
      }
      inst.replaceAllUsesWith(p);
      deleteIfDead(inst);
      this.stats.reduced += [...dying].filter((c) => c.op === Opcode.Mul).length;
    }
  }

  /** Exit values and LFTR for the loop's single exit test. */
  private exitAndTest(l: Loop, ivs: BasicIV[], ph: BasicBlock): void {
    const exiting = this.exits.exiting[l.index];
    const exits = this.exits.exits[l.index];
    if (exiting.length !== 1 || exits.length !== 1) return;
    const x = exiting[0];
    const e = exits[0];
    const latch = l.latches()[0];
    if (!this.dt.dominates(x.id, latch)) return;
    const br = x.terminator();
    if (br === null || !br.isConditionalBranch()) return;
    if (e.predecessors().length !== 1) return;
    const cmp = br.operand(0);
    if (cmp.kind !== ValueKind.Instruction || (cmp as Instruction).op !== Opcode.ICmp) return;
    const c = cmp as Instruction;
    const inTrue = this.inLoop(l, br.successor(0));
    let pred = inTrue ? c.pred : inversePred(c.pred);
    let a = c.operand(0);
    let b = c.operand(1);
    if (!this.invariant(l, b)) {
      [a, b] = [b, a];
      pred = swappedPred(pred);
    }
    if (!this.invariant(l, b) || a.kind !== ValueKind.Instruction) return;
    const iv = ivs.find((v) => v.phi === a || v.next === a);
    if (iv === undefined || iv.step.k !== SK.Const) return;
    const bits = iv.bits;
    const step = iv.step.c;
    if (step !== 1n && step !== -1n) return;
    const onNext = iv.next === a;
    const a0 = onNext ? sAdd(sVal(iv.start, bits), iv.step, bits) : sVal(iv.start, bits);
    const bs = sVal(b, bits);
    // the tested value when the loop leaves, as a function of the first tested value
    let aExit: { kind: 'exact'; v: Sym } | { kind: 'max' | 'min'; signed: boolean; a: Sym; b: Sym } | null = null;
    if (pred === Pred.NE) aExit = { kind: 'exact', v: bs };
    else if (step === 1n && (pred === Pred.SLT || pred === Pred.ULT)) aExit = { kind: 'max', signed: pred === Pred.SLT, a: a0, b: bs };
    else if (step === 1n && (pred === Pred.SLE || pred === Pred.ULE)) aExit = { kind: 'max', signed: pred === Pred.SLE, a: a0, b: sAdd(bs, sConst(1n, bits), bits) };
    else if (step === -1n && (pred === Pred.SGT || pred === Pred.UGT)) aExit = { kind: 'min', signed: pred === Pred.SGT, a: a0, b: bs };
    else if (step === -1n && (pred === Pred.SGE || pred === Pred.UGE)) aExit = { kind: 'min', signed: pred === Pred.SGE, a: a0, b: sAdd(bs, sConst(-1n, bits), bits) };
    if (aExit === null) return;
    // fold max/min of constants
    let exitSym: Sym | null = null;
    if (aExit.kind === 'exact') exitSym = aExit.v;
    else if (aExit.a.k === SK.Const && aExit.b.k === SK.Const) {
      const av = aExit.signed ? aExit.a.c : BigInt.asUintN(bits, aExit.a.c);
      const bv = aExit.signed ? aExit.b.c : BigInt.asUintN(bits, aExit.b.c);
      const takeA = aExit.kind === 'max' ? av >= bv : av <= bv;
      exitSym = takeA ? aExit.a : aExit.b;
    }
    const phiExit = exitSym === null ? null : onNext ? sSub(exitSym, iv.step, bits) : exitSym;
    if (this.opts.exitValues !== 'never') this.rewriteExitValues(l, iv, ivs, e, x, phiExit, aExit, onNext);
    if (this.opts.lftr && exitSym !== null && a0.k === SK.Const && exitSym.k === SK.Const) {
      this.linearFunctionTestReplace(iv, ivs, c, br, inTrue, a0.c, exitSym.c, onNext, ph);
    }
  }

  /**
   * Replaces the uses after the loop of the IV's phi and its derived values by closed forms
   * computed at the top of the exit block. In 'cheap' mode only forms that need no new
   * instruction (constants, an existing value) are used.
   */
  private rewriteExitValues(
    l: Loop,
    iv: BasicIV,
    ivs: BasicIV[],
    e: BasicBlock,
    x: BasicBlock,
    phiExit: Sym | null,
    aExit: { kind: 'exact'; v: Sym } | { kind: 'max' | 'min'; signed: boolean; a: Sym; b: Sym },
    onNext: boolean,
  ): void {
    const bits = iv.bits;
    const always = this.opts.exitValues === 'always';
    if (phiExit === null && (!always || aExit.kind === 'exact')) return;
    const lin = this.linearForms(l, ivs.filter((v) => v.phi.parent !== null));
    const at = e.firstNonPhi()!;
    let phiExitSym: Sym | null = phiExit;
    const em = new SymEmitter(at, iv.phi.type);
    for (const [v, f] of lin) {
      if (f.iv !== iv || v.parent === null || !this.dt.dominates(v.parent.id, x.id)) continue;
      // uses after the loop, and the exit block's single-entry phis of v
      const outside: { user: Instruction; index: number }[] = [];
      const exitPhis: Instruction[] = [];
      for (let u = v.firstUse; u !== null; u = u.next) {
        const user = u.user as Instruction;
        if (user.op === Opcode.Phi && user.parent === e) exitPhis.push(user);
        else if (!this.inLoop(l, user.op === Opcode.Phi ? user.blocks![u.index] : user.parent!)) outside.push({ user, index: u.index });
      }
      if (outside.length === 0 && exitPhis.length === 0) continue;
      if (phiExitSym === null) {
        // always mode: max/min(a, b) as icmp + select after the loop
        if (aExit.kind === 'exact') return;
        const av = em.emit(aExit.a);
        const bv = em.emit(aExit.b);
        const cmp = new Instruction(Opcode.ICmp, i1, [av, bv]);
        cmp.pred = aExit.kind === 'max' ? (aExit.signed ? Pred.SGT : Pred.UGT) : aExit.signed ? Pred.SLT : Pred.ULT;
        e.insertBefore(cmp, at);
        const sel = new Instruction(Opcode.Select, iv.phi.type, [cmp, av, bv]);
        e.insertBefore(sel, at);
        phiExitSym = onNext ? sSub(sVal(sel, bits), iv.step, bits) : sVal(sel, bits);
      }
      const valueSym = sAdd(sMul(f.scale, phiExitSym, bits), f.offset, bits);
      if (!always && valueSym.k !== SK.Const && valueSym.k !== SK.Val) continue;
      const value = em.emit(valueSym);
      for (const o of outside) o.user.setOperand(o.index, value);
      for (const p of exitPhis) {
        p.replaceAllUsesWith(value);
        p.eraseFromParent();
      }
      this.stats.exitValues++;
    }
  }

  /**
   * Rewrites the exit test on `iv` into a test on another IV when iv then dies: the tested
   * value runs from a0 to aExit (constants) by step ±1, so the trip count n is known and the
   * other IV's value at the exit is its first tested value plus n steps.
   */
  private linearFunctionTestReplace(
    iv: BasicIV,
    ivs: BasicIV[],
    cmp: Instruction,
    br: Instruction,
    inTrue: boolean,
    a0: bigint,
    aExit: bigint,
    onNext: boolean,
    ph: BasicBlock,
  ): void {
    if (cmp.numUses !== 1) return;
    // iv must be kept alive only by itself and the test
    for (let u = iv.phi.firstUse; u !== null; u = u.next) if (u.user !== iv.next && u.user !== cmp) return;
    for (let u = iv.next.firstUse; u !== null; u = u.next) if (u.user !== iv.phi && u.user !== cmp) return;
    const bits = iv.bits;
    const n = iv.step.c < 0n ? BigInt.asUintN(bits, a0 - aExit) : BigInt.asUintN(bits, aExit - a0);
    for (const k of ivs) {
      if (k === iv || k.phi.parent === null || k.next.parent === null || k.step.k !== SK.Const || k.step.c === 0n) continue;
      const ks = k.step.c < 0n ? -k.step.c : k.step.c;
      // k's tested values must stay distinct until the exit
      if (n * ks >= 1n << BigInt(k.bits)) continue;
      const kv = onNext ? k.next : k.phi;
      if (!this.dominatesInst(kv, cmp)) continue;
      const kStart = sVal(k.start, k.bits);
      const kFirst = onNext ? sAdd(kStart, k.step, k.bits) : kStart;
      const kExit = new SymEmitter(ph.terminator()!, k.phi.type).emit(sAdd(kFirst, sMul(sConst(n, k.bits), k.step, k.bits), k.bits));
      const nc = new Instruction(Opcode.ICmp, i1, [kv, kExit]);
      nc.pred = inTrue ? Pred.NE : Pred.EQ;
      nc.name = 'exitcond';
      cmp.parent!.insertBefore(nc, cmp);
      br.setOperand(0, nc);
      deleteIfDead(cmp);
      // iv's phi and increment now only feed each other
      iv.phi.replaceAllUsesWith(iv.start);
      iv.phi.eraseFromParent();
      deleteIfDead(iv.next);
      this.stats.lftr++;
      return;
    }
  }
}

/** Runs indvars on `fn` (LoopSimplify first). */
export function runIndVars(fn: Function, opts: Partial<IndVarsOptions> = {}, ctx?: PassContext): IndVarsStats & { cfgChanged: boolean } {
  const o = { ...DEFAULT_INDVARS_OPTIONS, ...opts };
  const cached = ctx?.analyses.get(LoopAnalysis);
  const s = simplifyLoops(fn, cached);
  const cfgChanged = s.nested + s.preheaders + s.backedges + s.exits > 0;
  const li = !cfgChanged && cached !== undefined ? cached : findLoops(new CFG(fn));
  const iv = new IndVars(li, li.cfg, li.domTree, o);
  for (let k = li.loops.length - 1; k >= 0; k--) iv.processLoop(li.loops[k]);
  return { ...iv.stats, cfgChanged };
}

export const indvarsPass = definePass({
  name: 'indvars',
  description: 'induction variables: strength reduction, redundant IVs, exit values, test replacement',
  params: {
    strengthReduce: param.choice('strength-reduce', ['never', 'profitable', 'always'] as const, DEFAULT_INDVARS_OPTIONS.strengthReduce, 'strength-reduce multiplications by the IV (profitable: when a chain of two or more goes)', 'never'),
    exitValues: param.choice('exit-values', ['never', 'cheap', 'always'] as const, DEFAULT_INDVARS_OPTIONS.exitValues, 'replace uses of IVs after the loop by their final values'),
    lftr: param.flag('lftr', DEFAULT_INDVARS_OPTIONS.lftr, 'linear function test replacement'),
    widen: param.flag('widen', DEFAULT_INDVARS_OPTIONS.widen, 'widen sign-extended IVs to the extension type'),
  },
  run(fn, ctx, opts) {
    const r = runIndVars(fn, opts, ctx);
    reportStats(ctx, { 'redundant IVs merged': r.redundant, 'multiplications strength-reduced': r.reduced, 'exit values replaced': r.exitValues, 'exit tests replaced': r.lftr, 'IVs widened': r.widened });
    let changed = r.cfgChanged || r.redundant + r.reduced + r.exitValues + r.lftr + r.widened > 0;
    if (indvarsExitValuesSCEV(fn, ctx, changed, r.cfgChanged).replaced > 0) changed = true;
    if (opts.lftr && indvarsLFTRSCEV(fn, ctx, changed) > 0) changed = true;
    if (indvarsComparesSCEV(fn, ctx, changed) > 0) changed = true;
    return { changed, preserved: r.cfgChanged ? 'none' : changed ? 'cfg' : 'all' };
  },
});

