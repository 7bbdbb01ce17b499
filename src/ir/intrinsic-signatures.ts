/**
 * The signatures of the LLVM intrinsics ssakit knows (the ones the interpreter runs and the
 * passes read), checked the way LLVM's verifier checks a call to an intrinsic
 * (`Intrinsic::matchIntrinsicSignature` over the descriptor table `Intrinsic::getType`
 * decodes, lib/IR/Function.cpp): the base name (`llvm.memcpy`) fixes the shape, and the
 * overloaded types (`.p0.p0.i64`, `.f64`, `.v4i32`) are whatever the call's types bind.
 * LLVM reads a name whose suffix disagrees with the types (`llvm.smax.i64` on i32) by
 * re-mangling it, so the suffix is not checked here either. The overloaded types, in
 * LLVM's order (the variables' first plain appearance, result first), are what the name's
 * suffix mangles (`overloadTypes`, and intrinsic-mangling.ts).
 *
 * Signature notation: `ret(params)`; `A`/`B` are overloaded types, constrained where first
 * written (`A:int` an integer or integer vector, `A:fp` a float or float vector, `A:any`
 * any first-class type, `A:ivec`/`A:fvec` a vector of those, `P:ptr` a pointer of any
 * address space, LLVM's llvm_anyptr_ty); `A~i1` is i1 with A's vector
 * shape; `A.e` is A's element type; `{X,Y}` a literal struct. A parameter marked `!` is
 * `immarg` (the call must pass a constant); one marked `*` carries another attribute in
 * LLVM's table (nocapture, returned, …): LLVM attaches those to the declaration, so a
 * declaration with fewer parameters is rejected ("Attribute after last parameter!").
 *
 * Invariants: the table is the only place that knows a signature; unknown `llvm.*` names are
 * not checked (LLVM accepts calls to intrinsics it does not know as plain declarations).
 */
import { Type, TypeKind } from './types.js';

