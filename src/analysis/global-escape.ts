/**
 * Internal globals whose address is never taken, after the part of LLVM's GlobalsAA
 * (llvm/lib/Analysis/GlobalsModRef.cpp, `AnalyzeUsesOfPointer` / "non-address-taken
 * globals") that alias queries use: a pointer that was loaded from memory, is an argument,
 * or is a call's result cannot point into such a global, since no instruction ever put its
 * address anywhere a load, a caller or a callee could find it.
 *
 * A global qualifies when its linkage is internal/private (nothing outside the module names
 * it) and every use, directly or through constant or instruction GEPs/casts of it, is the
 * address of a load or store, a compare, or a pointer argument of the llvm.memset, memcpy, memmove, lifetime or dbg
 * intrinsics. Storing it as a value, passing it to a call, returning it, a phi or select
 * of it, a reference from another global's initializer or an alias: taken.
 *
 * Invariants: the transforms of the pipelines never make a not-taken global's address
 * taken — a pointer into it can only be derived from its existing uses, which were all
 * classified — except by merging such pointers in new phis/selects, which is why the alias
 * rule using this only trusts loads, arguments and call results as the other side. The
 * answer is cached per module as the globals each function takes (and those initializers
 * take): a function pass that changed a function drops that function's share
 * (`invalidateGlobalEscapesIn`, from the pass manager), so code that dead-code elimination
 * removed stops counting for the passes after it, in the same function's fixpoint, at the
 * cost of rescanning that one function; reg2mem, which stores arbitrary values, and every
 * module pass drop the whole cache (`invalidateGlobalEscapes`).
 */
import { ConstantAggregate, ConstantExpr, globalValuesIn } from '../ir/constants.js';
import type { Function, GlobalVariable } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import type { Module } from '../ir/module.js';
import { Opcode } from '../ir/opcodes.js';
import { type Value, ValueKind } from '../ir/value.js';

interface EscapeCache {
  /** Globals (and functions, aliases) that initializers and aliases mention. */
  byInitializers: Set<Value>;
  /** The globals each scanned function takes the address of. */
  byFunction: Map<Function, Set<Value>>;
  /** How many scanned functions take each global. */
  count: Map<Value, number>;
  /** Functions of the module not scanned since they changed. */
  pending: Set<Function>;
}

const cache = new WeakMap<Module, EscapeCache>();

export function invalidateGlobalEscapes(m: Module): void {
  cache.delete(m);
}

/** `fn` changed: its share is rescanned when next asked (the other functions' shares stay). */
export function invalidateGlobalEscapesIn(fn: Function): void {
  const m = fn.parent;
  const c = m === null ? undefined : cache.get(m);
  if (c === undefined) return;
  const taken = c.byFunction.get(fn);
  if (taken === undefined) return;
  for (const g of taken) c.count.set(g, c.count.get(g)! - 1);
  c.byFunction.delete(fn);
  c.pending.add(fn);
}

/** Whether `g` is an internal global whose address is never taken (see the file comment). */
export function isNonAddressTakenGlobal(g: GlobalVariable): boolean {
  const m = g.parent;
  if (m === null) return false;
  if (g.attrs.linkage !== 'internal' && g.attrs.linkage !== 'private') return false;
  if (/\bexternally_initialized\b/.test(g.attrs.prefix) || /\bexternally_initialized\b/.test(g.attrs.suffix)) return false;
  let c = cache.get(m);
  if (c === undefined) {
    c = { byInitializers: initializerTaken(m), byFunction: new Map(), count: new Map(), pending: new Set(m.functions) };
    cache.set(m, c);
  }
  if (c.pending.size > 0) {
    for (const f of c.pending) {
      if (f.parent !== m) continue;
      const taken = functionTaken(f);
      c.byFunction.set(f, taken);
      for (const t of taken) c.count.set(t, (c.count.get(t) ?? 0) + 1);
    }
    c.pending.clear();
  }
  return !c.byInitializers.has(g) && (c.count.get(g) ?? 0) === 0;
}

/** The global a constant is, or is a chain of constant GEPs/casts of; null otherwise. */
function derivedGlobal(c: Value): Value | null {
  let v = c;
  for (let guard = 0; guard < 16; guard++) {
    if (v.kind === ValueKind.GlobalVariable) return v;
    if (!(v instanceof ConstantExpr)) return null;
    if (v.opcode !== Opcode.GetElementPtr && v.opcode !== Opcode.BitCast && v.opcode !== Opcode.AddrSpaceCast) return null;
    v = v.operands[0];
  }
  return null;
}

/** Whether operand `k` of `i`, a pointer into some global, keeps the address to itself; derived pointers go to `work`. */
function useKeepsAddress(i: Instruction, k: number, work: Instruction[]): boolean {
  switch (i.op) {
    case Opcode.Load:
      return k === 0;
    case Opcode.Store:
      return k === 1;
    case Opcode.ICmp:
      return true;
    case Opcode.GetElementPtr:
    case Opcode.BitCast:
    case Opcode.AddrSpaceCast:
      if (k !== 0) return false;
      work.push(i);
      return true;
    case Opcode.Call: {
      const f = i.calledFunction();
      if (f === null || k >= i.numArgs) return false;
      const n = f.name;
      return n.startsWith('llvm.memset.') || n.startsWith('llvm.memcpy.') || n.startsWith('llvm.memmove.') || n.startsWith('llvm.lifetime.') || n.startsWith('llvm.dbg.');
    }
    default:
      return false;
  }
}

/** Globals mentioned by initializers and aliases (functions and aliases land here too; only global variables are asked about). */
function initializerTaken(m: Module): Set<Value> {
  const taken = new Set<Value>();
  const seenConstants = new Set<Value>(); // a constant walked once has put its globals in `taken`
  for (const g of m.globals) if (g.initializer !== null) globalValuesIn(g.initializer, taken, seenConstants);
  for (const a of m.aliases) globalValuesIn(a.aliasee, taken, seenConstants);
  return taken;
}

/** The globals whose address `f`'s instructions take: directly, through constant GEPs/casts, and through instruction GEPs/casts. */
function functionTaken(f: Function): Set<Value> {
  const taken = new Set<Value>();
  const seenConstants = new Set<Value>();
  const work: Instruction[] = [];
  const followed = new Set<Instruction>();
  for (let b = f.firstBlock; b !== null; b = b.next) {
    for (let i = b.first; i !== null; i = i.next) {
      const ops = i.ops;
      for (let k = 0; k < ops.length; k++) {
        const v = ops[k].value;
        if (v.kind !== ValueKind.GlobalVariable && v.kind !== ValueKind.ConstantExpr && !(v instanceof ConstantAggregate)) continue;
        const g = derivedGlobal(v);
        if (g === null) {
          // some other constant mentioning globals (ptrtoint, a vector of pointers, ...)
          if (v.kind === ValueKind.ConstantExpr || v instanceof ConstantAggregate) globalValuesIn(v, taken, seenConstants);
          continue;
        }
        if (taken.has(g)) continue;
        work.length = 0;
        if (!useKeepsAddress(i, k, work)) {
          taken.add(g);
          continue;
        }
        // the derived instructions' own uses, transitively
        while (work.length > 0) {
          const d = work.pop()!;
          if (followed.has(d)) continue;
          followed.add(d);
          let ok = true;
          for (let u = d.firstUse; u !== null && ok; u = u.next) {
            if (u.user.kind !== ValueKind.Instruction) ok = false;
            else ok = useKeepsAddress(u.user as Instruction, u.index, work);
          }
          if (!ok) {
            taken.add(g);
            break;
          }
        }
      }
    }
  }
  return taken;
}
