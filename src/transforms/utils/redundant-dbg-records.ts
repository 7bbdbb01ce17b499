/**
 * Redundant debug records of a block, after LLVM's BasicBlockUtils.cpp
 * (RemoveRedundantDbgInstrs: removeRedundantDbgInstrsUsingBackwardScan and
 * removeRedundantDbgInstrsUsingForwardScan), run where code is merged or copied (block
 * merging, full unrolling) so the records of the pieces do not pile up.
 *
 * - Backward scan: in a run of records with no instruction between them (the records on
 *   one instruction), a `#dbg_value` of a variable (and fragment, and inlined-at site) that
 *   a later record of the run describes again is dead: the later one wins at once.
 * - Forward scan: a `#dbg_value` that gives its variable the same location and expression
 *   as the variable's previous record in the block says nothing new.
 * Declares, labels and assigns are left alone. Invariant: for every position of the block,
 * the location each variable has there is the same before and after.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Instruction } from '../../ir/instruction.js';
import { type DbgRecord, isNode, type MDNode, type Metadata } from '../../ir/metadata.js';
import type { Value } from '../../ir/value.js';

/** What the record describes: variable, inlined-at site and (for the backward scan) fragment. */
function variableOf(r: DbgRecord): [Metadata | null, Metadata | null] {
  const v = r.ops[1];
  const ia = r.loc.field('inlinedAt');
  return [v !== null && typeof v !== 'string' && v !== undefined ? v : null, isNode(ia) ? ia : null];
}

/** The text inside a record's `!DIExpression(…)` ('' when it has none). */
export function expressionText(r: DbgRecord): string {
  const e = r.ops[2];
  if (!isNode(e)) return '';
  const t = (e as MDNode).ops[0];
  return typeof t === 'string' ? t : '';
}

/** The DW_OP_LLVM_fragment part of the expression ('' for the whole variable). */
function fragmentOf(expr: string): string {
  const k = expr.indexOf('DW_OP_LLVM_fragment');
  return k < 0 ? '' : expr.slice(k);
}

/** Per (variable, inlined-at) a value: nested maps keyed by object identity. */
class VariableMap<T> {
  private readonly m = new Map<Metadata | null, Map<Metadata | null, T>>();
  get(r: DbgRecord): T | undefined {
    const [v, ia] = variableOf(r);
    return this.m.get(v)?.get(ia);
  }
  set(r: DbgRecord, x: T): void {
    const [v, ia] = variableOf(r);
    let inner = this.m.get(v);
    if (inner === undefined) this.m.set(v, (inner = new Map()));
    inner.set(ia, x);
  }
}

function dropFrom(i: Instruction, dead: Set<DbgRecord>): void {
  const kept = i.dbgRecords!.filter((r) => !dead.has(r));
  i.dbgRecords = kept.length === 0 ? null : kept;
}

function backwardScan(bb: BasicBlock): boolean {
  let changed = false;
  for (let i = bb.first; i !== null; i = i.next) {
    const rs = i.dbgRecords;
    if (rs === null || rs.length < 2) continue;
    const seen = new VariableMap<Set<string>>();
    const dead = new Set<DbgRecord>();
    for (let k = rs.length - 1; k >= 0; k--) {
      const r = rs[k];
      if (r.kind !== 'value') continue;
      const frag = fragmentOf(expressionText(r));
      let s = seen.get(r);
      if (s === undefined) seen.set(r, (s = new Set()));
      if (s.has(frag)) dead.add(r);
      else s.add(frag);
    }
    if (dead.size > 0) {
      dropFrom(i, dead);
      changed = true;
    }
  }
  return changed;
}

function sameLocation(a: readonly Value[], b: readonly Value[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

function forwardScan(bb: BasicBlock): boolean {
  let changed = false;
  const last = new VariableMap<{ values: Value[]; expr: string }>();
  for (let i = bb.first; i !== null; i = i.next) {
    const rs = i.dbgRecords;
    if (rs === null) continue;
    let dead: Set<DbgRecord> | null = null;
    for (const r of rs) {
      if (r.kind !== 'value') continue;
      const values = r.locationOps().map((m) => m.value);
      const expr = expressionText(r);
      const prev = last.get(r);
      if (prev !== undefined && prev.expr === expr && sameLocation(prev.values, values)) (dead ??= new Set()).add(r);
      else last.set(r, { values, expr });
    }
    if (dead !== null) {
      dropFrom(i, dead);
      changed = true;
    }
  }
  return changed;
}

/** Removes the redundant `#dbg_value` records of `bb`; true when any went. */
export function removeRedundantDbgRecords(bb: BasicBlock): boolean {
  const a = backwardScan(bb);
  const b = forwardScan(bb);
  return a || b;
}
