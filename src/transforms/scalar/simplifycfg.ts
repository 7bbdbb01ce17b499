/**
 * CFG simplification, after LLVM's SimplifyCFG (lib/Transforms/Utils/SimplifyCFG.cpp and
 * Local.cpp: removeUnreachableBlocks, ConstantFoldTerminator, MergeBlockIntoPredecessor,
 * TryToSimplifyUncondBranchFromEmptyBlock, FoldTwoEntryPHINode). Iterated to a fixed point:
 *
 *  - blocks the entry cannot reach are deleted (their phi entries in reachable blocks first);
 *  - `br i1 true/false`, `br i1 %c, label %a, label %a`, a branch to a block that only holds
 *    `unreachable`, `switch` on a constant, with no case, one case, or cases that go where
 *    the default goes, become simpler branches;
 *  - a block whose single predecessor ends in `br label %it` is merged into that predecessor;
 *  - a block holding only phis and `br label %s` is removed, its predecessors branching to %s
 *    directly, unless a common predecessor would need two different values in a phi of %s;
 *  - a two-entry phi at the join of a small triangle/diamond whose arms can be speculated
 *    (isSafeToSpeculate) becomes a `select` (parameter `no-select` turns this off);
 *  - a block computing a branch condition whose predecessor shares a destination with it
 *    is folded into the predecessor, the conditions joined (FoldBranchToCommonDest,
 *    simplifycfg-common-dest.ts; only with the parameter `common-dest`, off by default).
 *
 * Invariants kept: every phi has one entry per incoming edge (a predecessor branching twice
 * to a block has two equal entries), so each removed edge removes exactly one entry; no
 * instruction with side effects is executed on a path where it was not before.
 */
import { dropLocation, dropUBImplyingMetadata, getAttachment } from '../../ir/metadata.js';
import { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import { isSafeToSpeculate } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, Pred } from '../../ir/opcodes.js';
import { i1, voidType } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import type { PassContext } from '../../pm/pass.js';
import { definePass, param, reportStats } from '../../pm/define-pass.js';
import { countIncomingEdges, edgeCount, mergeSuccessorIntoBlock, replaceWithBranch, retargetEdges } from '../utils/basic-block-utils.js';
import { foldTrivialPhis, removeUnreachableBlocks } from '../utils/local.js';
import { foldBranchToCommonDest } from './simplifycfg-common-dest.js';

function isUnreachableOnly(bb: BasicBlock): boolean {
  return bb.first !== null && bb.first.op === Opcode.Unreachable;
}

// ---- the pass ------------------------------------------------------------------------------

export interface SimplifyCFGOptions {
  /** Form selects from small diamonds and triangles (default true). */
  selects: boolean;
  /** Most instructions speculated into the branch block for one select formation. */
  speculationLimit: number;
  /** Most phis turned into selects at one join. */
  phiLimit: number;
  /**
   * FoldBranchToCommonDest (default off: a loop exit test joined into `select i1 %c1, i1 %c2,
   * i1 false` hides the trip count from our scalar evolution, which reads icmp exits only;
   * gen-890466885 of the fresh SysY sample ran 5x slower with it on).
   */
  commonDest: boolean;
}

export const DEFAULT_SIMPLIFYCFG_OPTIONS: SimplifyCFGOptions = { selects: true, speculationLimit: 4, phiLimit: 4, commonDest: false };

class SimplifyCFG {
  stats = { unreachable: 0, folded: 0, merged: 0, forwarded: 0, selects: 0, phis: 0, commonDest: 0 };

  constructor(
    readonly fn: Function,
    readonly opts: SimplifyCFGOptions,
  ) {}

  run(): boolean {
    let changed = false;
    for (let round = 0; round < 1000; round++) {
      let local = false;
      const u = removeUnreachableBlocks(this.fn);
      if (u > 0) {
        this.stats.unreachable += u;
        local = true;
      }
      for (const bb of this.fn.blocks()) {
        for (let guard = 0; bb.parent !== null && guard < 10_000; guard++) {
          if (!this.simplifyBlock(bb)) break;
          local = true;
        }
      }
      if (!local) break;
      changed = true;
    }
    return changed;
  }

