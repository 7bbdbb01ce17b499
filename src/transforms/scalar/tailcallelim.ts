/**
 * Tail recursion elimination, after LLVM's TailRecursionElimination
 * (lib/Transforms/Scalar/TailRecursionElimination.cpp) and Muchnick §15.1.
 *
 * A self-recursive call is in tail position when its block ends right after it with
 *  - `ret` of the call's result (or `ret void` after a void call),
 *  - `ret` of `op(call, x)` where op is an integer add/mul/and/or/xor (associative and
 *    commutative) and x does not depend on the call: accumulator recursion,
 *    `return n * f(n - 1)`,
 *  - or a branch to a block holding only phis and a `ret` of such a phi or of a value from
 *    elsewhere (clang's single return block); that `ret` is first duplicated into the block.
 * Such calls become a branch back to the old entry block, which gets one phi per argument
 * (the incoming arguments from a new entry block, the call's arguments from each tail site)
 * and, for accumulator recursion, an accumulator phi starting at op's identity; every other
 * `ret v` then returns `op(acc, v)` (all accumulating sites must share one op). Static
 * allocas move to the new entry block, so they are allocated once.
 *
 * Refused (like LLVM, which only eliminates calls it may mark `tail`): functions with an
 * alloca whose address escapes (a callee frame could see the reused storage), dynamic
 * allocas, varargs, byval/inalloca arguments, musttail calls. The new accumulator ops carry
 * no nsw/nuw: the product is reassociated and wraps where the original did not overflow.
 */
import { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { voidType } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { isNonEscapingAlloca } from '../../analysis/alias.js';
import { foldTrivialPhis } from '../utils/local.js';

interface TailSite {
  block: BasicBlock;
  call: Instruction;
  /** The accumulating instruction `op(call, x)`, or null for a plain tail call. */
  acc: Instruction | null;
}

const ACC_OPS = new Set<Opcode>([Opcode.Add, Opcode.Mul, Opcode.And, Opcode.Or, Opcode.Xor]);

function identityOf(op: Opcode, acc: Instruction): ConstantInt {
  switch (op) {
    case Opcode.Mul:
      return ConstantInt.get(acc.type, 1);
    case Opcode.And:
      return ConstantInt.get(acc.type, -1);
    default:
      return ConstantInt.get(acc.type, 0);
  }
}

/** Whether the function's frame may be reused by a loop in place of recursion. */
function canReuseFrame(fn: Function): boolean {
  if (fn.fnType.vararg) return false;
  for (const a of fn.args) if (/\b(byval|inalloca|preallocated)\b/.test(a.attrs)) return false;
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    for (let i = b.first; i !== null; i = i.next) {
      if (i.op === Opcode.Alloca) {
        if (b !== fn.firstBlock || i.operand(0).kind !== ValueKind.ConstantInt) return false;
        if (!isNonEscapingAlloca(i)) return false;
      } else if (i.op === Opcode.Call && (i.flags & Flag.MustTail) !== 0) return false;
    }
  }
  return true;
}

/** The instructions of `bb` after `from`, ignoring debug intrinsics. */
function rest(from: Instruction): Instruction[] {
  const out: Instruction[] = [];
  for (let i = from.next; i !== null; i = i.next) {
    if (i.op === Opcode.Call && i.calledFunction()?.name.startsWith('llvm.dbg.')) continue;
    out.push(i);
  }
  return out;
}

/** A block of only phis and `ret`, whose returned value is a phi of it or comes from elsewhere. */
function isReturnBlock(r: BasicBlock): boolean {
  const t = r.firstNonPhi();
  if (t === null || t.op !== Opcode.Ret || t !== r.last) return false;
  return true;
}

/** If `bb` ends in `br label %r` to a return block, puts a copy of that `ret` into bb. */
function foldReturnIntoBranch(bb: BasicBlock): boolean {
  const t = bb.terminator();
  if (t === null || t.op !== Opcode.Br || t.numOperands !== 1) return false;
  const r = t.operand(0) as BasicBlock;
  if (r === bb || !isReturnBlock(r)) return false;
  const ret = r.last!;
  let v: Value | null = ret.numOperands > 0 ? ret.operand(0) : null;
  if (v !== null && v.kind === ValueKind.Instruction && (v as Instruction).parent === r) v = (v as Instruction).incomingValueFor(bb)!;
  r.removePredecessorFromPhis(bb, false);
  t.eraseFromParent();
  bb.append(new Instruction(Opcode.Ret, voidType, v === null ? [] : [v]));
  return true;
}

