/**
 * Scalar replacement of aggregates, after LLVM's SROA (lib/Transforms/Scalar/SROA.cpp:
 * AllocaSlices, the partitioning of slices, AllocaSliceRewriter, then PromoteMemToReg).
 *
 * An alloca of the entry block whose address only flows, through GEPs with constant
 * indices and casts, into simple loads and stores, constant-length memcpy/memmove/memset
 * and lifetime markers is cut into one new alloca per *partition*:
 *  - every load and store is a slice [offset, offset + size) of the alloca; slices must
 *    coincide or be disjoint (LLVM also handles overlapping ones, with integer widening:
 *    not done here, such an alloca is left alone); slices of one range but different types
 *    are reconciled by bitcast (int/float of one size) or ptrtoint/inttoptr (ptr and i64);
 *  - a memcpy/memset range must cover whole partitions; the bytes it moves that no load or
 *    store names (padding, fields only ever copied) get integer partitions of their own,
 *    cut at every memory-intrinsic boundary so each lies wholly inside or outside each range;
 *  - then memset becomes a store of the splatted constant per partition, a memcpy into the
 *    alloca a load from the source per partition, a memcpy out of it a store per partition
 *    (the other side is addressed with byte GEPs and align 1), lifetime markers go, and the
 *    new allocas, each accessed only at its own type, are promoted by mem2reg.
 * An alloca used any other way (escaping: passed to a call, stored, compared, a variable
 * index, volatile, out of bounds, a memcpy with itself) is not touched. A memcpy from one
 * split alloca into another becomes stores into the second, which the next round splits:
 * rounds repeat while they find work (at most 4).
 *
 * Invariant: the CFG is not changed; every new instruction is placed where the access it
 * replaces was.
 *
 * Whole-aggregate loads and stores are split first (sroa-aggregates.ts, LLVM's
 * AggLoadStoreRewriter); widened-integer pieces are folded after promotion (sroa-bits.ts);
 * bytes of constant memory are read by analysis/const-memory.ts.
 */
import { ConstantExpr, ConstantFP, ConstantInt, ConstantNull, UndefValue } from '../../ir/constants.js';
import type { Function, GlobalVariable } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { abiAlign, allocSize, storeSize } from '../../ir/layout.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { floatType, i32, i64, intType, ptr, TypeKind, type Type } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { constantGEPInstOffset } from '../../analysis/instsimplify.js';
import { constantBytes, loadFromConstantMemory } from '../../analysis/const-memory.js';
import { foldExtractsOfInserts, foldWidenedPieces } from './sroa-bits.js';
import { CFG } from '../../analysis/cfg.js';
import { computeDominators } from '../../analysis/dominators.js';
import { promoteAllocas } from '../utils/promote-allocas.js';
import { isAllocaPromotable } from '../utils/promote-memory.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { basedOnAlloca, byteGEP, isAggregate, isScalar, MAX_PARTITIONS, newLoad, newStore, splitAggregateAccesses } from './sroa-aggregates.js';

const MAX_ROUNDS = 4;

const enum SliceKind {
  Load,
  Store,
  /** memset or memcpy/memmove into the alloca. */
  MemWrite,
  /** memcpy/memmove out of the alloca. */
  MemRead,
}

interface Slice {
  kind: SliceKind;
  start: number;
  end: number;
  inst: Instruction;
}

interface Partition {
  start: number;
  end: number;
  type: Type;
  alloca: Instruction | null;
}

export interface SROAStats {
  allocasSplit: number;
  partitions: number;
  promoted: number;
  /** Whole-aggregate loads and stores cut into scalar ones. */
  aggregatesSplit: number;
  /** Partitions held in a wider integer (integer widening). */
  widened: number;
  /** Pieces read back from widened integers or insertvalue chains (sroa-bits.ts). */
  piecesFolded: number;
  /** Loads from constant globals read byte by byte (where the value straddles initializer elements). */
  constantLoads: number;
}

type MemIntrinsic = 'memcpy' | 'memmove' | 'memset' | 'lifetime' | null;

function memIntrinsicKind(call: Instruction): MemIntrinsic {
  const f = call.calledFunction();
  if (f === null) return null;
  const n = f.name;
  if (n.startsWith('llvm.memcpy.')) return 'memcpy';
  if (n.startsWith('llvm.memmove.')) return 'memmove';
  if (n.startsWith('llvm.memset.')) return 'memset';
  if (n.startsWith('llvm.lifetime.')) return 'lifetime';
  return null;
}

