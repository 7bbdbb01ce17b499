/**
 * Attributes as LLVM 19's LLParser reads them: where each may stand (a function, a
 * parameter, a return value) and what its parenthesised argument must be. The parser keeps
 * attributes as text; this file only decides whether llvm-as-19 would accept them, with its
 * messages, so that ssakit accepts exactly what LLVM accepts.
 *
 * The tables were read off llvm-as-19 itself: every attribute LLVM 19 knows, tried before a
 * return type, after a parameter type and after a function (test/text/attributes.test.ts
 * asks llvm-as-19 the same questions). The argument readers follow LLParser's
 * parseRequiredTypeAttr, parseOptionalDerefAttrBytes, parseOptionalStackAlignment,
 * parseNoFPClassAttr, parseMemoryAttr, parseOptionalUWTableKind, parseVScaleRangeArguments
 * and parseInitializesAttr. `align`, `range`, `allocsize` and `allockind` are read by the
 * parser itself (their values matter to it).
 *
 * The verifier's type rules for attributes (LLVM's AttributeFuncs::typeIncompatible) are
 * `attributeTypeProblem`, also checked as the parser reads them.
 */
import { Lexer, Tok } from './lexer.js';
import { Type, TypeKind, isSized } from '../ir/types.js';

const FN = 1;
const PARAM = 2;
const RET = 4;

/** Every attribute word LLVM 19 knows, with the places it may stand. */
const PLACES = new Map<string, number>();
for (const w of [
  'allockind', 'allocsize', 'alwaysinline', 'builtin', 'cold', 'convergent', 'coro_only_destroy_when_complete',
  'disable_sanitizer_instrumentation', 'fn_ret_thunk_extern', 'hot', 'hybrid_patchable', 'inlinehint', 'jumptable',
  'memory', 'minsize', 'mustprogress', 'naked', 'nobuiltin', 'nocallback', 'nocf_check', 'noduplicate',
  'noimplicitfloat', 'noinline', 'nomerge', 'noprofile', 'norecurse', 'noredzone', 'noreturn', 'nosanitize_bounds',
  'nosanitize_coverage', 'nosync', 'nounwind', 'nonlazybind', 'null_pointer_is_valid', 'optforfuzzing', 'optdebug',
  'optsize', 'optnone', 'presplitcoroutine', 'returns_twice', 'safestack', 'sanitize_address', 'sanitize_thread',
  'sanitize_memory', 'sanitize_hwaddress', 'sanitize_memtag', 'sanitize_numerical_stability', 'shadowcallstack',
  'skipprofile', 'speculatable', 'speculative_load_hardening', 'ssp', 'sspreq', 'sspstrong', 'strictfp', 'uwtable',
  'vscale_range', 'willreturn', 'argmemonly', 'inaccessiblememonly', 'inaccessiblemem_or_argmemonly',
]) PLACES.set(w, FN);
for (const w of [
  'allocalign', 'allocptr', 'byval', 'byref', 'dead_on_unwind', 'elementtype', 'immarg', 'inalloca', 'nest',
  'nocapture', 'returned', 'sret', 'swiftasync', 'swifterror', 'swiftself', 'writable', 'initializes',
]) PLACES.set(w, PARAM);
for (const w of ['dereferenceable', 'dereferenceable_or_null', 'inreg', 'noalias', 'nofpclass', 'noundef', 'nonnull', 'range', 'signext', 'zeroext']) PLACES.set(w, PARAM | RET);
for (const w of ['nofree', 'preallocated', 'readnone', 'readonly', 'writeonly', 'alignstack']) PLACES.set(w, FN | PARAM);
PLACES.set('align', FN | PARAM | RET);

/** Whether `w` is an attribute LLVM 19 knows (in any place). */
export function isAttributeWord(w: string): boolean {
  return PLACES.has(w);
}

export type AttrPlace = 'fn' | 'param' | 'ret' | 'group';

/** LLParser's complaint when `w` stands where it may not, or null. */
export function attributePlaceProblem(w: string, place: AttrPlace): string | null {
  const p = PLACES.get(w);
  if (p === undefined) return null;
  if (place === 'ret') return p & RET ? null : 'this attribute does not apply to return values';
  if (place === 'param') return p & PARAM ? null : 'this attribute does not apply to parameters';
  return p & FN ? null : 'this attribute does not apply to functions';
}

/** What the argument readers need of the parser. */
export interface AttrHost {
  readonly lx: Lexer;
  parseType(allowVoid?: boolean): Type;
  /** Throws a located error (at `loc`, or at the current token). */
  fail(msg: string, loc?: number): never;
}

const TYPE_ARG = new Set(['byval', 'byref', 'inalloca', 'preallocated', 'sret', 'elementtype']);
const NOFPCLASS_WORDS = new Set(['none', 'all', 'nan', 'snan', 'qnan', 'inf', 'ninf', 'pinf', 'norm', 'nnorm', 'pnorm', 'sub', 'nsub', 'psub', 'zero', 'nzero', 'pzero']);
const MEMORY_LOCATIONS = new Set(['argmem', 'inaccessiblemem']);
const MEMORY_KINDS = new Set(['none', 'read', 'write', 'readwrite']);

