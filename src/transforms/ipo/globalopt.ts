/**
 * globalopt: optimizations of internal global variables from how the whole module uses
 * them, after LLVM's GlobalOptPass (llvm/lib/Transforms/IPO/GlobalOpt.cpp with
 * Utils/GlobalStatus.cpp), in its common cases:
 *  - a global nothing refers to is deleted (and an internal function nothing refers to);
 *  - a global that is never read (every use stores to it, directly or through constant
 *    GEPs, or is the destination of memset/memcpy) loses those stores and is deleted;
 *  - a global that is never written becomes `constant` (loads from it then fold);
 *  - a scalar global used by one function only becomes a local (an alloca in its entry,
 *    which mem2reg promotes) when that function runs once per program (`main`, which nothing
 *    in the module calls) — it starts from the initializer — or when it is `norecurse` and
 *    stores the global before any read in its entry block (LLVM's
 *    isPointerValueDeadOnEntryToFunction: the value from the previous call is never seen).
 * A global is only touched when its linkage is internal/private (nothing outside the module
 * sees it), it is not `externally_initialized` and its address does not escape: every use
 * is a non-volatile load or store through it (or constant GEPs of it), a memset/memcpy on
 * it, or a GEP leading to those. Any other use (stored as a value, passed to a call,
 * compared, referenced from another global's initializer) leaves it alone.
 */
import { ConstantAggregate, ConstantExpr, ConstantInt } from '../../ir/constants.js';
import type { Function, GlobalVariable } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import type { Module } from '../../ir/module.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { i32, voidType } from '../../ir/types.js';
import { abiAlign } from '../../ir/layout.js';
import { Value, ValueKind } from '../../ir/value.js';
import { isTriviallyDead } from '../../ir/effects.js';
import { hasFnAttr, isLocalLinkage, scanGlobalRefs, type GlobalRefs } from './ipo-utils.js';
import { defineCountingPass } from '../../pm/define-pass.js';

/** How the module uses one global (LLVM's GlobalStatus, simply). */
interface GlobalStatus {
  escapes: boolean;
  loaded: boolean;
  stored: boolean;
  /** Instructions that write it (stores, memset/memcpy destinations). */
  writers: Instruction[];
  /** Instructions that read it (loads, memcpy sources). */
  readers: Instruction[];
  /** The functions whose bodies use it. */
  functions: Set<Function>;
}

/** Whether `c` is the global itself or constant GEPs/casts of it. */
function isDerivedConstant(c: Value, g: GlobalVariable): boolean {
  for (let v = c, guard = 0; guard < 16; guard++) {
    if (v === g) return true;
    if (!(v instanceof ConstantExpr)) return false;
    if (v.opcode !== Opcode.GetElementPtr && v.opcode !== Opcode.BitCast && v.opcode !== Opcode.AddrSpaceCast) return false;
    v = v.operands[0];
  }
  return false;
}

/** Classifies the use of pointer operand `k` of `i`, which points into `g`; pushes derived pointers. */
function classifyUse(i: Instruction, k: number, st: GlobalStatus, work: Instruction[]): void {
  const simple = (i.flags & (Flag.Volatile | Flag.Atomic)) === 0;
  switch (i.op) {
    case Opcode.Load:
      if (k !== 0 || !simple) st.escapes = true;
      st.loaded = true;
      st.readers.push(i);
      return;
    case Opcode.Store:
      if (k !== 1 || !simple) {
        st.escapes = true;
        return;
      }
      st.stored = true;
      st.writers.push(i);
      return;
    case Opcode.GetElementPtr:
    case Opcode.BitCast:
    case Opcode.AddrSpaceCast:
      if (k !== 0) st.escapes = true;
      else work.push(i);
      return;
    case Opcode.Call: {
      const f = i.calledFunction();
      const n = f?.name ?? '';
      if (/^llvm\.memset(\.inline)?\./.test(n) && k === 1 && !isVolatileMemIntrinsic(i)) {
        st.stored = true;
        st.writers.push(i);
        return;
      }
      if (/^llvm\.mem(cpy|move)(\.inline)?\./.test(n) && (k === 1 || k === 2) && !isVolatileMemIntrinsic(i)) {
        if (k === 1) {
          st.stored = true;
          st.writers.push(i);
        } else {
          st.loaded = true;
          st.readers.push(i);
        }
        return;
      }
      st.escapes = true;
      return;
    }
    default:
      st.escapes = true;
  }
}