function constLength(call: Instruction): number | null {
  const len = call.arg(2);
  if (len.kind !== ValueKind.ConstantInt) return null;
  const n = (len as ConstantInt).toNumber();
  return n >= 0 && n <= 1 << 20 ? n : null;
}

function isVolatileIntrinsic(call: Instruction): boolean {
  const v = call.arg(3);
  return !(v.kind === ValueKind.ConstantInt && (v as ConstantInt).isZero());
}

/** Whether a value of type `from` can be reinterpreted as `to` (same store size) with one cast. */
function convertible(from: Type, to: Type): boolean {
  if (from === to) return true;
  if (storeSize(from) !== storeSize(to)) return false;
  const ptrLike = (t: Type): boolean => t.kind === TypeKind.Ptr;
  if (ptrLike(from) || ptrLike(to)) return (ptrLike(from) && to === i64) || (ptrLike(to) && from === i64);
  // int <-> float/double of one size; int widths must be whole bytes
  return (from.kind !== TypeKind.Int || from.bits % 8 === 0) && (to.kind !== TypeKind.Int || to.bits % 8 === 0);
}

function convert(v: Value, to: Type, before: Instruction): Value {
  if (v.type === to) return v;
  let op = Opcode.BitCast;
  if (to.kind === TypeKind.Ptr) op = Opcode.IntToPtr;
  else if (v.type.kind === TypeKind.Ptr) op = Opcode.PtrToInt;
  const c = new Instruction(op, to, [v]);
  before.parent!.insertBefore(c, before);
  return c;
}

function sliceType(s: Slice): Type {
  return s.inst.op === Opcode.Load ? s.inst.type : s.inst.operand(0).type;
}

/** A type a widened integer partition can hold a piece of (whole bytes, no pointers). */
function widenable(t: Type): boolean {
  return (t.kind === TypeKind.Int && t.bits % 8 === 0) || t.kind === TypeKind.Float || t.kind === TypeKind.Double;
}

function binop(op: Opcode, a: Value, b: Value, before: Instruction): Instruction {
  const i = new Instruction(op, a.type, [a, b]);
  before.parent!.insertBefore(i, before);
  return i;
}

function castInst(op: Opcode, v: Value, to: Type, before: Instruction): Instruction {
  const i = new Instruction(op, to, [v]);
  before.parent!.insertBefore(i, before);
  return i;
}

/** Truncs made by extractPiece in this run: foldWidenedPieces looks at them after promotion. */
let createdTruncs: Instruction[] = [];

/** The piece [s, s+size(t)) of a widened partition value `whole` (little-endian), as type t. */
function extractPiece(whole: Value, p: Partition, s: Slice, t: Type, before: Instruction): Value {
  const shift = (s.start - p.start) * 8;
  let v: Value = whole;
  if (shift > 0) v = binop(Opcode.LShr, v, ConstantInt.get(p.type, shift), before);
  const it = intType((s.end - s.start) * 8);
  if (it !== p.type) {
    v = castInst(Opcode.Trunc, v, it, before);
    createdTruncs.push(v as Instruction);
  }
  return t === it ? v : castInst(Opcode.BitCast, v, t, before);
}

/** `whole` with the piece [s, s+size) replaced by `piece`. */
function insertPiece(whole: Value, piece: Value, p: Partition, s: Slice, before: Instruction): Value {
  const it = intType((s.end - s.start) * 8);
  let v = piece.type === it ? piece : castInst(Opcode.BitCast, piece, it, before);
  if (it !== p.type) v = castInst(Opcode.ZExt, v, p.type, before);
  const shift = (s.start - p.start) * 8;
  if (shift > 0) v = binop(Opcode.Shl, v, ConstantInt.get(p.type, shift), before);
  const bits = BigInt(p.type.bits);
  const full = (1n << bits) - 1n;
  const mask = full ^ (((1n << BigInt(it.bits)) - 1n) << BigInt(shift));
  const kept = binop(Opcode.And, whole, ConstantInt.get(p.type, mask), before);
  return binop(Opcode.Or, kept, v, before);
}

