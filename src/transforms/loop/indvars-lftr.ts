/**
 * Linear-function test replacement with symbolic trip counts (LLVM's IndVarSimplify
 * linearFunctionTestReplace / FindLoopCounter / genLoopLimit, on ScalarEvolution): when a
 * loop's exit test compares an IV that lives only for that test (its phi and increment feed
 * nothing else), the test becomes `icmp ne/eq` of another IV of the loop against that IV's
 * value on the exiting iteration, `start + step * count` expanded once in the preheader from
 * the backedge-taken count (any expression: `n - 1`, `(n smax 1) /u 3`, …). The old IV then
 * dies: one phi and one add fewer per iteration. (indvars.ts keeps its own LFTR for constant
 * counts without SCEV; this one runs after it.)
 *
 * Invariants: only loops whose single latch is the only exiting block, with an exact count;
 * the new test exits on exactly the same iteration: the other IV takes its limit value on the
 * exiting iteration and never earlier, because it does not wrap (a no-wrap flag, or its step
 * times the constant maximum count stays below 2^bits); the limit only uses values that
 * dominate the preheader; no new instruction carries nsw/nuw.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, Pred } from '../../ir/opcodes.js';
import { i1 } from '../../ir/types.js';
import type { ScalarEvolution } from '../../analysis/scalar-evolution.js';
import { scevRanges } from '../../analysis/scev-range.js';
import { NW, SK, type SCEV } from '../../analysis/scev-expr.js';
import type { Loop } from '../../analysis/loops.js';
import { expansionCost, SCEVExpander } from '../utils/scev-expander.js';
import { freshScalarEvolution } from '../../analysis/scalar-evolution.js';
import { LoopAnalysis, ScalarEvolutionAnalysis } from '../../pm/analyses.js';
import type { PassContext } from '../../pm/pass.js';
import { deleteIfDead } from '../utils/local.js';
import { loopsInnermostFirst, singleExit } from './indvars-scev.js';

/** Instructions the limit may take to compute (once, in the preheader). */
const LIMIT_BUDGET = 8;

export function replaceExitTestsSCEV(fn: Function, se: ScalarEvolution): number {
  let done = 0;
  for (const loop of loopsInnermostFirst(se.li.topLevel)) if (replaceOne(fn, se, loop)) done++;
  return done;
}

function replaceOne(fn: Function, se: ScalarEvolution, loop: Loop): boolean {
  const cfg = se.li.cfg;
  const shape = singleExit(loop);
  const phId = loop.preheader();
  if (shape === null || phId < 0) return false;
  const ph = cfg.blockOf(phId)!;
  const header = cfg.blockOf(loop.header)!;
  const { latch } = shape;
  if (latch.parent !== fn || header.parent !== fn) return false;
  const br = latch.terminator();
  if (br === null || !br.isConditionalBranch()) return false;
  const cond = br.operand(0);
  if (!(cond instanceof Instruction) || cond.op !== Opcode.ICmp || cond.numUses !== 1 || cond.parent !== latch) return false;
  const btc = se.backedgeTakenCount(loop);
  if (btc === null) return false;
  // the tested IV: a header phi, or its increment, that feeds only itself and this test
  const tested = testedIV(cond, header, latch);
  if (tested === null) return false;
  const stayOnTrue = loop.contains(br.successor(0).id);
  const ctx = se.ctx;
  for (let k: Instruction | null = header.first; k !== null && k.op === Opcode.Phi; k = k.next) {
    if (k === tested.phi || !k.type.isInt() || k.numIncoming !== 2) continue;
    const rec = se.get(k);
    if (rec.kind !== SK.AddRec || rec.loop !== loop || !rec.isAffine() || rec.step.kind !== SK.Const || rec.step.isZero()) continue;
    const kn = k.incomingValueFor(latch);
    if (!(kn instanceof Instruction) || kn.parent === null || !loop.contains(kn.parent.id)) continue;
    const kv = tested.onNext ? kn : k;
    const kvRec = se.get(kv);
    if (kvRec.kind !== SK.AddRec || kvRec.loop !== loop || !kvRec.isAffine()) continue;
    if (tested.onNext && !(kn.parent === latch ? before(kn, cond) : se.dt.dominatesBlock(kn.parent, latch))) continue;
    if (!distinct(se, loop, rec)) continue;
    const it = btc.bits === rec.bits ? btc : btc.bits > rec.bits ? ctx.trunc(btc, rec.bits) : ctx.zext(btc, rec.bits);
    const limit = ctx.evaluateAtIteration(kvRec, it);
    if (limit === null || !ctx.isInvariantIn(limit, loop) || expansionCost(limit) > LIMIT_BUDGET) continue;
    const at = ph.terminator();
    if (at === null || !availableAt(limit, ph, se)) continue;
    const value = new SCEVExpander(at, se).expand(limit);
    if (value === null) continue;
    const nc = new Instruction(Opcode.ICmp, i1, [kv, value]);
    nc.pred = stayOnTrue ? Pred.NE : Pred.EQ;
    nc.name = 'exitcond';
    latch.insertBefore(nc, cond);
    br.setOperand(0, nc);
    deleteIfDead(cond);
    // the old IV's phi and increment now only feed each other
    const start = tested.phi.incomingValue(tested.phi.incomingBlock(0) === latch ? 1 : 0);
    tested.phi.replaceAllUsesWith(start);
    tested.phi.eraseFromParent();
    deleteIfDead(tested.next);
    return true;
  }
  return false;
}

