/**
 * The verifier's rules for parameter, return and function attributes, after LLVM 19's
 * lib/IR/Verifier.cpp: verifyParameterAttrs (attributes that exclude each other),
 * verifyFunctionAttrs (per parameter list: `immarg` and `elementtype` only on intrinsics,
 * at most one `nest`/`returned`/`sret`/`swift*` parameter, `sret` first or second,
 * `inalloca` last, `returned` losslessly castable to the return type; per function:
 * optimisation attributes that exclude each other), and the attribute checks of
 * visitFunction (`builtin` and `elementtype` only on call sites) and visitCallBase
 * (`preallocated` as a call-site attribute only on llvm.call.preallocated.arg; a
 * `preallocated` argument needs a "preallocated" operand bundle or `musttail`, and ssakit
 * reads no operand bundles).
 *
 * The parser keeps attributes as text (and checks each attribute's place, argument and
 * type as it reads it); this file reads the words back out of that text, with `#N`
 * expanded to the module's attribute group. Messages are LLVM's.
 *
 * Invariants: reads nothing but attribute text, the function type and the callee; a call
 * without attributes whose callee has no `preallocated` parameter costs two tests.
 */
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Flag } from '../ir/opcodes.js';
import { Type, TypeKind } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';

/** The attributes of one attribute set (a parameter's, the return value's or the function's). */
interface AttrSet {
  /** Enum attribute words (`byval`, `nonnull`, `align`…), each once. */
  readonly words: ReadonlySet<string>;
  /** How many attributes, string attributes (`"key"="value"`) included. */
  readonly count: number;
  /** The attribute groups (`#N`) the text refers to, not yet expanded. */
  readonly groups: readonly number[];
}

const EMPTY: AttrSet = { words: new Set(), count: 0, groups: [] };

/** Attribute sets already read, by text (clang's output repeats a few texts thousands of times). */
const cache = new Map<string, AttrSet>();

/**
 * The attributes written in `text` (as the parser keeps it: `noundef byval(%s) align 8`,
 * `#0 "k"="v" nounwind`, or a function's suffix with `local_unnamed_addr section "s"`).
 * Strings, parenthesised arguments, numbers and `@`/`%`/`!` names are skipped; `#N` is
 * replaced by the words of attribute group N when `groups` is given.
 */
function attrSet(text: string, groups: ReadonlyMap<number, string> | null): AttrSet {
  if (text === '') return EMPTY;
  let own = cache.get(text);
  if (own === undefined) {
    if (cache.size > 4096) cache.clear();
    own = readAttrs(text);
    cache.set(text, own);
  }
  if (groups === null || own.groups.length === 0) return own;
  const words = new Set(own.words);
  let count = own.count;
  for (const g of own.groups) {
    const gs = attrSet(groups.get(g) ?? '', null);
    for (const w of gs.words) words.add(w);
    count += gs.count;
  }
  return { words, count, groups: [] };
}

function readAttrs(s: string): AttrSet & { groups: number[] } {
  const words = new Set<string>();
  const groups: number[] = [];
  let count = 0;
  let k = 0;
  while (k < s.length) {
    const c = s[k];
    if (c === '"') {
      // a string attribute's key (its `="value"` is skipped as the next string)
      const end = s.indexOf('"', k + 1);
      if (s[k - 1] !== '=') count++;
      k = end < 0 ? s.length : end + 1;
    } else if (c === '(') {
      let depth = 0;
      for (; k < s.length; k++) {
        if (s[k] === '(') depth++;
        else if (s[k] === ')' && --depth === 0) break;
        else if (s[k] === '"') k = Math.max(k, s.indexOf('"', k + 1));
      }
      k++;
    } else if (c === '@' || c === '%' || c === '!' || c === '$') {
      k++;
      if (s[k] === '"') k = s.indexOf('"', k + 1) + 1 || s.length;
      else while (k < s.length && /[-\w.$]/.test(s[k])) k++;
    } else if (c === '#') {
      let e = k + 1;
      while (e < s.length && s[e] >= '0' && s[e] <= '9') e++;
      if (e > k + 1) groups.push(Number(s.slice(k + 1, e)));
      k = e;
    } else if (/[A-Za-z_]/.test(c)) {
      let e = k + 1;
      while (e < s.length && /[\w.]/.test(s[e])) e++;
      const w = s.slice(k, e);
      if (!words.has(w)) {
        words.add(w);
        count++;
      }
      k = e;
    } else k++;
  }
  return { words, count, groups };
}

