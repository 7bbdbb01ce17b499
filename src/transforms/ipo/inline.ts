/**
 * The inliner, after LLVM's (lib/Transforms/IPO/Inliner.cpp, InlineFunction.cpp, InlineCost.cpp)
 * in a simple form: the call graph's strongly connected components are visited bottom-up
 * (src/analysis/callgraph.ts), so a callee has already received its own inlining when its
 * callers consider it. A direct call to a defined function is inlined when
 *  - the callee is `alwaysinline`, or its size (instructions, less one per use of a
 *    parameter that receives a constant) is under the threshold (`inline<threshold=N>`,
 *    default 60), or it is internal/private with this as its only call site (it will be
 *    deleted; size cap 10x the threshold);
 *  - and neither callee nor call site is `noinline` (clang -O0 marks every function so; we
 *    respect it as LLVM does), neither function is `optnone`, the callee is not in the
 *    caller's component (so recursion is never unrolled into itself), does not call itself
 *    (LLVM's "recursive": inlining would only peel one level), is not varargs, has no
 *    dynamic allocas, no indirectbr, no block whose address is taken and no musttail, and the call's function type matches.
 * Inlining splits the call block after the call, clones the callee's blocks between the two
 * halves (values, blocks and phis remapped), turns each `ret` into a branch to the
 * continuation (a phi there merges the returned values) and moves the callee's static
 * allocas to the caller's entry block. Internal/private functions left without uses (none in
 * instructions, global initializers or aliases) are deleted afterwards.
 */
import { type DbgRecord, type MDNode, getAttachment, inlinedLocation, distinctLocation, remapRecord, withAttachment } from '../../ir/metadata.js';
import { BasicBlock } from '../../ir/basic-block.js';
import { ConstantAggregate, ConstantExpr, ConstantInt, PoisonValue } from '../../ir/constants.js';
import { functionAttributeText, isTriviallyDead } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import type { Module } from '../../ir/module.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { doubleType, floatType, i32, intType, ptrType, Type, voidType } from '../../ir/types.js';
import { abiAlign } from '../../ir/layout.js';
import { Value, ValueKind } from '../../ir/value.js';
import { CallGraph } from '../../analysis/callgraph.js';
import { defineCountingPass, param } from '../../pm/define-pass.js';

export interface InlineOptions {
  /** Most instructions (after constant-argument discounts) of an inlined callee. */
  threshold: number;
  /** Callers are not grown past this many instructions. */
  callerLimit: number;
}

export const DEFAULT_INLINE_OPTIONS: InlineOptions = { threshold: 60, callerLimit: 20_000 };

function hasWord(text: string, word: string): boolean {
  return text.length > 0 && new RegExp(`(^|[\\s(,{])${word}([\\s),}]|$)`).test(text);
}

/** The function attributes written at a call site (inline text plus its `#N` groups). */
function callSiteAttributeText(call: Instruction, m: Module): string {
  const ca = call.callAttrs;
  if (ca === null || ca.fn === '') return '';
  let text = ca.fn;
  for (const g of ca.fn.matchAll(/#(\d+)/g)) text += ' ' + (m.attributeGroups.get(Number(g[1])) ?? '');
  return text;
}

/** Instructions that cost something at run time (debug and marker intrinsics do not). */
export function functionSize(fn: Function): number {
  let n = 0;
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    for (let i = b.first; i !== null; i = i.next) {
      if (i.op === Opcode.Call) {
        const f = i.calledFunction();
        if (f !== null && (f.name.startsWith('llvm.dbg.') || f.name.startsWith('llvm.lifetime.'))) continue;
      }
      n++;
    }
  }
  return n;
}

/** Why `callee` can never be inlined (null when it can be). */
export function inlineBlocker(callee: Function): string | null {
  if (callee.isDeclaration()) return 'declaration';
  if (callee.fnType.vararg) return 'varargs';
  if (!byvalSupported(callee)) return 'byval of an unknown type';
  const attrs = functionAttributeText(callee);
  if (hasWord(attrs, 'noinline')) return 'noinline';
  if (hasWord(attrs, 'optnone')) return 'optnone';
  for (let b = callee.firstBlock; b !== null; b = b.next) {
    // LLVM's isInlineViable: a copy of a block is not the block a blockaddress names
    if (b.hasAddressTaken()) return 'blockaddress used';
    for (let i = b.first; i !== null; i = i.next) {
      if (i.op === Opcode.Alloca && (b !== callee.firstBlock || i.operand(0).kind !== ValueKind.ConstantInt)) return 'dynamic alloca';
      if (i.op === Opcode.IndirectBr) return 'indirectbr';
      if (i.op === Opcode.Call && (i.flags & Flag.MustTail) !== 0) return 'musttail';
      if (i.op === Opcode.Call) {
        const f = i.calledFunction();
        if (f !== null && (f.name.startsWith('llvm.va_start') || f.name.startsWith('llvm.stacksave') || f.name === 'llvm.localescape')) return 'uses the frame';
      }
    }
  }
  return null;
}

/** Whether `fn` contains a direct call to itself (LLVM's IsRecursiveCall). */
export function callsItself(fn: Function): boolean {
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    for (let i = b.first; i !== null; i = i.next) if (i.op === Opcode.Call && i.calledFunction() === fn) return true;
  }
  return false;
}