/**
 * Reads the argument of attribute `w` (its word already consumed) as LLParser does, when
 * `w` takes one here; returns false when `w` is not one this file reads (the parser reads
 * `align`, `range`, `allocsize`, `allockind`, and words of no argument).
 */
export function readAttributeArgument(h: AttrHost, w: string, place: AttrPlace): boolean {
  const lx = h.lx;
  if (TYPE_ARG.has(w)) {
    expectParen(h);
    const t = h.parseType(false);
    expectClose(h);
    // the verifier: memory of an unsized type cannot be passed
    if (w !== 'elementtype' && !isSized(t)) h.fail(`Attribute '${w}' does not support unsized types!`);
    return true;
  }
  switch (w) {
    case 'dereferenceable':
    case 'dereferenceable_or_null': {
      expectParen(h);
      const loc = lx.loc();
      const v = uint64(h);
      expectClose(h);
      if (v === 0n) h.fail('dereferenceable bytes must be non-zero', loc);
      return true;
    }
    case 'alignstack': {
      if (place === 'group') {
        if (lx.tk() !== Tok.Equal) h.fail("expected '=' here");
        lx.next();
        uint32(h);
        return true;
      }
      expectParen(h);
      const loc = lx.loc();
      const v = uint32(h);
      expectClose(h);
      if (v === 0 || (v & (v - 1)) !== 0) h.fail('stack alignment is not a power of two', loc);
      return true;
    }
    case 'nofpclass': {
      expectParen(h);
      if (lx.tk() === Tok.Int) {
        const loc = lx.loc();
        const v = uint32(h);
        if (v === 0 || v > 0x3ff) h.fail("invalid mask value for 'nofpclass'", loc);
      } else {
        if (lx.tk() !== Tok.Word || !NOFPCLASS_WORDS.has(lx.text)) h.fail('expected nofpclass test mask');
        while (lx.tk() === Tok.Word && NOFPCLASS_WORDS.has(lx.text)) lx.next();
      }
      expectClose(h);
      return true;
    }
    case 'memory': {
      expectParen(h);
      let seenLocation = false;
      for (;;) {
        // `argmem:` comes from the lexer as one label token; `argmem :` as a word and a colon
        const isLocation = (lx.tk() === Tok.Word || lx.tk() === Tok.LabelStr) && MEMORY_LOCATIONS.has(lx.text);
        if (isLocation) {
          const label = lx.tk() === Tok.LabelStr;
          lx.next();
          if (!label) {
            if (lx.tk() !== Tok.Colon) h.fail("expected ':' after location");
            lx.next();
          }
        }
        if (lx.tk() !== Tok.Word || !MEMORY_KINDS.has(lx.text)) {
          h.fail(isLocation ? 'expected access kind (none, read, write, readwrite)' : 'expected memory location (argmem, inaccessiblemem) or access kind (none, read, write, readwrite)');
        }
        lx.next();
        if (isLocation) seenLocation = true;
        else if (seenLocation) h.fail('default access kind must be specified first');
        if (lx.tk() === Tok.RParen) {
          lx.next();
          return true;
        }
        if (lx.tk() !== Tok.Comma) h.fail('unterminated memory attribute');
        lx.next();
      }
    }
    case 'allocsize': {
      // in a group (elsewhere the parser checks the indices against the function's parameters)
      if (place !== 'group') return false;
      expectParen(h);
      uint32(h);
      if (lx.tk() === Tok.Comma) {
        lx.next();
        uint32(h);
      }
      expectClose(h);
      return true;
    }
    case 'uwtable': {
      if (lx.tk() !== Tok.LParen) return true;
      lx.next();
      if (lx.tk() !== Tok.Word || (lx.text !== 'sync' && lx.text !== 'async')) h.fail('expected unwind table kind');
      lx.next();
      expectClose(h);
      return true;
    }
    case 'vscale_range': {
      expectParen(h);
      const loc = lx.loc();
      const min = uint32(h);
      let max = min;
      if (lx.tk() === Tok.Comma) {
        lx.next();
        max = uint32(h);
      }
      expectClose(h);
      // the verifier's rules (LLVM checks them after parsing)
      if (min === 0) h.fail("'vscale_range' minimum must be greater than 0", loc);
      if ((min & (min - 1)) !== 0) h.fail("'vscale_range' minimum must be power-of-two value", loc);
      if (max !== 0 && (max & (max - 1)) !== 0) h.fail("'vscale_range' maximum must be power-of-two value", loc);
      if (max !== 0 && min > max) h.fail("'vscale_range' minimum cannot be greater than maximum", loc);
      return true;
    }
    case 'initializes': {
      expectParen(h);
      const ranges: [bigint, bigint][] = [];
      do {
        if (lx.tk() !== Tok.LParen) h.fail("expected '('");
        lx.next();
        const lo = int64(h);
        if (lx.tk() !== Tok.Comma) h.fail("expected ','");
        lx.next();
        const hi = int64(h);
        if (lx.tk() !== Tok.RParen) h.fail("expected ')'");
        lx.next();
        if (lo === hi) h.fail('the range should not represent the full or empty set!');
        ranges.push([lo, hi]);
      } while (lx.tk() === Tok.Comma && (lx.next(), true));
      if (lx.tk() !== Tok.RParen) h.fail("expected ')'");
      // ConstantRangeList::getConstantRangeList: each range ascending, the list sorted, no two touching
      const bad = ranges.some(([lo, hi], k) => lo > hi || (k > 0 && ranges[k - 1][1] >= lo));
      if (bad) h.fail('Invalid (unordered or overlapping) range list');
      lx.next();
      return true;
    }
  }
  return false;
}

