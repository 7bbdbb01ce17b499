/**
 * Loop rotation, after LLVM's LoopRotation (lib/Transforms/Utils/LoopRotationUtils.cpp,
 * LoopRotate::rotateLoop): a while loop becomes a guarded do-while.
 *
 *   preheader: br header                 preheader: guard = copy of header's test
 *   header:    phis; test; br c, body, exit          br guard', body.ph, exit.ph
 *   body...:   br header              →   body...:  ...
 *                                         latch:    (old latch + old header) test; br c, body, exit
 *
 * A loop in LoopSimplify form (`simplifyLoops` runs first) is rotated when its header exits
 * the loop on a conditional branch (one successor in the loop, one outside), its single
 * latch does not already exit (it is not bottom-tested yet), and the header holds at most
 * `header-size` instructions besides phis (default 16, LLVM's rotation-max-header-size),
 * none an alloca. The header's instructions are copied into the preheader with the phis
 * replaced by their preheader values; the preheader then branches like the header did; the
 * exit and the in-loop successor get entries for it; the preheader→body edge is split (a new
 * preheader) and the loop's edges into the exit get a block of their own (the exit stays
 * dedicated). Every value of the old header used beyond it now has two definitions: in the
 * loop a phi of the new header merges them (it dominates every loop block but the old
 * header), after the loop SSA repair (src/transforms/utils/ssa-repair.ts) places what is needed. Then the
 * old header is merged into the old latch, which now ends in the test: the loop's
 * header is the old body and its latch is the exiting block. Inner loops are rotated first,
 * each at most once per run, all with one LoopInfo (shapes read live, new blocks placed in
 * loops as they are made).
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { voidType } from '../../ir/types.js';
import { Use, Value, ValueKind } from '../../ir/value.js';
import type { ConstantInt } from '../../ir/constants.js';
import { mayHaveSideEffects, mayReadMemory } from '../../ir/effects.js';
import { simplifyWithOperands } from '../../analysis/instsimplify.js';
import { CFG } from '../../analysis/cfg.js';
import { findLoops, Loop, LoopInfo } from '../../analysis/loops.js';
import { LoopAnalysis } from '../../pm/analyses.js';
import { defineCountingPass, param } from '../../pm/define-pass.js';
import { repairSSA } from '../utils/ssa-repair.js';
import { commonLoop, LoopMembership, simplifyLoops } from '../utils/loop-simplify.js';
import { edgeCount, mergeSuccessorIntoBlock, splitBlockPredecessors, splitEdge } from '../utils/basic-block-utils.js';
import { expressionText } from '../utils/redundant-dbg-records.js';
import { type DbgRecord, getAttachment, MDKind, type MDNode, remapRecord, withAttachment } from '../../ir/metadata.js';

export interface LoopRotateOptions {
  /** Most instructions of a header duplicated into the preheader. */
  headerSize: number;
}

export const DEFAULT_LOOP_ROTATE_OPTIONS: LoopRotateOptions = { headerSize: 16 };

/** A loop's shape read from the IR as it is now (earlier rotations changed edges around it). */
interface LiveLoop {
  header: BasicBlock;
  preheader: BasicBlock;
  latch: BasicBlock;
}

function liveShape(l: Loop, li: LoopInfo, mem: LoopMembership): LiveLoop | null {
  const header = li.cfg.blockOf(l.header)!;
  if (header.parent === null) return null;
  let preheader: BasicBlock | null = null;
  let latch: BasicBlock | null = null;
  for (const p of header.predecessors()) {
    if (mem.contains(l, p)) {
      if (latch !== null) return null;
      latch = p;
    } else {
      if (preheader !== null) return null;
      preheader = p;
    }
  }
  if (preheader === null || latch === null || preheader.terminator()?.numSuccessors() !== 1) return null;
  return { header, preheader, latch };
}