/**
 * Loads of scalars that straddle elements of a constant global's initializer (an i64 read of
 * a {i32, i32}, as memcpy from a constant struct leaves once split): the bytes are known.
 * Loads instcombine can fold itself (a whole element) are left to it.
 */
function foldConstantLoads(loads: readonly Instruction[]): number {
  let n = 0;
  for (const i of loads) {
    if (i.parent === null || loadFromConstantMemory(i.operand(0), i.type) !== null) continue;
    const c = constantBytes(i.operand(0), 0, i.type);
    if (c !== null) {
      i.replaceAllUsesWith(c);
      i.eraseFromParent();
      n++;
    }
  }
  return n;
}

/** Whether p is a constant global or a GEP straight off one (the cheap test before decomposing). */
function mayPointIntoConstant(p: Value): boolean {
  if (p.kind === ValueKind.Instruction) {
    const g = p as Instruction;
    if (g.op !== Opcode.GetElementPtr) return false;
    p = g.ops[0].value;
  } else if (p.kind === ValueKind.ConstantExpr) {
    const ce = p as ConstantExpr;
    if (ce.opcode !== Opcode.GetElementPtr) return false;
    p = ce.operands[0];
  }
  return p.kind === ValueKind.GlobalVariable && (p as GlobalVariable).isConstant;
}

/** What one walk over the function finds for the steps of runSROA. */
interface Candidates {
  aggregateAccesses: Instruction[];
  constantLoads: Instruction[];
  truncs: Instruction[];
  extracts: Instruction[];
}

function scanFunction(fn: Function): Candidates {
  const c: Candidates = { aggregateAccesses: [], constantLoads: [], truncs: [], extracts: [] };
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    for (let i = b.first; i !== null; i = i.next) {
      switch (i.op) {
        case Opcode.Load:
          if ((i.flags & (Flag.Volatile | Flag.Atomic)) !== 0) break;
          if (isAggregate(i.type)) {
            if (basedOnAlloca(i.operand(0))) c.aggregateAccesses.push(i);
          } else if (mayPointIntoConstant(i.operand(0)) && isScalar(i.type)) c.constantLoads.push(i);
          break;
        case Opcode.Store: {
          const v = i.operand(0);
          if ((i.flags & (Flag.Volatile | Flag.Atomic)) !== 0 || !isAggregate(v.type)) break;
          const fromLoad = v.kind === ValueKind.Instruction && (v as Instruction).op === Opcode.Load;
          if (basedOnAlloca(i.operand(1)) || (fromLoad && basedOnAlloca((v as Instruction).operand(0)))) c.aggregateAccesses.push(i);
          break;
        }
        case Opcode.Trunc:
          c.truncs.push(i);
          break;
        case Opcode.ExtractValue:
          c.extracts.push(i);
          break;
      }
    }
  }
  return c;
}

/** The type of a gap partition of `n` bytes at `start`: the widest integer of 8/4/2/1 bytes that fits and is aligned. */
function gapChunk(start: number, end: number): number {
  for (const n of [8, 4, 2, 1]) if (start % n === 0 && start + n <= end) return n;
  return 1;
}

class AllocaSplitter {
  readonly slices: Slice[] = [];
  widened = 0;
  /** Instructions that only compute addresses (GEPs, casts) or mark lifetimes: deleted at the end. */
  readonly dead: Instruction[] = [];
  /** Byte offset of each address computed from the alloca. */
  private readonly offsets = new Map<Value, number>();

  constructor(readonly alloca: Instruction) {}

