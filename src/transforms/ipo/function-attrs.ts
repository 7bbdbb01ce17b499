/**
 * function-attrs: deduces function and parameter attributes bottom-up over the call graph,
 * after LLVM's PostOrderFunctionAttrsPass (llvm/lib/Transforms/IPO/FunctionAttrs.cpp:
 * inferConvergent/addMemoryAttrs/addArgumentAttrs/addNoRecurseAttrs/addWillReturn) and its
 * top-down half (ReversePostOrderFunctionAttrsPass, addNoRecurseAttrsTopDown).
 *
 * The strongly connected components of the call graph are visited callees first, so a
 * component sees the attributes already deduced for what it calls; calls inside the
 * component are assumed to add nothing (the union over the component is the answer).
 *  - memory: the union of what each instruction may touch, by the object its pointer is
 *    based on: the function's own allocas are invisible to callers (skipped), loads of
 *    constant globals touch nothing, memory based on a pointer argument is `argmem`, the
 *    rest is "other" (volatile and atomic accesses also read and write "other"). Calls add their callee's effects (argmem mapped through the actual
 *    arguments; the callee's "other" also to our argmem, as our arguments may have been
 *    captured where the callee can reach them). Fences, va_arg, atomic read-modify-writes
 *    and inline asm make it unknown. Printed as `memory(none|read|argmem: ...)`.
 *  - nounwind: no call may unwind (every callee nounwind) and no `resume`.
 *  - willreturn: a single function, not self-recursive, no cycle in its CFG, every call
 *    willreturn (LLVM does not prove loops finite here either; C is not mustprogress).
 *  - norecurse: not in a cycle of the call graph and every callee norecurse (a declaration
 *    only when it is `nocallback`); top-down, an internal function all of whose uses are
 *    direct calls from norecurse functions is norecurse too.
 *  - parameters: a pointer argument none of whose (transitive, through GEP/casts/phi/select)
 *    uses stores it, returns it, converts it to an integer or passes it to a call that may
 *    capture it is `nocapture`; if moreover nothing is written (read) through it, it is
 *    `readonly` (`writeonly`), or `readnone` when neither.
 * Only functions whose definition is the one that runs (not weak/linkonce) are changed, and
 * `optnone` functions are left alone.
 */
import { CallGraph } from '../../analysis/callgraph.js';
import { decomposePointer } from '../../analysis/alias.js';
import { isMarkerIntrinsicName, isPureIntrinsicName, functionAttributeText } from '../../ir/effects.js';
import type { Function, GlobalVariable } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { MOD, MODREF, REF, UNKNOWN_MEMORY, parseMemoryEffects, type MemoryEffects } from '../../ir/memory-attr.js';
import type { Module } from '../../ir/module.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { Argument, Value, ValueKind } from '../../ir/value.js';
import { addFunctionAttributes, addParamAttributes, hasExactDefinition, hasFnAttr, isLocalLinkage, scanGlobalRefs } from './ipo-utils.js';
import { defineCountingPass } from '../../pm/define-pass.js';