/** The header phi whose value (or increment) `cond` tests, when nothing else keeps it alive. */
function testedIV(cond: Instruction, header: BasicBlock, latch: BasicBlock): { phi: Instruction; next: Instruction; onNext: boolean } | null {
  for (let k = 0; k < 2; k++) {
    const x = cond.operand(k);
    if (!(x instanceof Instruction)) continue;
    let phi: Instruction | null = null;
    let onNext = false;
    if (x.op === Opcode.Phi && x.parent === header) phi = x;
    else {
      for (let j = 0; j < x.numOperands && phi === null; j++) {
        const p = x.operand(j);
        if (p instanceof Instruction && p.op === Opcode.Phi && p.parent === header && p.incomingValueFor(latch) === x) phi = p;
      }
      onNext = true;
    }
    if (phi === null || phi.numIncoming !== 2) continue;
    const next = phi.incomingValueFor(latch);
    if (!(next instanceof Instruction) || next === phi || (next.op !== Opcode.Add && next.op !== Opcode.Sub)) continue;
    const users = (v: Instruction, ok: (u: Instruction) => boolean) => {
      for (let u = v.firstUse; u !== null; u = u.next) if (!ok(u.user as Instruction)) return false;
      return true;
    };
    if (users(phi, (u) => u === next || u === cond) && users(next, (u) => u === phi || u === cond)) return { phi, next, onNext };
  }
  return null;
}

/** Whether the recurrence's values on the loop's iterations are pairwise distinct. */
function distinct(se: ScalarEvolution, loop: Loop, rec: SCEV): boolean {
  if (rec.flags & (NW.NUW | NW.NSW | NW.NW)) return true;
  const max = scevRanges(se).constantMaxBTC(loop);
  const c = rec.step.c < 0n ? -rec.step.c : rec.step.c;
  return max !== null && (max + 1n) * c < 1n << BigInt(rec.bits);
}

function before(a: Instruction, b: Instruction): boolean {
  for (let i: Instruction | null = a.next; i !== null; i = i.next) if (i === b) return true;
  return false;
}

/** Whether every value `s` uses is available at the end of `block` (defined in it or in a block dominating it). */
function availableAt(s: SCEV, block: BasicBlock, se: ScalarEvolution): boolean {
  const stack = [s];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === SK.AddRec) return false;
    if (x.kind === SK.Unknown && x.value instanceof Instruction) {
      const b = x.value.parent;
      if (b === null || (b !== block && !se.dt.dominatesBlock(b, block))) return false;
    }
    for (const o of x.ops) stack.push(o);
  }
  return true;
}

/**
 * The hook indvars calls last: test replacement on scalar evolution, from the cached
 * analysis when nothing changed before, else from a fresh one.
 */
export function indvarsLFTRSCEV(fn: Function, ctx: PassContext, changedBefore: boolean): number {
  if (ctx.analyses.get(LoopAnalysis).loops.length === 0) return 0;
  const n = replaceExitTestsSCEV(fn, changedBefore ? freshScalarEvolution(fn) : ctx.analyses.get(ScalarEvolutionAnalysis));
  if (n > 0) ctx.stat('exit tests replaced by scalar evolution', n);
  return n;
}
