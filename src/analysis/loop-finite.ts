/**
 * Whether a loop may be assumed to terminate (LLVM's ScalarEvolution::loopIsFiniteByAssumption):
 * it must make progress (`llvm.loop.mustprogress` on its latch's loop ID, which clang puts
 * on C11 loops whose condition is not a constant, or a `mustprogress` function) and it has no
 * side effect that would count as progress (no store, no volatile or atomic access, no call
 * that may write or not return), so running forever would be undefined behaviour.
 *
 * Invariants: reads the IR only; a loop without a latch branch carrying the property is not
 * assumed finite unless its function is `mustprogress`.
 */
import { functionAttributeText, mayHaveSideEffects } from '../ir/effects.js';
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { getAttachment, isNode, MDKind, type MDNode, type MDString } from '../ir/metadata.js';
import type { Loop } from './loops.js';

const MUST_PROGRESS = 'llvm.loop.mustprogress';

function hasProperty(id: MDNode, name: string): boolean {
  for (const op of id.ops) {
    if (!isNode(op) || op === id || op.keys !== null) continue;
    const first = op.ops[0];
    if (first !== null && first !== undefined && typeof first !== 'string' && first.mdKind === MDKind.String && (first as MDString).raw === name) return true;
  }
  return false;
}

/** Whether `loop` (of `fn`) must progress and has no side effects. */
export function loopIsFiniteByAssumption(fn: Function, loop: Loop): boolean {
  const cfg = loop.info.cfg;
  let must = /(^|[\s{])mustprogress([\s}]|$)/.test(functionAttributeText(fn));
  if (!must) {
    for (const l of loop.latches()) {
      const t = cfg.blockOf(l)!.terminator();
      const id = t === null ? null : getAttachment(t.md, 'llvm.loop');
      if (id !== null && hasProperty(id, MUST_PROGRESS)) must = true;
    }
  }
  if (!must) return false;
  for (const id of loop.blocks()) {
    for (let i: Instruction | null = cfg.blockOf(id)!.first; i !== null; i = i.next) {
      if (i.op !== Opcode.Br && i.op !== Opcode.Switch && mayHaveSideEffects(i)) return false;
    }
  }
  return true;
}