/** What a call's callee may do to memory (its attributes, or what we know of intrinsics). */
export function calleeMemory(call: Instruction): MemoryEffects {
  const fn = call.calledFunction();
  if (fn !== null) {
    const n = fn.name;
    if (isPureIntrinsicName(n) || isMarkerIntrinsicName(n)) return { arg: 0, other: 0 };
    if (/^llvm\.mem(cpy|move|set)(\.inline)?\./.test(n)) return { arg: MODREF, other: 0 };
  }
  let text = fn !== null ? functionAttributeText(fn) : '';
  const ca = call.callAttrs;
  if (ca !== null && ca.fn !== '') {
    // a call site's own memory attribute refines the callee's
    let site = ca.fn;
    const m = call.parent?.parent?.parent;
    if (m) for (const g of ca.fn.matchAll(/#(\d+)/g)) site += ' ' + (m.attributeGroups.get(Number(g[1])) ?? '');
    const s = parseMemoryEffects(site);
    if (s !== null) return s;
  }
  if (fn === null) text = '';
  return parseMemoryEffects(text) ?? UNKNOWN_MEMORY;
}

function calleeHas(call: Instruction, word: string): boolean {
  const fn = call.calledFunction();
  if (fn !== null) {
    if (isPureIntrinsicName(fn.name) || isMarkerIntrinsicName(fn.name)) return true;
    if (hasFnAttr(fn, word)) return true;
  }
  const ca = call.callAttrs;
  if (ca !== null && ca.fn !== '') {
    let site = ca.fn;
    const m = call.parent?.parent?.parent;
    if (m) for (const g of ca.fn.matchAll(/#(\d+)/g)) site += ' ' + (m.attributeGroups.get(Number(g[1])) ?? '');
    if (new RegExp(`(^|[\\s{])${word}([\\s}]|$)`).test(site)) return true;
  }
  return false;
}

/**
 * The objects a pointer may be based on, through GEPs and casts (decomposePointer) and
 * phis/selects; null when there are too many to follow.
 */
function underlyingObjects(p: Value): Value[] | null {
  const out: Value[] = [];
  const work: Value[] = [p];
  const seen = new Set<Value>();
  while (work.length > 0) {
    const v = decomposePointer(work.pop()!).base;
    if (seen.has(v)) continue;
    seen.add(v);
    if (seen.size > 32) return null;
    if (v.kind === ValueKind.Instruction) {
      const i = v as Instruction;
      if (i.op === Opcode.Phi) {
        for (const u of i.ops) work.push(u.value);
        continue;
      }
      if (i.op === Opcode.Select) {
        work.push(i.operand(1), i.operand(2));
        continue;
      }
    }
    out.push(v);
  }
  return out;
}

/**
 * Adds to `me` an access of kind `mr` through pointer `p` inside `fn`: allocas of `fn` and
 * reads of constant globals add nothing; argument-based memory is argmem; the rest is other.
 */
function addAccess(me: MemoryEffects, fn: Function, p: Value, mr: number): void {
  const objs = underlyingObjects(p);
  if (objs === null) {
    me.arg |= mr;
    me.other |= mr;
    return;
  }
  for (const o of objs) {
    if (o.kind === ValueKind.Instruction && (o as Instruction).op === Opcode.Alloca && (o as Instruction).parent?.parent === fn) continue;
    if (o.kind === ValueKind.GlobalVariable && (o as GlobalVariable).isConstant && (mr & MOD) === 0) continue;
    if (o.kind === ValueKind.Argument && (o as Argument).parent === fn) me.arg |= mr;
    else if (o.kind === ValueKind.ConstantNull || o.kind === ValueKind.Undef || o.kind === ValueKind.Poison) continue;
    else me.other |= mr;
  }
}

/** The memory effects of a component's bodies, or UNKNOWN_MEMORY. */
function componentMemory(scc: Set<Function>): MemoryEffects {
  const me: MemoryEffects = { arg: 0, other: 0 };
  for (const fn of scc) {
    for (let b = fn.firstBlock; b !== null; b = b.next) {
      for (let i = b.first; i !== null; i = i.next) {
        switch (i.op) {
          case Opcode.Load:
            // a volatile or atomic access also reads and writes memory nobody else sees (LLVM: inaccessible memory)
            if ((i.flags & (Flag.Volatile | Flag.Atomic)) !== 0) me.other = MODREF;
            addAccess(me, fn, i.operand(0), REF);
            break;
          case Opcode.Store:
            if ((i.flags & (Flag.Volatile | Flag.Atomic)) !== 0) me.other = MODREF;
            addAccess(me, fn, i.operand(1), MOD);
            break;
          case Opcode.AtomicCmpXchg:
          case Opcode.AtomicRMW:
          case Opcode.Fence:
          case Opcode.VAArg:
            return UNKNOWN_MEMORY;
          case Opcode.Call: {
            const callee = i.calledFunction();
            if (callee !== null && scc.has(callee)) break;
            if (callee === null && i.operand(0).kind === ValueKind.InlineAsm) return UNKNOWN_MEMORY;
            const ce = calleeMemory(i);
            // the callee's "other" memory may include memory of our pointer arguments
            // captured earlier (LLVM does the same): it counts as argmem for us too
            if (ce.other !== 0) {
              me.other |= ce.other;
              me.arg |= ce.other;
            }
            if (ce.arg !== 0) {
              // the callee touches memory through its pointer arguments: ours are these
              for (let k = 0; k < i.numArgs; k++) {
                const a = i.arg(k);
                if (a.type.isPtr()) addAccess(me, fn, a, ce.arg);
              }
            }
            if (me.arg === MODREF && me.other === MODREF) return UNKNOWN_MEMORY;
            break;
          }
          default:
            break;
        }
      }
    }
  }
  return me;
}

/** Whether the CFG of `fn` has a cycle (an iterative DFS finding a back edge). */
function hasCycle(fn: Function): boolean {
  const state = new Uint8Array(fn.blockIdBound); // 0 new, 1 on the stack, 2 done
  const stack: [import('../../ir/basic-block.js').BasicBlock, number][] = [[fn.entry, 0]];
  state[fn.entry.id] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const succs = top[0].successors();
    if (top[1] < succs.length) {
      const s = succs[top[1]++];
      if (state[s.id] === 1) return true;
      if (state[s.id] === 0) {
        state[s.id] = 1;
        stack.push([s, 0]);
      }
    } else {
      state[top[0].id] = 2;
      stack.pop();
    }
  }
  return false;
}

interface ArgFacts {
  captured: boolean;
  read: boolean;
  written: boolean;
}

/** How `fn` uses pointer argument `a` (LLVM's determinePointerAccessAttrs and capture tracking, simply). */
function argumentFacts(a: Argument): ArgFacts {
  const f: ArgFacts = { captured: false, read: false, written: false };
  const work: Value[] = [a];
  const seen = new Set<Value>(work);
  while (work.length > 0 && !f.captured) {
    const v = work.pop()!;
    for (let u = v.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      if (user.kind !== ValueKind.Instruction) {
        f.captured = true;
        break;
      }
      switch (user.op) {
        case Opcode.Load:
          f.read = true;
          if ((user.flags & (Flag.Volatile | Flag.Atomic)) !== 0) f.written = true;
          break;
        case Opcode.Store:
          if (u.index !== 1) f.captured = true;
          f.written = true;
          break;
        case Opcode.GetElementPtr:
        case Opcode.BitCast:
        case Opcode.AddrSpaceCast:
        case Opcode.Phi:
        case Opcode.Select:
          if (user.op === Opcode.Select && u.index === 0) break;
          if (!seen.has(user)) {
            seen.add(user);
            work.push(user);
          }
          break;
        case Opcode.ICmp: {
          // comparing with null reveals nothing of the address
          const other = user.operand(1 - u.index);
          if (other.kind !== ValueKind.ConstantNull) f.captured = true;
          break;
        }
        case Opcode.Call: {
          if (u.index === 0) {
            f.captured = true;
            break;
          }
          const callee = user.calledFunction();
          const k = u.index - 1;
          if (callee === null) {
            f.captured = f.read = f.written = true;
            break;
          }
          const name = callee.name;
          if (isMarkerIntrinsicName(name)) break;
          if (/^llvm\.mem(cpy|move)(\.inline)?\./.test(name)) {
            if (k === 0) f.written = true;
            else if (k === 1) f.read = true;
            break;
          }
          if (/^llvm\.memset(\.inline)?\./.test(name)) {
            if (k === 0) f.written = true;
            break;
          }
          if (isPureIntrinsicName(name)) break;
          const pa = k < callee.args.length ? callee.args[k].attrs : (user.callAttrs?.args[k] ?? '');
          const siteAttrs = user.callAttrs?.args[k] ?? '';
          const words = `${pa} ${siteAttrs}`;
          if (!/\bnocapture\b/.test(words)) f.captured = true;
          const mem = calleeMemory(user);
          if (/\breadnone\b/.test(words) || mem.arg === 0) {
            /* nothing through it */
          } else if (/\breadonly\b/.test(words) || (mem.arg & MOD) === 0) f.read = true;
          else if (/\bwriteonly\b/.test(words) || (mem.arg & REF) === 0) f.written = true;
          else f.read = f.written = true;
          break;
        }
        default:
          f.captured = true;
      }
      if (f.captured) break;
    }
  }
  return f;
}

export interface FunctionAttrsStats {
  memory: number;
  willreturn: number;
  nounwind: number;
  norecurse: number;
  params: number;
}

/** Deduces attributes for every function of `m`; returns what was added. */
export function inferFunctionAttrs(m: Module, changedFn?: (f: Function) => void): FunctionAttrsStats {
  const st: FunctionAttrsStats = { memory: 0, willreturn: 0, nounwind: 0, norecurse: 0, params: 0 };
  const cg = new CallGraph(m);
  const touched = new Set<Function>();
  for (const comp of cg.sccFunctions()) {
    const scc = new Set(comp);
    let analyzable = true;
    for (const f of comp) if (!hasExactDefinition(f) || hasFnAttr(f, 'optnone')) analyzable = false;
    if (!analyzable) continue;
    const recursive = comp.length > 1 || cg.isRecursive(comp[0]);
    let indirect = false;
    for (const f of comp) if (cg.indirectCalls[cg.nodeOf(f)] > 0) indirect = true;

    // memory effects of the whole component
    const me = componentMemory(scc);
    const memKnown = !(me.arg === MODREF && me.other === MODREF);
    // nounwind: no call may unwind
    let nounwind = true;
    let willreturn = !recursive;
    let norecurse = !recursive;
    for (const f of comp) {
      if (willreturn && hasCycle(f)) willreturn = false;
      for (let b = f.firstBlock; b !== null; b = b.next) {
        for (let i = b.first; i !== null; i = i.next) {
          if (i.op !== Opcode.Call) continue;
          const callee = i.calledFunction();
          if (callee !== null && scc.has(callee)) continue;
          if (!calleeHas(i, 'nounwind')) nounwind = false;
          if (!calleeHas(i, 'willreturn')) willreturn = false;
          if (callee === null || !(calleeHas(i, 'norecurse') || (callee.isDeclaration() && calleeHas(i, 'nocallback')))) norecurse = false;
        }
      }
    }
    if (indirect) norecurse = false;
    for (const f of comp) {
      const add: string[] = [];
      if (nounwind && !hasFnAttr(f, 'nounwind')) {
        add.push('nounwind');
        st.nounwind++;
      }
      if (willreturn && nounwind && !hasFnAttr(f, 'willreturn')) {
        add.push('willreturn');
        st.willreturn++;
      }
      if (norecurse && !hasFnAttr(f, 'norecurse')) {
        add.push('norecurse');
        st.norecurse++;
      }
      let memory: MemoryEffects | null = null;
      if (memKnown) {
        const old = parseMemoryEffects(functionAttributeText(f)) ?? UNKNOWN_MEMORY;
        // never weaken what was stated: intersect with it
        const nw = { arg: me.arg & old.arg, other: me.other & old.other };
        if (nw.arg !== old.arg || nw.other !== old.other) {
          memory = nw;
          st.memory++;
        }
      }
      if (addFunctionAttributes(f, add, memory)) touched.add(f);
      // parameters
      for (const a of f.args) {
        if (!a.type.isPtr()) continue;
        if (/\b(byval|inalloca|preallocated|sret)\b/.test(a.attrs) || /\bnocapture\b/.test(a.attrs) && /\b(readonly|readnone)\b/.test(a.attrs)) continue;
        const facts = argumentFacts(a);
        if (facts.captured) continue;
        const words = ['nocapture'];
        if (!/\b(readonly|readnone|writeonly)\b/.test(a.attrs)) {
          if (!facts.read && !facts.written) words.push('readnone');
          else if (!facts.written) words.push('readonly');
          else if (!facts.read) words.push('writeonly');
        }
        if (addParamAttributes(a, words)) {
          st.params++;
          touched.add(f);
        }
      }
    }
  }
  // top-down: an internal function called only from norecurse functions cannot recurse
  const sccs = cg.sccFunctions();
  const refs = scanGlobalRefs(m);
  for (let k = sccs.length - 1; k >= 0; k--) {
    const comp = sccs[k];
    if (comp.length !== 1) continue;
    const f = comp[0];
    if (!isLocalLinkage(f) || !hasExactDefinition(f) || hasFnAttr(f, 'norecurse') || cg.isRecursive(f)) continue;
    const r = refs.get(f);
    if (r === undefined || r.fromGlobals || r.viaConstant.length > 0 || r.direct.length === 0) continue;
    let ok = true;
    for (const { inst, index } of r.direct) {
      if (inst.op !== Opcode.Call || index !== 0 || inst.parent === null || !hasFnAttr(inst.parent.parent!, 'norecurse')) ok = false;
    }
    if (ok && addFunctionAttributes(f, ['norecurse'], null)) {
      st.norecurse++;
      touched.add(f);
    }
  }
  for (const f of touched) changedFn?.(f);
  return st;
}

export const functionAttrsPass = defineCountingPass({
  name: 'function-attrs',
  description: 'deduce memory(...), nounwind, willreturn, norecurse and nocapture/readonly parameters bottom-up over the call graph',
  module: true,
  count: (m, ctx) => inferFunctionAttrs(m, (f) => ctx.invalidate(f, 'all')),
  stats: { memory: 'memory effects deduced', willreturn: 'willreturn deduced', nounwind: 'nounwind deduced', norecurse: 'norecurse deduced', params: 'parameters given nocapture/access attributes' },
  preserves: 'all',
});