/** LLVM's Type::canLosslesslyBitCastTo, for `returned`. */
function losslesslyCastable(a: Type, b: Type): boolean {
  if (a === b) return true;
  if (!a.isFirstClass() || !b.isFirstClass()) return false;
  // vectors of the same size in bits (a pointer's primitive size is 0, as in LLVM)
  const bits = (v: Type): number => v.count * (v.elem!.kind === TypeKind.Ptr ? 0 : v.elem!.bits);
  if (a.kind === TypeKind.Vector && b.kind === TypeKind.Vector) return bits(a) === bits(b);
  // a pointer type's `bits` is its address space
  if (a.kind === TypeKind.Ptr && b.kind === TypeKind.Ptr) return a.bits === b.bits;
  return false;
}

/** Pairs of attributes one attribute set may not hold together, with LLVM's message. */
const EXCLUSIVE: [string, string, string][] = [
  ['inalloca', 'readonly', "Attributes 'inalloca and readonly' are incompatible!"],
  ['sret', 'returned', "Attributes 'sret and returned' are incompatible!"],
  ['zeroext', 'signext', "Attributes 'zeroext and signext' are incompatible!"],
  ['readnone', 'readonly', "Attributes 'readnone and readonly' are incompatible!"],
  ['readnone', 'writeonly', "Attributes 'readnone and writeonly' are incompatible!"],
  ['readonly', 'writeonly', "Attributes 'readonly and writeonly' are incompatible!"],
  ['noinline', 'alwaysinline', "Attributes 'noinline and alwaysinline' are incompatible!"],
  ['writable', 'readnone', 'Attributes writable and readnone are incompatible!'],
  ['writable', 'readonly', 'Attributes writable and readonly are incompatible!'],
];

/** Of these, at most one (`sret` and `inreg` counting as one). */
const PASSING = ['byval', 'inalloca', 'preallocated', 'nest', 'byref'];

/** LLVM's verifyParameterAttrs: the rules within one parameter's (or the return value's) set. */
function paramSetProblem(a: AttrSet): string | null {
  const w = a.words;
  if (w.size === 0) return null;
  if (w.has('immarg') && a.count !== 1) return "Attribute 'immarg' is incompatible with other attributes";
  let n = w.has('sret') || w.has('inreg') ? 1 : 0;
  for (const p of PASSING) if (w.has(p)) n++;
  if (n > 1) return "Attributes 'byval', 'inalloca', 'preallocated', 'inreg', 'nest', 'byref', and 'sret' are incompatible!";
  for (const [x, y, msg] of EXCLUSIVE) if (w.has(x) && w.has(y)) return msg;
  return null;
}

/** LLVM's verifyFunctionAttrs over the function type `ft`'s attribute sets. */
function attrListProblem(ft: Type, ret: AttrSet, params: readonly AttrSet[], fnAttrs: AttrSet, isIntrinsic: boolean, isInlineAsm: boolean): string | null {
  const retProblem = paramSetProblem(ret);
  if (retProblem !== null) return retProblem;
  const seen = new Set<string>();
  const once = (w: string, msg: string): string | null => {
    if (seen.has(w)) return msg;
    seen.add(w);
    return null;
  };
  for (let i = 0; i < params.length && i < ft.params.length; i++) {
    const a = params[i];
    const w = a.words;
    if (w.size === 0) continue;
    if (!isIntrinsic) {
      if (w.has('immarg')) return 'immarg attribute only applies to intrinsics';
      if (!isInlineAsm && w.has('elementtype')) return "Attribute 'elementtype' can only be applied to intrinsics and inline asm.";
    }
    const p = paramSetProblem(a);
    if (p !== null) return p;
    let m: string | null = null;
    if (w.has('nest') && (m = once('nest', 'More than one parameter has attribute nest!')) !== null) return m;
    if (w.has('returned')) {
      if ((m = once('returned', 'More than one parameter has attribute returned!')) !== null) return m;
      if (!losslesslyCastable(ft.params[i], ft.returnType)) return "Incompatible argument and return types for 'returned' attribute";
    }
    if (w.has('sret')) {
      if ((m = once('sret', "Cannot have multiple 'sret' parameters!")) !== null) return m;
      if (i > 1) return "Attribute 'sret' is not on first or second parameter!";
    }
    for (const s of ['swiftself', 'swiftasync', 'swifterror']) {
      if (w.has(s) && (m = once(s, `Cannot have multiple '${s}' parameters!`)) !== null) return m;
    }
    if (w.has('inalloca') && i !== ft.params.length - 1) return "inalloca isn't on the last parameter!";
  }
  const f = fnAttrs.words;
  if (f.size === 0) return null;
  if (f.has('noinline') && f.has('alwaysinline')) return "Attributes 'noinline and alwaysinline' are incompatible!";
  if (f.has('optnone')) {
    if (!f.has('noinline')) return "Attribute 'optnone' requires 'noinline'!";
    if (f.has('optsize')) return "Attributes 'optsize and optnone' are incompatible!";
    if (f.has('minsize')) return "Attributes 'minsize and optnone' are incompatible!";
    if (f.has('optdebug')) return "Attributes 'optdebug and optnone' are incompatible!";
  }
  if (f.has('optdebug') && f.has('optsize')) return "Attributes 'optsize and optdebug' are incompatible!";
  return null;
}

