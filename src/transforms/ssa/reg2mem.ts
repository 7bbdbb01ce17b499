/**
 * reg2mem: the inverse of mem2reg, as LLVM's RegToMem (DemoteRegToStack, DemotePHIToStack):
 * after splitting critical edges, every value used outside its block (or by a phi) gets a
 * stack slot — stored right after its definition, reloaded before each use (for a phi use,
 * at the end of the incoming block, one reload per block) — and then every phi gets a slot,
 * stored at the end of each predecessor and reloaded in place of the phi.
 *
 * Afterwards no phi is left and no SSA value is live across a block boundary except the
 * entry-block allocas: the form a naive frontend emits, and the input mem2reg expects.
 *
 * Invariant: a slot is written on every path before it is read — a value's store directly
 * follows its definition, which dominates every use; a phi's slot is written at the end of
 * every predecessor of its block.
 */
import { invalidateGlobalEscapes } from '../../analysis/global-escape.js';
import type { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { abiAlign } from '../../ir/layout.js';
import { Opcode } from '../../ir/opcodes.js';
import { i32, isSized, voidType, ptr, type Type } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { splitCriticalEdges } from '../utils/basic-block-utils.js';

export interface Reg2MemStats {
  criticalEdgesSplit: number;
  registersDemoted: number;
  phisDemoted: number;
}

export function newSlot(fn: Function, type: Type, name: string): Instruction {
  // a slot holds arbitrary values, maybe pointers into globals: what global-escape.ts assumed of the module may no longer hold
  if (fn.parent !== null) invalidateGlobalEscapes(fn.parent);
  const a = new Instruction(Opcode.Alloca, ptr, [ConstantInt.get(i32, 1)]);
  a.auxType = type;
  a.align = abiAlign(type);
  a.name = name;
  const entry = fn.entry;
  let pos = entry.first;
  while (pos !== null && pos.op === Opcode.Alloca) pos = pos.next;
  if (pos === null) entry.append(a);
  else entry.insertBefore(a, pos);
  return a;
}

export function newLoad(type: Type, slot: Value, name: string): Instruction {
  const l = new Instruction(Opcode.Load, type, [slot]);
  l.align = abiAlign(type);
  l.name = name;
  return l;
}

export function newStore(value: Value, slot: Value): Instruction {
  const s = new Instruction(Opcode.Store, voidType, [value, slot]);
  s.align = abiAlign(value.type);
  return s;
}

function escapes(i: Instruction): boolean {
  if (!i.hasResult() || !isSized(i.type)) return false;
  const bb = i.parent;
  for (let u = i.firstUse; u !== null; u = u.next) {
    const user = u.user as Instruction;
    if (user.parent !== bb || user.op === Opcode.Phi) return true;
  }
  return false;
}

/** Gives `i` a stack slot: a store after it, a reload before each use. */
export function demoteRegToStack(fn: Function, i: Instruction): Instruction {
  const slot = newSlot(fn, i.type, `${i.name}.reg2mem`);
  while (i.firstUse !== null) {
    const user = i.firstUse.user as Instruction;
    if (user.op === Opcode.Phi) {
      const reloads = new Map<BasicBlock, Instruction>();
      for (let k = 0; k < user.ops.length; k++) {
        if (user.ops[k].value !== i) continue;
        const pb = user.blocks![k];
        let r = reloads.get(pb);
        if (r === undefined) {
          r = newLoad(i.type, slot, `${i.name}.reload`);
          pb.insertBeforeTerminator(r);
          reloads.set(pb, r);
        }
        user.setIncomingValue(k, r);
      }
    } else {
      const r = newLoad(i.type, slot, `${i.name}.reload`);
      user.parent!.insertBefore(r, user);
      user.replaceUsesOfWith(i, r);
    }
  }
  let pos = i.next;
  while (pos !== null && pos.op === Opcode.Phi) pos = pos.next;
  const st = newStore(i, slot);
  if (pos === null) i.parent!.append(st);
  else i.parent!.insertBefore(st, pos);
  return slot;
}

/** Gives phi `p` a stack slot: stores at the end of its predecessors, a reload in its place. */
export function demotePhiToStack(fn: Function, p: Instruction): Instruction | null {
  if (p.firstUse === null) {
    p.eraseFromParent();
    return null;
  }
  const slot = newSlot(fn, p.type, `${p.name}.reg2mem`);
  const done = new Set<BasicBlock>();
  for (let k = 0; k < p.ops.length; k++) {
    const pb = p.blocks![k];
    if (done.has(pb)) continue;
    done.add(pb);
    pb.insertBeforeTerminator(newStore(p.ops[k].value, slot));
  }
  const bb = p.parent!;
  const l = newLoad(p.type, slot, `${p.name}.reload`);
  bb.insertAfterPhis(l);
  p.replaceAllUsesWith(l);
  p.eraseFromParent();
  return slot;
}

export function regToMem(fn: Function): Reg2MemStats {
  const stats: Reg2MemStats = { criticalEdgesSplit: 0, registersDemoted: 0, phisDemoted: 0 };
  if (fn.isDeclaration()) return stats;
  stats.criticalEdgesSplit = splitCriticalEdges(fn);
  const entry = fn.entry;
  const work: Instruction[] = [];
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    for (let i = b.first; i !== null; i = i.next) {
      if (i.op === Opcode.Alloca && b === entry) continue;
      if (escapes(i)) work.push(i);
    }
  }
  for (let k = work.length - 1; k >= 0; k--) demoteRegToStack(fn, work[k]);
  stats.registersDemoted = work.length;
  const phis: Instruction[] = [];
  for (let b = fn.firstBlock; b !== null; b = b.next) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) phis.push(i);
  for (let k = phis.length - 1; k >= 0; k--) demotePhiToStack(fn, phis[k]);
  stats.phisDemoted = phis.length;
  return stats;
}

export const reg2memPass = defineCountingPass({
  name: 'reg2mem',
  description: 'demote every phi and cross-block value to a stack slot (LLVM RegToMem)',
  local: true,
  count: (fn) => regToMem(fn),
  stats: { criticalEdgesSplit: 'critical edges split', registersDemoted: 'registers demoted', phisDemoted: 'phis demoted' },
  preserves: (s) => (s.criticalEdgesSplit > 0 ? 'none' : 'cfg'),
});
