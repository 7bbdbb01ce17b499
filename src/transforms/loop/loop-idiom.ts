/**
 * loop-idiom: a loop that fills or copies a run of memory element by element becomes one
 * `llvm.memset` / `llvm.memcpy` call in its preheader, after LLVM's LoopIdiomRecognize
 * (lib/Transforms/Scalar/LoopIdiomRecognize.cpp), for the simplest shape only; the loop,
 * left counting for nothing, is deleted as LLVM's LoopDeletion would.
 *
 * A loop qualifies when
 *  - it is innermost, one block that is its own latch, with a preheader, and rotated: the
 *    block ends in `br i1 %c, label %self, label %exit` (or swapped);
 *  - its only phi is an IV `i = phi [S, preheader], [i.next, self]` with `i.next = add i, 1`
 *    and S a constant, and %c is `icmp pred A, K` with A = i or i.next and K a constant,
 *    for which `tripCount` finds the number of runs of the body in closed form;
 *  - the rest of the block is exactly: one store `store V, ptr D` (not volatile or atomic)
 *    with D = `getelementptr T, B, i` or `getelementptr [N x T], B, 0, i`, B defined outside
 *    the loop and T's size that of V (no gap between elements); and V is a constant whose
 *    bytes are all equal (memset), or `load T, ptr S'` of the same shape on another base
 *    (memcpy), the load used only by the store. The two bases must be distinct allocas or
 *    globals, so the runs cannot overlap (the loop would read what it wrote; memcpy would not);
 *  - every index the body uses, S … S + trip − 1, fits the index type (GEP sign-extends it).
 *
 * Then the call goes at the end of the preheader, for bytes [S·size, (S + trip)·size) from the
 * bases, and the loop is deleted: the preheader branches to the exit, uses of i and i.next
 * after the loop take their last values (S + trip − 1 and S + trip), and the exit's phis take
 * their entries for the loop from the preheader. The body ran at least once (the loop is
 * bottom-tested), which is why a trip count is never 0.
 *
 * Invariants: the IR is read after one LoopSimplify and one LoopInfo; each candidate is one
 * block whose instructions are all accounted for, so nothing else runs in the loop and
 * deleting it removes only what the call does. Not done (LLVM does): loops of several
 * blocks, strides other than one element, symbolic trip counts, memmove for overlapping runs,
 * stores of non-splat values (memset_pattern).
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { ConstantFP, ConstantInt } from '../../ir/constants.js';
import { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { allocSize, storeSize } from '../../ir/layout.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { functionType, i1, i64, i8, ptr, TypeKind, voidType, type Type } from '../../ir/types.js';
import { setUseValue, Value, ValueKind } from '../../ir/value.js';
import { decomposePointer, isIdentifiedObject } from '../../analysis/alias.js';
import { CFG } from '../../analysis/cfg.js';
import { closedTripCount, readCountedIV } from '../../analysis/trip-count.js';
import { findLoops, type Loop, type LoopInfo } from '../../analysis/loops.js';
import { LoopAnalysis } from '../../pm/analyses.js';
import { simplifyLoops } from '../utils/loop-simplify.js';
import { defineCountingPass } from '../../pm/define-pass.js';

export interface LoopIdiomStats {
  memsets: number;
  memcpys: number;
  changed: boolean;
}

/** A recognized loop, read from the IR. */
interface Idiom {
  body: BasicBlock;
  preheader: BasicBlock;
  exit: BasicBlock;
  iv: Instruction;
  next: Instruction;
  start: bigint;
  trip: bigint;
  store: Instruction;
  dst: Instruction;
  /** memcpy: the load and its address; memset: null. */
  load: Instruction | null;
  src: Instruction | null;
  /** memset: the byte; memcpy: null. */
  byte: number | null;
  /** Size of one element in bytes. */
  size: number;
}

function constInt(v: Value): bigint | null {
  return v.kind === ValueKind.ConstantInt ? (v as ConstantInt).value : null;
}

/** The byte every byte of constant `v` holds, or null. */
function splatByte(v: Value): number | null {
  if (v.kind === ValueKind.ConstantInt) {
    const bits = v.type.bits;
    if (bits % 8 !== 0) return null;
    const x = BigInt.asUintN(bits, (v as ConstantInt).value);
    const b = Number(x & 0xffn);
    for (let k = 8; k < bits; k += 8) if (Number((x >> BigInt(k)) & 0xffn) !== b) return null;
    return b;
  }
  if (v.kind === ValueKind.ConstantFP) {
    const f = v as ConstantFP;
    return f.value === 0 && !Object.is(f.value, -0) ? 0 : null;
  }
  return null;
}