  /** Collects the slices; false when the alloca is used in a way we do not rewrite. */
  analyze(): boolean {
    const a = this.alloca;
    const size = allocSize(a.auxType!);
    if (size <= 0) return false;
    const work: Value[] = [a];
    this.offsets.set(a, 0);
    while (work.length > 0) {
      const v = work.pop()!;
      const off = this.offsets.get(v)!;
      for (let u = v.firstUse; u !== null; u = u.next) {
        const user = u.user as Instruction;
        if (user.kind !== ValueKind.Instruction) return false;
        switch (user.op) {
          case Opcode.GetElementPtr: {
            if (u.index !== 0) return false;
            const d = constantGEPInstOffset(user);
            if (d === null || this.offsets.has(user)) return false;
            this.offsets.set(user, off + d);
            this.dead.push(user);
            work.push(user);
            break;
          }
          case Opcode.BitCast:
          case Opcode.AddrSpaceCast:
            if (this.offsets.has(user)) return false;
            this.offsets.set(user, off);
            this.dead.push(user);
            work.push(user);
            break;
          case Opcode.Load: {
            if ((user.flags & (Flag.Volatile | Flag.Atomic)) !== 0 || !isScalar(user.type)) return false;
            if (!this.add(SliceKind.Load, off, storeSize(user.type), user, size)) return false;
            break;
          }
          case Opcode.Store: {
            const t = user.operand(0).type;
            if (u.index !== 1 || (user.flags & (Flag.Volatile | Flag.Atomic)) !== 0 || !isScalar(t)) return false;
            if (!this.add(SliceKind.Store, off, storeSize(t), user, size)) return false;
            break;
          }
          case Opcode.Call: {
            const k = memIntrinsicKind(user);
            if (k === 'lifetime') {
              this.dead.push(user);
              break;
            }
            if (k === null || isVolatileIntrinsic(user)) return false;
            const len = constLength(user);
            if (len === null) return false;
            if (k === 'memset') {
              if (u.index !== 1 || user.arg(1).kind !== ValueKind.ConstantInt) return false;
              if (!this.add(SliceKind.MemWrite, off, len, user, size)) return false;
            } else {
              // a copy within the alloca itself is not rewritten
              if (this.offsets.has(user.arg(0)) && this.offsets.has(user.arg(1))) return false;
              if (user.arg(0) === user.arg(1)) return false;
              if (u.index !== 1 && u.index !== 2) return false;
              if (!this.add(u.index === 1 ? SliceKind.MemWrite : SliceKind.MemRead, off, len, user, size)) return false;
            }
            break;
          }
          default:
            return false;
        }
      }
    }
    // a memcpy whose other operand is derived from the alloca too (seen after both were numbered)
    for (const s of this.slices) {
      if (s.kind === SliceKind.MemWrite && s.inst.op === Opcode.Call && memIntrinsicKind(s.inst) !== 'memset' && this.offsets.has(s.inst.arg(1))) return false;
      if (s.kind === SliceKind.MemRead && this.offsets.has(s.inst.arg(0))) return false;
    }
    return this.slices.length > 0;
  }

  private add(kind: SliceKind, off: number, len: number, inst: Instruction, size: number): boolean {
    if (off < 0 || off + len > size) return false;
    if (len === 0) {
      this.dead.push(inst);
      return true;
    }
    this.slices.push({ kind, start: off, end: off + len, inst });
    return true;
  }

  /** Partitions from the slices, or null when loads/stores overlap partially or a memory range cuts one. */
  partition(): Partition[] | null {
    const parts: Partition[] = [];
    const ls = this.slices.filter((s) => s.kind === SliceKind.Load || s.kind === SliceKind.Store);
    ls.sort((x, y) => x.start - y.start || y.end - x.end);
    // clusters of overlapping slices: one partition each
    for (let k = 0; k < ls.length; ) {
      const start = ls[k].start;
      let end = ls[k].end;
      let j = k + 1;
      while (j < ls.length && ls[j].start < end) end = Math.max(end, ls[j++].end);
      const cluster = ls.slice(k, j);
      k = j;
      const first = sliceType(cluster[0]);
      if (cluster.every((c) => c.start === start && c.end === end)) {
        let t = first;
        for (const c of cluster) {
          const ct = sliceType(c);
          if (!convertible(ct, t)) return null;
          // an integer is the most neutral holder for a location used at several types
          if (ct !== t && ct.kind === TypeKind.Int && t.kind !== TypeKind.Ptr) t = ct;
        }
        parts.push({ start, end, type: t, alloca: null });
        continue;
      }
      // LLVM's integer widening: slices overlapping within 8 bytes share one integer, read
      // with shifts and truncation and written with masks
      if (end - start > 8) return null;
      for (const c of cluster) if (!widenable(sliceType(c))) return null;
      parts.push({ start, end, type: intType((end - start) * 8), alloca: null });
      this.widened++;
    }
    const mem = this.slices.filter((s) => s.kind === SliceKind.MemRead || s.kind === SliceKind.MemWrite);
    if (mem.length > 0) {
      // cut points: every memory-intrinsic boundary
      const cuts = new Set<number>();
      for (const m of mem) {
        cuts.add(m.start);
        cuts.add(m.end);
      }
      // each partition lies wholly inside or outside each memory range
      for (const p of parts) for (const c of cuts) if (c > p.start && c < p.end) return null;
      // bytes some copy reads out but no partition holds get integer partitions
      const covered = (b: number): Partition | null => {
        for (const p of parts) if (b >= p.start && b < p.end) return p;
        return null;
      };
      const gaps: Partition[] = [];
      for (const m of mem) {
        if (m.kind !== SliceKind.MemRead) continue;
        let b = m.start;
        while (b < m.end) {
          const p = covered(b) ?? gaps.find((g) => b >= g.start && b < g.end) ?? null;
          if (p !== null) {
            b = p.end;
            continue;
          }
          let e = b + 1;
          while (e < m.end && covered(e) === null && !cuts.has(e) && !gaps.some((g) => e >= g.start && e < g.end)) e++;
          for (let s = b; s < e; ) {
            const n = gapChunk(s, e);
            gaps.push({ start: s, end: s + n, type: intType(n * 8), alloca: null });
            s += n;
            if (parts.length + gaps.length > MAX_PARTITIONS) return null;
          }
          b = e;
        }
      }
      parts.push(...gaps);
      parts.sort((x, y) => x.start - y.start);
    }
    if (parts.length > MAX_PARTITIONS) return null;
    return parts;
  }
}