const SIGNATURES: Record<string, string> = {
  'memcpy': 'void(P:ptr*,Q:ptr*,A:int,i1!)',
  'memcpy.inline': 'void(P:ptr*,Q:ptr*,A:int,i1!)',
  'memmove': 'void(P:ptr*,Q:ptr*,A:int,i1!)',
  'memset': 'void(P:ptr*,i8,A:int,i1!)',
  'memset.inline': 'void(P:ptr*,i8,A:int,i1!)',
  'lifetime.start': 'void(i64!,P:ptr*)',
  'lifetime.end': 'void(i64!,P:ptr*)',
  'invariant.start': 'ptr(i64!,P:ptr*)',
  'invariant.end': 'void(ptr,i64!,P:ptr*)',
  'assume': 'void(i1*)',
  'experimental.noalias.scope.decl': 'void(metadata)',
  'donothing': 'void()',
  'sideeffect': 'void()',
  'trap': 'void()',
  'debugtrap': 'void()',
  'ubsantrap': 'void(i8!)',
  'prefetch': 'void(P:ptr*,i32!,i32!,i32!)',
  'pseudoprobe': 'void(i64,i64,i32,i64)',
  'expect': 'A:int(A,A)',
  'expect.with.probability': 'A:int(A,A,double!)',
  'stacksave': 'P:ptr()',
  'stackrestore': 'void(P:ptr)',
  'smax': 'A:int(A,A)',
  'smin': 'A:int(A,A)',
  'umax': 'A:int(A,A)',
  'umin': 'A:int(A,A)',
  'abs': 'A:int(A,i1!)',
  'ctpop': 'A:int(A)',
  'ctlz': 'A:int(A,i1!)',
  'cttz': 'A:int(A,i1!)',
  'bswap': 'A:int(A)',
  'bitreverse': 'A:int(A)',
  'fshl': 'A:int(A,A,A)',
  'fshr': 'A:int(A,A,A)',
  'sadd.with.overflow': '{A,A~i1}(A:int,A)',
  'uadd.with.overflow': '{A,A~i1}(A:int,A)',
  'ssub.with.overflow': '{A,A~i1}(A:int,A)',
  'usub.with.overflow': '{A,A~i1}(A:int,A)',
  'smul.with.overflow': '{A,A~i1}(A:int,A)',
  'umul.with.overflow': '{A,A~i1}(A:int,A)',
  'sadd.sat': 'A:int(A,A)',
  'uadd.sat': 'A:int(A,A)',
  'ssub.sat': 'A:int(A,A)',
  'usub.sat': 'A:int(A,A)',
  'sshl.sat': 'A:int(A,A)',
  'ushl.sat': 'A:int(A,A)',
  'ucmp': 'A:int(B:int,B)',
  'scmp': 'A:int(B:int,B)',
  'fmuladd': 'A:fp(A,A,A)',
  'fma': 'A:fp(A,A,A)',
  'fabs': 'A:fp(A)',
  'sqrt': 'A:fp(A)',
  'copysign': 'A:fp(A,A)',
  'floor': 'A:fp(A)',
  'ceil': 'A:fp(A)',
  'trunc': 'A:fp(A)',
  'roundeven': 'A:fp(A)',
  'round': 'A:fp(A)',
  'rint': 'A:fp(A)',
  'nearbyint': 'A:fp(A)',
  'canonicalize': 'A:fp(A)',
  'minnum': 'A:fp(A,A)',
  'maxnum': 'A:fp(A,A)',
  'minimum': 'A:fp(A,A)',
  'maximum': 'A:fp(A,A)',
  'pow': 'A:fp(A,A)',
  'powi': 'A:fp(A,B:int)',
  'exp': 'A:fp(A)',
  'exp2': 'A:fp(A)',
  'exp10': 'A:fp(A)',
  'log': 'A:fp(A)',
  'log2': 'A:fp(A)',
  'log10': 'A:fp(A)',
  'sin': 'A:fp(A)',
  'cos': 'A:fp(A)',
  'tan': 'A:fp(A)',
  'ldexp': 'A:fp(A,B:int)',
  'frexp': '{A,B}(A:fp)',
  'lround': 'B:int(A:fp)',
  'llround': 'B:int(A:fp)',
  'lrint': 'B:int(A:fp)',
  'llrint': 'B:int(A:fp)',
  'is.fpclass': 'A~i1(A:fp,i32!)',
  'is.constant': 'i1(A:any)',
  'va_start': 'void(P:ptr)',
  'va_end': 'void(P:ptr)',
  'va_copy': 'void(P:ptr,P)',
  'objectsize': 'A:int(P:ptr,i1!,i1!,i1!)',
  'load.relative': 'ptr(ptr,A:int)',
  'threadlocal.address': 'P:ptr(P*)',
  'ptrmask': 'P:ptr(P,B:int)', // B: the index width (intrinsic-verifier.ts)
  'get.rounding': 'i32()',
  'flt.rounds': 'i32()',
  'launder.invariant.group': 'P:ptr(P)',
  'strip.invariant.group': 'P:ptr(P)',
  'ssa.copy': 'A:any(A*)',
  'vector.reduce.add': 'A.e(A:ivec)',
  'vector.reduce.mul': 'A.e(A:ivec)',
  'vector.reduce.and': 'A.e(A:ivec)',
  'vector.reduce.or': 'A.e(A:ivec)',
  'vector.reduce.xor': 'A.e(A:ivec)',
  'vector.reduce.smax': 'A.e(A:ivec)',
  'vector.reduce.smin': 'A.e(A:ivec)',
  'vector.reduce.umax': 'A.e(A:ivec)',
  'vector.reduce.umin': 'A.e(A:ivec)',
  'vector.reduce.fadd': 'A.e(A.e,A:fvec)',
  'vector.reduce.fmul': 'A.e(A.e,A:fvec)',
  'vector.reduce.fmax': 'A.e(A:fvec)',
  'vector.reduce.fmin': 'A.e(A:fvec)',
  'vector.reduce.fmaximum': 'A.e(A:fvec)',
  'vector.reduce.fminimum': 'A.e(A:fvec)',
};

type Constraint = 'int' | 'fp' | 'any' | 'ivec' | 'fvec' | 'ptr';

/** One parsed type pattern: a fixed type word, an overloaded variable (maybe derived), or a struct. */
type Pattern = { fixed: string } | { v: string; derive: '' | '~i1' | '.e' } | { struct: Pattern[] };

