/**
 * Dead store elimination, after LLVM's DSE (lib/Transforms/Scalar/DeadStoreElimination.cpp:
 * eliminateDeadStores with its MemorySSA walk, isOverwrite, and the no-op store rule).
 *
 * A store S of `size` bytes to p is deleted when
 *  1. every path from S reaches, before any instruction that may read the location, one of:
 *     a store or memset that must overwrite all of it (same base object, a constant byte
 *     range covering S's), S itself again (a loop that stores it each iteration), a `ret`
 *     when the location is in an alloca (the object dies), or `unreachable`;
 *  2. or it stores the value just loaded from the same address (`v = load p … store v, p`)
 *     with nothing in between in the block that may write the location.
 * The walk is LLVM's MemorySSA walk done directly on the CFG: a depth-first search over
 * successors from S, each block scanned from its top (a block seen before needs no second
 * look: the question is the same from its top whatever the path), bounded by MAX_BLOCKS
 * blocks and MAX_STEPS instructions per store, as LLVM bounds its walk (dse-memoryssa-scanlimit);
 * past the bound the store is kept.
 *
 * "May read" uses src/analysis/alias.ts: loads and memcpy sources that may alias; calls that
 * read memory, unless the location is a local alloca whose address never escapes; calls that
 * might not return; volatile and atomic accesses. Only simple (non-volatile, non-atomic)
 * stores are removed. The CFG is not changed.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { ConstantInt } from '../../ir/constants.js';
import { callMemoryEffect, callWillReturn, isMarkerIntrinsicName } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { storeSize } from '../../ir/layout.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { Value, ValueKind } from '../../ir/value.js';
import { AliasAnalysis, decomposePointer, type DecomposedPointer } from '../../analysis/alias.js';
import { defineCountingPass } from '../../pm/define-pass.js';

const MAX_BLOCKS = 32;
const MAX_STEPS = 256;
/** Stores examined per function beyond this many are kept (the walk is per store). */
const MAX_STORES = 4000;

export interface DSEStats {
  overwritten: number;
  noop: number;
  /** Writes into allocas that are never read (deleted with the alloca). */
  writeOnly: number;
}

interface Location {
  ptr: Value;
  d: DecomposedPointer;
  size: number;
  /** The base object is an alloca: it dies at ret. */
  local: boolean;
  /** An alloca whose address never escapes: calls cannot read it. */
  private: boolean;
}

const enum Effect {
  None,
  /** May read the location (or we cannot tell): S is needed. */
  Read,
  /** Overwrites all of it: S is dead on this path. */
  Kill,
}

function memIntrinsic(call: Instruction): 'memset' | 'memcpy' | null {
  const f = call.calledFunction();
  if (f === null) return null;
  if (f.name.startsWith('llvm.memset.')) return 'memset';
  if (f.name.startsWith('llvm.memcpy.') || f.name.startsWith('llvm.memmove.')) return 'memcpy';
  return null;
}

function constLen(call: Instruction): number {
  const l = call.arg(2);
  return l.kind === ValueKind.ConstantInt ? (l as ConstantInt).toNumber() : -1;
}

class DSE {
  readonly stats: DSEStats = { overwritten: 0, noop: 0, writeOnly: 0 };
  private readonly aa = new AliasAnalysis();

  constructor(readonly fn: Function) {}

  /** Whether the write [q, q+qs) covers all of loc. */
  private covers(q: Value, qs: number, loc: Location): boolean {
    if (qs < 0 || loc.d.offset === null) return false;
    if (q === loc.ptr) return qs >= loc.size;
    const dq = decomposePointer(q);
    if (dq.base !== loc.d.base || dq.offset === null) return false;
    return dq.offset <= loc.d.offset && dq.offset + qs >= loc.d.offset + loc.size;
  }

  private mayAlias(q: Value, qs: number, loc: Location): boolean {
    return this.aa.aliasDecomposed(q, qs, loc.ptr, loc.d, loc.size) !== 'no';
  }