/** Why `l` is not rotated (null: it can be). */
function rotationBlocker(l: Loop, shape: LiveLoop | null, mem: LoopMembership, opts: LoopRotateOptions): string | null {
  if (shape === null) return 'not in simplify form';
  const { header: h, preheader: ph, latch } = shape;
  if (latch === h) return 'single-block loop';
  const t = h.terminator();
  if (t === null || !t.isConditionalBranch()) return 'header does not branch conditionally';
  const in0 = mem.contains(l, t.successor(0));
  const in1 = mem.contains(l, t.successor(1));
  if (in0 === in1) return 'header does not exit';
  for (const s of latch.successors()) if (!mem.contains(l, s)) return 'already bottom-tested';
  let n = 0;
  const map = new Map<Value, Value>();
  for (let p = h.first; p !== null && p.op === Opcode.Phi; p = p.next) map.set(p, p.incomingValueFor(ph)!);
  for (let i = h.firstNonPhi(); i !== null && i !== t; i = i.next) {
    if (i.op === Opcode.Alloca) return 'alloca in header';
    if (++n > opts.headerSize) return 'header too big';
    if (!mayHaveSideEffects(i) && !mayReadMemory(i)) {
      const f = simplifyWithOperands(i, i.operands().map((v) => map.get(v) ?? v));
      if (f !== null && f !== i) map.set(i, f);
    }
  }
  // a loop the preheader's values never enter is left for the constant folders
  const c = map.get(t.operand(0)) ?? t.operand(0);
  if (c.kind === ValueKind.ConstantInt && !mem.contains(l, (c as ConstantInt).isZero() ? t.successor(1) : t.successor(0))) return 'never entered';
  return null;
}

