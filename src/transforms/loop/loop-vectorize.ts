/**
 * loop-vectorize: innermost single-block counted loops run four iterations at a time in
 * `<4 x T>` registers, after LLVM's LoopVectorize (lib/Transforms/Vectorize/LoopVectorize.cpp,
 * LoopVectorizationLegality and InnerLoopVectorizer), for its simplest case: a fixed factor
 * VF = 4 (128-bit SSE registers, LLVM's choice for i32 and float on x86-64 without -mcpu),
 * consecutive accesses only, no runtime alias checks, no if-conversion (simplifycfg has
 * already made the selects).
 *
 * A loop qualifies when it is innermost, one block that is its own latch (rotated, in
 * LoopSimplify form, with a dedicated exit), not marked `llvm.loop.isvectorized`, and
 *  - its backedge-taken count is known to scalar evolution as an expression of values
 *    defined before the loop (a constant one at least 15: LLVM's tiny-trip-count bound);
 *  - each header phi is an induction `i = phi [S, ph], [i ± C, latch]` (C a constant) or an
 *    integer reduction `r = phi [I, ph], [r op x, latch]` (op add/mul/and/or/xor, each used
 *    by the other alone inside the loop: reassociating wrapping arithmetic is exact);
 *  - every other instruction is arithmetic, a compare, a select, a cast, a GEP, a simple
 *    load or store, or an element-wise intrinsic (fmuladd, smax, …; no other calls, integer
 *    division by constants only: x86 has no vector divide); the values
 *    computed in vectors have elements of at most 32 bits (i64 and double would halve VF);
 *  - every load and store whose value is computed in a vector has a consecutive address:
 *    a GEP off a loop-invariant base whose byte offset grows by the element size each
 *    iteration, exactly (an index sign- or zero-extended in the loop must not wrap: its
 *    scalar evolution range says so);
 *  - no two accesses conflict when four iterations run at once: a store and another access
 *    to distinct allocas or globals are independent; to the same base, their addresses must
 *    differ by a constant d with d = 0 (the same element in the same iteration, which a
 *    vector op handles in program order) or |d| ≥ 4 elements; anything else (pointer
 *    arguments, unknown bases) is rejected, as LLVM would need runtime checks there.
 *
 * The loop becomes (LLVM's skeleton, with a scalar epilogue that always runs, so the values
 * used after the loop keep coming from the original loop and the exit needs no change):
 *
 *   ph:        n.vec = btc >> 2 (vector iterations); br (n.vec == 0), scalar.ph, vector.ph
 *   vector.ph: splats of the loop-invariant operands
 *   vector:    index = phi [0], [index + 1]; one scalar phi per induction (its lane 0);
 *              one vector phi per reduction (<I, id, id, id>); the body, widened;
 *              br (index + 1 == n.vec), middle, vector
 *   middle:    each reduction folded with llvm.vector.reduce.*
 *   scalar.ph: resume phis: the inductions' and reductions' values after the vector loop
 *              (or their starts when it did not run)
 *   the original loop, run the remaining (btc mod 4) + 1 times, then the exit as before.
 *
 * Both loops are marked `llvm.loop.isvectorized` (LLVM's marker), so no later run touches
 * them again, and the scalar one `llvm.loop.unroll.runtime.disable` (it runs at most 4 times). Values are made in two forms on demand: the vector of four lanes, and the
 * scalar of lane 0 (addresses: lane k's address is lane 0's plus k elements). Invariants:
 * the vector loop covers iterations 0 … 4·n.vec−1 of the original, all of which the original
 * runs (4·n.vec ≤ btc < trip count); within a vector iteration every access keeps the program
 * order of the body and the lanes never conflict (the dependence test above); work is one
 * forward pass over the body per form, no recursion.
 */
