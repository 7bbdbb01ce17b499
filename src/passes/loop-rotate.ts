/**
 * Loop rotation, after LLVM's LoopRotation (lib/Transforms/Utils/LoopRotationUtils.cpp,
 * LoopRotate::rotateLoop): a while loop becomes a guarded do-while.
 *
 *   preheader: br header                 preheader: guard = copy of header's test
 *   header:    phis; test; br c, body, exit          br guard', body.ph, exit.ph
 *   body...:   br header              →   body...:  ...
 *                                         latch:    (old latch + old header) test; br c, body, exit
 *
 * A loop in LoopSimplify form (`simplifyLoops` runs first) is rotated when its header exits
 * the loop on a conditional branch (one successor in the loop, one outside), its single
 * latch does not already exit (it is not bottom-tested yet), and the header holds at most
 * `header-size` instructions besides phis (default 16, LLVM's rotation-max-header-size),
 * none an alloca. The header's instructions are copied into the preheader with the phis
 * replaced by their preheader values; the preheader then branches like the header did; the
 * exit and the in-loop successor get entries for it; every value of the old header used
 * beyond it now has two definitions and is repaired by SSA repair (src/ssa/repair.ts). Then the
 * preheader→body edge is split (a new preheader), the loop's edges into the exit get a
 * block of their own (the exit stays dedicated)
 * and the old header is merged into the old latch, which now ends in the test: the loop's
 * header is the old body and its latch is the exiting block. Inner loops are rotated first;
 * each loop at most once per run.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { Function } from '../ir/function.js';
import { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { voidType } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import type { ConstantInt } from '../ir/constants.js';
import { mayHaveSideEffects, mayReadMemory } from '../ir/effects.js';
import { simplifyWithOperands } from '../analysis/instsimplify.js';
import { CFG } from '../analysis/cfg.js';
import { findLoops, Loop, LoopInfo } from '../analysis/loops.js';
import { LoopAnalysis } from './analyses.js';
import type { FunctionPass, PassContext, PassResult } from './pass.js';
import type { PassInfo } from './registry.js';
import { repairSSA } from '../ssa/repair.js';
import { simplifyLoops, splitBlockPredecessors, splitEdge } from './loop-simplify.js';
import { mergeSuccessorIntoBlock } from './simplifycfg.js';

export interface LoopRotateOptions {
  headerSize: number;
}

function contains(l: Loop, cfg: CFG, b: BasicBlock): boolean {
  return b.id < cfg.n && cfg.blocks[b.id] === b && l.contains(b.id);
}

/** Why `l` is not rotated (null: it can be). */
function rotationBlocker(l: Loop, cfg: CFG, opts: LoopRotateOptions): string | null {
  const ph = l.preheader();
  const latches = l.latches();
  if (ph < 0 || latches.length !== 1) return 'not in simplify form';
  const h = cfg.blockOf(l.header)!;
  const latch = cfg.blockOf(latches[0])!;
  if (latch === h) return 'single-block loop';
  const t = h.terminator();
  if (t === null || !t.isConditionalBranch()) return 'header does not branch conditionally';
  const in0 = contains(l, cfg, t.successor(0));
  const in1 = contains(l, cfg, t.successor(1));
  if (in0 === in1) return 'header does not exit';
  for (const s of latch.successors()) if (!contains(l, cfg, s)) return 'already bottom-tested';
  let n = 0;
  const map = new Map<Value, Value>();
  for (let p = h.first; p !== null && p.op === Opcode.Phi; p = p.next) map.set(p, p.incomingValueFor(cfg.blockOf(ph)!)!);
  for (let i = h.firstNonPhi(); i !== null && i !== t; i = i.next) {
    if (i.op === Opcode.Alloca) return 'alloca in header';
    if (++n > opts.headerSize) return 'header too big';
    if (!mayHaveSideEffects(i) && !mayReadMemory(i)) {
      const f = simplifyWithOperands(i, i.operands().map((v) => map.get(v) ?? v));
      if (f !== null && f !== i) map.set(i, f);
    }
  }
  // a loop the preheader's values never enter is left for the constant folders
  const c = map.get(t.operand(0)) ?? t.operand(0);
  if (c.kind === ValueKind.ConstantInt && !contains(l, cfg, (c as ConstantInt).isZero() ? t.successor(1) : t.successor(0))) return 'never entered';
  return null;
}