/** `gep T, B, iv` or `gep [N x T], B, 0, iv` with B outside `body`: the element type, or null. */
function elementOf(g: Value, iv: Instruction, body: BasicBlock): Type | null {
  if (!(g instanceof Instruction) || g.op !== Opcode.GetElementPtr || g.parent !== body || g.auxType === null) return null;
  if (g.type.kind !== TypeKind.Ptr) return null;
  const base = g.operand(0);
  if (base instanceof Instruction && base.parent === body) return null;
  const n = g.ops.length;
  if (g.operand(n - 1) !== iv) return null;
  if (n === 2) return g.auxType;
  const t = g.auxType;
  if (n === 3 && t.kind === TypeKind.Array && constInt(g.operand(1)) === 0n) return t.elem!;
  return null;
}

function onlyUser(v: Instruction, user: Instruction): boolean {
  return v.firstUse !== null && v.firstUse.user === user && v.firstUse.next === null;
}

/** The idiom in innermost loop `l`, or why there is none. */
function readIdiom(l: Loop, li: LoopInfo): Idiom | string {
  const cfg = li.cfg;
  const ids = [...l.blocks()];
  if (l.subLoops.length > 0 || ids.length !== 1) return 'not a one-block innermost loop';
  const body = cfg.blockOf(l.header)!;
  const phId = l.preheader();
  if (phId < 0) return 'no preheader';
  const preheader = cfg.blockOf(phId)!;
  if (preheader.terminator()?.op !== Opcode.Br || preheader.terminator()!.numSuccessors() !== 1) return 'preheader does not branch straight to the loop';
  const t = body.terminator();
  if (t === null || !t.isConditionalBranch()) return 'not rotated';
  const exit = t.successor(0) === body ? t.successor(1) : t.successor(0);
  if (exit === body || (t.successor(0) !== body && t.successor(1) !== body)) return 'not rotated';
  // the IV (the loop's only phi) and the test
  const civ = readCountedIV(body, preheader, body);
  if (civ === null || body.first !== civ.phi || civ.phi.next?.op === Opcode.Phi) return 'no counted IV against a constant, or other phis';
  const { phi: iv, next, test } = civ;
  if (civ.step !== 1n || next.parent !== body || test.parent !== body || !onlyUser(test, t)) return 'IV step is not 1, or the test is used elsewhere';
  const start = civ.start;
  const trip = closedTripCount(civ);
  if (trip === null) return 'no closed-form trip count';
  // the store, and what it stores
  let store: Instruction | null = null;
  let count = 0;
  for (let i: Instruction | null = body.first; i !== null; i = i.next) {
    count++;
    if (i.op === Opcode.Store) {
      if (store !== null) return 'more than one store';
      store = i;
    }
  }
  if (store === null || (store.flags & (Flag.Volatile | Flag.Atomic)) !== 0) return 'no plain store';
  const v = store.operand(0);
  const dst = store.operand(1) as Instruction;
  const elem = elementOf(dst, iv, body);
  const size = storeSize(v.type);
  if (elem === null || !onlyUser(dst, store) || allocSize(elem) !== size || storeSize(elem) !== size || size === 0) return 'store address is not base[i] of its own type';
  let load: Instruction | null = null;
  let src: Instruction | null = null;
  let byte: number | null = null;
  if (v instanceof Instruction && v.op === Opcode.Load && v.parent === body) {
    load = v;
    src = v.operand(0) as Instruction;
    if ((v.flags & (Flag.Volatile | Flag.Atomic)) !== 0 || !onlyUser(v, store)) return 'load is volatile or used elsewhere';
    const se = elementOf(src, iv, body);
    if (se === null || !onlyUser(src, v) || allocSize(se) !== size) return 'load address is not base[i] of its own type';
    const db = decomposePointer(dst.operand(0)).base;
    const sb = decomposePointer(src.operand(0)).base;
    if (db === sb || !isIdentifiedObject(db) || !isIdentifiedObject(sb)) return 'copy between runs that may overlap';
    // phi, next, icmp, br, the two GEPs, the load, the store
    if (count !== 8) return 'other instructions in the loop';
  } else {
    byte = splatByte(v);
    if (byte === null) return 'stored value is not a byte splat constant';
    if (count !== 6) return 'other instructions in the loop';
  }
  // the indices S … S + trip − 1 in the GEP's (signed) index type
  const ib = iv.type.bits;
  const last = start + trip - 1n;
  if (BigInt.asIntN(ib, start) !== start || BigInt.asIntN(ib, last) !== last) return 'index range wraps';
  // the exit: reached only from the loop (LoopSimplify's dedicated exits)
  if (exit.predecessors().some((p) => p !== body)) return 'exit is not dedicated';
  return { body, preheader, exit, iv, next, start, trip, store, dst, load, src, byte, size };
}

