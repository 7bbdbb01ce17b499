/**
 * Types, attributes and alignments of LLVM IR (LLParser::parseType, parseOptionalAttrs, …):
 * the part of the parser chain (see parser-base.ts) that reads no values.
 */
import { Opcode, OPCODE_BY_NAME } from '../ir/opcodes.js';
import {
  Type,
  TypeKind,
  arrayType,
  bfloatType,
  doubleType,
  floatType,
  fp128Type,
  functionType,
  halfType,
  i1,
  i32,
  intType,
  labelType,
  metadataType,
  ptrType,
  structType,
  tokenType,
  vectorType,
  voidType,
  x86fp80Type,
} from '../ir/types.js';
import { INTERN_SLOTS, Lexer, Tok } from './lexer.js';
import {
  attributePlaceProblem,
  attributeTypeProblem,
  isAttributeWord,
  readAttributeArgument,
  stringFnAttributeProblem,
  type AttrHost,
} from './attributes.js';
import { Loc, ParserBase } from './parser-base.js';

/** Type keywords already seen (i32, ptr, …) → their types, so hot paths skip string parsing. */
const SIMPLE_TYPES = new Map<string, Type>([
  ['void', voidType], ['ptr', ptrType(0)], ['float', floatType], ['double', doubleType], ['half', halfType],
  ['bfloat', bfloatType], ['x86_fp80', x86fp80Type], ['fp128', fp128Type], ['label', labelType],
  ['metadata', metadataType], ['token', tokenType], ['i1', i1], ['i8', intType(8)], ['i16', intType(16)],
  ['i32', i32], ['i64', intType(64)],
]);

/** An open bracket of a type being read (Parser.parseType): what closes it, and what it holds so far. */
interface TypeFrame {
  kind: TypeKind;
  count: number;
  packed: boolean;
  /** Struct members or function parameters read so far. */
  items: Type[] | null;
  /** A function type's return type. */
  ret: Type | null;
  loc: number;
  allow: boolean;
}

/**
 * What the words at each intern slot of the lexer mean: one array load and a string compare
 * instead of a Map lookup for every opcode and type word read (1M instructions read about 3M
 * of them). A slot holds the last word looked up there; an entry is used only when its word
 * is the word, so a stale or colliding slot costs a lookup, never a wrong answer.
 */
class WordCache<T> {
  private readonly words: (string | undefined)[] = new Array<string | undefined>(INTERN_SLOTS).fill(undefined);
  private readonly values: (T | undefined)[] = new Array<T | undefined>(INTERN_SLOTS).fill(undefined);

  get(slot: number, w: string): T | undefined {
    return slot >= 0 && this.words[slot] === w ? this.values[slot] : undefined;
  }

  set(slot: number, w: string, v: T): void {
    if (slot < 0) return;
    this.words[slot] = w;
    this.values[slot] = v;
  }
}

export abstract class TypeParser extends ParserBase {
  // ---- types --------------------------------------------------------------------------

  /** Opcode and type words already looked up (see WordCache). */
  protected readonly opcodes = new WordCache<Opcode>();
  protected readonly types = new WordCache<Type>();

  /** The opcode a word names (undefined for other words). */
  protected opcodeOf(w: string): Opcode | undefined {
    const slot = this.lx.slot;
    let op = this.opcodes.get(slot, w);
    if (op === undefined) {
      op = OPCODE_BY_NAME.get(w);
      if (op !== undefined) this.opcodes.set(slot, w, op);
    }
    return op;
  }

