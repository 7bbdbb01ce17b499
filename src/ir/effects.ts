/**
 * What an instruction may do besides computing its result: read or write memory, trap,
 * or have other side effects. Transforms ask these before deleting, moving or merging
 * instructions (LLVM: Instruction::mayHaveSideEffects, isSafeToSpeculativelyExecute,
 * wouldInstructionBeTriviallyDead).
 *
 * Calls are judged by their callee: intrinsics we know, a few pure libc functions, and
 * functions whose attributes (inline or in a `#N` group) say `memory(none)`/`readnone`
 * or `memory(read)`/`readonly` together with `willreturn nounwind`.
 */
import { ConstantInt } from './constants.js';
import type { Function } from './function.js';
import type { Instruction } from './instruction.js';
import { Flag, Opcode } from './opcodes.js';
import { ValueKind } from './value.js';
import { overallMask, parseMemoryEffects } from './memory-attr.js';

const MEMORY_EFFECT_OF_MASK: MemoryEffect[] = ['none', 'read', 'write', 'readwrite'];

/** Intrinsics with no memory effects and no side effects (by name prefix). */
const PURE_INTRINSIC_PREFIXES = [
  'llvm.smax.', 'llvm.smin.', 'llvm.umax.', 'llvm.umin.', 'llvm.abs.', 'llvm.fshl.', 'llvm.fshr.',
  'llvm.ctpop.', 'llvm.ctlz.', 'llvm.cttz.', 'llvm.bswap.', 'llvm.bitreverse.',
  'llvm.sadd.with.overflow.', 'llvm.uadd.with.overflow.', 'llvm.ssub.with.overflow.', 'llvm.usub.with.overflow.',
  'llvm.smul.with.overflow.', 'llvm.umul.with.overflow.', 'llvm.sadd.sat.', 'llvm.uadd.sat.', 'llvm.ssub.sat.', 'llvm.usub.sat.',
  'llvm.fmuladd.', 'llvm.fma.', 'llvm.fabs.', 'llvm.sqrt.', 'llvm.copysign.', 'llvm.floor.', 'llvm.ceil.',
  'llvm.trunc.', 'llvm.round.', 'llvm.rint.', 'llvm.nearbyint.', 'llvm.minnum.', 'llvm.maxnum.',
  'llvm.minimum.', 'llvm.maximum.', 'llvm.expect.', 'llvm.vector.reduce.', 'llvm.is.constant.',
  'llvm.ssa.copy.', 'llvm.lround.', 'llvm.llround.', 'llvm.lrint.', 'llvm.llrint.', 'llvm.powi.',
];
/** Intrinsics that only mark things (removable when their operands die). */
const MARKER_INTRINSIC_PREFIXES = ['llvm.lifetime.start', 'llvm.lifetime.end', 'llvm.experimental.noalias.scope.decl', 'llvm.dbg.', 'llvm.assume'];
/** libc functions that neither read nor write memory (they may set errno in C, but we model none). */
const PURE_LIBC = new Set(['abs', 'labs', 'llabs']);

const wordPatterns = new Map<string, RegExp>();
function hasWord(attrs: string, word: string): boolean {
  if (attrs.length === 0) return false;
  let re = wordPatterns.get(word);
  if (re === undefined) wordPatterns.set(word, (re = new RegExp(`(^|[\\s(])${word}([\\s),]|$)`)));
  return re.test(attrs);
}

/** What an attribute text says about memory and returning, computed once per distinct text. */
interface AttrFacts {
  memory: MemoryEffect;
  willReturn: boolean;
}
const attrFactsCache = new Map<string, AttrFacts>();
function attrFacts(attrs: string): AttrFacts {
  let f = attrFactsCache.get(attrs);
  if (f === undefined) {
    // any `memory(...)` form (argmem included) summarized over all locations
    const me = parseMemoryEffects(attrs);
    const memory: MemoryEffect = me === null ? 'readwrite' : MEMORY_EFFECT_OF_MASK[overallMask(me)];
    f = { memory, willReturn: hasWord(attrs, 'willreturn') && hasWord(attrs, 'nounwind') };
    if (attrFactsCache.size > 10_000) attrFactsCache.clear(); // attribute texts are few; stay bounded anyway
    attrFactsCache.set(attrs, f);
  }
  return f;
}