/** The constant a memset of byte `b` leaves in a partition of type t, or null. */
function splat(t: Type, b: number, before: Instruction): Value | null {
  const n = storeSize(t);
  let v = 0n;
  for (let k = 0; k < n; k++) v = (v << 8n) | BigInt(b & 255);
  if (t.kind === TypeKind.Int) return ConstantInt.get(t, v);
  if (t.kind === TypeKind.Ptr) return b === 0 ? ConstantNull.get(t) : null;
  if (b === 0) return ConstantFP.get(t, 0);
  const c = new Instruction(Opcode.BitCast, t, [ConstantInt.get(t === floatType ? i32 : i64, v)]);
  before.parent!.insertBefore(c, before);
  return c;
}

function rewrite(sp: AllocaSplitter, parts: Partition[], fn: Function): void {
  const a = sp.alloca;
  for (const p of parts) {
    const n = new Instruction(Opcode.Alloca, ptr, [ConstantInt.get(i32, 1)]);
    n.auxType = p.type;
    n.align = abiAlign(p.type);
    if (a.name !== '') n.name = `${a.name}.sroa.${p.start}`;
    fn.firstBlock!.insertBefore(n, a);
    p.alloca = n;
  }
  const at = (start: number): Partition => {
    // partitions are sorted and disjoint: binary search
    let lo = 0;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (parts[mid].start <= start) lo = mid;
      else hi = mid - 1;
    }
    return parts[lo];
  };
  const inRange = (s: number, e: number): Partition[] => parts.filter((p) => p.start >= s && p.end <= e);
  for (const s of sp.slices) {
    const i = s.inst;
    if (s.kind === SliceKind.Load) {
      const p = at(s.start);
      const l = newLoad(p.type, p.alloca!, p.alloca!.align, i);
      const v = p.start === s.start && p.end === s.end ? convert(l, i.type, i) : extractPiece(l, p, s, i.type, i);
      i.replaceAllUsesWith(v);
    } else if (s.kind === SliceKind.Store) {
      const p = at(s.start);
      if (p.start === s.start && p.end === s.end) newStore(convert(i.operand(0), p.type, i), p.alloca!, p.alloca!.align, i);
      else {
        const old = newLoad(p.type, p.alloca!, p.alloca!.align, i);
        newStore(insertPiece(old, i.operand(0), p, s, i), p.alloca!, p.alloca!.align, i);
      }
    } else if (memIntrinsicKind(i) === 'memset') {
      const b = (i.arg(1) as ConstantInt).toNumber();
      for (const p of inRange(s.start, s.end)) {
        const c = splat(p.type, b, i) ?? UndefValue.get(p.type);
        newStore(c, p.alloca!, p.alloca!.align, i);
      }
    } else if (s.kind === SliceKind.MemWrite) {
      const src = i.arg(1);
      for (const p of inRange(s.start, s.end)) {
        // a copy from constant memory stores the constant itself (LLVM leaves this to instcombine's load folding)
        const c = constantBytes(src, p.start - s.start, p.type);
        const l = c ?? newLoad(p.type, byteGEP(src, p.start - s.start, i), 1, i);
        newStore(l, p.alloca!, p.alloca!.align, i);
      }
    } else {
      const dst = i.arg(0);
      for (const p of inRange(s.start, s.end)) {
        const l = newLoad(p.type, p.alloca!, p.alloca!.align, i);
        newStore(l, byteGEP(dst, p.start - s.start, i), 1, i);
      }
    }
  }
  for (const s of sp.slices) s.inst.eraseFromParent();
  for (let k = sp.dead.length - 1; k >= 0; k--) {
    const d = sp.dead[k];
    if (d.parent !== null) {
      d.dropAllReferences();
      d.eraseFromParent();
    }
  }
  a.eraseFromParent();
}