  /**
   * A type. Iterative, with an explicit stack of the open brackets (`[N x`, `<N x`, `{`,
   * `<{`, a function type's `(`), so types nested thousands deep (llvm-as-19 reads 10,000)
   * cannot overflow the JS stack.
   */
  parseType(allowVoid = true): Type {
    const lx = this.lx;
    const stack: TypeFrame[] = [];
    let allow = allowVoid;
    let loc = lx.loc();
    for (;;) {
      // the head of a type: a word, a name, or an opening bracket (which pushes a frame)
      loc = lx.loc();
      let t: Type | null = null;
      switch (lx.tk()) {
        case Tok.Word: {
          t = this.simpleType(lx.text, loc);
          lx.next();
          if (t.kind === TypeKind.Ptr && this.isWord('addrspace')) {
            lx.next();
            this.expect(Tok.LParen);
            t = ptrType(this.parseUInt('address space'));
            this.expect(Tok.RParen);
          }
          break;
        }
        case Tok.LSquare: {
          lx.next();
          const n = this.parseUInt('array length');
          this.expectWord('x');
          stack.push({ kind: TypeKind.Array, count: n, packed: false, items: null, ret: null, loc, allow });
          break;
        }
        case Tok.Less: {
          lx.next();
          if (lx.tk() === Tok.LBrace) {
            lx.next();
            if (lx.tk() === Tok.RBrace) {
              lx.next();
              this.expect(Tok.Greater);
              t = structType([], true);
            } else stack.push({ kind: TypeKind.Struct, count: 0, packed: true, items: [], ret: null, loc, allow });
            break;
          }
          if (this.eatWord('vscale')) this.error('scalable vectors are not supported', loc);
          const n = this.parseUInt('vector length');
          this.expectWord('x');
          stack.push({ kind: TypeKind.Vector, count: n, packed: false, items: null, ret: null, loc, allow });
          break;
        }
        case Tok.LBrace:
          lx.next();
          if (lx.tk() === Tok.RBrace) {
            lx.next();
            t = structType([], false);
          } else stack.push({ kind: TypeKind.Struct, count: 0, packed: false, items: [], ret: null, loc, allow });
          break;
        case Tok.LocalVar:
          t = this.m.getOrCreateStruct(lx.text);
          lx.next();
          break;
        default:
          this.error(`expected type, found ${this.describe()}`, loc);
      }
      if (t === null) {
        allow = false; // an element, member or parameter is never void
        continue;
      }
      // a complete type: its suffixes, then the frames it completes
      for (;;) {
        let opened = false;
        // legacy suffixes: `*` pointers and `(params)` function types
        for (;;) {
          if (lx.tk() === Tok.Star) {
            lx.next();
            t = ptrType(0);
          } else if (this.isWord('addrspace') && t.kind !== TypeKind.Ptr) {
            lx.next();
            this.expect(Tok.LParen);
            const as = this.parseUInt();
            this.expect(Tok.RParen);
            this.expect(Tok.Star);
            t = ptrType(as);
          } else if (lx.tk() === Tok.LParen) {
            lx.next();
            if (lx.tk() === Tok.RParen) {
              lx.next();
              t = functionType(t, [], false);
            } else if (lx.tk() === Tok.DotDotDot) {
              lx.next();
              this.expect(Tok.RParen);
              t = functionType(t, [], true);
            } else {
              stack.push({ kind: TypeKind.Function, count: 0, packed: false, items: [], ret: t, loc, allow });
              opened = true;
              break;
            }
          } else break;
        }
        if (opened) break;
        if (!allow && t === voidType) this.error('void is not a valid element type here', loc);
        const f = stack.pop();
        if (f === undefined) return t;
        if (f.kind === TypeKind.Array || f.kind === TypeKind.Vector) {
          this.expect(f.kind === TypeKind.Array ? Tok.RSquare : Tok.Greater);
          t = f.kind === TypeKind.Array ? arrayType(t, f.count) : vectorType(t, f.count);
        } else if (f.kind === TypeKind.Struct) {
          f.items!.push(t);
          if (this.eat(Tok.Comma)) {
            stack.push(f);
            break;
          }
          this.expect(Tok.RBrace);
          if (f.packed) this.expect(Tok.Greater);
          t = structType(f.items!, f.packed);
        } else {
          f.items!.push(t);
          // LLParser::parseFunctionType reads them, then refuses them
          if (this.skipParamAttrs('param', t) !== '') this.error('argument attributes invalid in function type', loc);
          let vararg = false;
          if (this.eat(Tok.Comma)) {
            if (lx.tk() !== Tok.DotDotDot) {
              stack.push(f);
              break;
            }
            lx.next();
            vararg = true;
          }
          this.expect(Tok.RParen);
          t = functionType(f.ret!, f.items!, vararg);
        }
        loc = f.loc;
        allow = f.allow;
      }
      allow = false;
    }
  }

