/**
 * Helpers the interprocedural passes share (function-attrs, globalopt, ipsccp, deadargelim,
 * globaldce): linkage questions, where a global value is referenced (instruction operands,
 * constant expressions inside them, initializers, aliases: our use lists record only the
 * first kind), and editing function attributes the way LLVM prints them (a `#N` group).
 */
import { ConstantAggregate, globalValuesIn } from '../../ir/constants.js';
import type { Function, GlobalVariable } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import type { Module } from '../../ir/module.js';
import { printMemoryEffects, stripMemoryEffects, type MemoryEffects } from '../../ir/memory-attr.js';
import { Value, ValueKind } from '../../ir/value.js';

export function isLocalLinkage(g: { attrs: { linkage: string } }): boolean {
  return g.attrs.linkage === 'internal' || g.attrs.linkage === 'private';
}

/**
 * Whether the definition we see is the one that runs (LLVM's hasExactDefinition): not
 * weak/linkonce/available_externally/common, which the linker may replace.
 */
export function hasExactDefinition(fn: Function): boolean {
  if (fn.isDeclaration()) return false;
  return !/\b(weak|weak_odr|linkonce|linkonce_odr|available_externally|extern_weak|common)\b/.test(fn.attrs.linkage);
}

/** Where the module references a global value. */
export interface GlobalRefs {
  /** Instructions that have it as a direct operand (per use: instruction and operand index). */
  direct: { inst: Instruction; index: number }[];
  /** Instructions that reach it inside a constant expression or aggregate operand. */
  viaConstant: Instruction[];
  /** Referenced from a global initializer or an alias (or another global's constant). */
  fromGlobals: boolean;
}

function emptyRefs(): GlobalRefs {
  return { direct: [], viaConstant: [], fromGlobals: false };
}

/** Every reference to every global variable and function of `m`. */
export function scanGlobalRefs(m: Module): Map<Value, GlobalRefs> {
  const refs = new Map<Value, GlobalRefs>();
  const get = (v: Value) => {
    let r = refs.get(v);
    if (r === undefined) refs.set(v, (r = emptyRefs()));
    return r;
  };
  const seen = new Set<Value>();
  const found = new Set<Value>();
  for (const g of m.globals) {
    if (g.initializer === null) continue;
    found.clear();
    globalValuesIn(g.initializer, found, seen);
    for (const v of found) get(v).fromGlobals = true;
  }
  for (const a of m.aliases) {
    found.clear();
    globalValuesIn(a.aliasee, found, seen);
    for (const v of found) get(v).fromGlobals = true;
  }
  const exprGlobals = new Map<Value, Value[]>();
  for (const f of m.functions) {
    for (let b = f.firstBlock; b !== null; b = b.next) {
      for (let i = b.first; i !== null; i = i.next) {
        const ops = i.ops;
        for (let k = 0; k < ops.length; k++) {
          const v = ops[k].value;
          const kind = v.kind;
          if (kind === ValueKind.GlobalVariable || kind === ValueKind.Function || kind === ValueKind.GlobalAlias) get(v).direct.push({ inst: i, index: k });
          else if (kind === ValueKind.ConstantExpr || v instanceof ConstantAggregate || kind === ValueKind.BlockAddress) {
            let gs = exprGlobals.get(v);
            if (gs === undefined) {
              const s = new Set<Value>();
              globalValuesIn(v, s, new Set());
              exprGlobals.set(v, (gs = [...s]));
            }
            for (const g of gs) {
              const r = get(g);
              if (r.viaConstant[r.viaConstant.length - 1] !== i) r.viaConstant.push(i);
            }
          }
        }
      }
    }
  }
  return refs;
}

/** The number of the first `#N` group in an attribute suffix, or -1. */
function groupOf(suffix: string): number {
  const m = /#(\d+)/.exec(suffix);
  return m === null ? -1 : Number(m[1]);
}