function isVolatileMemIntrinsic(i: Instruction): boolean {
  const v = i.arg(i.numArgs - 1);
  return !(v.kind === ValueKind.ConstantInt && (v as ConstantInt).isZero());
}

function globalStatus(g: GlobalVariable, direct: { inst: Instruction; index: number }[], viaConstant: Instruction[]): GlobalStatus {
  const st: GlobalStatus = { escapes: false, loaded: false, stored: false, writers: [], readers: [], functions: new Set() };
  const work: Instruction[] = [];
  for (const { inst, index } of direct) classifyUse(inst, index, st, work);
  for (const inst of viaConstant) {
    // which operands mention g, and whether each is g or a constant GEP of it
    for (let k = 0; k < inst.ops.length; k++) {
      const v = inst.ops[k].value;
      if (v.kind !== ValueKind.ConstantExpr && v.kind < ValueKind.ConstantArray) continue;
      if (!mentions(v, g)) continue;
      if (isDerivedConstant(v, g)) classifyUse(inst, k, st, work);
      else st.escapes = true;
    }
  }
  const seen = new Set<Instruction>();
  while (work.length > 0 && !st.escapes) {
    const d = work.pop()!;
    if (seen.has(d)) continue;
    seen.add(d);
    for (let u = d.firstUse; u !== null; u = u.next) classifyUse(u.user as Instruction, u.index, st, work);
  }
  for (const i of [...st.readers, ...st.writers, ...seen]) if (i.parent?.parent) st.functions.add(i.parent.parent);
  for (const { inst } of direct) if (inst.parent?.parent) st.functions.add(inst.parent.parent);
  for (const inst of viaConstant) if (inst.parent?.parent) st.functions.add(inst.parent.parent);
  return st;
}

function mentions(c: Value, g: GlobalVariable): boolean {
  const stack: Value[] = [c];
  for (let guard = 0; stack.length > 0 && guard < 10_000; guard++) {
    const v = stack.pop()!;
    if (v === g) return true;
    if (v instanceof ConstantExpr) stack.push(...v.operands);
    else if (v instanceof ConstantAggregate) stack.push(...v.elements);
  }
  return false;
}

/** Deletes `i` and then whatever became trivially dead because of it (its operands, upwards). */
function eraseWithDeadOperands(i: Instruction): void {
  const work: Instruction[] = [i];
  while (work.length > 0) {
    const x = work.pop()!;
    if (x.parent === null) continue;
    const ops: Value[] = x.ops.map((u) => u.value);
    x.eraseFromParent();
    for (const v of ops) if (v.kind === ValueKind.Instruction && (v as Instruction).parent !== null && isTriviallyDead(v as Instruction)) work.push(v as Instruction);
  }
}

/** Whether `g` is stored before any read in `fn`'s entry block (its old value is dead on entry). */
function deadOnEntry(fn: Function, g: GlobalVariable): boolean {
  for (let i = fn.entry.first; i !== null; i = i.next) {
    if (i.op === Opcode.Store && i.operand(1) === g) return true;
    if (i.op === Opcode.Load && i.operand(0) === g) return false;
  }
  return false;
}

/** main, when nothing in the module calls or refers to it: it runs once per program. */
function runsOnce(fn: Function, refs: ReturnType<typeof scanGlobalRefs>): boolean {
  if (fn.name !== 'main' || fn.isDeclaration()) return false;
  const r = refs.get(fn);
  return r === undefined || (r.direct.length === 0 && r.viaConstant.length === 0 && !r.fromGlobals);
}

export interface GlobalOptStats {
  deleted: number;
  storesRemoved: number;
  madeConstant: number;
  localized: number;
  functionsDeleted: number;
}