function rotate(fn: Function, l: Loop, cfg: CFG): void {
  const ph = cfg.blockOf(l.preheader())!;
  const h = cfg.blockOf(l.header)!;
  const latch = cfg.blockOf(l.latches()[0])!;
  const t = h.terminator()!;
  const map = new Map<Value, Value>();
  for (let p = h.first; p !== null && p.op === Opcode.Phi; p = p.next) map.set(p, p.incomingValueFor(ph)!);
  const phTerm = ph.terminator()!;
  for (let i = h.firstNonPhi(); i !== null && i !== t; i = i.next) {
    const ops = i.operands().map((v) => map.get(v) ?? v);
    // fold what the preheader's values decide (LLVM simplifies the copies too)
    const folded = mayHaveSideEffects(i) || mayReadMemory(i) ? null : simplifyWithOperands(i, ops);
    if (folded !== null && folded !== i) {
      map.set(i, folded);
      continue;
    }
    const c = i.clone();
    for (let k = 0; k < c.numOperands; k++) c.setOperand(k, ops[k]);
    ph.insertBefore(c, phTerm);
    map.set(i, c);
  }
  const cond = map.get(t.operand(0)) ?? t.operand(0);
  const s0 = t.successor(0);
  const s1 = t.successor(1);
  // a guard known true enters the loop unconditionally
  const known = cond.kind === ValueKind.ConstantInt;
  const guard = known ? new Instruction(Opcode.Br, voidType, [(cond as ConstantInt).isZero() ? s1 : s0]) : new Instruction(Opcode.Br, voidType, [cond, s0, s1]);
  ph.insertBefore(guard, phTerm);
  phTerm.eraseFromParent();
  for (const s of guard.successors().filter((b, k, a) => a.indexOf(b) === k)) {
    for (let p = s.first; p !== null && p.op === Opcode.Phi; p = p.next) {
      const v = p.incomingValueFor(h)!;
      p.addIncoming(map.get(v) ?? v, ph);
    }
  }
  h.removePredecessorFromPhis(ph, true);
  // the old header's values now also come from the preheader's copies (src/ssa/repair.ts)
  const twice: Instruction[] = [];
  for (let i = h.first; i !== null && i !== t; i = i.next) {
    for (let u = i.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      if (user.parent !== h || user.op === Opcode.Phi) {
        twice.push(i);
        break;
      }
    }
  }
  for (const i of twice) repairSSA(fn, i, [{ block: ph, value: map.get(i)! }]);
  const inLoopSucc = contains(l, cfg, s0) ? s0 : s1;
  const exit = inLoopSucc === s0 ? s1 : s0;
  if (!known) {
    splitEdge(ph, inLoopSucc, inLoopSucc.name === '' ? '' : inLoopSucc.name + '.lr.ph');
    // keep the exit dedicated: the loop's edges into it go through a block of their own
    const inside = exit.predecessors().filter((p) => p !== ph);
    if (inside.length > 0) splitBlockPredecessors(exit, inside, exit.name === '' ? '' : exit.name + '.loopexit');
  }
  mergeSuccessorIntoBlock(latch, h);
}

/** Rotates the loops of `fn`; returns how many were rotated. */
export function rotateLoops(fn: Function, opts: Partial<LoopRotateOptions> = {}, cached?: LoopInfo): { rotated: number; changed: boolean } {
  const o: LoopRotateOptions = { headerSize: 16, ...opts };
  const s = simplifyLoops(fn, cached);
  let changed = s.preheaders + s.backedges + s.exits > 0;
  let li = !changed && cached !== undefined ? cached : findLoops(new CFG(fn));
  const attempted = new Set<BasicBlock>();
  let rotated = 0;
  for (let guard = 0; guard < 100_000; guard++) {
    let target: Loop | null = null;
    for (let k = li.loops.length - 1; k >= 0; k--) {
      const l = li.loops[k];
      const h = li.cfg.blockOf(l.header)!;
      if (attempted.has(h)) continue;
      attempted.add(h);
      if (rotationBlocker(l, li.cfg, o) === null) {
        target = l;
        break;
      }
    }
    if (target === null) break;
    rotate(fn, target, li.cfg);
    rotated++;
    changed = true;
    // a rotated loop's latch now exits, so rotationBlocker refuses it from here on
    li = findLoops(new CFG(fn));
  }
  return { rotated, changed };
}

export function parseLoopRotateParams(params: string): Partial<LoopRotateOptions> {
  const o: Partial<LoopRotateOptions> = {};
  for (const raw of params.split(';')) {
    const p = raw.trim();
    if (p === '') continue;
    const m = /^header-size=(\d+)$/.exec(p);
    if (m === null) throw new Error(`loop-rotate: unknown parameter '${p}' (expected header-size=N)`);
    o.headerSize = Number(m[1]);
  }
  return o;
}

export const loopRotatePass: PassInfo = {
  name: 'loop-rotate',
  description: 'turn while loops into guarded do-while loops (the exit test moves to the latch)',
  create(params: string): FunctionPass {
    const opts = parseLoopRotateParams(params);
    return {
      kind: 'function',
      name: 'loop-rotate',
      run(fn: Function, ctx: PassContext): PassResult {
        const r = rotateLoops(fn, opts, ctx.analyses.get(LoopAnalysis));
        if (r.rotated) ctx.stat('loops rotated', r.rotated);
        return { changed: r.changed, preserved: r.changed ? 'none' : 'all' };
      },
    };
  },
};