/** Attribute words in LLVM's printing order: plain enum words sorted, then `memory(...)`, then the rest as they were. */
function canonicalAttributeText(words: string[], memory: string | null): string {
  const plain: string[] = [];
  const rest: string[] = [];
  for (const w of words) {
    if (/^[a-z_]+$/.test(w) && w !== 'uwtable') plain.push(w);
    else rest.push(w);
  }
  plain.sort();
  return [...plain, ...(memory !== null ? [memory] : []), ...rest].join(' ');
}

/** Splits attribute text into words, keeping `key="a b"` strings and `f(x, y)` whole. */
export function attributeWords(text: string): string[] {
  return text.match(/"[^"]*"(=\"[^"]*\")?|[^\s"(]+(\([^)]*\))?/g) ?? [];
}

/**
 * Adds attribute words (and, when given, replaces the memory effects) on a function,
 * through an attribute group as LLVM prints them: the function's group text with the new
 * words is looked up among the module's groups and made a new group when absent.
 * Returns whether anything changed.
 */
export function addFunctionAttributes(fn: Function, add: readonly string[], memory: MemoryEffects | null): boolean {
  const m = fn.parent;
  if (m === null) return false;
  const g = groupOf(fn.attrs.suffix);
  const base = g >= 0 ? (m.attributeGroups.get(g) ?? '') : '';
  const words = attributeWords(memory !== null ? stripMemoryEffects(base) : base);
  const have = new Set(words);
  let changed = false;
  for (const w of add) {
    if (!have.has(w)) {
      words.push(w);
      have.add(w);
      changed = true;
    }
  }
  const memText = memory !== null ? printMemoryEffects(memory) : null;
  if (memText !== null && !base.includes(memText)) changed = true;
  if (!changed) return false;
  let text = canonicalAttributeText(words.filter((w) => !w.startsWith('memory(')), memText ?? words.find((w) => w.startsWith('memory(')) ?? null);
  text = text.trim();
  let id = -1;
  for (const [k, t] of m.attributeGroups) if (t === text) id = k;
  if (id < 0) {
    id = 0;
    for (const k of m.attributeGroups.keys()) if (k >= id) id = k + 1;
    m.attributeGroups.set(id, text);
  }
  // inline words that contradict the new memory effects go (the group now says it)
  let suffix = fn.attrs.suffix;
  if (memory !== null) suffix = suffix.replace(/(^|\s)(readnone|readonly|writeonly|argmemonly)(?=\s|$)/g, '$1').replace(/\bmemory\([^)]*\)\s?/g, '');
  fn.attrs.suffix = g >= 0 ? suffix.replace(`#${g}`, `#${id}`) : `#${id}${suffix.trim() === '' ? '' : ' ' + suffix.trim()}`;
  return true;
}

/** Adds parameter attribute words to an argument (kept as printed: `ptr nocapture noundef readonly %p`). */
export function addParamAttributes(a: { attrs: string }, add: readonly string[]): boolean {
  const words = attributeWords(a.attrs);
  let changed = false;
  for (const w of add) {
    if (!words.includes(w)) {
      words.push(w);
      changed = true;
    }
  }
  if (!changed) return false;
  // appended, not sorted: parameter attributes may be two words (`align 4`)
  a.attrs = words.join(' ');
  return true;
}

/** Whether a function attribute word is set on `fn` (inline or through its groups). */
export function hasFnAttr(fn: Function, word: string): boolean {
  const m = fn.parent;
  let text = fn.attrs.suffix;
  if (m !== null) for (const g of fn.attrs.suffix.matchAll(/#(\d+)/g)) text += ' ' + (m.attributeGroups.get(Number(g[1])) ?? '');
  let re = ATTR_WORD.get(word);
  if (re === undefined) ATTR_WORD.set(word, (re = new RegExp(`(^|[\\s{])${word}([\\s}]|$)`)));
  return re.test(text);
}

/** hasFnAttr's pattern per attribute word, compiled once (function-attrs asks per call site). */
const ATTR_WORD = new Map<string, RegExp>();

export type { GlobalVariable };