  protected simpleType(w: string, loc: Loc): Type {
    const slot = this.lx.slot;
    const cached = this.types.get(slot, w);
    if (cached !== undefined) return cached;
    const known = SIMPLE_TYPES.get(w);
    if (known !== undefined) {
      this.types.set(slot, w, known);
      return known;
    }
    const c = w.charCodeAt(0);
    if (c === 105 /* i */ && w.length > 1) {
      const bits = Number(w.slice(1));
      if (Number.isInteger(bits) && bits > 0 && bits <= 8388608 && /^i[0-9]+$/.test(w)) {
        const t = intType(bits);
        SIMPLE_TYPES.set(w, t);
        return t;
      }
    }
    switch (w) {
      case 'void': return voidType;
      case 'ptr': return ptrType(0);
      case 'float': return floatType;
      case 'double': return doubleType;
      case 'half': return halfType;
      case 'bfloat': return bfloatType;
      case 'x86_fp80': return x86fp80Type;
      case 'fp128': return fp128Type;
      case 'label': return labelType;
      case 'metadata': return metadataType;
      case 'token': return tokenType;
      case 'ppc_fp128':
      case 'x86_amx':
      case 'x86_mmx':
        this.error(`type '${w}' is not supported`, loc);
    }
    this.error(`expected type, found '${w}'`, loc);
  }

  /**
   * Reads parameter (or return) attributes as LLParser does, returning their text: each word
   * must be allowed in that place (src/text/attributes.ts) and its argument well formed; with
   * `type`, the verifier's type rules are checked too (for a return value, the caller checks
   * `lastAttrWords` once it has read the type).
   */
  protected skipParamAttrs(place: 'param' | 'ret' = 'param', type: Type | null = null): string {
    const lx = this.lx;
    const start = lx.start;
    let any = false;
    const words: { w: string; start: number; loc: Loc }[] = [];
    for (;;) {
      if (lx.tk() === Tok.Word && isAttributeWord(lx.text)) {
        const w = lx.text;
        const wloc = lx.loc();
        const problem = attributePlaceProblem(w, place);
        if (problem !== null) this.error(problem, wloc);
        lx.next();
        any = true;
        if (w === 'align') this.parseAlignment(true);
        else if (w === 'range') this.parseRangeAttr();
        else if (!readAttributeArgument(this.attrHost, w, place) && lx.tk() === Tok.LParen) this.error("expected ',' or ')'");
        words.push({ w, start: wloc, loc: wloc });
        continue;
      }
      if (lx.tk() === Tok.String) {
        // "string" attributes on parameters
        lx.next();
        any = true;
        if (lx.tk() === Tok.Equal) {
          lx.next();
          // LLParser::parseStringAttribute: `"key"=` takes a string constant
          if (lx.tk() !== Tok.String) this.error('expected string constant');
          lx.next();
        }
        continue;
      }
      break;
    }
    this.lastAttrWords = words.map((x, k) => ({ w: x.w, loc: x.loc, text: lx.slice(x.start, k + 1 < words.length ? words[k + 1].start : lx.prevEnd).trim() }));
    if (type !== null) this.checkAttrTypes(type);
    return any ? lx.slice(start, lx.prevEnd).trim() : '';
  }

  /** The attributes the last skipParamAttrs read: word, place and text (for the type rules). */
  protected lastAttrWords: { w: string; loc: Loc; text: string }[] = [];