  private simplifyBlock(bb: BasicBlock): boolean {
    const t = bb.terminator();
    if (t === null) return false;
    if (bb.first !== null && bb.first.op === Opcode.Phi) {
      const n = foldTrivialPhis(bb);
      if (n > 0) {
        this.stats.phis += n;
        return true;
      }
    }
    switch (t.op) {
      case Opcode.Br:
        if (t.numOperands === 3) return this.simplifyCondBranch(bb, t);
        return this.simplifyUncondBranch(bb, t);
      case Opcode.Switch:
        return this.simplifySwitch(bb, t);
      default:
        return false;
    }
  }

  private simplifyCondBranch(bb: BasicBlock, t: Instruction): boolean {
    const c = t.operand(0);
    const a = t.successor(0);
    const b = t.successor(1);
    let keep: BasicBlock | null = null;
    let drop: BasicBlock | null = null;
    if (a === b) {
      keep = drop = a;
    } else if (c.kind === ValueKind.ConstantInt) {
      const taken = !(c as ConstantInt).isZero();
      keep = taken ? a : b;
      drop = taken ? b : a;
    } else if (isUnreachableOnly(b) && !isUnreachableOnly(a)) {
      keep = a;
      drop = b;
    } else if (isUnreachableOnly(a) && !isUnreachableOnly(b)) {
      keep = b;
      drop = a;
    }
    if (keep !== null) {
      drop!.removePredecessorFromPhis(bb, false);
      replaceWithBranch(bb, keep);
      this.stats.folded++;
      return true;
    }
    if (this.opts.selects && this.opts.commonDest && foldBranchToCommonDest(bb, t)) {
      this.stats.commonDest++;
      return true;
    }
    if (this.opts.selects) return this.foldDiamondIntoSelect(bb, t);
    return false;
  }

  private simplifySwitch(bb: BasicBlock, t: Instruction): boolean {
    const c = t.operand(0);
    const dflt = t.successor(0);
    if (c.kind === ValueKind.ConstantInt) {
      let dest = dflt;
      for (let k = 0; k < t.numCases; k++) if (t.caseValue(k) === c) dest = t.caseDest(k);
      let kept = false;
      const n = t.numSuccessors();
      for (let s = 0; s < n; s++) {
        const d = t.successor(s);
        if (d === dest && !kept) kept = true;
        else d.removePredecessorFromPhis(bb, false);
      }
      replaceWithBranch(bb, dest);
      this.stats.folded++;
      return true;
    }
    let changed = false;
    for (let k = t.numCases - 1; k >= 0; k--) {
      if (t.caseDest(k) === dflt) {
        t.removeCase(k);
        dflt.removePredecessorFromPhis(bb, false);
        changed = true;
      }
    }
    if (t.numCases === 0) {
      replaceWithBranch(bb, dflt);
      this.stats.folded++;
      return true;
    }
    if (t.numCases === 1) {
      const cmp = new Instruction(Opcode.ICmp, i1, [c, t.caseValue(0)]);
      cmp.pred = Pred.EQ;
      bb.insertBefore(cmp, t);
      const br = new Instruction(Opcode.Br, voidType, [cmp, t.caseDest(0), dflt]);
      bb.insertBefore(br, t);
      t.eraseFromParent();
      this.stats.folded++;
      return true;
    }
    if (changed) this.stats.folded++;
    return changed;
  }

  private simplifyUncondBranch(bb: BasicBlock, t: Instruction): boolean {
    const s = t.operand(0) as BasicBlock;
    if (s === bb) return false;
    if (mergeSuccessorIntoBlock(bb, s)) {
      this.stats.merged++;
      return true;
    }
    if (this.removeForwardingBlock(bb, t, s)) {
      this.stats.forwarded++;
      return true;
    }
    return false;
  }

