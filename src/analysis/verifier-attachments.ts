/**
 * The verifier's rules for the metadata attachments whose meaning depends on the instruction
 * they are on (LLVM's Verifier::visitInstruction: !nonnull, !align, !dereferenceable,
 * !dereferenceable_or_null, !range), with LLVM's messages. Without them a `!nonnull` on an
 * i32 load was accepted and printed back, which llvm-as-19 rejects.
 *
 * Invariant: pure: reads the instruction and its attachments, returns the first problem or null.
 */
import { ConstantInt } from '../ir/constants.js';
import type { Instruction } from '../ir/instruction.js';
import { type MDNode, type MDOperand, ValueAsMetadata } from '../ir/metadata.js';
import { Opcode } from '../ir/opcodes.js';

const intOf = (op: MDOperand): ConstantInt | null =>
  op instanceof ValueAsMetadata && op.value instanceof ConstantInt ? op.value : null;

function nonnullProblem(i: Instruction, node: MDNode): string | null {
  if (!i.type.isPtr()) return 'nonnull applies only to pointer types';
  if (i.op !== Opcode.Load) return 'nonnull applies only to load instructions, use attributes for calls or invokes';
  if (node.ops.length !== 0) return 'nonnull metadata must be empty';
  return null;
}

function alignProblem(i: Instruction, node: MDNode): string | null {
  if (!i.type.isPtr()) return 'align applies only to pointer types';
  if (i.op !== Opcode.Load) return 'align applies only to load instructions, use attributes for calls or invokes';
  if (node.ops.length !== 1) return 'align takes one operand!';
  const c = intOf(node.ops[0]);
  if (c === null || !c.type.isInt(64)) return 'align metadata value must be an i64!';
  const a = c.value;
  if (a <= 0n || (a & (a - 1n)) !== 0n) return 'align metadata value must be a power of 2!';
  if (a > 1n << 32n) return 'alignment is larger that implementation defined limit';
  return null;
}

function dereferenceableProblem(i: Instruction, node: MDNode): string | null {
  if (!i.type.isPtr()) return 'dereferenceable, dereferenceable_or_null apply only to pointer types';
  if (i.op !== Opcode.Load && i.op !== Opcode.IntToPtr)
    return 'dereferenceable, dereferenceable_or_null apply only to load and inttoptr instructions, use attributes for calls or invokes';
  if (node.ops.length !== 1) return 'dereferenceable, dereferenceable_or_null take one operand!';
  const c = intOf(node.ops[0]);
  if (c === null || !c.type.isInt(64)) return 'dereferenceable, dereferenceable_or_null metadata value must be an i64!';
  return null;
}

function rangeProblem(i: Instruction, node: MDNode): string | null {
  if (i.op !== Opcode.Load && i.op !== Opcode.Call) return 'Ranges are only for loads, calls and invokes!';
  if (node.ops.length === 0 || node.ops.length % 2 !== 0) return 'Unfinished range!';
  const scalar = i.type.isVector() ? i.type.elem! : i.type;
  for (const op of node.ops) {
    const c = intOf(op);
    if (c === null) return 'The lower limit must be an integer!';
    if (c.type !== scalar) return 'Range types must match instruction type!';
  }
  return null;
}

const RULES: Record<string, (i: Instruction, node: MDNode) => string | null> = {
  nonnull: nonnullProblem,
  align: alignProblem,
  dereferenceable: dereferenceableProblem,
  dereferenceable_or_null: dereferenceableProblem,
  range: rangeProblem,
};

/** The first problem of `i`'s attachments, or null. */
export function attachmentProblem(i: Instruction): string | null {
  if (i.md === null) return null;
  for (const a of i.md) {
    const rule = RULES[a.kind];
    const p = rule === undefined ? null : rule(i, a.node);
    if (p !== null) return p;
  }
  return null;
}