/** Recognizes a tail site ending `bb` (after folding a shared return block into it). */
function matchTailSite(fn: Function, bb: BasicBlock): TailSite | null {
  // the last self call of the block
  let call: Instruction | null = null;
  for (let i = bb.last; i !== null; i = i.prev) {
    if (i.op === Opcode.Call) {
      if (i.calledFunction() === fn && i.auxType === fn.fnType) call = i;
      break;
    }
  }
  if (call === null) return null;
  const after = rest(call);
  if (after.length === 0 || after.length > 2) return null;
  const t = after[after.length - 1];
  const acc = after.length === 2 ? after[0] : null;
  if (acc !== null) {
    if (!ACC_OPS.has(acc.op) || !acc.type.isInt()) return null;
    if (acc.operand(0) !== call && acc.operand(1) !== call) return null;
    if (acc.operand(0) === call && acc.operand(1) === call) return null;
  }
  const produced: Value = acc ?? call;
  if (t.op === Opcode.Br) {
    if (t.numOperands !== 1) return null;
    const r = t.operand(0) as BasicBlock;
    if (!isReturnBlock(r)) return null;
    const ret = r.last!;
    if (ret.numOperands > 0) {
      const rv = ret.operand(0);
      const flowing = rv.kind === ValueKind.Instruction && (rv as Instruction).parent === r ? (rv as Instruction).incomingValueFor(bb) : rv;
      if (flowing !== produced) return null;
      // the returned phi must not feed anything else
      if (rv !== produced && rv.numUses !== 1) return null;
    } else if (call.type !== voidType) return null;
  } else if (t.op === Opcode.Ret) {
    if (t.numOperands > 0 ? t.operand(0) !== produced : call.type !== voidType) return null;
  } else return null;
  // the call (and acc) must feed only the return path
  for (let u = call.firstUse; u !== null; u = u.next) {
    const user = u.user as Instruction;
    if (user !== acc && user !== t && !(user.op === Opcode.Phi && user.blocks![u.index] === bb)) return null;
  }
  if (acc !== null) {
    for (let u = acc.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      if (user !== t && !(user.op === Opcode.Phi && user.blocks![u.index] === bb)) return null;
    }
  }
  if (t.op === Opcode.Br) foldReturnIntoBranch(bb);
  return { block: bb, call, acc };
}

export interface TREStats {
  eliminated: number;
  accumulators: number;
}

/** Turns self-recursive tail calls of `fn` into a loop; returns what it did. */
export function eliminateTailRecursion(fn: Function): TREStats {
  const stats: TREStats = { eliminated: 0, accumulators: 0 };
  if (fn.isDeclaration() || !canReuseFrame(fn)) return stats;
  const sites: TailSite[] = [];
  let accOp: Opcode | null = null;
  for (const bb of fn.blocks()) {
    const s = matchTailSite(fn, bb);
    if (s === null) continue;
    if (s.acc !== null) {
      if (accOp === null) accOp = s.acc.op;
      else if (accOp !== s.acc.op) {
        // a second kind of accumulator: leave this site a call (its return is already folded)
        continue;
      }
    }
    sites.push(s);
  }
  if (sites.length === 0) return stats;

  const oldEntry = fn.firstBlock!;
  const newEntry = new BasicBlock('');
  fn.insertBlockBefore(newEntry, oldEntry);
  for (let i = oldEntry.first; i !== null; ) {
    const next = i.next;
    if (i.op === Opcode.Alloca && i.operand(0).kind === ValueKind.ConstantInt) {
      i.removeFromParent();
      newEntry.append(i);
    }
    i = next;
  }
  newEntry.append(new Instruction(Opcode.Br, voidType, [oldEntry]));

  const argPhis: Instruction[] = [];
  let insertAt = oldEntry.first;
  const addPhi = (phi: Instruction): void => {
    if (insertAt === null) oldEntry.append(phi);
    else oldEntry.insertBefore(phi, insertAt);
  };
  for (const a of fn.args) {
    const phi = new Instruction(Opcode.Phi, a.type, []);
    phi.blocks = [];
    phi.name = a.name === '' ? '' : a.name + '.tr';
    a.replaceAllUsesWith(phi);
    phi.addIncoming(a, newEntry);
    addPhi(phi);
    argPhis.push(phi);
  }
  let accPhi: Instruction | null = null;
  if (accOp !== null) {
    const sample = sites.find((s) => s.acc !== null)!.acc!;
    accPhi = new Instruction(Opcode.Phi, sample.type, []);
    accPhi.blocks = [];
    accPhi.name = 'accumulator.tr';
    accPhi.addIncoming(identityOf(accOp, sample), newEntry);
    addPhi(accPhi);
  }
  for (const s of sites) {
    const { block: bb, call } = s;
    for (let k = 0; k < argPhis.length; k++) argPhis[k].addIncoming(call.arg(k), bb);
    if (accPhi !== null) {
      if (s.acc !== null) {
        // read x now: the arguments in it have just become the argument phis
        const x = s.acc.operand(0) === call ? s.acc.operand(1) : s.acc.operand(0);
        const next = new Instruction(accOp!, accPhi.type, [accPhi, x]);
        next.name = 'accumulate.tr';
        bb.insertBefore(next, call);
        accPhi.addIncoming(next, bb);
        stats.accumulators++;
      } else accPhi.addIncoming(accPhi, bb);
    }
    const ret = bb.last!;
    ret.eraseFromParent();
    if (s.acc !== null) s.acc.eraseFromParent();
    call.eraseFromParent();
    const br = new Instruction(Opcode.Br, voidType, [oldEntry]);
    bb.append(br);
    stats.eliminated++;
  }
  // arguments passed through unchanged need no phi
  foldTrivialPhis(oldEntry);
  if (accPhi !== null) {
    for (const bb of fn.blocks()) {
      const t = bb.last;
      if (t === null || t.op !== Opcode.Ret || t.numOperands === 0) continue;
      const rv = t.operand(0);
      if (rv === identityOf(accOp!, accPhi)) {
        t.setOperand(0, accPhi);
        continue;
      }
      const v = new Instruction(accOp!, accPhi.type, [accPhi, rv]);
      v.name = 'accumulator.ret.tr';
      bb.insertBefore(v, t);
      t.setOperand(0, v);
    }
  }
  return stats;
}

export const tailcallelimPass = defineCountingPass({
  name: 'tailcallelim',
  description: 'turn self-recursive tail calls (and accumulator recursion) into loops',
  count: (fn) => eliminateTailRecursion(fn),
  stats: { eliminated: 'tail calls eliminated', accumulators: 'accumulator sites' },
  changed: (s) => s.eliminated > 0,
});
