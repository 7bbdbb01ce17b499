/**
 * Aggressive dead code elimination: Cytron, Ferrante, Rosen, Wegman and Zadeck,
 * "Efficiently Computing Static Single Assignment Form and the Control Dependence Graph"
 * (TOPLAS 1991, §7.1 "Dead code elimination"), in the shape of LLVM's ADCE.cpp.
 *
 * Everything starts dead. Live roots: instructions with side effects (stores, calls that
 * write memory or may not return, volatile accesses), returns, and — see below — the
 * branches that keep possibly-infinite loops. Liveness then flows backwards:
 *  - a live instruction makes its operands' definitions live and its block live;
 *  - a live block makes live the terminators of the blocks it is control dependent on
 *    (its post-dominance frontier, src/analysis/control-dependence.ts);
 *  - a live phi makes its incoming blocks live (the branch choosing the incoming edge
 *    decides the phi's value);
 *  - a live terminator makes its condition live.
 * Dead instructions are deleted. A dead conditional branch or switch (no live code depends
 * on which way it goes) becomes an unconditional branch to one of its successors — LLVM's
 * choice: the successor closest to the function's exit in a postorder of the reverse CFG
 * from the exits, which strictly decreases the distance to an exit, so no new infinite
 * loop can appear. The bypassed blocks are left empty (simplifycfg removes them).
 *
 * Loops. Deleting a loop that computes nothing live changes behaviour when it does not
 * terminate. We follow LLVM's default (adce-remove-loops=false): the branch at the source
 * of every back edge (retreating edge of a DFS) is live, and so is every terminator of a
 * region that cannot reach a return (an infinite loop, or code ending in `unreachable`
 * that LLVM's post-dominator roots name) — so loops are never removed. `adce<remove-loops>`
 * drops the back-edge rule only in functions marked `mustprogress` (C++ forward-progress
 * rule: a loop without side effects may be assumed to terminate); C functions from clang
 * are not marked, so for them the option changes nothing. That is the safe rule.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { UndefValue } from '../../ir/constants.js';
import { salvageDebugInfo } from '../../ir/metadata.js';
import { functionAttributeText, mayHaveSideEffects } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { voidType } from '../../ir/types.js';
import { ValueKind } from '../../ir/value.js';
import type { CFG } from '../../analysis/cfg.js';
import { controlDependence } from '../../analysis/control-dependence.js';
import { CFGAnalysis, PostDominatorTreeAnalysis } from '../../pm/analyses.js';
import type { PassContext } from '../../pm/pass.js';
import { defineCountingPass, param, reportStats } from '../../pm/define-pass.js';

export interface ADCEOptions {
  /** Allow deleting loops in `mustprogress` functions (see the file comment). */
  removeLoops: boolean;
}