function rotate(fn: Function, l: Loop, shape: LiveLoop, mem: LoopMembership): void {
  const { header: h, preheader: ph, latch } = shape;
  const t = h.terminator()!;
  const map = new Map<Value, Value>();
  for (let p = h.first; p !== null && p.op === Opcode.Phi; p = p.next) map.set(p, p.incomingValueFor(ph)!);
  const phTerm = ph.terminator()!;
  // The header's debug records are copied too, those of instructions that fold and of the
  // branch included, each before the copy of what it stood before (LLVM clones the records
  // of every header instruction, then the instruction).
  let pending: DbgRecord[] = [];
  // the preheader's own records (before its branch) stay first; a copy equal to a record
  // the preheader already has is dropped (LLVM erases "anything we've seen before")
  const seen: DbgRecord[] = [];
  for (let i = ph.first; i !== null; i = i.next) if (i.dbgRecords !== null) seen.push(...i.dbgRecords);
  if (phTerm.dbgRecords !== null) pending = phTerm.dbgRecords;
  phTerm.dbgRecords = null;
  for (let i = h.firstNonPhi(); i !== null && i !== t; i = i.next) {
    const ops = i.operands().map((v) => map.get(v) ?? v);
    if (i.dbgRecords !== null) for (const r of i.dbgRecords) pending.push(r.clone());
    // fold what the preheader's values decide (LLVM simplifies the copies too)
    const folded = mayHaveSideEffects(i) || mayReadMemory(i) ? null : simplifyWithOperands(i, ops);
    if (folded !== null && folded !== i) {
      map.set(i, folded);
      continue;
    }
    const c = i.clone();
    for (let k = 0; k < c.numOperands; k++) c.setOperand(k, ops[k]);
    ph.insertBefore(c, phTerm);
    map.set(i, c);
    pending = placeRecords(pending, c, map, seen);
  }
  if (t.dbgRecords !== null) for (const r of t.dbgRecords) pending.push(r.clone());
  const cond = map.get(t.operand(0)) ?? t.operand(0);
  const s0 = t.successor(0);
  const s1 = t.successor(1);
  // a guard known true enters the loop unconditionally
  const known = cond.kind === ValueKind.ConstantInt;
  const guard = known ? new Instruction(Opcode.Br, voidType, [(cond as ConstantInt).isZero() ? s1 : s0]) : new Instruction(Opcode.Br, voidType, [cond, s0, s1]);
  ph.insertBefore(guard, phTerm);
  placeRecords(pending, guard, map, seen);
  phTerm.eraseFromParent();
  for (const s of guard.successors().filter((b, k, a) => a.indexOf(b) === k)) {
    for (let p = s.first; p !== null && p.op === Opcode.Phi; p = p.next) {
      const v = p.incomingValueFor(h)!;
      p.addIncoming(map.get(v) ?? v, ph);
    }
  }
  h.removePredecessorFromPhis(ph, true);
  const inLoopSucc = mem.contains(l, s0) ? s0 : s1;
  const exit = inLoopSucc === s0 ? s1 : s0;
  let entryBlock = ph;
  if (!known) {
    entryBlock = splitEdge(ph, inLoopSucc, { name: inLoopSucc.name === '' ? '' : inLoopSucc.name + '.lr.ph', at: 'before-dest' });
    mem.add(entryBlock, l.parent);
    // keep the exit dedicated: the loop's edges into it go through a block of their own
    const inside = exit.predecessors().filter((p) => p !== ph && mem.contains(l, p));
    if (inside.length > 0) {
      const nb = splitBlockPredecessors(exit, inside, exit.name === '' ? '' : exit.name + '.loopexit');
      mem.add(nb, commonLoop(l, mem.loopOf(exit)));
    }
  }
  // The old header's values now also come from the preheader's copies. In the loop the new
  // header dominates everything but the old header, so there a phi of the new header
  // ([copy, from outside], [value, from the old header]) is the reaching definition; uses
  // after the loop go through SSA repair (src/transforms/utils/ssa-repair.ts), which walks only from them.
  const newHeaderPreds = inLoopSucc.predecessors();
  const newPhis: Instruction[] = [];
  for (let i = h.first; i !== null && i !== t; i = i.next) {
    const inLoop: Use[] = [];
    let outside = false;
    for (let u = i.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      const at = user.op === Opcode.Phi ? user.blocks![u.index] : user.parent!;
      if (at === h) continue;
      if (mem.contains(l, at)) inLoop.push(u);
      else outside = true;
    }
    let phi: Instruction | null = null;
    if (inLoop.length > 0) {
      phi = new Instruction(Opcode.Phi, i.type, []);
      phi.blocks = [];
      phi.name = i.name;
      for (const p of newHeaderPreds) {
        const n = edgeCount(p, inLoopSucc);
        const v = p === h ? i : mem.contains(l, p) ? phi : map.get(i)!;
        for (let k = 0; k < n; k++) phi.addIncoming(v, p);
      }
      inLoopSucc.insertAfterPhis(phi);
      newPhis.push(phi);
      for (const u of inLoop) (u.user as Instruction).setOperand(u.index, phi);
    }
    // the repair must know the loop's phi, or it would build a second one on its way in
    if (outside) repairSSA(fn, i, phi === null ? [{ block: ph, value: map.get(i)! }] : [{ block: ph, value: map.get(i)! }, { block: inLoopSucc, value: phi }]);
  }
  insertDebugValuesForPhis(h, newPhis);
  // the loop keeps its loop ID (`!llvm.loop`: mustprogress, unroll hints) on its new latch
  // branch, as LLVM's rotation keeps it with the loop
  const loopID = getAttachment(latch.terminator()!.md, 'llvm.loop');
  mergeSuccessorIntoBlock(latch, h);
  const nt = latch.terminator();
  if (loopID !== null && nt !== null) nt.md = withAttachment(nt.md, 'llvm.loop', loopID);
}

/** Puts the `pending` records before `to`, the copies remapped; returns a fresh pending list. */
function placeRecords(pending: DbgRecord[], to: Instruction, map: Map<Value, Value>, seen: readonly DbgRecord[]): DbgRecord[] {
  if (pending.length === 0) return pending;
  const rs: DbgRecord[] = [];
  for (const r of pending) {
    if (!seen.includes(r)) {
      remapRecord(r, map);
      if (seen.some((o) => sameRecord(o, r))) continue;
    }
    rs.push(r);
  }
  if (rs.length > 0) to.dbgRecords = to.dbgRecords === null ? rs : to.dbgRecords.concat(rs);
  return [];
}

