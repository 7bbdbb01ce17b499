/**
 * Copy propagation for SSA form: a "copy" is an instruction whose value is just another
 * value, and every use of it is rewritten to that value (Aho, Lam, Sethi, Ullman,
 * "Compilers", §9.1.5, specialised to SSA, where copies are phis and no-op instructions).
 *
 * Copies removed:
 *  - phis whose incoming values are all one value V or the phi itself (V also dominates
 *    the phi then); with undef entries only when V is a constant/argument or dominates;
 *  - cycles of phis that together only ever carry one outside value V: Braun et al.'s
 *    Algorithm 5 (transforms/utils/phi-webs.ts), with undef entries allowed only when V is a
 *    constant or an argument;
 *  - `select c, x, x`, `bitcast`/`addrspacecast` to the same type, `llvm.ssa.copy(x)`,
 *    and `freeze x` where x can never be undef or poison (non-undef constants, `noundef`
 *    arguments, another freeze). A freeze of any other value is NOT a copy: it picks one
 *    fixed value for an undef, and replacing it by x would let each use pick differently.
 *
 * Invariant: only reachable blocks are rewritten (in unreachable code a phi may name itself
 * through other phis with no outside value at all).
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { isTriviallyDead } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { Value, ValueKind } from '../../ir/value.js';
import { isGuaranteedNotUndefOrPoison } from '../../analysis/value-tracking.js';
import { simplifyPhiValues } from '../../analysis/instsimplify.js';
import { CFGAnalysis, DominatorTreeAnalysis } from '../../pm/analyses.js';
import type { PassContext } from '../../pm/pass.js';
import { definePass } from '../../pm/define-pass.js';
import { removeRedundantPhiWebs } from '../utils/phi-webs.js';

/** The value a copy instruction copies, or null when `i` is not a copy (phis: see copyOfPhi). */
export function copySource(i: Instruction): Value | null {
  switch (i.op) {
    case Opcode.Select:
      return i.ops[1].value === i.ops[2].value ? i.ops[1].value : null;
    case Opcode.BitCast:
    case Opcode.AddrSpaceCast:
      return i.ops[0].value.type === i.type ? i.ops[0].value : null;
    case Opcode.Freeze:
      return isGuaranteedNotUndefOrPoison(i.ops[0].value) ? i.ops[0].value : null;
    case Opcode.Call: {
      const f = i.calledFunction();
      return f !== null && f.name.startsWith('llvm.ssa.copy') && i.ops.length === 2 ? i.ops[1].value : null;
    }
    default:
      return null;
  }
}

export function propagateCopies(fn: Function, ctx: PassContext): number {
  const cfg = ctx.analyses.get(CFGAnalysis);
  const dt = ctx.analyses.get(DominatorTreeAnalysis);
  const reachable = (bb: BasicBlock | null): boolean => bb !== null && bb.id < cfg.n && cfg.blocks[bb.id] === bb && cfg.isReachable(bb.id);
  const dominatesPhi = (v: Value, bb: BasicBlock): boolean => {
    if (v.kind !== ValueKind.Instruction) return v.kind === ValueKind.Argument;
    const d = (v as Instruction).parent;
    return d !== null && d !== bb && dt.dominates(d.id, bb.id);
  };
  let removed = 0;
  const replace = (i: Instruction, v: Value, work: Instruction[]): void => {
    for (let u = i.firstUse; u !== null; u = u.next) if (u.user.kind === ValueKind.Instruction) work.push(u.user as Instruction);
    i.replaceAllUsesWith(v);
    if (isTriviallyDead(i) || i.op === Opcode.Phi) i.eraseFromParent();
    removed++;
  };

  // 1. single copies, to a fixed point
  const work: Instruction[] = [];
  for (let k = cfg.rpo.length - 1; k >= 0; k--) {
    const bb = cfg.blocks[cfg.rpo[k]]!;
    for (let i = bb.last; i !== null; i = i.prev) work.push(i);
  }
  while (work.length > 0) {
    const i = work.pop()!;
    if (i.parent === null || !reachable(i.parent)) continue;
    let v: Value | null;
    if (i.op === Opcode.Phi) {
      const vals: Value[] = [];
      for (const u of i.ops) vals.push(u.value);
      v = simplifyPhiValues(vals, i, (x) => dominatesPhi(x, i.parent!));
    } else v = copySource(i);
    if (v !== null && v !== i) replace(i, v, work);
  }

  // 2. phi webs with a single outside value (Braun et al., Algorithm 5)
  const phis: Instruction[] = [];
  for (const id of cfg.rpo) for (let i = cfg.blocks[id]!.first; i !== null && i.op === Opcode.Phi; i = i.next) phis.push(i);
  removeRedundantPhiWebs(fn, phis, {
    undef: 'ignored',
    replace(web, v) {
      const users: Instruction[] = []; // (not revisited: step 1 is over)
      for (const p of web) replace(p, v, users);
    },
  });
  if (removed > 0) ctx.stat('copies removed', removed);
  return removed;
}

export const copypropPass = definePass({
  name: 'copyprop',
  description: 'replace uses of copies (single-value phis and phi webs, select c,x,x, no-op casts, freeze of well-defined values)',
  run: (fn, ctx) => ({ changed: propagateCopies(fn, ctx) > 0, preserved: 'cfg' }),
});