function expectParen(h: AttrHost): void {
  if (h.lx.tk() !== Tok.LParen) h.fail("expected '('");
  h.lx.next();
}

function expectClose(h: AttrHost): void {
  if (h.lx.tk() !== Tok.RParen) h.fail("expected ')'");
  h.lx.next();
}

/** LLParser::parseUInt64: an unsigned integer token (a larger one is cut to 64 bits' maximum). */
function uint64(h: AttrHost): bigint {
  const lx = h.lx;
  if (lx.tk() !== Tok.Int || lx.text.startsWith('-')) h.fail('expected integer');
  const v = BigInt(lx.text);
  lx.next();
  return v > 0xffffffffffffffffn ? 0xffffffffffffffffn : v;
}

/** LLParser::parseUInt32. */
function uint32(h: AttrHost): number {
  const lx = h.lx;
  if (lx.tk() !== Tok.Int || lx.text.startsWith('-')) h.fail('expected integer');
  const v = BigInt(lx.text);
  if (v > 0xffffffffn) h.fail('expected 32-bit integer (too large)');
  lx.next();
  return Number(v);
}

/** An integer token as a signed 64-bit value (LLParser's APSInt extended to 64 bits). */
function int64(h: AttrHost): bigint {
  const lx = h.lx;
  if (lx.tk() !== Tok.Int) h.fail('expected integer');
  const v = BigInt.asIntN(64, BigInt(lx.text));
  lx.next();
  return v;
}

// ---- the verifier's type rules (AttributeFuncs::typeIncompatible) ------------------------

const INT_ONLY = new Set(['allocalign', 'signext', 'zeroext']);
const PTR_ONLY = new Set([
  'allocptr', 'byval', 'byref', 'dead_on_unwind', 'dereferenceable', 'dereferenceable_or_null', 'inalloca', 'nest',
  'noalias', 'nocapture', 'nonnull', 'preallocated', 'readnone', 'readonly', 'sret', 'swifterror', 'writable', 'initializes',
]);

/**
 * The verifier's "Attribute '…' applied to incompatible type!" for attribute `w` (written
 * `text`) on a value of type `t`, or null.
 */
export function attributeTypeProblem(w: string, text: string, t: Type): string | null {
  let ok = true;
  if (INT_ONLY.has(w)) ok = t.kind === TypeKind.Int;
  else if (PTR_ONLY.has(w)) ok = t.kind === TypeKind.Ptr;
  else if (w === 'range') ok = t.scalarType().kind === TypeKind.Int;
  else if (w === 'align') ok = t.scalarType().kind === TypeKind.Ptr;
  else if (w === 'nofpclass') {
    let e = t;
    while (e.kind === TypeKind.Array) e = e.elem!;
    ok = e.scalarType().isFloatingPoint();
  } else if (w === 'noundef') ok = t.kind !== TypeKind.Void;
  return ok ? null : `Attribute '${text}' applied to incompatible type!`;
}

// ---- the verifier's rules for string function attributes (Verifier::verifyFunctionAttrs) ----

const STRING_BOOLS = new Set([
  'less-precise-fpmad', 'no-infs-fp-math', 'no-nans-fp-math', 'approx-func-fp-math', 'no-signed-zeros-fp-math',
  'unsafe-fp-math', 'no-jump-tables', 'no-inline-line-tables', 'profile-sample-accurate', 'use-sample-profile',
]);
const STRING_UNSIGNED = new Set(['patchable-function-prefix', 'patchable-function-entry', 'warn-stack-size']);

/** Why LLVM's verifier rejects the function attribute `"key"="value"` (value null: none), or null. */
export function stringFnAttributeProblem(key: string, value: string | null): string | null {
  const v = value ?? '';
  if (key === 'frame-pointer') return v === 'all' || v === 'non-leaf' || v === 'none' || v === 'reserved' ? null : `invalid value for 'frame-pointer' attribute: ${v}`;
  if (STRING_BOOLS.has(key)) return v === '' || v === 'true' || v === 'false' ? null : `invalid value for '${key}' attribute: ${v}`;
  if (STRING_UNSIGNED.has(key)) return /^[0-9]+$/.test(v) && Number(v) <= 0xffffffff ? null : `"${key}" takes an unsigned integer: ${v}`;
  return null;
}
