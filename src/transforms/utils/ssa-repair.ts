/**
 * SSA repair (reconstruction): a value that used to have one definition now has more — a
 * transform copied its defining instruction into other blocks — and every use must read the
 * definition that reaches it, through new phis where definitions meet. This is Braun et al.'s
 * construction (CC 2013, §5 "SSA reconstruction") on a complete CFG: the value becomes a
 * variable written in each defining block, and each use reads it with `readVariable` of the
 * SSA builder (src/transforms/utils/ssa-builder.ts), all blocks sealed, trivial phis removed as they appear.
 *
 * ## API
 *
 *   repairSSA(fn, original, newDefs, opts?) → { phis, usesRewritten }
 *
 *   - `original`: the value whose uses are rewritten (an instruction, or an argument);
 *   - `newDefs`: `{ block, value }[]`, "at the end of `block` (or from `value` on, when
 *     `value` is an instruction of `block`), the variable is `value`". At most a few per
 *     block; when several are in one block the later one wins for later uses;
 *   - `opts.keepOriginal` (default true): the original stays a definition at its place;
 *     false when the caller is about to delete it (LICM sinking it into the exits).
 *
 * Uses are rewritten in place; the phis created (still alive) are returned. Call it after
 * the CFG is final (all new edges exist, phis of successors have entries for new blocks).
 *
 * Jump threading duplicates block B into B' for predecessor P (B' has P as its only
 * predecessor and B lost it). For every instruction I of B used outside B, with clone I':
 *
 *   repairSSA(fn, I, [{ block: B2, value: I2 }]);
 *
 * and for every phi φ of B, which B' replaces by its incoming value v from P:
 *
 *   repairSSA(fn, φ, [{ block: B2, value: v }]);
 *
 * Successor phis should first get entries for B' naming the original values (I, φ): those
 * entries are uses read at the end of B', so the repair turns them into I' / v. Do not
 * duplicate B for a predecessor P that B dominates (a back edge): φ's value from P is then one
 * of B's own values from the previous iteration, which B' cannot name (jump threading skips
 * loop headers for this reason; loop rotation copies the header into the preheader instead,
 * where the incoming values come from outside). LICM sinking passes `keepOriginal: false` and
 * one definition per exit block.
 *
 * Invariants: a use in block U reads the nearest definition above it in U, else the value on
 * entry to U (from its predecessors); a phi's use reads at the end of its incoming block; the
 * entry value of a defining block is computed without disturbing the block's own (end)
 * definition, so a use above a new definition in the same block is handled too.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { UndefValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { Use, Value, ValueKind } from '../../ir/value.js';
import { SSABuilder } from './ssa-builder.js';

export interface NewDefinition {
  block: BasicBlock;
  value: Value;
}

export interface RepairOptions {
  /** The original value remains a definition (default true). */
  keepOriginal?: boolean;
}

export interface RepairResult {
  /** Phis created by the repair that are still in the function. */
  phis: Instruction[];
  usesRewritten: number;
}

interface Def {
  value: Value;
  /** Position in the block (-1: from the top of the block). */
  pos: number;
}

/** Rewrites the uses of `original` so each reads the definition (original or new) reaching it. */
export function repairSSA(fn: Function, original: Value, newDefs: readonly NewDefinition[], opts: RepairOptions = {}): RepairResult {
  if (fn.isDeclaration()) throw new Error('repairSSA: the function has no body');
  const keep = opts.keepOriginal ?? true;
  const all: NewDefinition[] = [];
  if (keep) {
    if (original.kind === ValueKind.Instruction) {
      const b = (original as Instruction).parent;
      if (b === null || b.parent !== fn) throw new Error('repairSSA: the original instruction is not in the function');
      all.push({ block: b, value: original });
    } else all.push({ block: fn.entry, value: original });
  }
  for (const d of newDefs) {
    if (d.block.parent !== fn) throw new Error('repairSSA: a new definition is in a block of another function');
    if (d.value.type !== original.type) throw new Error(`repairSSA: a new definition has type ${d.value.type}, the original ${original.type}`);
    all.push(d);
  }

  // definitions grouped by block, with positions
  const defsOf = new Map<BasicBlock, Def[]>();
  for (const d of all) {
    let l = defsOf.get(d.block);
    if (l === undefined) defsOf.set(d.block, (l = []));
    l.push({ value: d.value, pos: -1 });
  }
  const posIn = new Map<Instruction, number>();
  for (const [b, l] of defsOf) {
    let k = 0;
    for (let i = b.first; i !== null; i = i.next) posIn.set(i, k++);
    for (const d of l) {
      if (d.value.kind === ValueKind.Instruction && (d.value as Instruction).parent === b) d.pos = posIn.get(d.value as Instruction)!;
    }
    l.sort((a, c) => a.pos - c.pos);
  }

  const created: Instruction[] = [];
  const ssa = new SSABuilder(fn, { sealAll: true, onPhiCreated: (p) => created.push(p) });
  const v = ssa.declareVariable(original.type, original.name);
  for (const [b, l] of defsOf) ssa.writeVariable(v, b, l[l.length - 1].value);

  // the value on entry to a defining block (its own definition is the value at its end)
  const entryValue = new Map<BasicBlock, Value>();
  const valueOnEntry = (b: BasicBlock): Value => {
    const c = entryValue.get(b);
    if (c !== undefined) return ssa.resolve(c);
    const preds = ssa.predecessorsOf(b);
    let r: Value;
    if (preds.length === 0) r = UndefValue.get(original.type);
    else {
      let single = true;
      for (const p of preds) if (p !== preds[0]) single = false;
      if (single) r = ssa.readVariable(v, preds[0]);
      else {
        const phi = ssa.createPendingPhi(v, b);
        for (let k = 0; k < preds.length; k++) {
          const val = k > 0 && preds[k] === preds[k - 1] ? phi.ops[phi.ops.length - 1].value : ssa.readVariable(v, preds[k]);
          phi.addIncoming(val, preds[k]);
        }
        r = ssa.completePhi(phi);
      }
    }
    entryValue.set(b, r);
    return r;
  };

  const uses: Use[] = [];
  for (let u = original.firstUse; u !== null; u = u.next) uses.push(u);
  let rewritten = 0;
  for (const u of uses) {
    const user = u.user as Instruction;
    if (user.kind !== ValueKind.Instruction || user.parent === null || user.parent.parent !== fn) continue;
    let val: Value;
    if (user.op === Opcode.Phi) {
      val = ssa.readVariable(v, user.blocks![u.index]);
    } else {
      const b = user.parent;
      const l = defsOf.get(b);
      if (l === undefined) val = ssa.readVariable(v, b);
      else {
        const at = posIn.get(user)!;
        let found: Value | null = null;
        for (let k = l.length - 1; k >= 0; k--) {
          if (l[k].pos < at) {
            found = l[k].value;
            break;
          }
        }
        val = found ?? valueOnEntry(b);
      }
    }
    val = ssa.resolve(val);
    if (u.value !== val) {
      user.setOperand(u.index, val);
      rewritten++;
    }
  }
  return { phis: created.filter((p) => p.parent !== null), usesRewritten: rewritten };
}