  /**
   * `bb` holds only phis and `br label %s`: its predecessors can branch to %s directly. The
   * phis of %s then take, per former predecessor P of bb, the value that came through bb.
   */
  private removeForwardingBlock(bb: BasicBlock, t: Instruction, s: BasicBlock): boolean {
    if (bb === this.fn.firstBlock || bb.firstNonPhi() !== t) return false;
    // an indirectbr reaches bb through its address, which cannot be redirected
    if (bb.hasAddressTaken()) return false;
    const preds = bb.predecessors();
    if (preds.length === 0) return false;
    for (const p of preds) if (p.terminator()?.op === Opcode.IndirectBr) return false;
    // bb's phis may only feed the entries of s's phis that come from bb.
    for (let p = bb.first; p !== null && p.op === Opcode.Phi; p = p.next) {
      for (let u = p.firstUse; u !== null; u = u.next) {
        const user = u.user as Instruction;
        if (user.op !== Opcode.Phi || user.parent !== s || user.blocks![u.index] !== bb) return false;
      }
    }
    const sPhis = s.phis();
    if (sPhis.length > 0) {
      for (const p of preds) {
        // A predecessor of both would get two entries for s's phis that must agree.
        if (p.terminator() === null) return false;
        if (edgeCount(p, s) === 0) continue;
        for (const phi of sPhis) {
          const direct = phi.incomingValueFor(p);
          if (direct !== throughBlock(phi.incomingValueFor(bb)!, bb, p)) return false;
        }
      }
    }
    for (const phi of sPhis) {
      const idx = phi.blockIndex(bb);
      const v = phi.removeIncoming(idx);
      for (const p of preds) {
        const vp = throughBlock(v, bb, p);
        const n = edgeCount(p, bb);
        for (let k = 0; k < n; k++) phi.addIncoming(vp, p);
      }
    }
    for (const p of preds) retargetEdges(p, bb, s);
    bb.eraseFromParent();
    return true;
  }

  /**
   * FoldTwoEntryPHINode: `join` ← {then, else} or {then, branch block} where the arms hold
   * only a few speculatable instructions; the arms are hoisted into the branch block and the
   * join's phis become selects on the branch condition.
   */
  private foldDiamondIntoSelect(d: BasicBlock, br: Instruction): boolean {
    const c = br.operand(0);
    if (c.type !== i1) return false;
    const a = br.successor(0);
    const b = br.successor(1);
    // Find the join: either a's or b's single successor (triangle) or both (diamond).
    const aArm = this.armTarget(a, d);
    const bArm = this.armTarget(b, d);
    let join: BasicBlock;
    let trueArm: BasicBlock | null = null;
    let falseArm: BasicBlock | null = null;
    if (aArm !== null && bArm !== null && aArm === bArm) {
      join = aArm;
      trueArm = a;
      falseArm = b;
    } else if (aArm !== null && aArm === b) {
      join = b;
      trueArm = a;
    } else if (bArm !== null && bArm === a) {
      join = a;
      falseArm = b;
    } else return false;
    if (join === d) return false;
    // the arms are deleted: not when a blockaddress names one
    if (trueArm?.hasAddressTaken() || falseArm?.hasAddressTaken()) return false;
    const phis = join.phis();
    if (phis.length === 0 || phis.length > this.opts.phiLimit) return false;
    // The join must have exactly the two incoming edges of this shape.
    if (countIncomingEdges(join, 2) !== 2) return false;
    let cost = 0;
    for (const arm of [trueArm, falseArm]) {
      if (arm === null) continue;
      for (let i = arm.first; i !== null && i !== arm.last; i = i.next) {
        if (!isSafeToSpeculate(i)) return false;
        // Values computed in an arm and used beyond the join cannot move without the phi.
        for (let u = i.firstUse; u !== null; u = u.next) {
          const user = u.user as Instruction;
          if (user.parent !== arm && !(user.op === Opcode.Phi && user.parent === join)) return false;
        }
        cost++;
      }
    }
    if (cost > this.opts.speculationLimit) return false;
    const tPred = trueArm ?? d;
    const fPred = falseArm ?? d;
    for (const arm of [trueArm, falseArm]) {
      if (arm === null) continue;
      for (let i = arm.first; i !== null && i !== arm.last; ) {
        const next = i.next;
        i.moveBefore(br);
        // speculated: as LLVM's SpeculativelyExecuteBB, no UB-implying metadata and no location
        if (i.md !== null) {
          dropUBImplyingMetadata(i);
          dropLocation(i, i.op === Opcode.Call, getAttachment(i.function!.md, 'dbg'));
        }
        i = next;
      }
    }
    for (const phi of phis) {
      const tv = phi.incomingValueFor(tPred)!;
      const fv = phi.incomingValueFor(fPred)!;
      const v = tv === fv ? tv : new Instruction(Opcode.Select, phi.type, [c, tv, fv]);
      if (v !== tv) {
        (v as Instruction).name = phi.name;
        d.insertBefore(v as Instruction, br);
      }
      phi.replaceAllUsesWith(v);
      phi.eraseFromParent();
    }
    // d now branches to the join only; the arms become unreachable.
    replaceWithBranch(d, join);
    for (const arm of [trueArm, falseArm]) if (arm !== null) arm.eraseFromParent();
    this.stats.selects += phis.length;
    return true;
  }