/** Words that, somewhere in an attribute text, make the rules above worth running. */
const INTERESTING = /immarg|elementtype|byval|inalloca|preallocated|inreg|nest|byref|sret|returned|swift|ext|read|write|inline|opt|minsize|builtin|#/;

function interesting(texts: readonly string[]): boolean {
  for (const t of texts) if (t !== '' && INTERESTING.test(t)) return true;
  return false;
}

/**
 * What is wrong with the attributes of a function's declaration or definition (LLVM's
 * visitFunction and verifyFunctionAttrs), or null.
 */
export function functionAttributeProblem(fn: Function): string | null {
  const ft = fn.fnType;
  if (ft.kind !== TypeKind.Function) return null;
  const argTexts = fn.args.map((a) => a.attrs);
  if (!interesting([fn.retAttrs, fn.attrs.suffix, fn.attrs.prefix, ...argTexts])) return null;
  const groups = fn.parent?.attributeGroups ?? null;
  const ret = attrSet(fn.retAttrs, null);
  const params = argTexts.map((t) => attrSet(t, null));
  const fnAttrs = attrSet(fn.attrs.suffix, groups);
  // LLParser: a function with an `sret` parameter returns void
  if (params.some((p) => p.words.has('sret')) && ft.returnType.kind !== TypeKind.Void) return "functions with 'sret' argument must return void";
  const p = attrListProblem(ft, ret, params, fnAttrs, fn.name.startsWith('llvm.'), false);
  if (p !== null) return p;
  if (fnAttrs.words.has('builtin')) return "Attribute 'builtin' can only be applied to a callsite.";
  if (ret.words.has('elementtype') || fnAttrs.words.has('elementtype') || params.some((a) => a.words.has('elementtype'))) {
    return "Attribute 'elementtype' can only be applied to a callsite.";
  }
  return null;
}

/** Whether a parameter of `callee` (a function) carries `preallocated`. */
function calleeHasPreallocated(callee: Value, k: number): boolean {
  if (callee.kind !== ValueKind.Function) return false;
  const a = (callee as Function).args[k];
  return a !== undefined && a.attrs.includes('preallocated') && attrSet(a.attrs, null).words.has('preallocated');
}

/**
 * What is wrong with the attributes of call `i` (of function type `ft`), LLVM's
 * visitCallBase and verifyFunctionAttrs over the call site's attributes, or null.
 */
export function callAttributeProblem(i: Instruction, ft: Type): string | null {
  const callee = i.ops[0].value;
  const ca = i.callAttrs;
  const isIntrinsic = callee.kind === ValueKind.Function && callee.name.startsWith('llvm.');
  const calleePrealloc = callee.kind === ValueKind.Function && (callee as Function).args.some((a) => a.attrs.includes('preallocated'));
  if (ca === null && !calleePrealloc) return null;
  const argTexts = ca?.args ?? [];
  if (!calleePrealloc && !interesting([ca!.ret, ca!.fn, ...argTexts])) return null;
  const groups = i.parent?.parent?.parent?.attributeGroups ?? null;
  const fnAttrs = attrSet(ca?.fn ?? '', groups);
  if (fnAttrs.words.has('preallocated') && !(isIntrinsic && callee.name === 'llvm.call.preallocated.arg')) {
    return 'preallocated as a call site attribute can only be on llvm.call.preallocated.arg';
  }
  const params = argTexts.map((t) => attrSet(t, null));
  const p = attrListProblem(ft, attrSet(ca?.ret ?? '', null), params, fnAttrs, isIntrinsic, callee.kind === ValueKind.InlineAsm);
  if (p !== null) return p;
  // a preallocated argument needs a "preallocated" bundle (never read by ssakit) or musttail
  for (let k = 0; k < ft.params.length; k++) {
    if ((params[k]?.words.has('preallocated') || calleeHasPreallocated(callee, k)) && (i.flags & Flag.MustTail) === 0) {
      return 'preallocated operand either requires a preallocated bundle or the call to be musttail (but not both)';
    }
  }
  return null;
}
