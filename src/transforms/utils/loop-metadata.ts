/**
 * Loop metadata on a latch's branch (LLVM's `!llvm.loop` loop IDs, LoopUtils
 * makeFollowupLoopID / hasUnrollTransformation): reading and setting
 * `llvm.loop.unroll.disable`, which an unrolled loop and its remainder carry so that no later
 * round of unrolling (ours or opt-19's) unrolls them again.
 *
 * Metadata is kept as printed text (ir/instruction.ts `md`, ir/module.ts `metadata`), so this
 * reads and writes those lines: a loop ID is `!N = distinct !{!N, !A, !B…}` whose other
 * operands are property nodes such as `!A = !{!"llvm.loop.mustprogress"}`. Invariant: a new
 * loop ID keeps the old one's properties and adds the unroll.disable node; numbers are fresh
 * (above every `!k =` already in the module).
 */
import type { Instruction } from '../../ir/instruction.js';
import type { Module } from '../../ir/module.js';

const DISABLE = '!"llvm.loop.unroll.disable"';

/** `!N` of the `!llvm.loop` attachment of `br`, or null. */
function loopId(br: Instruction): number | null {
  const m = br.md === null ? null : /!llvm\.loop !(\d+)/.exec(br.md);
  return m === null ? null : Number(m[1]);
}

function definition(m: Module, n: number): string | null {
  const head = `!${n} = `;
  for (const line of m.metadata) if (line.startsWith(head)) return line.slice(head.length);
  return null;
}

/** Whether the loop whose latch ends in `br` is marked `llvm.loop.unroll.disable`. */
export function hasUnrollDisable(br: Instruction, m: Module | null): boolean {
  const id = loopId(br);
  if (id === null || m === null) return false;
  const body = definition(m, id);
  if (body === null) return false;
  if (body.includes(DISABLE)) return true;
  for (const ref of body.matchAll(/!(\d+)/g)) {
    const k = Number(ref[1]);
    if (k !== id && definition(m, k)?.includes(DISABLE)) return true;
  }
  return false;
}

/** Marks the loop whose latch ends in `br` with `llvm.loop.unroll.disable` (a new loop ID). */
export function setUnrollDisable(br: Instruction, m: Module | null): void {
  if (m === null || hasUnrollDisable(br, m)) return;
  let top = -1;
  for (const line of m.metadata) {
    const d = /^!(\d+) = /.exec(line);
    if (d !== null) top = Math.max(top, Number(d[1]));
  }
  const id = top + 1;
  const prop = top + 2;
  const old = loopId(br);
  const props: string[] = [];
  const body = old === null ? null : definition(m, old);
  if (body !== null) for (const ref of body.matchAll(/!(\d+)/g)) if (Number(ref[1]) !== old) props.push(`!${ref[1]}`);
  props.push(`!${prop}`);
  m.metadata.push(`!${id} = distinct !{!${id}, ${props.join(', ')}}`, `!${prop} = !{${DISABLE}}`);
  const attach = `!llvm.loop !${id}`;
  br.md = br.md === null ? `, ${attach}` : /!llvm\.loop !\d+/.test(br.md) ? br.md.replace(/!llvm\.loop !\d+/, attach) : `${br.md}, ${attach}`;
}