export interface IntrinsicSignature {
  /** The base name, without `llvm.` and the overload suffix. */
  readonly base: string;
  readonly ret: Pattern;
  readonly params: Pattern[];
  readonly constraints: ReadonlyMap<string, Constraint>;
  /** Parameter indices that must be constants. */
  readonly immarg: readonly number[];
  /** How many parameters LLVM's attributes for it assume a declaration has. */
  readonly attributedParams: number;
  /** The notation it was read from (for messages). */
  readonly text: string;
  /** The overloaded variables in LLVM's order (first plain appearance, result first); empty when not overloaded. */
  readonly overloads: readonly string[];
  readonly overloaded: boolean;
}

function parsePattern(s: string, constraints: Map<string, Constraint>): Pattern {
  if (s.startsWith('{')) {
    const inner = s.slice(1, -1);
    return { struct: inner.split(',').map((p) => parsePattern(p, constraints)) };
  }
  const m = /^([A-Z])(?::(int|fp|any|ivec|fvec|ptr))?(~i1|\.e)?$/.exec(s);
  if (m === null) return { fixed: s };
  if (m[2] !== undefined) constraints.set(m[1], m[2] as Constraint);
  return { v: m[1], derive: (m[3] ?? '') as '' | '~i1' | '.e' };
}

const parsed = new Map<string, IntrinsicSignature>();

/** Splits at commas outside braces. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s[k];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, k));
      start = k + 1;
    }
  }
  if (s.length > 0) out.push(s.slice(start));
  return out;
}

function signatureOf(base: string): IntrinsicSignature {
  let sig = parsed.get(base);
  if (sig !== undefined) return sig;
  const text = SIGNATURES[base];
  const open = text.lastIndexOf('(');
  const constraints = new Map<string, Constraint>();
  const immarg: number[] = [];
  let attributedParams = 0;
  const params = splitTop(text.slice(open + 1, -1)).map((p, k) => {
    if (p.endsWith('!') || p.endsWith('*')) {
      if (p.endsWith('!')) immarg.push(k);
      attributedParams = k + 1;
      p = p.slice(0, -1);
    }
    return parsePattern(p, constraints);
  });
  const ret = parsePattern(text.slice(0, open), constraints);
  const overloads: string[] = [];
  const collect = (p: Pattern): void => {
    if ('struct' in p) p.struct.forEach(collect);
    else if ('v' in p && p.derive === '' && !overloads.includes(p.v)) overloads.push(p.v);
  };
  [ret, ...params].forEach(collect);
  sig = { base, ret, params, constraints, immarg, attributedParams, text, overloads, overloaded: overloads.length > 0 };
  parsed.set(base, sig);
  return sig;
}

/** The bases, longest first, so `memcpy.inline` is found before `memcpy`. */
const BASES = Object.keys(SIGNATURES).sort((a, b) => b.length - a.length);

/**
 * LLVM 19 intrinsics whose names extend a base of the table (from its IntrinsicEnums.inc):
 * LLVM's lookup takes the longest known name, so these are other intrinsics, not unknown to
 * LLVM, and not the table's.
 */
const LONGER_LLVM_NAMES = ['memcpy.element.unordered.atomic', 'memmove.element.unordered.atomic', 'memset.element.unordered.atomic'];

/**
 * The signature for an `llvm.*` function name, or null when ssakit does not know it. As
 * LLVM's Function::lookupIntrinsicID: the longest base the name starts with (then a dot),
 * and for an intrinsic that is not overloaded, the exact name (`llvm.trap.x` is a plain
 * function to LLVM).
 */
export function intrinsicSignature(name: string): IntrinsicSignature | null {
  if (!name.startsWith('llvm.')) return null;
  const n = name.slice(5);
  const isPrefix = (b: string): boolean => n === b || (n.startsWith(b) && n.charCodeAt(b.length) === 46 /* . */);
  if (LONGER_LLVM_NAMES.some(isPrefix)) return null;
  for (const b of BASES) {
    if (!isPrefix(b)) continue;
    const sig = signatureOf(b);
    return n === b || sig.overloaded ? sig : null;
  }
  return null;
}