/**
 * Inlines the direct call `call` (its callee must be defined and compatible). Returns the
 * call instructions the cloned body contains.
 */
export function inlineCall(call: Instruction): Instruction[] {
  const callee = call.calledFunction()!;
  const bb = call.parent!;
  const caller = bb.parent!;
  const cont = bb.splitAt(call.next!, bb.name === '' ? '' : bb.name + '.cont');
  const map = new Map<Value, Value>();
  const entry = caller.firstBlock!;
  for (let k = 0; k < callee.args.length; k++) {
    const bt = byvalType(callee, k);
    if (bt === null) {
      map.set(callee.args[k], call.arg(k));
      continue;
    }
    // byval: the callee owns a copy of the pointee
    const copy = new Instruction(Opcode.Alloca, ptrType(), [ConstantInt.get(i32, 1)]);
    copy.auxType = bt;
    const al = /\balign (\d+)/.exec(callee.args[k].attrs);
    copy.align = al !== null ? Number(al[1]) : abiAlign(bt);
    copy.name = callee.args[k].name === '' ? 'byval.copy' : callee.args[k].name + '.copy';
    entry.insertBefore(copy, entry.first!);
    const ld = new Instruction(Opcode.Load, bt, [call.arg(k)]);
    ld.align = copy.align;
    bb.insertBefore(ld, call);
    const st = new Instruction(Opcode.Store, voidType, [ld, copy]);
    st.align = copy.align;
    bb.insertBefore(st, call);
    map.set(callee.args[k], copy);
  }
  const clones: Instruction[] = [];
  const newBlocks: BasicBlock[] = [];
  const callLoc = getAttachment(call.md, 'dbg');
  const callSite = callLoc === null ? null : distinctLocation(callLoc);
  const inlinedLocs = new Map<MDNode, MDNode>();
  const recordClones: DbgRecord[] = [];
  for (let b = callee.firstBlock; b !== null; b = b.next) {
    const nb = new BasicBlock(b.name === '' ? '' : b.name + '.i');
    caller.insertBlockBefore(nb, cont);
    map.set(b, nb);
    newBlocks.push(nb);
    for (let i = b.first; i !== null; i = i.next) {
      const c = i.clone();
      if (c.name !== '') c.name += '.i';
      // LLVM's fixupLineNumbers: the callee's locations get the call site as inlinedAt; its
      // debug records come along (their values are remapped below)
      const dl = getAttachment(c.md, 'dbg');
      if (dl !== null) c.md = withAttachment(c.md, 'dbg', callSite !== null ? inlinedLocation(dl, callSite, inlinedLocs) : null);
      if (i.dbgRecords !== null && callSite !== null) {
        c.dbgRecords = i.dbgRecords.map((r) => {
          const nr = r.clone();
          nr.loc = inlinedLocation(r.loc, callSite, inlinedLocs);
          recordClones.push(nr);
          return nr;
        });
      }
      map.set(i, c);
      nb.append(c);
      clones.push(c);
    }
  }
  const rets: Instruction[] = [];
  const calls: Instruction[] = [];
  for (const r of recordClones) remapRecord(r, map);
  for (const c of clones) {
    for (let k = 0; k < c.numOperands; k++) {
      const m = map.get(c.operand(k));
      if (m !== undefined) c.setOperand(k, m);
    }
    if (c.op === Opcode.Phi) {
      const bs = c.blocks!;
      for (let k = 0; k < bs.length; k++) bs[k] = map.get(bs[k]) as BasicBlock;
    } else if (c.op === Opcode.Ret) rets.push(c);
    else if (c.op === Opcode.Call) calls.push(c);
  }
  // bb: ..., call, br cont  →  ..., br inlined.entry
  const br = bb.terminator()!;
  br.setOperand(0, newBlocks[0]);
  let result: Value | null = null;
  if (call.type !== voidType) {
    if (rets.length === 1) result = rets[0].operand(0);
    else if (rets.length > 1) {
      const phi = new Instruction(Opcode.Phi, call.type, []);
      phi.blocks = [];
      phi.name = call.name;
      for (const r of rets) phi.addIncoming(r.operand(0), r.parent!);
      cont.prepend(phi);
      result = phi;
    } else result = PoisonValue.get(call.type);
  }
  for (const r of rets) {
    const rb = r.parent!;
    r.eraseFromParent();
    rb.append(new Instruction(Opcode.Br, voidType, [cont]));
  }
  if (result !== null) call.replaceAllUsesWith(result);
  call.eraseFromParent();
  // Static allocas of the callee's entry go to the caller's entry, so a loop around the
  // call does not grow the stack.
  const calleeEntry = newBlocks[0];
  const insertAt = entry.first!;
  for (let i = calleeEntry.first; i !== null; ) {
    const next = i.next;
    if (i.op === Opcode.Alloca && i.operand(0).kind === ValueKind.ConstantInt) {
      i.removeFromParent();
      entry.insertBefore(i, insertAt);
    }
    i = next;
  }
  return calls;
}

