/**
 * instcombine ("lite"): peephole rewrites that may create instructions, after LLVM's
 * InstCombine (InstCombineAddSub.cpp, …MulDivRem.cpp, …Compares.cpp, …Casts.cpp,
 * …Select.cpp) and the algebraic simplification / strength reduction of the Dragon book
 * (§8.5.4) — run to a fixed point with a worklist.
 *
 * The engine is combiner.ts; the rules are in one file per family (see there). Each visit of
 * an instruction: delete it if trivially dead; else replace it by what
 * instsimplify finds; else try the rewrites below, which return a replacement value
 * (new instructions are inserted right before the old one and go on the worklist) or
 * change the instruction in place. Users of anything changed are revisited.
 *
 * Rules (x, y values; C constants; flags are kept only where the rewrite provably keeps
 * them, else dropped — dropping nsw/nuw is always sound):
 *  - canonical form: constants to the right of commutative ops and compares;
 *    `sub x, C` → `add x, -C`; `icmp sle x, C` → `icmp slt x, C+1` (and sge/ule/uge);
 *    `icmp ult x, 1` → `icmp eq x, 0`; `add x, x` → `shl x, 1`.
 *  - strength reduction: `mul x, 2^k` → `shl x, k`; `mul x, -1` → `sub 0, x`;
 *    `udiv x, 2^k` → `lshr x, k`; `urem x, 2^k` → `and x, 2^k-1`; `sdiv`/`srem` by 2^k
 *    become `lshr`/`and` only when x is known non-negative; `sdiv exact x, 2^k` →
 *    `ashr exact`. The general signed case needs a rounding fix-up (three more
 *    instructions: ashr, lshr, add) — more work for the interpreter and hidden from later
 *    analyses, so like LLVM we leave it to a backend unless `instcombine<sdiv-pow2>`.
 *    Why `shl x, 1` and not `x + x` for `x * 2`: one canonical form for every power of two
 *    (and `x + x` is turned into it too), so CSE sees `2*x`, `x+x` and `x<<1` as one value.
 *  - reassociation of constants: `(x + C1) + C2` → `x + (C1+C2)`, `(C1 - x) + C2`,
 *    `C1 - (x + C2)`, `C1 - (C2 - x)`, `(x * C1) * C2`, `(x op C1) op C2` for and/or/xor,
 *    shifts of shifts; `(x + C) - C` → x falls out of these plus instsimplify.
 *  - negation: `(0 - x) + y` → `y - x`; `x - (0 - y)` → `x + y`; `~x + 1` → `0 - x`;
 *    `x - (x + y)` → `0 - y`.
 *  - compares: `icmp (x + C1), C2` → `icmp x, C2-C1` for eq/ne always, for signed
 *    predicates only with nsw and for unsigned only with nuw (and no overflow of C2-C1);
 *    `icmp (x ^ C1), C2`, `icmp (C1 - x), C2`, `icmp (x - y), 0` for eq/ne; compares of
 *    zext/sext with constants or with another zext/sext narrowed to the source type;
 *    `xor (icmp p a b), true` → `icmp !p a b`; i1 `icmp eq b, false` → `xor b, true`.
 *  - selects: `select c, false, true` → `xor c, true`; `select c, 1, 0` → `zext c`,
 *    `select c, -1, 0` → `sext c`; `select (xor c, true), a, b` → `select c, b, a`;
 *    and the reverse direction where it pays: `(zext i1 c) + C` → `select c, C+1, C`
 *    (also sub, mul, and sext) — one instruction instead of two.
 *  - casts: `zext (zext x)`, `sext (sext x)`, `sext (zext x)`, `trunc (trunc x)`,
 *    `trunc (zext/sext x)` to a narrower or wider type, `zext (trunc x)` back to x's type
 *    → `and x, mask`, `trunc (and x, C)` → `trunc x` when C keeps the low bits,
 *    `bitcast (bitcast x)`.
 *  - GEPs: `gep T, (gep T, p, C1), C2` → `gep T, p, C1+C2`.
 *  - branches: `br (xor c, true), T, F` → `br c, F, T` (the only CFG-visible change:
 *    successors swap order, so the pass then reports preserved 'none').
 *  - memory, within a block and a window of 6 instructions (as LLVM's InstCombine): a load
 *    of what was just stored or loaded at a must-alias address (src/analysis/alias.ts)
 *    with no possibly-aliasing write between; `store (load p), p` with nothing written in
 *    between is deleted; a store overwritten by a later store to the same address with no
 *    read or side effect between is deleted.
 *  - constant memory (src/analysis/const-memory.ts): a load from a `constant` global with a
 *    definitive initializer, through GEPs with constant indices (instructions or constant
 *    expressions), is the scalar stored there (LLVM: ConstantFoldLoadFromConstPtr); an
 *    alloca written only by a memcpy of its whole size from such a global and otherwise
 *    only read (loads, GEPs, lifetime markers) is the global: its uses take the global and
 *    the copy goes (LLVM: isOnlyCopiedFromConstantMemory) — what clang -O0 emits for
 *    `int xs[] = {5, -5, 0};`, whose loads then fold once their indices are constant.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import { phiDominanceQuery } from '../../analysis/instsimplify.js';
import { CFGAnalysis, DominatorTreeAnalysis } from '../../pm/analyses.js';
import type { PassContext } from '../../pm/pass.js';
import { defineCountingPass, param, reportStats } from '../../pm/define-pass.js';
import { InstCombiner, type InstCombineOptions } from './combiner.js';

export type { InstCombineOptions } from './combiner.js';

/** Runs instcombine on a function; returns whether it changed and whether the CFG shape did. */
export function combineFunction(fn: Function, ctx: PassContext, opts: InstCombineOptions = { sdivPow2: false }): { changed: boolean; cfgChanged: boolean } {
  const cfg = ctx.analyses.get(CFGAnalysis);
  const dt = ctx.analyses.get(DominatorTreeAnalysis);
  const order: BasicBlock[] = [];
  for (const id of cfg.rpo) order.push(cfg.blocks[id]!);
  const reach = (bb: BasicBlock): boolean => bb.id >= 0 && bb.id < cfg.n && cfg.blocks[bb.id] === bb && cfg.isReachable(bb.id);
  const c = new InstCombiner(fn, reach, phiDominanceQuery(dt), opts);
  c.run(order);
  reportStats(ctx, { 'instructions combined': c.stats.combined, 'instructions simplified': c.stats.simplified, 'instructions deleted': c.stats.deleted, 'loads folded from constant memory': c.stats.constantLoads, 'allocas replaced by constant globals': c.stats.constantAllocas });
  return { changed: c.changed, cfgChanged: c.cfgChanged };
}

export const instcombinePass = defineCountingPass({
  name: 'instcombine',
  description: 'peephole rewrites: canonicalization, strength reduction, reassociation, compare and cast folding (worklist to a fixed point)',
  params: {
    sdivPow2: param.flag('sdiv-pow2', false, 'expand sdiv by a power of two with the rounding fix-up'),
  },
  count: (fn, ctx, opts) => combineFunction(fn, ctx, opts),
  changed: (r) => r.changed,
  preserves: (r) => (r.cfgChanged ? 'none' : 'cfg'),
});