function satisfies(t: Type, c: Constraint): boolean {
  const s = t.scalarType();
  switch (c) {
    case 'int':
      return s.kind === TypeKind.Int;
    case 'fp':
      return s.isFloatingPoint();
    case 'ivec':
      return t.kind === TypeKind.Vector && s.kind === TypeKind.Int;
    case 'fvec':
      return t.kind === TypeKind.Vector && s.isFloatingPoint();
    case 'any':
      return t.isFirstClass() && t.kind !== TypeKind.Metadata;
    case 'ptr':
      return t.kind === TypeKind.Ptr;
  }
}

/**
 * Whether `t` fits pattern `p`, binding overloaded variables on their first plain use.
 * Derived patterns (`A~i1`, `A.e`) are skipped (true) until `derived` is set: the caller
 * binds every variable in a first pass, then checks everything in a second.
 */
function matches(p: Pattern, t: Type, sig: IntrinsicSignature, bound: Map<string, Type>, derived: boolean): boolean {
  if ('fixed' in p) return t.toString() === p.fixed;
  if ('struct' in p) {
    if (t.kind !== TypeKind.Struct || t.members.length !== p.struct.length) return false;
    for (let k = 0; k < p.struct.length; k++) if (!matches(p.struct[k], t.members[k], sig, bound, derived)) return false;
    return true;
  }
  const b = bound.get(p.v);
  if (p.derive === '') {
    if (b !== undefined) return b === t;
    const c = sig.constraints.get(p.v) ?? 'any';
    if (!satisfies(t, c)) return false;
    bound.set(p.v, t);
    return true;
  }
  if (!derived) return true;
  if (b === undefined) return false;
  if (p.derive === '.e') return b.kind === TypeKind.Vector && t === b.elem;
  // A~i1: i1, or a vector of i1 as long as A
  if (b.kind === TypeKind.Vector) return t.kind === TypeKind.Vector && t.count === b.count && t.elem!.isInt(1);
  return t.isInt(1);
}

/**
 * Why a call's function type does not fit the intrinsic it calls, in LLVM's words, or null.
 * `ret` and `params` are the call's (which, for a direct call, the verifier has already
 * checked against the callee).
 */
export function intrinsicTypeProblem(name: string, ret: Type, params: readonly Type[], vararg: boolean): string | null {
  const sig = intrinsicSignature(name);
  if (sig === null) return null;
  const bound = new Map<string, Type>();
  const want = `(llvm.${sig.base} is ${sig.text.replace(/[!*]/g, '')})`;
  for (const derived of [false, true]) {
    if (!matches(sig.ret, ret, sig, bound, derived)) return `Intrinsic has incorrect return type! ${want}`;
    for (let k = 0; k < params.length; k++) {
      if (k >= sig.params.length || !matches(sig.params[k], params[k], sig, bound, derived)) return `Intrinsic has incorrect argument type! ${want}`;
    }
  }
  if (params.length < sig.params.length) return `Intrinsic was not defined with variable arguments! (llvm.${sig.base} takes ${sig.params.length} arguments, the call passes ${params.length})`;
  if (vararg) return `Intrinsic was not defined with variable arguments! ${want}`;
  return null;
}

/**
 * The overloaded types a call of function type `ret(params)` binds, in LLVM's order (what
 * the name's suffix mangles), or null when the type does not fit the signature (LLParser's
 * "invalid intrinsic signature").
 */
export function overloadTypes(sig: IntrinsicSignature, ret: Type, params: readonly Type[], vararg: boolean): Type[] | null {
  if (vararg || params.length !== sig.params.length) return null;
  const bound = new Map<string, Type>();
  for (const derived of [false, true]) {
    if (!matches(sig.ret, ret, sig, bound, derived)) return null;
    for (let k = 0; k < params.length; k++) if (!matches(sig.params[k], params[k], sig, bound, derived)) return null;
  }
  return sig.overloads.map((v) => bound.get(v)!);
}

/** Every base name in the table (for tests and tools that list what ssakit knows). */
export function intrinsicBases(): string[] {
  return Object.keys(SIGNATURES);
}
