/**
 * Loop metadata on a latch's branch (LLVM's `!llvm.loop` loop IDs, LoopUtils
 * makeFollowupLoopID / hasUnrollTransformation): reading and setting
 * `llvm.loop.unroll.disable`, which an unrolled loop and its remainder carry so that no later
 * round of unrolling (ours or opt-19's) unrolls them again.
 *
 * A loop ID is a distinct tuple whose first operand is itself and whose other operands are
 * property nodes such as `!{!"llvm.loop.mustprogress"}` (ir/metadata.ts). Invariant: a new
 * loop ID keeps the old one's properties but the other `llvm.loop.unroll.*` ones and adds the
 * unroll.disable node (equal ones made for several loops print as one: metadata-printer.ts); the printer numbers
 * the new nodes when it reaches them, so nothing here picks numbers.
 */
import type { Instruction } from '../../ir/instruction.js';
import { getAttachment, isNode, MDKind, MDNode, MDString, withAttachment } from '../../ir/metadata.js';
import type { Module } from '../../ir/module.js';

const DISABLE = 'llvm.loop.unroll.disable';

/** Whether `n` is a property node naming `name` (`!{!"name", …}`). */
function isProperty(n: MDNode, name: string): boolean {
  const first = n.ops[0];
  return n.keys === null && first !== null && first !== undefined && typeof first !== 'string' && first.mdKind === MDKind.String && (first as MDString).raw === name;
}

/** Whether `n` is a property node `!{!"llvm.loop.unroll.…", …}`. */
function unrollProperty(n: MDNode): boolean {
  const first = n.ops[0];
  return n.keys === null && first !== null && first !== undefined && typeof first !== 'string' && first.mdKind === MDKind.String && (first as MDString).raw.startsWith('llvm.loop.unroll.');
}

/** Whether the loop whose latch ends in `br` is marked `llvm.loop.unroll.disable`. */
export function hasUnrollDisable(br: Instruction, _m: Module | null): boolean {
  const id = getAttachment(br.md, 'llvm.loop');
  if (id === null) return false;
  if (isProperty(id, DISABLE)) return true;
  for (const op of id.ops) if (isNode(op) && op !== id && isProperty(op, DISABLE)) return true;
  return false;
}

/** Marks the loop whose latch ends in `br` with `llvm.loop.unroll.disable` (a new loop ID). */
export function setUnrollDisable(br: Instruction, m: Module | null): void {
  if (hasUnrollDisable(br, m)) return;
  const old = getAttachment(br.md, 'llvm.loop');
  // LLVM's setLoopAlreadyUnrolled (makePostTransformationMetadata): the other unroll
  // properties (count, enable, full…) no longer apply to the unrolled loop and go
  const props = old === null ? [] : old.ops.filter((op) => op !== old && !(isNode(op) && unrollProperty(op)));
  const id = new MDNode('', [], null, true);
  id.ops.push(id, ...props, new MDNode('', [MDString.get(DISABLE)], null));
  br.md = withAttachment(br.md, 'llvm.loop', id);
}

/** Whether the loop whose latch ends in `br` has the property `name` (e.g. `llvm.loop.isvectorized`). */
export function hasLoopFlag(br: Instruction, name: string): boolean {
  const id = getAttachment(br.md, 'llvm.loop');
  if (id === null) return false;
  for (const op of id.ops) if (isNode(op) && op !== id && isProperty(op, name)) return true;
  return false;
}

/** Gives the loop whose latch ends in `br` the property `!{!"name"}` (a new loop ID keeping the old one's properties). */
export function setLoopFlag(br: Instruction, name: string): void {
  if (hasLoopFlag(br, name)) return;
  const old = getAttachment(br.md, 'llvm.loop');
  const props = old === null ? [] : old.ops.filter((op) => op !== old);
  const id = new MDNode('', [], null, true);
  id.ops.push(id, ...props, new MDNode('', [MDString.get(name)], null));
  br.md = withAttachment(br.md, 'llvm.loop', id);
}