import { BasicBlock } from '../../ir/basic-block.js';
import { IRBuilder } from '../../ir/builder.js';
import { Constant, ConstantAggregate, ConstantInt, PoisonValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { allocSize, storeSize } from '../../ir/layout.js';
import { Flag, Opcode, Pred } from '../../ir/opcodes.js';
import { functionType, i64, TypeKind, vectorType, type Type } from '../../ir/types.js';
import { ValueKind, type Value } from '../../ir/value.js';
import { decomposePointer, isIdentifiedObject } from '../../analysis/alias.js';
import { CFG } from '../../analysis/cfg.js';
import { findLoops, type Loop, type LoopInfo } from '../../analysis/loops.js';
import { ScalarEvolution } from '../../analysis/scalar-evolution.js';
import { scevRanges } from '../../analysis/scev-range.js';
import { SK } from '../../analysis/scev-expr.js';
import { LoopAnalysis } from '../../pm/analyses.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { hasLoopFlag, setLoopFlag } from '../utils/loop-metadata.js';
import { simplifyLoops } from '../utils/loop-simplify.js';
import { readShape, type Shape } from '../utils/unroll-loop.js';
import { dominatesPoint, expansionCost, SCEVExpander } from '../utils/scev-expander.js';

export const VF = 4;
const VECTORIZED = 'llvm.loop.isvectorized';
export const RUNTIME_DISABLE = 'llvm.loop.unroll.runtime.disable';
/** Largest cost of the trip count's expansion (as runtime unrolling's budget). */
const COUNT_BUDGET = 6;
/** Smallest constant trip count worth a vector loop (LLVM's TinyTripCountVectorThreshold, 16). */
const MIN_TRIP = 16n;

interface Induction { phi: Instruction; start: Value; step: bigint }
interface Reduction { phi: Instruction; start: Value; next: Instruction; op: Opcode }

/**
 * An extended value the linear forms treat as an atom (one per value and signedness): its
 * stride is that of the value extended, or null when extending could cross the wrap point.
 */
class Extended {
  constructor(readonly stride: bigint | null) {}
}
type Atom = Value | Extended;
/** A value as c + Σ coeff·atom (modulo 2^64 for addresses): atoms are invariants, inductions, extended values and opaque loop values. */
interface Linear { c: bigint; terms: Map<Atom, bigint> }

/** A loop that passed the checks, with what the rewrite needs. */
interface Plan {
  shape: Shape;
  body: BasicBlock;
  ivs: Induction[];
  reds: Reduction[];
  /** Instructions needed as vectors, and as lane-0 scalars. */
  vec: Set<Instruction>;
  lane0: Set<Instruction>;
  /** Extensions of an induction that never wrap in the loop: their lane 0 is an induction of the wide type. */
  wideIVs: Map<Instruction, Induction>;
  btc: import('../../analysis/scev-expr.js').SCEV;
  /** The vector loop runs only when `n` is not `max` (a `<=` exit test), or null. */
  guard: { n: Value; max: bigint; iv: Instruction | null; signed: boolean } | null;
}

const BIN_OK = new Set([Opcode.Add, Opcode.Sub, Opcode.Mul, Opcode.Shl, Opcode.LShr, Opcode.AShr, Opcode.And, Opcode.Or, Opcode.Xor, Opcode.FAdd, Opcode.FSub, Opcode.FMul, Opcode.FDiv]);
const CAST_OK = new Set([Opcode.Trunc, Opcode.ZExt, Opcode.SExt, Opcode.FPToUI, Opcode.FPToSI, Opcode.UIToFP, Opcode.SIToFP, Opcode.FPTrunc, Opcode.FPExt]);
const RED_OK = new Set([Opcode.Add, Opcode.Mul, Opcode.And, Opcode.Or, Opcode.Xor]);

const isInst = (v: Value): v is Instruction => v.kind === ValueKind.Instruction;

/** Element-wise intrinsics with vector forms llc lowers inline (LLVM's isTriviallyVectorizable, the common part). */
const VECTOR_INTRINSICS = ['llvm.fmuladd.', 'llvm.fma.', 'llvm.smax.', 'llvm.smin.', 'llvm.umax.', 'llvm.umin.', 'llvm.fabs.', 'llvm.minnum.', 'llvm.maxnum.', 'llvm.sqrt.'];

/** For a call of an element-wise intrinsic on scalars: the name of its <4 x T> form (`llvm.fmuladd.f32` → `llvm.fmuladd.v4f32`), else null. */
function vectorIntrinsic(i: Instruction): string | null {
  const f = i.operand(0);
  if (f.kind !== ValueKind.Function) return null;
  const name = (f as Function).name;
  const prefix = VECTOR_INTRINSICS.find((p) => name.startsWith(p));
  if (prefix === undefined) return null;
  const suffix = name.slice(prefix.length);
  if (!/^(f32|i8|i16|i32)$/.test(suffix)) return null;
  for (let k = 1; k < i.numOperands; k++) if (i.operand(k).type !== i.type) return null;
  return `${prefix}v${VF}${suffix}`;
}

/**
 * An integer division or remainder by a constant that cannot trap (not 0, not -1 when
 * signed): llc lowers the vector form to multiplications, as it does the scalar one, and the
 * lanes compute what the scalar iterations would (LLVM's cost model accepts these too).
 */
function divisionByConstant(i: Instruction): boolean {
  if (i.op !== Opcode.SDiv && i.op !== Opcode.UDiv && i.op !== Opcode.SRem && i.op !== Opcode.URem) return false;
  const d = i.operand(1);
  if (d.kind !== ValueKind.ConstantInt) return false;
  const v = (d as ConstantInt).value;
  return v !== 0n && !((i.op === Opcode.SDiv || i.op === Opcode.SRem) && v === -1n);
}
/** Elements a vector may hold here: integers up to 32 bits and float. */
const vectorizable = (t: Type): boolean => (t.kind === TypeKind.Int && t.bits <= 32) || t.kind === TypeKind.Float;

export interface LoopVectorizeStats {
  vectorized: number;
  changed: boolean;
}

/** Reads loop `l` as a vectorization plan, or says why not. */
function readPlan(l: Loop, li: LoopInfo, se: ScalarEvolution): Plan | string {
  const shape = readShape(l, li);
  if (typeof shape === 'string') return shape;
  if (shape.blocks.length !== 1) return 'more than one block';
  const body = shape.header;
  const term = body.terminator()!;
  if (hasLoopFlag(term, VECTORIZED)) return 'already vectorized';
  let btc = se.backedgeTakenCount(l);
  // `x <= n` (x counting by one, no no-wrap flag): infinite when n is the largest value, else
  // the count of `x < n + 1`; the vector loop runs under a test that n is not the largest
  // (LLVM's vectorizer assumes the same through a runtime SCEV predicate)
  let guard: Plan['guard'] = null;
  if (btc === null) {
    const t = se.exitTest(l, l.latches()[0]);
    const cmp = term.operand(0);
    if (t !== null && (t.pred === Pred.SLE || t.pred === Pred.ULE) && t.a.step.isOne() && isInst(cmp) && cmp.op === Opcode.ICmp) {
      const ctx = se.ctx;
      const bound = ctx.add([t.n, ctx.constant(1n, t.n.bits)]);
      btc = ctx.minus(t.pred === Pred.SLE ? ctx.smax(bound, t.a.start) : ctx.umax(bound, t.a.start), t.a.start);
      const n = [cmp.operand(0), cmp.operand(1)].find((v) => !(isInst(v) && v.parent === body))!;
      const w = t.n.bits;
      const x = [cmp.operand(0), cmp.operand(1)].find((v) => v !== n)!;
      const iv = body.phis().find((p) => p === x || p.incomingValueFor(body) === x) ?? null;
      guard = { n, max: t.pred === Pred.SLE ? (1n << BigInt(w - 1)) - 1n : (1n << BigInt(w)) - 1n, iv, signed: t.pred === Pred.SLE };
    }
  }
  if (btc === null) return 'no backedge-taken count';
  if (btc.kind === SK.Const) {
    if (BigInt.asUintN(btc.bits, btc.c) + 1n < MIN_TRIP) return 'trip count below 16';
  } else if (expansionCost(btc) > COUNT_BUDGET || !dominatesPoint(btc, body, li.domTree)) return 'trip count too costly to compute';
  const inLoop = (v: Value): v is Instruction => isInst(v) && v.parent === body;
  // header phis: inductions and reductions
  const ivs: Induction[] = [];
  const reds: Reduction[] = [];
  const ph = shape.preheader;
  for (const p of body.phis()) {
    const start = p.incomingValueFor(ph)!;
    const next = p.incomingValueFor(body)!;
    if (!inLoop(next)) return 'header phi not updated in the loop';
    const c = next.numOperands === 2 ? next.operand(1) : null;
    if (p.type.kind === TypeKind.Int && (next.op === Opcode.Add || next.op === Opcode.Sub) && next.operand(0) === p && c !== null && c.kind === ValueKind.ConstantInt) {
      const k = (c as ConstantInt).value;
      ivs.push({ phi: p, start, step: BigInt.asIntN(p.type.bits, next.op === Opcode.Add ? k : -k) });
      continue;
    }
    if (p.type.kind === TypeKind.Int && p.type.bits <= 32 && RED_OK.has(next.op) && (next.operand(0) === p) !== (next.operand(1) === p)) {
      const onlyUse = (v: Value, user: Instruction) => { for (let u = v.firstUse; u !== null; u = u.next) if ((u.user as Instruction).parent === body && u.user !== user) return false; return true; };
      if (onlyUse(p, next) && onlyUse(next, p)) {
        reds.push({ phi: p, start, next, op: next.op });
        continue;
      }
    }
    return 'header phi neither an induction nor a reduction';
  }
  if (ivs.length === 0) return 'no induction';
  // the loop's control: the latch test and what only it uses are rebuilt, not widened
  const control = new Set<Instruction>([term]);
  const cond = term.operand(0);
  if (inLoop(cond)) control.add(cond);
  // what each instruction must become, from the stores and reductions backwards
  const vec = new Set<Instruction>();
  const lane0 = new Set<Instruction>();
  const accesses: Instruction[] = [];
  const reduction = new Set<Instruction>(reds.map((r) => r.phi));
  const mark = (set: Set<Instruction>, v: Value): void => {
    if (inLoop(v)) set.add(v);
  };
  for (const r of reds) vec.add(r.next);
  for (let i = term.prev; i !== null && i.op !== Opcode.Phi; i = i.prev) {
    if (i.op === Opcode.Store) {
      if (i.flags & (Flag.Volatile | Flag.Atomic)) return 'volatile or atomic store';
      if (!vectorizable(i.operand(0).type)) return 'store of a type not vectorized';
      accesses.push(i);
      mark(vec, i.operand(0));
      mark(lane0, i.operand(1));
      continue;
    }
    if (i.op === Opcode.Call && vectorIntrinsic(i) !== null) {
      if (lane0.has(i)) return 'intrinsic call in an address';
      if (!vec.has(i)) return 'unused call';
      for (let k = 1; k < i.numOperands; k++) mark(vec, i.operand(k));
      continue;
    }
    if (i.op === Opcode.Call || i.op === Opcode.Fence || i.op === Opcode.AtomicRMW || i.op === Opcode.AtomicCmpXchg || i.op === Opcode.VAArg) return `${i.opcodeName} in the loop`;
    const wantVec = vec.has(i);
    const wantLane0 = lane0.has(i);
    if (!wantVec && !wantLane0) continue; // control, or dead
    if (wantVec && !vectorizable(i.type)) return `a ${i.type.toString()} value would be widened`;
    if (i.op === Opcode.Load) {
      if (i.flags & (Flag.Volatile | Flag.Atomic)) return 'volatile or atomic load';
      if (wantLane0) return 'load of a value used in an address';
      accesses.push(i);
      mark(lane0, i.operand(0));
      continue;
    }
    if (i.op === Opcode.GetElementPtr) {
      if (wantVec) return 'address used as a value';
      for (let k = 0; k < i.numOperands; k++) mark(lane0, i.operand(k));
      continue;
    }
    const ok = BIN_OK.has(i.op) || CAST_OK.has(i.op) || divisionByConstant(i) || i.op === Opcode.ICmp || i.op === Opcode.FCmp || i.op === Opcode.Select || i.op === Opcode.FNeg || i.op === Opcode.Freeze;
    if (!ok) return `${i.opcodeName} cannot be widened`;
    if (wantLane0 && (i.type.kind !== TypeKind.Int || !(BIN_OK.has(i.op) || CAST_OK.has(i.op)))) return `${i.opcodeName} in an address`;
    for (let k = 0; k < i.numOperands; k++) {
      if (wantVec) mark(vec, i.operand(k));
      if (wantLane0) mark(lane0, i.operand(k));
    }
  }
  for (const p of reduction) if (lane0.has(p)) return 'reduction used in an address';
  for (const i of control) if (i !== term && (vec.has(i) || lane0.has(i))) return 'latch test used in the body';
  // every remaining instruction is either needed or free of effects (it only feeds the control)
  for (let i = body.firstNonPhi(); i !== null && i !== term; i = i.next) {
    if (i.op === Opcode.Store || vec.has(i) || lane0.has(i) || control.has(i)) continue;
    if (i.op === Opcode.Load || i.op === Opcode.Call) return 'unused load or call';
  }
  // addresses: linear forms of every integer and pointer value of the body, in order
  const lin = linearForms(body, ivs, se, guard);
  const loads = accesses.filter((a) => a.op === Opcode.Load);
  const stores = accesses.filter((a) => a.op === Opcode.Store);
  for (const a of accesses) {
    const p = a.op === Opcode.Load ? a.operand(0) : a.operand(1);
    const t = a.op === Opcode.Load ? a.type : a.operand(0).type;
    const f = lin(p);
    if (f === null) return 'address not linear in the inductions';
    const stride = strideOf(f, ivs, body);
    if (stride !== BigInt(storeSize(t))) return stride === 0n ? 'loop-invariant address' : 'address not consecutive';
  }
  // dependences between a store and any other access
  for (const s of stores) {
    for (const a of [...loads, ...stores]) {
      if (a === s) continue;
      const ps = s.operand(1);
      const pa = a.op === Opcode.Load ? a.operand(0) : a.operand(1);
      if (ps === pa) continue;
      const bs = decomposePointer(ps).base;
      const ba = decomposePointer(pa).base;
      if (bs !== ba) {
        if (isIdentifiedObject(bs) && isIdentifiedObject(ba)) continue;
        return 'accesses to bases that may overlap (runtime checks not done)';
      }
      const d = distance(lin(ps)!, lin(pa)!);
      const size = BigInt(storeSize(s.operand(0).type));
      if (d === null || (d !== 0n && (d < 0n ? -d : d) < BigInt(VF) * size)) return 'a store and another access less than 4 elements apart';
    }
  }
  const wideIVs = new Map<Instruction, Induction>();
  for (const i of lane0) {
    if (i.op !== Opcode.SExt && i.op !== Opcode.ZExt) continue;
    const iv = ivs.find((x) => x.phi === i.operand(0));
    const f = lin(i);
    const e = f === null || f.terms.size !== 1 ? null : [...f.terms.keys()][0];
    if (iv !== undefined && e instanceof Extended && e.stride !== null) wideIVs.set(i, iv);
  }
  return { shape, body, ivs, reds, vec, lane0, wideIVs, btc, guard };
}

/** Σ coeff·step over the terms, or null when a term is neither invariant nor an induction. */
function strideOf(f: Linear, ivs: Induction[], body: BasicBlock): bigint | null {
  let s = 0n;
  for (const [v, k] of f.terms) {
    if (v instanceof Extended) {
      if (v.stride === null) return null;
      s += k * v.stride;
    } else if (isInst(v) && v.parent === body) {
      const iv = ivs.find((x) => x.phi === v);
      if (iv === undefined) return null;
      s += k * iv.step;
    }
  }
  return BigInt.asIntN(64, s);
}

/** The constant difference of two linear forms, or null. */
function distance(a: Linear, b: Linear): bigint | null {
  for (const [v, k] of a.terms) if (BigInt.asIntN(64, k - (b.terms.get(v) ?? 0n)) !== 0n) return null;
  for (const [v, k] of b.terms) if (!a.terms.has(v) && k !== 0n) return null;
  return BigInt.asIntN(64, a.c - b.c);
}

/**
 * The linear forms of the body's integer and pointer values (one forward pass, operands
 * before users). An extension (sext/zext, or a narrow GEP index, which GEP sign-extends) of
 * a value that changes in the loop is an atom whose stride is that value's, provided scalar
 * evolution's range of it (signed or unsigned, as the extension) does not wrap and misses
 * 2·|stride| − 1 values: then no iteration steps across the wrap point, and the extended values
 * step exactly as the narrow ones.
 */
function linearForms(body: BasicBlock, ivs: Induction[], se: ScalarEvolution, guard: Plan['guard']): (v: Value) => Linear | null {
  const forms = new Map<Value, Linear | null>();
  const atom = (v: Atom): Linear => ({ c: 0n, terms: new Map<Atom, bigint>([[v, 1n]]) });
  const extensions = new Map<Value, [Extended | null, Extended | null]>();
  const get = (v: Value): Linear | null => {
    if (v.kind === ValueKind.ConstantInt) return { c: (v as ConstantInt).value, terms: new Map() };
    if (!isInst(v) || v.parent !== body) return atom(v);
    const f = forms.get(v);
    return f === undefined ? null : f;
  };
  const combine = (a: Linear, b: Linear, kb: bigint, w: number): Linear => {
    const terms = new Map<Atom, bigint>(a.terms);
    for (const [v, k] of b.terms) terms.set(v, BigInt.asIntN(w, (terms.get(v) ?? 0n) + kb * k));
    return { c: BigInt.asIntN(w, a.c + kb * b.c), terms };
  };
  const scale = (a: Linear, k: bigint, w: number): Linear => {
    const terms = new Map<Atom, bigint>();
    for (const [v, x] of a.terms) terms.set(v, BigInt.asIntN(w, x * k));
    return { c: BigInt.asIntN(w, a.c * k), terms };
  };
  const ranges = scevRanges(se);
  /** v sign- or zero-extended, as an atom (or a constant when it does not change in the loop). */
  const extend = (v: Value, signed: boolean): Linear | null => {
    const f = get(v);
    if (f === null) return null;
    const w = v.type.bits;
    if (f.terms.size === 0) return { c: signed ? BigInt.asIntN(w, f.c) : BigInt.asUintN(w, f.c), terms: new Map() };
    let pair = extensions.get(v);
    if (pair === undefined) extensions.set(v, (pair = [null, null]));
    let e = pair[signed ? 0 : 1];
    if (e === null) {
      let st = strideOf(f, ivs, body);
      // under a `<=` guard (n not the largest value), the tested induction and its increment
      // stay within [start, n] over the vector iterations: their extension of that sense is exact
      const guarded = guard !== null && guard.iv !== null && guard.signed === signed && f.terms.size === 1 && f.terms.get(guard.iv) === 1n && (f.c === 0n || f.c === 1n) && ivs.some((x) => x.phi === guard.iv && x.step === 1n);
      if (st !== null && !guarded) {
        st = BigInt.asIntN(w, st);
        // a step across the wrap point of the extension needs a value within |step| of each
        // end, so a range that does not wrap (in that sense) and leaves 2·|step| − 1 values
        // out is never crossed
        const r = signed ? ranges.signed(se.get(v)) : ranges.unsigned(se.get(v));
        const gap = 2n * (st < 0n ? -st : st) - 1n;
        if (r.isFull() || (signed ? r.isSignWrapped() : r.isWrapped()) || r.size() > (1n << BigInt(w)) - gap) st = null;
      }
      e = pair[signed ? 0 : 1] = new Extended(st);
    }
    return atom(e);
  };
  for (const p of body.phis()) if (ivs.some((iv) => iv.phi === p)) forms.set(p, atom(p));
  for (let i = body.firstNonPhi(); i !== null; i = i.next) {
    const t = i.type;
    let f: Linear | null = null;
    if (t.kind === TypeKind.Int) {
      const w = t.bits;
      const a = i.numOperands > 0 ? get(i.operand(0)) : null;
      const b = i.numOperands > 1 ? get(i.operand(1)) : null;
      switch (i.op) {
        case Opcode.Add: f = a && b && combine(a, b, 1n, w); break;
        case Opcode.Sub: f = a && b && combine(a, b, -1n, w); break;
        case Opcode.Mul:
          if (a && b && b.terms.size === 0) f = scale(a, b.c, w);
          else if (a && b && a.terms.size === 0) f = scale(b, a.c, w);
          break;
        case Opcode.Shl:
          if (a && b && b.terms.size === 0 && b.c >= 0n && b.c < BigInt(w)) f = scale(a, 1n << b.c, w);
          break;
        case Opcode.SExt:
        case Opcode.ZExt:
          f = extend(i.operand(0), i.op === Opcode.SExt);
          break;
        default:
          f = null;
      }
      if (f === null) f = atom(i); // opaque: a term whose stride is unknown
    } else if (t.kind === TypeKind.Ptr && i.op === Opcode.GetElementPtr && i.auxType !== null) {
      f = get(i.operand(0));
      let ty: Type = i.auxType;
      for (let k = 1; k < i.numOperands && f !== null; k++) {
        const idx = i.operand(k);
        if (k > 1) {
          if (ty.kind === TypeKind.Struct) {
            if (idx.kind !== ValueKind.ConstantInt) { f = null; break; }
            const n = Number((idx as ConstantInt).value);
            let off = 0;
            for (let e = 0; e < n; e++) off += allocSize(ty.members[e]);
            f = combine(f, { c: BigInt(off), terms: new Map() }, 1n, 64);
            ty = ty.members[n];
            continue;
          }
          if (ty.kind !== TypeKind.Array && ty.kind !== TypeKind.Vector) { f = null; break; }
          ty = ty.elem!;
        }
        const x = idx.type.bits < 64 ? extend(idx, true) : get(idx);
        if (x === null) { f = null; break; }
        f = combine(f, x, BigInt(allocSize(ty)), 64);
      }
    }
    forms.set(i, f);
  }
  return (v) => get(v);
}

/** `<c, c, c, c>`. */
function splatConstant(c: Constant): Constant {
  const vt = vectorType(c.type, VF);
  if (c.kind === ValueKind.Poison || c.kind === ValueKind.Undef) return PoisonValue.get(vt);
  return new ConstantAggregate(ValueKind.ConstantVector, vt, new Array<Constant>(VF).fill(c));
}

/** insertelement + shufflevector: `v` in every lane. */
function splat(b: IRBuilder, v: Value): Value {
  if (v instanceof Constant) return splatConstant(v);
  const vt = vectorType(v.type, VF);
  const ins = b.insert(new Instruction(Opcode.InsertElement, vt, [PoisonValue.get(vt), v, ConstantInt.get(i64, 0)]));
  const sh = new Instruction(Opcode.ShuffleVector, vt, [ins, PoisonValue.get(vt)]);
  sh.indices = new Array<number>(VF).fill(0);
  return b.insert(sh);
}

/** The reduction's identity element. */
function identity(op: Opcode, t: Type): ConstantInt {
  return ConstantInt.get(t, op === Opcode.Mul ? 1n : op === Opcode.And ? -1n : 0n);
}

const REDUCE_NAME: Partial<Record<Opcode, string>> = { [Opcode.Add]: 'add', [Opcode.Mul]: 'mul', [Opcode.And]: 'and', [Opcode.Or]: 'or', [Opcode.Xor]: 'xor' };

/** Builds the vector loop in front of the original one (see the file comment). */
function vectorize(fn: Function, plan: Plan, count: Value): boolean {
  const { shape, body, ivs, reds, vec, lane0, wideIVs } = plan;
  const m = fn.parent!;
  const ph = shape.preheader;
  const ty = count.type;
  const K = (n: bigint | number) => ConstantInt.get(ty, n);
  for (const i of vec) if (i.op === Opcode.Call && m.getOrInsertFunction(vectorIntrinsic(i)!, functionType(vectorType(i.type, VF), new Array<Type>(i.numOperands - 1).fill(vectorType(i.type, VF)))) === null) return false;
  const reduceFns = new Map<Opcode, Function>();
  for (const r of reds) {
    const vt = vectorType(r.phi.type, VF);
    const f = m.getOrInsertFunction(`llvm.vector.reduce.${REDUCE_NAME[r.op]}.v${VF}i${r.phi.type.bits}`, functionType(r.phi.type, [vt]));
    if (f === null) return false;
    reduceFns.set(r.op, f);
  }
  const base = body.name === '' ? 'loop' : body.name;
  const vph = new BasicBlock(`${base}.vector.ph`);
  const vbody = new BasicBlock(`${base}.vector`);
  const middle = new BasicBlock(`${base}.middle`);
  const sph = new BasicBlock(`${base}.scalar.ph`);
  fn.insertBlockBefore(vph, body);
  fn.insertBlockBefore(vbody, body);
  fn.insertBlockBefore(middle, body);
  fn.insertBlockBefore(sph, body);
  // the preheader: the vector trip count, and the way around the vector loop
  const pt = ph.terminator()!;
  const b = new IRBuilder().setInsertPointBefore(pt);
  // vector iterations: floor(btc / VF), so that the scalar loop runs 1 … VF times after them
  const nvec = b.lshr(count, K(Math.log2(VF)), 'n.vec');
  let skip: Value = b.icmp(Pred.EQ, nvec, K(0), 'min.iters.check');
  if (plan.guard !== null) {
    const g = plan.guard;
    skip = b.or(skip, b.icmp(Pred.EQ, g.n, ConstantInt.get(g.n.type, BigInt.asIntN(g.n.type.bits, g.max))), 'count.check');
  }
  b.condBr(skip, sph, vph);
  pt.eraseFromParent();
  // vector.ph: splats of invariants (made on demand below, placed here)
  const bph = new IRBuilder(vph);
  const splats = new Map<Value, Value>();
  const invariantVec = (v: Value): Value => {
    let s = splats.get(v);
    if (s === undefined) splats.set(v, (s = splat(bph, v)));
    return s;
  };
  // the vector loop's phis
  const bv = new IRBuilder(vbody);
  const index = bv.phi(ty, 'index');
  const scalar = new Map<Value, Value>(); // lane-0 values
  const wide = new Map<Value, Value>(); // vector values
  const ivNext = new Map<Instruction, Instruction>();
  for (const iv of ivs) {
    const p = bv.phi(iv.phi.type, `${iv.phi.name || 'iv'}.vec0`);
    p.addIncoming(iv.start, vph);
    scalar.set(iv.phi, p);
  }
  const redPhis: [Reduction, Instruction][] = [];
  for (const r of reds) {
    const vt = vectorType(r.phi.type, VF);
    const p = bv.phi(vt, `${r.phi.name || 'red'}.vec`);
    const init = bph.insert(new Instruction(Opcode.InsertElement, vt, [splatConstant(identity(r.op, r.phi.type)), r.start, ConstantInt.get(i64, 0)]));
    p.addIncoming(init, vph);
    wide.set(r.phi, p);
    redPhis.push([r, p]);
  }
  const inLoop = (v: Value): v is Instruction => isInst(v) && v.parent === body;
  const lane0Of = (v: Value): Value => (inLoop(v) ? scalar.get(v)! : v);
  const vecOf = (v: Value): Value => {
    if (!inLoop(v)) return invariantVec(v);
    const w = wide.get(v);
    if (w !== undefined) return w;
    // an induction as a value: lane 0 splatted, plus <0, step, 2·step, 3·step>
    const iv = ivs.find((x) => x.phi === v)!;
    const steps = new ConstantAggregate(ValueKind.ConstantVector, vectorType(v.type, VF), Array.from({ length: VF }, (_, k) => ConstantInt.get(v.type, BigInt(k) * iv.step)));
    const s = bv.add(splat(bv, scalar.get(v)!), steps);
    wide.set(v, s);
    return s;
  };
  // the body, in order: each instruction in the forms it is needed in
  const term = body.terminator()!;
  // an extended induction counts in the wide type itself (no extension per iteration; LLVM's
  // indvars widening does this before its vectorizer)
  const wideNext: [Instruction, bigint][] = [];
  const wideLane0 = (i: Instruction, iv: Induction): Instruction => {
    const start = bph.cast(i.op, iv.start, i.type);
    const p = new IRBuilder(vbody).phi(i.type, `${iv.phi.name || 'iv'}.wide.vec0`);
    p.addIncoming(start, vph);
    // no wrap in the loop: the wide value moves by the narrow step read as signed, either extension
    wideNext.push([p, BigInt.asIntN(i.type.bits, BigInt.asIntN(iv.phi.type.bits, iv.step) * BigInt(VF))]);
    return p;
  };
  for (let i = body.firstNonPhi(); i !== null && i !== term; i = i.next) {
    const wiv = wideIVs.get(i);
    if (wiv !== undefined) {
      scalar.set(i, wideLane0(i, wiv));
    } else if (lane0.has(i)) {
      const c = i.clone();
      for (let k = 0; k < c.numOperands; k++) c.setOperand(k, lane0Of(i.operand(k)));
      c.name = i.name === '' ? '' : `${i.name}.lane0`;
      bv.insert(c);
      scalar.set(i, c);
    }
    if (i.op === Opcode.Store) {
      const s = bv.insert(new Instruction(Opcode.Store, i.type, [vecOf(i.operand(0)), lane0Of(i.operand(1))]));
      s.align = i.align || storeSize(i.operand(0).type);
      s.md = i.md;
      continue;
    }
    if (!vec.has(i)) continue;
    const vt = vectorType(i.type.scalarType(), VF);
    let w: Instruction;
    if (i.op === Opcode.Call) {
      const ft = functionType(vt, new Array<Type>(i.numOperands - 1).fill(vt));
      const callee = m.getOrInsertFunction(vectorIntrinsic(i)!, ft)!;
      w = new Instruction(Opcode.Call, vt, [callee, ...i.operands().slice(1).map(vecOf)]);
      w.auxType = ft;
      w.flags = i.flags;
    } else if (i.op === Opcode.Load) {
      w = new Instruction(Opcode.Load, vt, [lane0Of(i.operand(0))]);
      w.align = i.align || storeSize(i.type);
      w.md = i.md;
    } else {
      const rt = i.op === Opcode.ICmp || i.op === Opcode.FCmp ? vectorType(i.type, VF) : vt;
      w = new Instruction(i.op, rt, i.operands().map(vecOf));
      w.flags = i.flags;
      w.pred = i.pred;
    }
    w.name = i.name === '' ? '' : `${i.name}.vec`;
    wide.set(i, bv.insert(w));
  }
  // the inductions' and the counter's steps, and the latch
  for (const iv of ivs) {
    const p = scalar.get(iv.phi) as Instruction;
    const n = bv.add(p, ConstantInt.get(iv.phi.type, BigInt.asIntN(iv.phi.type.bits, iv.step * BigInt(VF))), `${p.name}.next`);
    p.addIncoming(n, vbody);
    ivNext.set(iv.phi, n);
  }
  for (const [p, step] of wideNext) p.addIncoming(bv.add(p, ConstantInt.get(p.type, step), `${p.name}.next`), vbody);
  for (const [r, p] of redPhis) p.addIncoming(wide.get(r.next)!, vbody);
  // the counter steps by one vector iteration, so that scalar evolution (and the runtime
  // unroller after us, LLVM's interleaving) reads its trip count as n.vec
  const indexNext = bv.add(index, K(1), 'index.next');
  index.addIncoming(K(0), vph);
  index.addIncoming(indexNext, vbody);
  const done = bv.icmp(Pred.EQ, indexNext, nvec);
  const vbr = bv.condBr(done, middle, vbody);
  bph.br(vbody);
  // middle: reductions folded; scalar.ph: where the original loop resumes
  const bm = new IRBuilder(middle);
  const folded = new Map<Reduction, Value>();
  for (const [r, p] of redPhis) folded.set(r, bm.call(reduceFns.get(r.op)!, [p.incomingValueFor(vbody)!], `${r.phi.name || 'red'}.rdx`));
  bm.br(sph);
  const bs = new IRBuilder(sph);
  for (const iv of ivs) {
    const resume = bs.phi(iv.phi.type, `${iv.phi.name || 'iv'}.resume`);
    resume.addIncoming(iv.start, ph);
    resume.addIncoming(ivNext.get(iv.phi)!, middle);
    iv.phi.setIncomingValue(iv.phi.blockIndex(ph), resume);
  }
  for (const r of reds) {
    const resume = bs.phi(r.phi.type, `${r.phi.name || 'red'}.resume`);
    resume.addIncoming(r.start, ph);
    resume.addIncoming(folded.get(r)!, middle);
    r.phi.setIncomingValue(r.phi.blockIndex(ph), resume);
  }
  bs.br(body);
  for (const p of body.phis()) p.setIncomingBlock(p.blockIndex(ph), sph);
  setLoopFlag(vbr, VECTORIZED);
  setLoopFlag(term, VECTORIZED);
  // the scalar loop runs at most VF times: not worth unrolling at run time (LLVM marks it so too)
  setLoopFlag(term, RUNTIME_DISABLE);
  return true;
}

/** Vectorizes the qualifying innermost loops of `fn` (LoopSimplify first). */
export function vectorizeLoops(fn: Function, cached?: LoopInfo, trace: ((line: string) => void) | null = null): LoopVectorizeStats {
  const s = simplifyLoops(fn, cached);
  let changed = s.preheaders + s.backedges + s.exits > 0;
  const li = !changed && cached !== undefined ? cached : findLoops(new CFG(fn));
  let se: ScalarEvolution | null = null;
  const todo: Plan[] = [];
  for (const l of li.loops) {
    if (l.subLoops.length > 0) continue;
    // cheap shape test first: scalar evolution only for one-block loops
    if (l.numBlocks !== 1) continue;
    const plan = readPlan(l, li, (se ??= new ScalarEvolution(fn, li, li.domTree)));
    const name = li.cfg.blockOf(l.header)!.name;
    if (typeof plan === 'string') {
      trace?.(`loop-vectorize: %${name}: ${plan}`);
      continue;
    }
    trace?.(`loop-vectorize: %${name}: vectorized by ${VF}`);
    todo.push(plan);
  }
  // trip counts are expanded before any loop changes (each in its own preheader)
  const counts = todo.map((p) => new SCEVExpander(p.shape.preheader.terminator()!, se!).expand(p.btc));
  let vectorized = 0;
  for (let n = 0; n < todo.length; n++) {
    if (counts[n] === null) continue;
    if (vectorize(fn, todo[n], counts[n]!)) vectorized++;
  }
  if (vectorized > 0) changed = true;
  return { vectorized, changed };
}

export const loopVectorizePass = defineCountingPass({
  name: 'loop-vectorize',
  description: 'run innermost counted loops with consecutive accesses four iterations at a time in <4 x T> vectors, a scalar loop after',
  count: (fn, ctx) => vectorizeLoops(fn, ctx.analyses.get(LoopAnalysis), ctx.trace),
  stats: { vectorized: 'loops vectorized' },
  changed: (r) => r.changed,
});