/** The function attributes of `fn` as text (inline ones plus its `#N` groups). */
export function functionAttributeText(fn: Function): string {
  let text = fn.attrs.suffix;
  const m = fn.parent;
  if (m !== null) {
    for (const g of fn.attrs.suffix.matchAll(/#(\d+)/g)) text += ' ' + (m.attributeGroups.get(Number(g[1])) ?? '');
  }
  return text;
}

/** The function attributes of a call site (its own text plus groups) and of its callee. */
function callAttributeText(call: Instruction): string {
  let text = '';
  const fn = call.calledFunction();
  if (fn !== null) text += functionAttributeText(fn);
  const ca = call.callAttrs;
  if (ca !== null && ca.fn !== '') {
    text += ' ' + ca.fn;
    const m = fn?.parent ?? call.parent?.parent?.parent ?? null;
    if (m !== null) for (const g of ca.fn.matchAll(/#(\d+)/g)) text += ' ' + (m.attributeGroups.get(Number(g[1])) ?? '');
  }
  return text;
}

export function isPureIntrinsicName(name: string): boolean {
  if (!name.startsWith('llvm.')) return false;
  for (const p of PURE_INTRINSIC_PREFIXES) if (name.startsWith(p)) return true;
  return false;
}

export function isMarkerIntrinsicName(name: string): boolean {
  if (!name.startsWith('llvm.')) return false;
  for (const p of MARKER_INTRINSIC_PREFIXES) if (name.startsWith(p)) return true;
  return false;
}

export type MemoryEffect = 'none' | 'read' | 'write' | 'readwrite';

/** What calls of one callee are known to do, per call-site attribute text ('' for none). */
interface CalleeFacts {
  /** What the facts were computed from: they are recomputed when any of these change. */
  name: string;
  suffix: string;
  groups: number;
  bySite: Map<string, AttrFacts>;
}
const PURE_CALL: AttrFacts = { memory: 'none', willReturn: true };
/**
 * Per callee, so the optimizers' many effect queries on calls cost a lookup instead of
 * rebuilding and matching attribute text each time. The module's attribute groups only
 * grow (the parser adds them), so their count tells whether a group may have appeared.
 */
const calleeFacts = new WeakMap<Function, CalleeFacts>();

function callFacts(call: Instruction): AttrFacts {
  const fn = call.calledFunction();
  if (fn === null) return attrFacts(callAttributeText(call));
  const groups = fn.parent === null ? -1 : fn.parent.attributeGroups.size;
  let c = calleeFacts.get(fn);
  if (c === undefined || c.name !== fn.name || c.suffix !== fn.attrs.suffix || c.groups !== groups) {
    c = { name: fn.name, suffix: fn.attrs.suffix, groups, bySite: new Map() };
    calleeFacts.set(fn, c);
  }
  const ca = call.callAttrs;
  const site = ca === null ? '' : ca.fn;
  let f = c.bySite.get(site);
  if (f === undefined) {
    const n = fn.name;
    f = isPureIntrinsicName(n) || PURE_LIBC.has(n) || isMarkerIntrinsicName(n) ? PURE_CALL : attrFacts(callAttributeText(call));
    c.bySite.set(site, f);
  }
  return f;
}

/** How a call touches memory, from what we know of its callee. */
export function callMemoryEffect(call: Instruction): MemoryEffect {
  return callFacts(call).memory;
}

/** Whether a call is known to return normally (no exit, no infinite loop, no unwinding). */
export function callWillReturn(call: Instruction): boolean {
  return callFacts(call).willReturn;
}

export function mayReadMemory(i: Instruction): boolean {
  switch (i.op) {
    case Opcode.Load:
    case Opcode.VAArg:
    case Opcode.AtomicCmpXchg:
    case Opcode.AtomicRMW:
    case Opcode.Fence:
      return true;
    case Opcode.Call: {
      const e = callMemoryEffect(i);
      return e === 'read' || e === 'readwrite';
    }
    default:
      return false;
  }
}

export function mayWriteMemory(i: Instruction): boolean {
  switch (i.op) {
    case Opcode.Store:
    case Opcode.VAArg:
    case Opcode.AtomicCmpXchg:
    case Opcode.AtomicRMW:
    case Opcode.Fence:
      return true;
    case Opcode.Load:
      return (i.flags & (Flag.Volatile | Flag.Atomic)) !== 0;
    case Opcode.Call: {
      const e = callMemoryEffect(i);
      return e === 'write' || e === 'readwrite';
    }
    default:
      return false;
  }
}

/**
 * Whether removing the instruction could change behaviour even when its result is unused:
 * stores, calls that write memory or might not return, terminators, volatile accesses.
 */
export function mayHaveSideEffects(i: Instruction): boolean {
  if (i.isTerminator()) return true;
  switch (i.op) {
    case Opcode.Store:
    case Opcode.Fence:
    case Opcode.AtomicCmpXchg:
    case Opcode.AtomicRMW:
    case Opcode.VAArg:
      return true;
    case Opcode.Load:
      return (i.flags & (Flag.Volatile | Flag.Atomic)) !== 0;
    case Opcode.Call: {
      const fn = i.calledFunction();
      if (fn !== null && isMarkerIntrinsicName(fn.name)) return fn.name.startsWith('llvm.assume');
      const e = callMemoryEffect(i);
      if (e === 'write' || e === 'readwrite') return true;
      return !callWillReturn(i);
    }
    default:
      return false;
  }
}

/** An instruction whose result is unused and that can be deleted (LLVM's isInstructionTriviallyDead). */
export function isTriviallyDead(i: Instruction): boolean {
  if (i.firstUse !== null) return false;
  if (i.op === Opcode.Call) {
    const fn = i.calledFunction();
    // lifetime markers and scope declarations are dead when nothing else needs them
    if (fn !== null && isMarkerIntrinsicName(fn.name) && !fn.name.startsWith('llvm.assume')) return true;
  }
  if (i.op === Opcode.Alloca) return true;
  return !mayHaveSideEffects(i);
}

/**
 * Whether executing the instruction where it was not executed before is harmless: it
 * cannot trap (no division by a possibly-zero value, no memory access) and has no side
 * effects. Used before hoisting (LICM, select formation).
 */
export function isSafeToSpeculate(i: Instruction): boolean {
  switch (i.op) {
    case Opcode.UDiv:
    case Opcode.URem: {
      const d = i.operand(1);
      return d.kind === ValueKind.ConstantInt && !(d as ConstantInt).isZero();
    }
    case Opcode.SDiv:
    case Opcode.SRem: {
      const d = i.operand(1);
      return d.kind === ValueKind.ConstantInt && !(d as ConstantInt).isZero() && !(d as ConstantInt).isAllOnes();
    }
    case Opcode.Load:
    case Opcode.Store:
    case Opcode.Alloca:
    case Opcode.Phi:
    case Opcode.VAArg:
    case Opcode.Fence:
    case Opcode.AtomicCmpXchg:
    case Opcode.AtomicRMW:
      return false;
    case Opcode.Call:
      return callMemoryEffect(i) === 'none' && callWillReturn(i);
    default:
      return !i.isTerminator();
  }
}