  /** The join block when `arm` is a side block of `d` (single predecessor d, ends in br), else null; or the arm itself's target. */
  private armTarget(arm: BasicBlock, d: BasicBlock): BasicBlock | null {
    if (arm === d) return null;
    const t = arm.terminator();
    if (t === null || t.op !== Opcode.Br || t.numOperands !== 1) return null;
    if (arm.first !== null && arm.first.op === Opcode.Phi) return null;
    if (countIncomingEdges(arm, 1) !== 1) return null;
    return t.operand(0) as BasicBlock;
  }
}

/** The value `v` (flowing from `bb` into a successor's phi) as seen on the edge P→bb. */
function throughBlock(v: Value, bb: BasicBlock, p: BasicBlock): Value {
  if (v.kind === ValueKind.Instruction) {
    const i = v as Instruction;
    if (i.op === Opcode.Phi && i.parent === bb) return i.incomingValueFor(p)!;
  }
  return v;
}

/** Simplifies the CFG of `fn`; returns whether anything changed. */
export function simplifyCFG(fn: Function, opts: Partial<SimplifyCFGOptions> = {}, ctx?: PassContext): boolean {
  const s = new SimplifyCFG(fn, { ...DEFAULT_SIMPLIFYCFG_OPTIONS, ...opts });
  const changed = s.run();
  if (ctx !== undefined) {
    const st = s.stats;
    reportStats(ctx, { 'unreachable blocks removed': st.unreachable, 'terminators folded': st.folded, 'blocks merged': st.merged, 'forwarding blocks removed': st.forwarded, 'phis turned into selects': st.selects, 'trivial phis removed': st.phis, 'branches folded into their predecessor': st.commonDest });
  }
  return changed;
}

export const simplifycfgPass = definePass({
  name: 'simplifycfg',
  description: 'remove unreachable blocks, fold constant branches, merge and forward blocks, form selects',
  params: {
    selects: param.flag('select', DEFAULT_SIMPLIFYCFG_OPTIONS.selects, 'form selects from small diamonds and triangles', ['speculate-blocks']),
    speculationLimit: param.int('speculation-limit', DEFAULT_SIMPLIFYCFG_OPTIONS.speculationLimit, 'most instructions speculated into the branch block for one select'),
    phiLimit: param.int('phi-limit', DEFAULT_SIMPLIFYCFG_OPTIONS.phiLimit, 'most phis turned into selects at one join'),
    commonDest: param.flag('common-dest', DEFAULT_SIMPLIFYCFG_OPTIONS.commonDest, 'fold a block computing a branch condition into its predecessor when they share a destination (off by default)'),
  },
  run: (fn, ctx, opts) => ({ changed: simplifyCFG(fn, opts, ctx) }),
});