export function aggressiveDCE(fn: Function, ctx: PassContext, opts: ADCEOptions = { removeLoops: false }): { removed: number; branches: number } {
  const cfg = ctx.analyses.get(CFGAnalysis);
  const pdt = ctx.analyses.get(PostDominatorTreeAnalysis);
  const cd = controlDependence(cfg, { postDomTree: pdt });
  const n = cfg.n;
  // live instructions by id (ids are unique in the function; the branches made below are
  // past the end, and terminators are never deleted here anyway)
  const liveInst = new Uint8Array(fn.instIdBound);
  const blockLive = new Uint8Array(n);
  const work: Instruction[] = [];
  const blockWork: number[] = [];
  const phisLive = new Uint8Array(n);

  const markInst = (i: Instruction): void => {
    if (liveInst[i.id] !== 0) return;
    liveInst[i.id] = 1;
    work.push(i);
  };
  const markBlock = (b: number): void => {
    if (blockLive[b]) return;
    blockLive[b] = 1;
    blockWork.push(b);
  };

  // roots
  const mustProgress = /(^|[\s{])mustprogress([\s}]|$)/.test(functionAttributeText(fn));
  const keepLoops = !(opts.removeLoops && mustProgress);
  for (const id of cfg.order) {
    const bb = cfg.blocks[id]!;
    for (let i = bb.first; i !== null; i = i.next) {
      // every terminator but br/switch (ret, unreachable, indirectbr) is live, as in LLVM
      if (i.isTerminator() && i.op !== Opcode.Br && i.op !== Opcode.Switch) markInst(i);
      else if (!i.isTerminator() && mayHaveSideEffects(i)) markInst(i);
    }
    if (!cfg.isReachable(id)) continue;
    if (keepLoops) {
      for (const s of cfg.successors(id)) {
        if (cfg.isBackEdge(id, s)) {
          markInst(bb.terminator()!);
          break;
        }
      }
    }
  }
  // regions that never reach a return: everything under a non-return root of the post-dominator tree
  for (const r of pdt.roots) {
    const t = cfg.blocks[r]!.terminator();
    if (t !== null && t.op === Opcode.Ret) continue;
    const stack = [r];
    while (stack.length > 0) {
      const b = stack.pop()!;
      const bt = cfg.blocks[b]?.terminator();
      if (bt) markInst(bt);
      for (const c of pdt.children(b)) stack.push(c);
    }
  }
  // the entry always runs
  markBlock(cfg.root);

  const ctrlOf = (b: number): Int32Array => cd.dependsOn(b);
  while (work.length > 0 || blockWork.length > 0) {
    while (work.length > 0) {
      const i = work.pop()!;
      const bb = i.parent!;
      markBlock(bb.id);
      for (const u of i.ops) {
        const v = u.value;
        if (v.kind === ValueKind.Instruction && (v as Instruction).parent !== null) markInst(v as Instruction);
      }
      if (i.op === Opcode.Phi && !phisLive[bb.id]) {
        phisLive[bb.id] = 1;
        for (const p of cfg.predecessors(bb.id)) markBlock(p);
      }
    }
    while (blockWork.length > 0) {
      const b = blockWork.pop()!;
      for (const x of ctrlOf(b)) {
        const t = cfg.blocks[x]?.terminator();
        if (t) markInst(t);
      }
    }
  }

  // Dead branches jump to the successor nearest the exit (largest postorder number of a
  // reverse DFS from the exits).
  const post = reversePostorderNumbers(cfg.n, cfg);
  let branches = 0;
  for (const id of cfg.order) {
    const bb = cfg.blocks[id]!;
    const t = bb.terminator();
    if (t === null || liveInst[t.id] !== 0 || t.numSuccessors() < 2) continue;
    if (!cfg.isReachable(id)) continue;
    let best: BasicBlock | null = null;
    for (const s of t.successors()) if (best === null || post[s.id] > post[best.id]) best = s;
    const seen = new Set<BasicBlock>([best!]);
    for (const s of t.successors()) {
      if (seen.has(s)) continue;
      seen.add(s);
      s.removePredecessorFromPhis(bb);
    }
    // keep a single phi entry for the remaining edge
    for (let p = best!.first; p !== null && p.op === Opcode.Phi; p = p.next) {
      let first = true;
      for (let k = 0; k < p.blocks!.length; k++) {
        if (p.blocks![k] !== bb) continue;
        if (first) first = false;
        else p.removeIncoming(k--);
      }
    }
    const br = new Instruction(Opcode.Br, voidType, [best!]);
    bb.insertBefore(br, t);
    t.dropAllReferences();
    t.removeFromParent();
    branches++;
  }

  // delete the dead instructions (drop references first: dead code may form cycles)
  const dead: Instruction[] = [];
  for (const id of cfg.order) {
    const bb = cfg.blocks[id]!;
    if (!cfg.isReachable(id)) continue;
    for (let i = bb.first; i !== null; i = i.next) {
      if (liveInst[i.id] !== 0 || i.isTerminator()) continue;
      dead.push(i);
    }
  }
  // as LLVM's ADCE: debug records of the dead are salvaged (users first) before any operand goes
  for (let k = dead.length - 1; k >= 0; k--) salvageDebugInfo(dead[k]);
  for (const i of dead) i.dropAllReferences();
  for (const i of dead) {
    if (i.firstUse !== null) i.replaceAllUsesWith(UndefValue.get(i.type)); // uses left only in unreachable blocks
    i.removeFromParent();
  }
  reportStats(ctx, { 'instructions removed': dead.length, 'branches removed': branches });
  return { removed: dead.length, branches };
}

/**
 * Postorder numbers of a DFS of the reverse CFG started from every block without
 * successors (LLVM's ADCE computeReversePostOrder): a block's DFS parent is one of its
 * successors with a larger number. Blocks that reach no exit get 0.
 */
function reversePostorderNumbers(n: number, cfg: CFG): Int32Array {
  const num = new Int32Array(n);
  const visited = new Uint8Array(n);
  let counter = 1;
  const stack: number[] = [];
  const cursor: number[] = [];
  for (const root of cfg.order) {
    if (cfg.numSuccessors(root) !== 0 || visited[root]) continue;
    visited[root] = 1;
    stack.push(root);
    cursor.push(0);
    while (stack.length > 0) {
      const top = stack.length - 1;
      const v = stack[top];
      const preds = cfg.predecessors(v);
      if (cursor[top] < preds.length) {
        // last predecessor first: LLVM walks its use lists, newest edge first
        const p = preds[preds.length - 1 - cursor[top]++];
        if (!visited[p]) {
          visited[p] = 1;
          stack.push(p);
          cursor.push(0);
        }
      } else {
        num[v] = counter++;
        stack.pop();
        cursor.pop();
      }
    }
  }
  return num;
}

export const adcePass = defineCountingPass({
  name: 'adce',
  description: 'aggressive dead code elimination: assume dead, mark live from side effects through operands and control dependence',
  params: {
    removeLoops: param.flag('remove-loops', false, 'allow deleting loops in mustprogress functions'),
  },
  count: (fn, ctx, opts) => aggressiveDCE(fn, ctx, opts),
  changed: (r) => r.removed + r.branches > 0,
  preserves: (r) => (r.branches > 0 ? 'none' : 'cfg'),
});
