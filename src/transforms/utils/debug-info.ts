/**
 * Debug records through promotion, after LLVM's Local.cpp (ConvertDebugDeclareToDebugValue)
 * as PromoteMemoryToRegister uses it: a `#dbg_declare(ptr %a, !var, …)` says where variable
 * !var lives for the whole function; once %a is promoted there is no such place, so a
 * `#dbg_value(v, !var, …)` is put before each store of v to %a and after each phi made for
 * %a, and the declare goes. The new records' location is line 0 in the declare's scope
 * (LLVM's getDebugValueLoc: a declare's line says nothing about where a value changes).
 */
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { DbgRecord, getDILocation, isNode, type MDNode, remapRecord, ValueAsMetadata } from '../../ir/metadata.js';
import { Opcode } from '../../ir/opcodes.js';
import { metadataHooks, type Value } from '../../ir/value.js';

/** The declares of some allocas: alloca → its records and the instructions they sit on. */
export type DeclareMap = Map<Value, { record: DbgRecord; owner: Instruction }[]>;

/**
 * The `#dbg_declare` records of `allocas` in `fn`, each turned into `#dbg_value`s before
 * the allocas' stores, and removed (call `valuesAtPhi` for the phis made later). Null (at the cost of one load) when no debug record exists in the process.
 */
export function convertDeclaresAtStores(fn: Function, allocas: readonly Instruction[]): DeclareMap | null {
  if (!metadataHooks.active) return null;
  const wanted = new Set<Value>(allocas);
  let map: DeclareMap | null = null;
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    for (let i = b.first; i !== null; i = i.next) {
      if (i.dbgRecords === null) continue;
      for (const r of i.dbgRecords) {
        if (r.kind !== 'declare') continue;
        const v = r.value;
        if (v === null || !wanted.has(v)) continue;
        map ??= new Map();
        let l = map.get(v);
        if (l === undefined) map.set(v, (l = []));
        l.push({ record: r, owner: i });
      }
    }
  }
  if (map === null) return null;
  // the declares go now (later, deleting the instruction under one would move it elsewhere)
  for (const decls of map.values()) {
    for (const d of decls) {
      const o = d.owner;
      const k = o.dbgRecords === null ? -1 : o.dbgRecords.indexOf(d.record);
      if (k >= 0) o.dbgRecords!.splice(k, 1);
      if (o.dbgRecords !== null && o.dbgRecords.length === 0) o.dbgRecords = null;
    }
  }
  for (const [ai, decls] of map) {
    for (const u of ai.uses()) {
      const st = u.user as Instruction;
      if (st.op !== Opcode.Store || u.index !== 1) continue;
      for (const d of decls) insertRecordBefore(valueRecord(d.record, st.ops[0].value), st);
    }
  }
  return map;
}

/** A `#dbg_value` of `v` for the variable of `declare`. */
function valueRecord(declare: DbgRecord, v: Value): DbgRecord {
  const loc = declare.loc;
  const scope = loc.field('scope');
  const ia = loc.field('inlinedAt');
  const nl = isNode(scope) ? getDILocation(0, 0, scope, isNode(ia) ? ia : null) : loc;
  return new DbgRecord('value', [ValueAsMetadata.get(v), declare.ops[1], declare.ops[2]], nl as MDNode);
}

function insertRecordBefore(r: DbgRecord, at: Instruction): void {
  if (at.dbgRecords === null) at.dbgRecords = [r];
  else at.dbgRecords.push(r);
}

/** `#dbg_value(phi, …)` after the phis of the phi's block, for each declare of `alloca`. */
export function valuesAtPhi(map: DeclareMap | null, alloca: Value, phi: Instruction): void {
  if (map === null) return;
  const decls = map.get(alloca);
  if (decls === undefined) return;
  const bb = phi.parent!;
  const at = bb.firstNonPhi();
  if (at === null) return;
  for (const d of decls) {
    const r = valueRecord(d.record, phi);
    // before what was already there: the phis' values hold from the top of the block
    at.dbgRecords = at.dbgRecords === null ? [r] : [r, ...at.dbgRecords];
  }
}

/**
 * Copies `from`'s debug records onto its clone `to` (LLVM's cloneDebugInfoFrom, as
 * CloneBasicBlock does when unrolling, threading or rotating): the variables keep being
 * described in the copied code. Call `remapRecords` once the clones' value map is complete.
 */
export function cloneRecords(from: Instruction, to: Instruction): void {
  if (from.dbgRecords === null) return;
  const copies = from.dbgRecords.map((r) => r.clone());
  to.dbgRecords = to.dbgRecords === null ? copies : to.dbgRecords.concat(copies);
}

/** Points the records of cloned instructions at the clones' values. */
export function remapRecords(insts: readonly Instruction[], map: Map<Value, Value>): void {
  for (const c of insts) if (c.dbgRecords !== null) for (const r of c.dbgRecords) remapRecord(r, map);
}
