/**
 * instcombine rules for memory (LLVM's InstCombineLoadStoreAlloca.cpp): loads of what the
 * block just stored or loaded at a must-alias address, loads from constant memory, stores
 * that change nothing or are overwritten, and allocas that are only a copy of a constant
 * global. Within a window of a few instructions, as LLVM's FindAvailableLoadedValue.
 */
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import type { Value } from '../../ir/value.js';
import { abiAlign, storeSize } from '../../ir/layout.js';
import { callMemoryEffect, mayHaveSideEffects, mayReadMemory, mayWriteMemory } from '../../ir/effects.js';
import { AliasAnalysis, decomposePointer, type DecomposedPointer } from '../../analysis/alias.js';
import { findConstantCopy, loadFromConstantMemory } from '../../analysis/const-memory.js';
import { isInst } from '../../analysis/patterns.js';
import type { InstCombiner } from './combiner.js';

/** How far back loads and stores look for the same address in their block (LLVM's DefMaxInstsToScan). */
const SCAN_LIMIT = 6;

/**
 * A load of what the same block just stored or loaded at a must-alias address, with no
 * possibly-aliasing write in the last few instructions (LLVM: FindAvailableLoadedValue).
 */
export function combineLoad(ic: InstCombiner, i: Instruction): Value | null {
  if (i.flags & (Flag.Volatile | Flag.Atomic)) return null;
  const p = i.ops[0].value;
  const c = loadFromConstantMemory(p, i.type);
  if (c !== null) {
    ic.stats.constantLoads++;
    return c;
  }
  const size = storeSize(i.type);
  // made on first need: most loads have no memory access among the few instructions before them
  let aa: AliasAnalysis | null = null;
  let pd: DecomposedPointer | null = null;
  let k = 0;
  for (let s = i.prev; s !== null && k < SCAN_LIMIT; s = s.prev, k++) {
    if (s.op === Opcode.Store) {
      if (s.flags & (Flag.Volatile | Flag.Atomic)) return null;
      const v = s.ops[0].value;
      aa ??= new AliasAnalysis();
      const r = aa.aliasDecomposed(s.ops[1].value, storeSize(v.type), p, (pd ??= decomposePointer(p)), size);
      if (r === 'must' && v.type === i.type) return v;
      if (r !== 'no') return null;
      continue;
    }
    if (s.op === Opcode.Load) {
      if (s.flags & (Flag.Volatile | Flag.Atomic)) return null;
      if (s.type !== i.type) continue;
      aa ??= new AliasAnalysis();
      if (aa.aliasDecomposed(s.ops[0].value, size, p, (pd ??= decomposePointer(p)), size) === 'must') return s;
      continue;
    }
    if (s.op === Opcode.Call) {
      const e = callMemoryEffect(s);
      aa ??= new AliasAnalysis();
      if (e === 'none' || e === 'read' || aa.isLocalUnreachableFromCalls(p)) continue;
      return null;
    }
    if (mayWriteMemory(s)) return null;
  }
  return null;
}

/**
 * An alloca that is only a copy of a constant global (filled by one memcpy of its whole
 * size, otherwise only read) becomes the global: the copy and the lifetime markers go,
 * the loads are revisited (they may now fold), and the caller replaces the alloca.
 */
export function combineAlloca(ic: InstCombiner, i: Instruction): Value | null {
  const cc = findConstantCopy(i);
  if (cc === null) return null;
  const g = cc.global;
  // the loads were allowed to assume the alloca's alignment: the global must have it too
  const need = Math.max(cc.loadAlign, i.align);
  if (need > (g.align > 0 ? g.align : abiAlign(g.valueType))) g.align = need;
  ic.erase(cc.copy);
  for (const m of cc.markers) if (m.parent !== null) ic.erase(m);
  // revisit every load and GEP reading through the alloca
  const seen = new Set<Value>([i]);
  const stack: Value[] = [i];
  while (stack.length > 0) {
    const v = stack.pop()!;
    for (let u = v.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      if (seen.has(user)) continue;
      seen.add(user);
      ic.push(user);
      if (user.op === Opcode.GetElementPtr) stack.push(user);
    }
  }
  ic.stats.constantAllocas++;
  return g;
}

/**
 * Stores that change nothing: storing the value just loaded from the same address, or a
 * store overwritten by this one with no read in between (the earlier one is deleted).
 */
export function combineStore(ic: InstCombiner, i: Instruction): Value | null {
  if (i.flags & (Flag.Volatile | Flag.Atomic)) return null;
  const v = i.ops[0].value;
  const p = i.ops[1].value;
  const size = storeSize(v.type);
  const aa = new AliasAnalysis();
  // store (load p), p
  if (isInst(v) && v.op === Opcode.Load && v.parent === i.parent && !(v.flags & (Flag.Volatile | Flag.Atomic)) && aa.alias(v.ops[0].value, size, p, size) === 'must') {
    let clean = true;
    let k = 0;
    let s = i.prev;
    for (; s !== null && s !== v && k < SCAN_LIMIT; s = s.prev, k++) if (mayWriteMemory(s) || s.op === Opcode.Load && s.flags & Flag.Volatile) clean = false;
    if (clean && s === v) {
      ic.erase(i);
      ic.stats.combined++;
      return null;
    }
  }
  // store x, p; ...; store y, p  -> the first store is dead
  let k = 0;
  for (let s = i.prev; s !== null && k < SCAN_LIMIT; s = s.prev, k++) {
    if (s.op === Opcode.Store) {
      if (s.flags & (Flag.Volatile | Flag.Atomic)) return null;
      const r = aa.alias(s.ops[1].value, storeSize(s.ops[0].value.type), p, size);
      if (r === 'must' && storeSize(s.ops[0].value.type) === size) {
        ic.erase(s);
        ic.stats.combined++;
        return null;
      }
      if (r !== 'no') return null;
      continue;
    }
    if (mayReadMemory(s) || mayWriteMemory(s) || mayHaveSideEffects(s)) return null;
  }
  return null;
}