/** The memset-of-undef fallback above never happens for a ptr partition with a nonzero byte: such an alloca is refused. */
function memsetsSplattable(sp: AllocaSplitter, parts: Partition[]): boolean {
  for (const s of sp.slices) {
    if (s.kind !== SliceKind.MemWrite || memIntrinsicKind(s.inst) !== 'memset') continue;
    const b = (s.inst.arg(1) as ConstantInt).toNumber() & 255;
    if (b === 0) continue;
    for (const p of parts) if (p.start >= s.start && p.end <= s.end && p.type.kind === TypeKind.Ptr) return false;
  }
  return true;
}

/** Splits and promotes the allocas of fn's entry block; returns counts. */
export function runSROA(fn: Function): SROAStats {
  const stats: SROAStats = { allocasSplit: 0, partitions: 0, promoted: 0, aggregatesSplit: 0, widened: 0, constantLoads: 0, piecesFolded: 0 };
  const entry = fn.firstBlock;
  if (entry === null) return stats;
  const cand = scanFunction(fn);
  createdTruncs = cand.truncs;
  stats.aggregatesSplit = splitAggregateAccesses(cand.aggregateAccesses, cand.extracts);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let changed = false;
    const allocas: Instruction[] = [];
    for (let i = entry.first; i !== null; i = i.next) {
      if (i.op !== Opcode.Alloca || i.auxType === null) continue;
      const c = i.operand(0);
      if (c.kind !== ValueKind.ConstantInt || (c as ConstantInt).toNumber() !== 1) continue;
      allocas.push(i);
    }
    for (const a of allocas) {
      // a scalar alloca accessed only at its own type is promoted as it is (below)
      if (isAllocaPromotable(a)) continue;
      const sp = new AllocaSplitter(a);
      if (!sp.analyze()) continue;
      const parts = sp.partition();
      if (parts === null || !memsetsSplattable(sp, parts)) continue;
      rewrite(sp, parts, fn);
      stats.widened += sp.widened;
      stats.allocasSplit++;
      stats.partitions += parts.length;
      changed = true;
    }
    if (!changed) break;
  }
  // as LLVM's SROA ends: every promotable alloca of the entry block (the new ones among them) becomes SSA
  const promotable: Instruction[] = [];
  for (let i = entry.first; i !== null; i = i.next) if (i.op === Opcode.Alloca && isAllocaPromotable(i)) promotable.push(i);
  if (promotable.length > 0) {
    promoteAllocas(fn, computeDominators(new CFG(fn)), promotable);
    stats.promoted = promotable.length;
  }
  // integer widening leaves shift/mask chains: read each piece straight from where it was put
  // (always: earlier runs may have left such chains for later passes to connect; both are linear scans)
  stats.piecesFolded = foldWidenedPieces(createdTruncs) + foldExtractsOfInserts(cand.extracts);
  createdTruncs = [];
  stats.constantLoads = foldConstantLoads(cand.constantLoads);
  return stats;
}

export const sroaPass = defineCountingPass({
  name: 'sroa',
  description: 'split aggregate allocas (structs, constant-indexed arrays, memcpy\'d locals) into scalars and promote them',
  count: (fn) => runSROA(fn),
  // a partition is counted only with its alloca split: the other counts say whether it changed
  stats: { piecesFolded: 'pieces read back directly', constantLoads: 'constant loads folded', aggregatesSplit: 'aggregate loads and stores split', allocasSplit: 'allocas split', partitions: 'partitions', promoted: 'allocas promoted' },
  preserves: 'cfg',
});