export function runGlobalOpt(m: Module, changedFn?: (f: Function) => void): GlobalOptStats {
  const st: GlobalOptStats = { deleted: 0, storesRemoved: 0, madeConstant: 0, localized: 0, functionsDeleted: 0 };
  const refs = scanGlobalRefs(m);
  const changed = new Set<Function>();
  for (const g of m.globals.slice()) {
    if (!isLocalLinkage(g) || g.initializer === null || /\bexternally_initialized\b/.test(g.attrs.prefix + ' ' + g.attrs.suffix)) continue;
    const r = refs.get(g);
    if (r === undefined || (r.direct.length === 0 && r.viaConstant.length === 0 && !r.fromGlobals)) {
      m.removeGlobal(g);
      st.deleted++;
      continue;
    }
    if (r.fromGlobals) continue;
    const gs = globalStatus(g, r.direct, r.viaConstant);
    if (gs.escapes) continue;
    if (!gs.loaded) {
      // never read: its stores are dead, and so is it
      for (const w of gs.writers) {
        if (w.parent === null) continue;
        changed.add(w.parent.parent!);
        eraseWithDeadOperands(w);
        st.storesRemoved++;
      }
      if (g.firstUse === null && stillUnreferenced(r)) {
        m.removeGlobal(g);
        st.deleted++;
      }
      continue;
    }
    if (!gs.stored) {
      if (!g.isConstant) {
        g.isConstant = true;
        st.madeConstant++;
        for (const f of gs.functions) changed.add(f);
      }
      continue;
    }
    // one function: a local of it
    if (gs.functions.size !== 1 || !g.valueType.isInt() && !g.valueType.isPtr() && !g.valueType.isFloatingPoint()) continue;
    const fn = [...gs.functions][0];
    const once = runsOnce(fn, refs);
    if (!once && !(hasFnAttr(fn, 'norecurse') && deadOnEntry(fn, g))) continue;
    if (r.viaConstant.length > 0) continue; // only plain loads and stores of the scalar
    const alloca = new Instruction(Opcode.Alloca, g.type, [ConstantInt.get(i32, 1n)]);
    alloca.auxType = g.valueType;
    alloca.align = abiAlign(g.valueType);
    const entry = fn.entry;
    let at = entry.first;
    while (at !== null && at.op === Opcode.Alloca) at = at.next;
    if (at === null) continue;
    entry.insertBefore(alloca, at);
    if (once) {
      const init = new Instruction(Opcode.Store, voidType, [g.initializer, alloca]);
      init.align = abiAlign(g.valueType);
      entry.insertBefore(init, at);
    }
    g.replaceAllUsesWith(alloca);
    m.removeGlobal(g);
    changed.add(fn);
    st.localized++;
  }
  // internal functions nothing refers to any more
  const fnRefs = scanGlobalRefs(m);
  for (const f of m.functions.slice()) {
    if (!isLocalLinkage(f) || f.isDeclaration()) continue;
    const r = fnRefs.get(f);
    if (r !== undefined && (r.direct.some((d) => d.inst.parent?.parent !== f) || r.viaConstant.some((i) => i.parent?.parent !== f) || r.fromGlobals)) continue;
    f.deleteBody();
    m.removeFunction(f);
    st.functionsDeleted++;
  }
  for (const f of changed) if (f.parent === m) changedFn?.(f);
  return st;
}

/**
 * Whether a global with no uses left (`firstUse === null`: no instruction names it directly)
 * is referenced no more, given `r`, its references when runGlobalOpt scanned the module. No
 * rescan of the module is needed (it was one per never-read global, quadratic on modules of
 * many globals): the loop only removes references (erasing instructions, removing globals)
 * but for one way of adding some, storing a localized global's initializer, and a global
 * named in an initializer is `fromGlobals` from the start and never gets here. So what can
 * still refer to it are the instructions of `r.viaConstant` not erased since.
 */
function stillUnreferenced(r: GlobalRefs): boolean {
  for (const i of r.viaConstant) if (i.parent !== null) return false;
  return true;
}

export const globaloptPass = defineCountingPass({
  name: 'globalopt',
  description: 'internal globals: delete unused and never-read ones, mark never-written ones constant, make ones used by one run-once function local',
  module: true,
  count: (m, ctx) => runGlobalOpt(m, (f) => ctx.invalidate(f, 'none')),
  stats: { deleted: 'globals deleted', storesRemoved: 'stores to never-read globals removed', madeConstant: 'globals marked constant', localized: 'globals made local', functionsDeleted: 'dead internal functions deleted' },
});