  private effect(i: Instruction, loc: Location): Effect {
    switch (i.op) {
      case Opcode.Load:
        if ((i.flags & (Flag.Volatile | Flag.Atomic)) !== 0) return Effect.Read;
        return this.mayAlias(i.operand(0), storeSize(i.type), loc) ? Effect.Read : Effect.None;
      case Opcode.Store:
        if ((i.flags & (Flag.Volatile | Flag.Atomic)) !== 0) return Effect.Read;
        return this.covers(i.operand(1), storeSize(i.operand(0).type), loc) ? Effect.Kill : Effect.None;
      case Opcode.Call: {
        const f = i.calledFunction();
        if (f !== null && isMarkerIntrinsicName(f.name)) {
          // lifetime.end of the object: it dies here, like at ret
          if (f.name.startsWith('llvm.lifetime.end') && loc.local && i.numArgs >= 2 && decomposePointer(i.arg(1)).base === loc.d.base) return Effect.Kill;
          return f.name.startsWith('llvm.lifetime.start') && loc.local && i.numArgs >= 2 && decomposePointer(i.arg(1)).base === loc.d.base ? Effect.Read : Effect.None;
        }
        const k = memIntrinsic(i);
        if (k !== null) {
          const isVolatile = i.arg(3).kind !== ValueKind.ConstantInt || !(i.arg(3) as ConstantInt).isZero();
          if (isVolatile) return Effect.Read;
          const len = constLen(i);
          if (k === 'memcpy' && this.mayAlias(i.arg(1), len, loc)) return Effect.Read;
          return this.covers(i.arg(0), len, loc) ? Effect.Kill : Effect.None;
        }
        // no call can see a local whose address never escapes, returning or not
        if (loc.private) return Effect.None;
        if (!callWillReturn(i)) return Effect.Read;
        const e = callMemoryEffect(i);
        if (e === 'none' || e === 'write') {
          // a writing call that is not given the object cannot overwrite it for sure: no kill
          return Effect.None;
        }
        return Effect.Read;
      }
      case Opcode.VAArg:
      case Opcode.Fence:
      case Opcode.AtomicCmpXchg:
      case Opcode.AtomicRMW:
        return Effect.Read;
      default:
        return Effect.None;
    }
  }

  /** Whether every path from just after s kills its location before reading it (rule 1). */
  private isDeadStore(s: Instruction): boolean {
    const p = s.operand(1);
    const d = decomposePointer(p);
    const baseIsAlloca = d.base.kind === ValueKind.Instruction && (d.base as Instruction).op === Opcode.Alloca;
    const loc: Location = { ptr: p, d, size: storeSize(s.operand(0).type), local: baseIsAlloca, private: baseIsAlloca && this.aa.isNonEscaping(d.base) };
    let steps = 0;
    const seen = new Set<BasicBlock>();
    // (block, first instruction to scan)
    const work: [BasicBlock, Instruction | null][] = [[s.parent!, s.next]];
    while (work.length > 0) {
      const [b, from] = work.pop()!;
      let i = from;
      let killed = false;
      for (; i !== null; i = i.next) {
        if (++steps > MAX_STEPS) return false;
        if (i === s) {
          killed = true; // around a loop back to S: S overwrites it again
          break;
        }
        const e = this.effect(i, loc);
        if (e === Effect.Read) return false;
        if (e === Effect.Kill) {
          killed = true;
          break;
        }
        if (i.isTerminator()) break;
      }
      if (killed) continue;
      const t = b.terminator();
      if (t === null) return false;
      if (t.op === Opcode.Ret) {
        if (!loc.local) return false;
        continue;
      }
      if (t.op === Opcode.Unreachable) continue;
      const n = t.numSuccessors();
      if (n === 0) return false; // resume, indirectbr without targets, …: give up
      if (t.op === Opcode.IndirectBr) return false;
      for (let k = 0; k < n; k++) {
        const succ = t.successor(k);
        if (seen.has(succ)) continue;
        seen.add(succ);
        if (seen.size > MAX_BLOCKS) return false;
        work.push([succ, succ.first]);
      }
    }
    return true;
  }

