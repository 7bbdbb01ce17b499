/**
 * alloc-elim: allocations nobody reads are removed with every write into them (LLVM's
 * InstCombinerImpl::visitAllocSite with isAllocSiteRemovable, which takes allocas too). A
 * `malloc`/`calloc`/`new` result or an `alloca` whose every use — through getelementptr
 * and casts of it — is the address of a store,
 * the destination of a non-volatile memset/memcpy/memmove, a lifetime marker, a comparison
 * with null, or the argument of `free`, can go: the stores, calls and frees go with it, a
 * comparison with null becomes the constant it would be for a successful allocation (as
 * LLVM does: removing the allocation is allowed to make it succeed).
 *
 * Invariants: the allocation's value never escapes (it is never stored as a value, passed
 * to another call, returned, or merged in a phi/select), so no read of the memory can
 * exist; only the instructions found by the walk are removed; nothing else changes.
 */
import { ConstantInt, UndefValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode, Pred } from '../../ir/opcodes.js';
import { ValueKind, type Value } from '../../ir/value.js';
import { defineCountingPass } from '../../pm/define-pass.js';

const ALLOCATORS = new Set(['malloc', 'calloc', '_Znwm', '_Znam']);
const FREES = new Set(['free', '_ZdlPv', '_ZdaPv', '_ZdlPvm', '_ZdaPvm']);

function calleeName(i: Instruction): string | null {
  if (i.op !== Opcode.Call) return null;
  const f = i.calledFunction();
  return f === null ? null : f.name;
}

/** Every instruction using the allocation (transitively through GEPs/casts), or null if one reads it or lets it escape. */
function removableUsers(alloc: Instruction): Instruction[] | null {
  const out: Instruction[] = [];
  const stack: Value[] = [alloc];
  const seen = new Set<Value>([alloc]);
  while (stack.length > 0) {
    const v = stack.pop()!;
    for (let u = v.firstUse; u !== null; u = u.next) {
      const user = u.user;
      if (user.kind !== ValueKind.Instruction) return null;
      const i = user as Instruction;
      if (seen.has(i)) continue;
      switch (i.op) {
        case Opcode.GetElementPtr:
        case Opcode.BitCast:
        case Opcode.AddrSpaceCast:
          if (u.index !== 0) return null;
          seen.add(i);
          out.push(i);
          stack.push(i);
          continue;
        case Opcode.Store:
          // the address, never the stored value
          if (u.index !== 1 || i.operand(0) === v || (i.flags & Flag.Volatile) !== 0) return null;
          break;
        case Opcode.ICmp: {
          const other = i.operand(1 - u.index);
          if (other.kind !== ValueKind.ConstantNull || (i.pred !== Pred.EQ && i.pred !== Pred.NE)) return null;
          break;
        }
        case Opcode.Call: {
          const name = calleeName(i);
          if (name === null) return null;
          const args = i.args();
          // v only as an argument, never as the callee
          if (i.callee === v || args.filter((x) => x === v).length !== 1) return null;
          if (FREES.has(name) && args.length === 1) break;
          if (name.startsWith('llvm.lifetime.')) break;
          // the destination of a memory intrinsic that is not volatile (its last argument)
          if (/^llvm\.mem(set|cpy|move)\./.test(name) && args[0] === v && isFalse(args[args.length - 1])) break;
          return null;
        }
        default:
          return null;
      }
      seen.add(i);
      out.push(i);
    }
  }
  return out;
}

function isFalse(v: Value): boolean {
  return v.kind === ValueKind.ConstantInt && (v as ConstantInt).value === 0n;
}

export function eliminateAllocations(fn: Function): number {
  const allocs: Instruction[] = [];
  for (const b of fn.blocks()) {
    for (let i: Instruction | null = b.first; i !== null; i = i.next) {
      const n = calleeName(i);
      if ((n !== null && ALLOCATORS.has(n)) || i.op === Opcode.Alloca) allocs.push(i);
    }
  }
  let removed = 0;
  for (const a of allocs) {
    const users = removableUsers(a);
    if (users === null) continue;
    // users before their operands: compares become constants, the rest is erased last-first
    for (const i of users) {
      if (i.op === Opcode.ICmp) i.replaceAllUsesWith(i.pred === Pred.NE ? ConstantInt.true() : ConstantInt.false());
    }
    for (let k = users.length - 1; k >= 0; k--) {
      const i = users[k];
      if (i.hasResult() && i.firstUse !== null) i.replaceAllUsesWith(undefOf(i));
      i.eraseFromParent();
    }
    a.eraseFromParent();
    removed++;
  }
  return removed;
}

function undefOf(i: Instruction): Value {
  return UndefValue.get(i.type);
}

export const allocElimPass = defineCountingPass({
  name: 'alloc-elim',
  description: 'remove malloc/calloc/new whose memory is only written, compared with null or freed, with those writes',
  local: true,
  count: (fn) => ({ removed: eliminateAllocations(fn) }),
  stats: { removed: 'allocations removed' },
  preserves: 'cfg',
});