/** `gep` of the same shape as `g`, at constant index `k`, inserted before `pos`. */
function addressAt(g: Instruction, k: bigint, pos: Instruction): Instruction {
  const c = g.clone();
  c.setOperand(c.ops.length - 1, ConstantInt.get(g.operand(g.ops.length - 1).type, k));
  c.name = '';
  c.insertBefore(pos);
  return c;
}

function rewrite(fn: Function, d: Idiom): boolean {
  const m = fn.parent!;
  const callee =
    d.load !== null
      ? m.getOrInsertFunction('llvm.memcpy.p0.p0.i64', functionType(voidType, [ptr, ptr, i64, i1]))
      : m.getOrInsertFunction('llvm.memset.p0.i64', functionType(voidType, [ptr, i8, i64, i1]));
  if (callee === null) return false;
  const br = d.preheader.terminator()!;
  const to = addressAt(d.dst, d.start, br);
  const bytes = ConstantInt.get(i64, d.trip * BigInt(d.size));
  const args: Value[] = d.load !== null ? [to, addressAt(d.src!, d.start, br), bytes] : [to, ConstantInt.get(i8, BigInt(d.byte!)), bytes];
  const call = new Instruction(Opcode.Call, voidType, [callee, ...args, ConstantInt.get(i1, 0n)]);
  call.auxType = callee.fnType;
  call.insertBefore(br);
  // delete the loop: the IV's uses after it take its last values
  const ivType = d.iv.type;
  const lastIv = ConstantInt.get(ivType, BigInt.asIntN(ivType.bits, d.start + d.trip - 1n));
  const lastNext = ConstantInt.get(ivType, BigInt.asIntN(ivType.bits, d.start + d.trip));
  d.exit.replacePhiIncomingBlock(d.body, d.preheader);
  for (const [v, last] of [[d.iv, lastIv], [d.next, lastNext]] as const) {
    for (let u = v.firstUse; u !== null; ) {
      const n = u.next;
      if ((u.user as Instruction).parent !== d.body) setUseValue(u, last);
      u = n;
    }
  }
  br.setSuccessor(0, d.exit);
  d.body.eraseFromParent();
  return true;
}

export function recognizeLoopIdioms(fn: Function, cached?: LoopInfo, trace: ((line: string) => void) | null = null): LoopIdiomStats {
  const s = simplifyLoops(fn, cached);
  let changed = s.nested + s.preheaders + s.backedges + s.exits > 0;
  const li = !changed && cached !== undefined ? cached : findLoops(new CFG(fn));
  const todo: Idiom[] = [];
  for (const l of li.loops) {
    if (l.subLoops.length > 0) continue;
    const d = readIdiom(l, li);
    const name = li.cfg.blockOf(l.header)!.name;
    if (typeof d === 'string') {
      trace?.(`loop-idiom: %${name}: ${d}`);
      continue;
    }
    trace?.(`loop-idiom: %${name}: ${d.load !== null ? 'memcpy' : 'memset'} of ${d.trip} × ${d.size} bytes`);
    todo.push(d);
  }
  const stats: LoopIdiomStats = { memsets: 0, memcpys: 0, changed };
  // each candidate is one block of its own: rewriting one leaves the others as read
  for (const d of todo) {
    if (!rewrite(fn, d)) continue;
    if (d.load !== null) stats.memcpys++;
    else stats.memsets++;
    stats.changed = true;
  }
  return stats;
}

export const loopIdiomPass = defineCountingPass({
  name: 'loop-idiom',
  description: 'turn loops that fill or copy memory into llvm.memset / llvm.memcpy calls',
  count: (fn, ctx) => recognizeLoopIdioms(fn, ctx.analyses.get(LoopAnalysis), ctx.trace),
  stats: { memsets: 'loops turned into memset', memcpys: 'loops turned into memcpy' },
  changed: (r) => r.changed,
});