  /** Rule 2: `store (load p), p` with nothing in between in the block that may write p. */
  private isNoopStore(s: Instruction): boolean {
    const v = s.operand(0);
    if (v.kind !== ValueKind.Instruction) return false;
    const l = v as Instruction;
    if (l.op !== Opcode.Load || l.parent !== s.parent || (l.flags & (Flag.Volatile | Flag.Atomic)) !== 0) return false;
    const p = s.operand(1);
    if (l.operand(0) !== p) return false;
    const d = decomposePointer(p);
    const size = storeSize(v.type);
    let steps = 0;
    for (let i = l.next; i !== null && i !== s; i = i.next) {
      if (++steps > MAX_STEPS) return false;
      if (i.op === Opcode.Store) {
        if (this.aa.aliasDecomposed(i.operand(1), storeSize(i.operand(0).type), p, d, size) !== 'no') return false;
      } else if (i.op === Opcode.Call) {
        const e = callMemoryEffect(i);
        if (e === 'write' || e === 'readwrite') {
          const k = memIntrinsic(i);
          if (k === null) {
            if (!this.aa.isLocalUnreachableFromCalls(p)) return false;
          } else if (this.aa.aliasDecomposed(i.arg(0), constLen(i), p, d, size) !== 'no') return false;
        }
      } else if (i.op === Opcode.AtomicRMW || i.op === Opcode.AtomicCmpXchg || i.op === Opcode.Fence || i.op === Opcode.VAArg) return false;
    }
    return true;
  }

  /**
   * Rule 0 (LLVM: an alloca only written to, removed by InstCombine's isAllocSiteRemovable and
   * DSE alike): an alloca whose address only flows, through GEPs and casts, into store
   * addresses, memset/memcpy destinations and lifetime markers is never read: it goes with all
   * those writes, whatever the size of the function.
   */
  private removeWriteOnlyAllocas(): void {
    const entry = this.fn.firstBlock;
    if (entry === null) return;
    const allocas: Instruction[] = [];
    for (let i = entry.first; i !== null; i = i.next) if (i.op === Opcode.Alloca) allocas.push(i);
    for (const a of allocas) {
      const users: Instruction[] = [];
      const addrs: Instruction[] = [a];
      let ok = true;
      for (let k = 0; k < addrs.length && ok; k++) {
        for (let u = addrs[k].firstUse; u !== null && ok; u = u.next) {
          const user = u.user as Instruction;
          if (user.kind !== ValueKind.Instruction) ok = false;
          else if (user.op === Opcode.GetElementPtr || user.op === Opcode.BitCast) {
            if (u.index !== 0) ok = false;
            else addrs.push(user);
          } else if (user.op === Opcode.Store) {
            if (u.index !== 1 || (user.flags & (Flag.Volatile | Flag.Atomic)) !== 0) ok = false;
            else users.push(user);
          } else if (user.op === Opcode.Call) {
            const f = user.calledFunction();
            const k2 = memIntrinsic(user);
            const marker = f !== null && f.name.startsWith('llvm.lifetime.');
            const volatile = k2 !== null && !(user.arg(3).kind === ValueKind.ConstantInt && (user.arg(3) as ConstantInt).isZero());
            if (marker || (k2 !== null && u.index === 1 && !volatile)) users.push(user);
            else ok = false;
          } else ok = false;
        }
      }
      if (!ok || users.length === 0) continue;
      for (const w of users) if (w.parent !== null) w.eraseFromParent();
      for (let k = addrs.length - 1; k >= 1; k--) if (addrs[k].parent !== null && addrs[k].firstUse === null) addrs[k].eraseFromParent();
      if (a.firstUse === null) a.eraseFromParent();
      this.stats.writeOnly += users.length;
    }
  }

  run(): void {
    this.removeWriteOnlyAllocas();
    const stores: Instruction[] = [];
    for (let b = this.fn.firstBlock; b !== null; b = b.next) {
      for (let i = b.first; i !== null; i = i.next) {
        if (i.op === Opcode.Store && (i.flags & (Flag.Volatile | Flag.Atomic)) === 0) stores.push(i);
      }
    }
    if (stores.length > MAX_STORES) stores.length = MAX_STORES;
    // later stores first: a store killed by a later one is found whether or not that one dies too
    for (let k = stores.length - 1; k >= 0; k--) {
      const s = stores[k];
      if (this.isNoopStore(s)) {
        s.eraseFromParent();
        this.stats.noop++;
      } else if (this.isDeadStore(s)) {
        s.eraseFromParent();
        this.stats.overwritten++;
      }
    }
  }
}

/** Runs DSE on fn; returns what it deleted. */
export function runDSE(fn: Function): DSEStats {
  const d = new DSE(fn);
  d.run();
  return d.stats;
}

export const dsePass = defineCountingPass({
  name: 'dse',
  description: 'delete stores that are overwritten or whose object dies before any read, and stores of the value just loaded',
  count: (fn) => runDSE(fn),
  stats: { overwritten: 'dead stores deleted', noop: 'stores of the loaded value deleted', writeOnly: 'writes to never-read allocas deleted' },
  preserves: 'cfg',
});