/** The pointee type of a `byval(%T)` parameter (named structs and simple types), else null. */
function byvalType(fn: Function, k: number): Type | null {
  const m = /\bbyval\(([^)]*)\)/.exec(fn.args[k].attrs);
  if (m === null) return null;
  const t = m[1].trim();
  const named = /^%"?([^"]+)"?$/.exec(t);
  if (named !== null) return fn.parent?.getStruct(named[1]) ?? null;
  const int = /^i(\d+)$/.exec(t);
  if (int !== null) return intType(Number(int[1]));
  if (t === 'double') return doubleType;
  if (t === 'float') return floatType;
  if (t === 'ptr') return ptrType();
  return null;
}

/** Whether every byval parameter of `fn` has a type we can copy. */
function byvalSupported(fn: Function): boolean {
  for (let k = 0; k < fn.args.length; k++) if (/\bbyval\(/.test(fn.args[k].attrs) && byvalType(fn, k) === null) return false;
  for (const a of fn.args) if (/\b(inalloca|preallocated)\b/.test(a.attrs)) return false;
  return true;
}

/** Functions referenced from global initializers or aliases (their uses are not tracked). */
function functionsReferencedByConstants(m: Module): Set<Function> {
  const out = new Set<Function>();
  const stack: Value[] = [];
  for (const g of m.globals) if (g.initializer !== null) stack.push(g.initializer);
  for (const a of m.aliases) stack.push(a.aliasee);
  const seen = new Set<Value>();
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    if (v.kind === ValueKind.Function) out.add(v as Function);
    else if (v instanceof ConstantAggregate) for (const e of v.elements) stack.push(e);
    else if (v instanceof ConstantExpr) for (const e of v.operands) stack.push(e);
    else if (v.kind === ValueKind.BlockAddress) stack.push((v as unknown as { fn: Value }).fn);
  }
  return out;
}

function isLocalLinkage(fn: Function): boolean {
  return fn.attrs.linkage === 'internal' || fn.attrs.linkage === 'private';
}

/**
 * A blockaddress of f's block may sit in another function's instruction (it is not a use
 * of f): such a function is kept, as LLVM's BlockAddress keeps its function alive.
 */
function hasAddressTakenBlock(f: Function): boolean {
  for (let b = f.firstBlock; b !== null; b = b.next) if (b.hasAddressTaken()) return true;
  return false;
}

/** Deletes internal/private functions with no remaining references; returns how many. */
export function deleteDeadInternalFunctions(m: Module): number {
  const pinned = functionsReferencedByConstants(m);
  let removed = 0;
  const work = m.functions.filter((f) => isLocalLinkage(f));
  while (work.length > 0) {
    const f = work.pop()!;
    if (f.parent !== m || f.firstUse !== null || pinned.has(f) || hasAddressTakenBlock(f)) continue;
    const callees = new Set<Function>();
    for (let b = f.firstBlock; b !== null; b = b.next) {
      for (let i = b.first; i !== null; i = i.next) {
        for (let k = 0; k < i.numOperands; k++) {
          const v = i.operand(k);
          if (v.kind === ValueKind.Function && v !== f) callees.add(v as Function);
        }
      }
    }
    f.deleteBody();
    m.removeFunction(f);
    removed++;
    for (const c of callees) if (isLocalLinkage(c) && c.firstUse === null) work.push(c);
  }
  return removed;
}

export interface InlineStats {
  inlined: number;
  deleted: number;
  /** Unused calls of pure functions deleted instead of inlined. */
  deadCalls?: number;
}

/**
 * LLVM's InlineHistory, kept on the call instructions across runs of the pass (the -O2
 * fixpoint runs the inliner up to ten times): the functions whose inlining exposed a call.
 * Without it, mutually recursive functions (F calls M, M calls F) were inlined into their
 * caller again on every run, doubling it each time up to the caller limit.
 */