  /** The verifier's type rules for the attributes just read, on a value of type `t`. */
  protected checkAttrTypes(t: Type): void {
    for (const a of this.lastAttrWords) {
      const problem = attributeTypeProblem(a.w, a.text.replace(/\s+"[^"]*"(=".*)?$/, ''), t);
      if (problem !== null) this.error(problem, a.loc);
    }
  }

  /** A group's first string attribute the verifier rejects ("frame-pointer"="x"), by group id. */
  protected groupProblems = new Map<number, { msg: string; loc: Loc }>();
  /** The groups functions and calls refer to (checked once every group is read). */
  protected groupRefs: number[] = [];

  /** A `"key"="value"` function attribute, checked by the verifier's rules for function string attributes. */
  protected stringFnAttribute(): void {
    const lx = this.lx;
    const key = lx.text;
    const loc = lx.loc();
    let value: string | null = null;
    lx.next();
    if (lx.tk() === Tok.Equal) {
      lx.next();
      if (lx.tk() !== Tok.String) this.error('expected string constant');
      value = lx.text;
      lx.next();
    }
    const problem = stringFnAttributeProblem(key, value);
    if (problem !== null) this.error(problem, loc);
  }

  /** What src/text/attributes.ts needs of this parser. */
  protected readonly attrHost: AttrHost = ((p: TypeParser): AttrHost => ({
    get lx(): Lexer {
      return p.lx;
    },
    parseType: (allowVoid?: boolean) => p.parseType(allowVoid),
    fail: (msg: string, loc?: Loc) => p.error(msg, loc),
  }))(this);

  // ---- alignments and attribute arguments ------------------------------------------------------------------------

  /**
   * The value after `align` (or `align(N)` when `parens` allows it), checked as LLParser
   * checks it: a non-negative integer, a power of two, at most 2^32.
   */
  protected parseAlignment(parens: boolean): number {
    const lx = this.lx;
    const paren = parens && lx.tk() === Tok.LParen;
    if (paren) lx.next();
    const loc = lx.loc();
    if (lx.tk() !== Tok.Int || lx.text.startsWith('-')) this.error('expected integer', loc);
    const v = BigInt(lx.text);
    if (v > 4294967296n) this.error('huge alignments are not supported yet', loc);
    if (v === 0n || (v & (v - 1n)) !== 0n) this.error('alignment is not a power of two', loc);
    lx.next();
    if (paren) this.expect(Tok.RParen);
    return Number(v);
  }

  /** `range(iN lo, hi)`: an integer type, two integers that fit it, not the full or empty set. */
  protected parseRangeAttr(): void {
    const lx = this.lx;
    this.expect(Tok.LParen);
    const tloc = lx.loc();
    const t = this.parseType();
    if (t.kind !== TypeKind.Int) this.error('the range must have integer type!', tloc);
    const bound = (): bigint => {
      const loc = lx.loc();
      if (lx.tk() !== Tok.Int) this.error('expected integer', loc);
      const v = BigInt(lx.text);
      // LLParser reads an APSInt: it must fit the width, as a signed or an unsigned number
      const bits = BigInt(t.bits);
      if (v < 0n ? v < -(1n << (bits - 1n)) : v >= 1n << bits) this.error('integer is too large for the bit width of specified type', loc);
      lx.next();
      return BigInt.asUintN(t.bits, v);
    };
    const lo = bound();
    this.expect(Tok.Comma);
    const hiLoc = lx.loc();
    const hi = bound();
    if (lo === hi) this.error('the range should not represent the full or empty set!', hiLoc);
    this.expect(Tok.RParen);
  }

  /** `allocsize(N)` / `allocsize(N, M)`: distinct indices of integer parameters (LLParser and the verifier). */
  protected parseAllocSize(fnType: Type, loc: Loc): void {
    this.expect(Tok.LParen);
    const elem = this.parseUInt();
    let num: number | null = null;
    if (this.eat(Tok.Comma)) {
      num = this.parseUInt();
      if (num === elem) this.error("'allocsize' indices can't refer to the same parameter", loc);
    }
    this.expect(Tok.RParen);
    const params = fnType.params;
    for (const [k, what] of [[elem, 'element size'], [num, 'number of elements']] as const) {
      if (k === null) continue;
      if (k >= params.length) this.error(`'allocsize' ${what} argument is out of bounds`, loc);
      if (params[k].kind !== TypeKind.Int) this.error(`'allocsize' ${what} argument must refer to an integer parameter`, loc);
    }
  }

  /** `allockind("alloc,zeroed")`: a string of the kinds LLParser knows. */
  protected parseAllocKind(): void {
    const lx = this.lx;
    this.expect(Tok.LParen);
    const loc = lx.loc();
    if (lx.tk() !== Tok.String) this.error('expected allockind value', loc);
    for (const k of lx.text.split(',')) {
      if (!['alloc', 'realloc', 'free', 'uninitialized', 'zeroed', 'aligned'].includes(k)) this.error(`unknown allockind ${k}`, loc);
    }
    lx.next();
    this.expect(Tok.RParen);
  }
}