/** LLVM's makeHash in rotation: same variable, same first location value, same expression. */
function sameRecord(a: DbgRecord, b: DbgRecord): boolean {
  if (a.kind !== b.kind || a.ops[1] !== b.ops[1] || expressionText(a) !== expressionText(b)) return false;
  const la = a.locationOps();
  const lb = b.locationOps();
  return la.length > 0 && lb.length > 0 && la[0].value === lb[0].value;
}

/**
 * LLVM's insertDebugValuesForPHIs (Local.cpp) as rotation calls it: a new phi merging a
 * phi of the old header gets a copy of that phi's `#dbg_value` with the new phi as its
 * location, at the top of the new phi's block, so the variable stays described in the loop.
 */
function insertDebugValuesForPhis(header: BasicBlock, phis: readonly Instruction[]): void {
  if (phis.length === 0) return;
  const described = new Map<Value, DbgRecord>();
  for (let i = header.first; i !== null; i = i.next) {
    for (const r of i.dbgRecords ?? []) {
      if (r.kind !== 'value') continue;
      for (const m of r.locationOps()) {
        const v = m.value;
        if (v.kind === ValueKind.Instruction && (v as Instruction).op === Opcode.Phi && (v as Instruction).parent === header && !described.has(v)) described.set(v, r);
      }
    }
  }
  if (described.size === 0) return;
  for (const phi of phis) {
    const made = new Map<DbgRecord, DbgRecord>();
    for (const v of phi.operands()) {
      const r = described.get(v);
      if (r === undefined) continue;
      let c = made.get(r);
      if (c === undefined) made.set(r, (c = r.clone()));
      remapRecord(c, new Map([[v, phi]]));
    }
    const at = phi.parent!.firstNonPhi();
    if (at === null) continue;
    for (const c of made.values()) at.dbgRecords = at.dbgRecords === null ? [c] : [...at.dbgRecords, c];
  }
}

/**
 * Rotates the loops of `fn`, inner first, with one LoopInfo: each loop's shape is read from
 * the IR when its turn comes and blocks added by earlier rotations are placed in loops as
 * they are made (LoopMembership), so n loops cost one analysis, not n.
 */
export function rotateLoops(fn: Function, opts: Partial<LoopRotateOptions> = {}, cached?: LoopInfo): { rotated: number; changed: boolean } {
  const o: LoopRotateOptions = { ...DEFAULT_LOOP_ROTATE_OPTIONS, ...opts };
  const s = simplifyLoops(fn, cached);
  let changed = s.nested + s.preheaders + s.backedges + s.exits > 0;
  const li = !changed && cached !== undefined ? cached : findLoops(new CFG(fn));
  const mem = new LoopMembership(li);
  let rotated = 0;
  for (let k = li.loops.length - 1; k >= 0; k--) {
    const l = li.loops[k];
    const shape = liveShape(l, li, mem);
    if (rotationBlocker(l, shape, mem, o) !== null) continue;
    rotate(fn, l, shape!, mem);
    rotated++;
    changed = true;
  }
  return { rotated, changed };
}

export const loopRotatePass = defineCountingPass({
  name: 'loop-rotate',
  description: 'turn while loops into guarded do-while loops (the exit test moves to the latch)',
  params: {
    headerSize: param.int('header-size', DEFAULT_LOOP_ROTATE_OPTIONS.headerSize, 'most instructions of a header duplicated into the preheader'),
  },
  count: (fn, ctx, opts) => rotateLoops(fn, opts, ctx.analyses.get(LoopAnalysis)),
  stats: { rotated: 'loops rotated' },
  changed: (r) => r.changed,
});