const inlineHistory = new WeakMap<Instruction, Set<Function>>();

/** Runs the inliner over `m`; `changedFn` is told about every caller that changed. */
export function inlineModule(m: Module, opts: Partial<InlineOptions> = {}, changedFn?: (f: Function) => void): InlineStats {
  const o = { ...DEFAULT_INLINE_OPTIONS, ...opts };
  const cg = new CallGraph(m);
  const stats: InlineStats = { inlined: 0, deleted: 0 };
  const sizes = new Map<Function, number>();
  const sizeOf = (f: Function): number => {
    let s = sizes.get(f);
    if (s === undefined) sizes.set(f, (s = functionSize(f)));
    return s;
  };
  const blockers = new Map<Function, string | null>();
  const blockerOf = (f: Function): string | null => {
    if (!blockers.has(f)) blockers.set(f, inlineBlocker(f));
    return blockers.get(f)!;
  };
  const recursive = new Map<Function, boolean>();
  const recursiveOf = (f: Function): boolean => {
    let r = recursive.get(f);
    if (r === undefined) recursive.set(f, (r = callsItself(f)));
    return r;
  };
  for (const scc of cg.sccs) {
    for (const node of scc) {
      const caller = cg.functions[node];
      if (caller.isDeclaration() || hasWord(functionAttributeText(caller), 'optnone')) continue;
      let changed = false;
      for (const call of cg.callSites[node]) {
        if (call.parent === null) continue;
        const callee = call.calledFunction();
        if (callee === null || callee === caller || callee.parent !== m) continue;
        // an unused call of a function known pure (function-attrs) is deleted, not inlined (as LLVM's inliner does)
        if (isTriviallyDead(call)) {
          call.eraseFromParent();
          stats.deadCalls = (stats.deadCalls ?? 0) + 1;
          changed = true;
          continue;
        }
        if (cg.sccOf[cg.nodeOf(callee)] === cg.sccOf[node]) continue;
        // LLVM's inline history: a call that came out of inlining `callee` is not inlined again
        const history = inlineHistory.get(call);
        if (history !== undefined && history.has(callee)) continue;
        if (blockerOf(callee) !== null) continue;
        // LLVM's InlineCost ("recursive", cost=never): a function that calls itself is not
        // inlined into another one; that would only peel one level of its recursion, and the
        // copies in the caller are no longer calls that GVN/EarlyCSE can merge when it is pure
        if (recursiveOf(callee)) continue;
        if (call.auxType !== callee.fnType || call.numArgs !== callee.args.length) continue;
        const siteAttrs = callSiteAttributeText(call, m);
        if (hasWord(siteAttrs, 'noinline')) continue;
        const calleeAttrs = functionAttributeText(callee);
        const always = hasWord(calleeAttrs, 'alwaysinline') || hasWord(siteAttrs, 'alwaysinline');
        const size = sizeOf(callee);
        if (!always) {
          let cost = size;
          for (let k = 0; k < callee.args.length; k++) {
            const a = call.arg(k);
            if (a.kind >= ValueKind.ConstantInt || a.kind === ValueKind.Function || a.kind === ValueKind.GlobalVariable) cost -= callee.args[k].numUses;
          }
          const lastCall = isLocalLinkage(callee) && callee.numUses === 1;
          const limit = lastCall ? o.threshold * 10 : o.threshold;
          if (cost > limit) continue;
          if (sizeOf(caller) + size > o.callerLimit) continue;
        }
        const exposed = inlineCall(call);
        if (exposed.length > 0) {
          const h = new Set(history ?? []).add(callee);
          for (const c of exposed) inlineHistory.set(c, h);
        }
        sizes.set(caller, sizeOf(caller) + size);
        stats.inlined++;
        changed = true;
      }
      if (changed) changedFn?.(caller);
    }
  }
  stats.deleted = deleteDeadInternalFunctions(m);
  return stats;
}

export const inlinePass = defineCountingPass({
  name: 'inline',
  description: 'inline small direct calls bottom-up over the call graph; delete unused internal functions',
  module: true,
  params: {
    threshold: param.int('threshold', DEFAULT_INLINE_OPTIONS.threshold, 'most instructions of an inlined callee, after constant-argument discounts'),
    callerLimit: param.int('caller-limit', DEFAULT_INLINE_OPTIONS.callerLimit, 'callers are not grown past this many instructions'),
  },
  count: (m, ctx, opts) => inlineModule(m, opts, (f) => ctx.invalidate(f, 'none')),
  stats: { inlined: 'call sites inlined', deleted: 'dead functions deleted', deadCalls: 'unused calls of pure functions deleted' },
});

