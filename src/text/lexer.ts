/**
 * Lexer for LLVM's textual IR, hand-written for speed: it walks the source with
 * charCodeAt, keeps only the current token, and slices strings only for tokens that
 * carry text. Token classes follow LLVM's LLLexer (LocalVar `%x`, LocalVarID `%3`,
 * GlobalVar `@x`, LabelStr `x:`, MetadataVar `!x`, AttrGrpID `#0`, …).
 *
 * Invariants: `line` and `lineStart` always describe the current token's first character;
 * `save()`/`restore()` give cheap lookahead.
 */
import { SourceError } from '../util/diagnostic.js';
import { decodeNameBytes, encodeNameBytes } from '../util/name-bytes.js';

export enum Tok {
  EOF,
  LocalVar, // %name  (text = name)
  LocalVarID, // %12  (num)
  GlobalVar, // @name
  GlobalID, // @12
  LabelStr, // name:  or "name":
  LabelID, // 12:
  MetadataVar, // !name
  MetadataID, // !12
  Exclaim, // ! followed by { or "
  AttrGrpID, // #12
  Word, // keywords, type names, attribute words
  Int, // 123, -4  (text)
  Float, // 1.5e+00, 0x3FF0000000000000 (text)
  String, // "..." (text = decoded)
  CString, // c"..." (bytes)
  Equal,
  Comma,
  Star,
  LParen,
  RParen,
  LSquare,
  RSquare,
  LBrace,
  RBrace,
  Less,
  Greater,
  Colon,
  DotDotDot,
  Pipe,
}

export const TOK_NAMES: Record<Tok, string> = {
  [Tok.EOF]: 'end of file',
  [Tok.LocalVar]: 'local name',
  [Tok.LocalVarID]: 'local number',
  [Tok.GlobalVar]: 'global name',
  [Tok.GlobalID]: 'global number',
  [Tok.LabelStr]: 'label',
  [Tok.LabelID]: 'label number',
  [Tok.MetadataVar]: 'metadata name',
  [Tok.MetadataID]: 'metadata number',
  [Tok.Exclaim]: "'!'",
  [Tok.AttrGrpID]: 'attribute group',
  [Tok.Word]: 'keyword',
  [Tok.Int]: 'integer',
  [Tok.Float]: 'floating-point literal',
  [Tok.String]: 'string',
  [Tok.CString]: 'c-string',
  [Tok.Equal]: "'='",
  [Tok.Comma]: "','",
  [Tok.Star]: "'*'",
  [Tok.LParen]: "'('",
  [Tok.RParen]: "')'",
  [Tok.LSquare]: "'['",
  [Tok.RSquare]: "']'",
  [Tok.LBrace]: "'{'",
  [Tok.RBrace]: "'}'",
  [Tok.Less]: "'<'",
  [Tok.Greater]: "'>'",
  [Tok.Colon]: "':'",
  [Tok.DotDotDot]: "'...'",
  [Tok.Pipe]: "'|'",
};

export interface LexState {
  pos: number;
  line: number;
  lineStart: number;
  tok: Tok;
  start: number;
  text: string;
  num: number;
  bytes: Uint8Array | null;
  tokLine: number;
  tokLineStart: number;
  prevEnd: number;
}

function isIdChar(c: number): boolean {
  // [-a-zA-Z$._0-9]
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 36 || c === 46 || c === 95
  );
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * A value, label, attribute-group or metadata number as LLLexer reads it: `unsigned(atoull(...))`.
 * atoull gives 0 when a digit makes its 64-bit result smaller, and the number is then cut to
 * 32 bits; LLLexer's "invalid value number (too large)" only matters if the parse fails later,
 * so llvm-as-19 reads `%4294967296` as `%0`. ssakit reads it the same way, so both accept the
 * same files (and a message never shows a rounded float).
 */
function idNumber(src: string, p: number, q: number): number {
  if (q - p <= 9) return parseInt(src.slice(p, q), 10);
  const m64 = (1n << 64n) - 1n;
  let r = 0n;
  for (let k = p; k < q; k++) {
    const old = r;
    r = (r * 10n + BigInt(src.charCodeAt(k) - 48)) & m64;
    if (r < old) return 0;
  }
  return Number(r & 0xffffffffn);
}
function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

const INTERN_MASK = 4095;
/** Number of intern-table slots (`Lexer.slot` is below it). */
export const INTERN_SLOTS = INTERN_MASK + 1;

export class Lexer {
  pos = 0;
  line = 1;
  lineStart = 0;
  /** Current token. */
  tok: Tok = Tok.EOF;
  /** Source offset of the current token. */
  start = 0;
  /** Text of Word/Int/Float tokens, decoded names of LocalVar/GlobalVar/LabelStr/MetadataVar/String. */
  text = '';
  /** Number of LocalVarID/GlobalID/LabelID/MetadataID/AttrGrpID tokens. */
  num = 0;
  /**
   * The intern-table slot `text` came from, or -1: a key under which the parser caches what
   * a word means (its opcode, its type). Only a hint, possibly stale after peek(): users
   * compare the cached word with `text` before trusting the entry.
   */
  slot = -1;
  bytes: Uint8Array | null = null;
  tokLine = 1;
  tokLineStart = 0;
  /** End offset of the previous token (so raw slices never include comments). */
  prevEnd = 0;

  constructor(
    readonly src: string,
    readonly file: string,
  ) {}

  /** The current token (a method, so TypeScript does not narrow it across `next()` calls). */
  tk(): Tok {
    return this.tok;
  }

  get col(): number {
    return this.start - this.tokLineStart + 1;
  }

  /** Throws a located error at source offset `at` (default: the current token). */
  error(msg: string, at?: number): never {
    if (at === undefined) throw new SourceError(this.file, this.tokLine, this.col, msg);
    const { line, col } = this.lineCol(at);
    throw new SourceError(this.file, line, col, msg);
  }

  /** The 1-based line and column of a source offset (computed only for errors). */
  lineCol(offset: number): { line: number; col: number } {
    let line = 1;
    let lineStart = 0;
    const src = this.src;
    for (let k = src.indexOf('\n'); k >= 0 && k < offset; k = src.indexOf('\n', k + 1)) {
      line++;
      lineStart = k + 1;
    }
    return { line, col: offset - lineStart + 1 };
  }

  /** The location of the current token, as a source offset (cheap: no allocation). */
  loc(): number {
    return this.start;
  }

  /**
   * The kind of the token after the current one, without consuming anything. Also sets
   * `peekText` for words. Used for one-token lookahead on hot paths instead of save().
   */
  peek(): Tok {
    const pos = this.pos, line = this.line, lineStart = this.lineStart, tok = this.tok, start = this.start;
    const text = this.text, num = this.num, bytes = this.bytes, tokLine = this.tokLine, tokLineStart = this.tokLineStart;
    const prevEnd = this.prevEnd;
    const t = this.next();
    this.peekText = this.text;
    this.pos = pos;
    this.line = line;
    this.lineStart = lineStart;
    this.tok = tok;
    this.start = start;
    this.text = text;
    this.num = num;
    this.bytes = bytes;
    this.tokLine = tokLine;
    this.tokLineStart = tokLineStart;
    this.prevEnd = prevEnd;
    return t;
  }
  peekText = '';

  /**
   * Whether the token after the current one is the word `w` (a cheap character-level
   * lookahead for the common `, align 4`; falls back to peek() across lines or comments).
   */
  nextIsWord(w: string): boolean {
    const p = this.nextTokenStart();
    if (p < 0) return this.peek() === Tok.Word && this.peekText === w;
    const src = this.src;
    if (!src.startsWith(w, p)) return false;
    const after = src.charCodeAt(p + w.length);
    return !(isIdChar(after) || after === 58); // `align:` would be a label
  }

  /** Whether the token after the current one is a metadata name (`!dbg`): cheap, like nextIsWord. */
  nextIsMetadataName(): boolean {
    const p = this.nextTokenStart();
    if (p < 0) return this.peek() === Tok.MetadataVar;
    const src = this.src;
    if (src.charCodeAt(p) !== 33) return false;
    const d = src.charCodeAt(p + 1);
    return (isIdChar(d) && !isDigit(d)) || d === 92;
  }

  /** Where the next token starts when only blanks come before it on this line, else -1. */
  private nextTokenStart(): number {
    const src = this.src;
    let p = this.pos;
    let c = src.charCodeAt(p);
    while (c === 32 || c === 9 || c === 0) c = src.charCodeAt(++p);
    return c === 10 || c === 13 || c === 59 ? -1 : p;
  }

  save(): LexState {
    return {
      pos: this.pos, line: this.line, lineStart: this.lineStart, tok: this.tok, start: this.start, text: this.text,
      num: this.num, bytes: this.bytes, tokLine: this.tokLine, tokLineStart: this.tokLineStart, prevEnd: this.prevEnd,
    };
  }

  restore(s: LexState): void {
    this.pos = s.pos;
    this.line = s.line;
    this.lineStart = s.lineStart;
    this.tok = s.tok;
    this.start = s.start;
    this.text = s.text;
    this.num = s.num;
    this.bytes = s.bytes;
    this.tokLine = s.tokLine;
    this.tokLineStart = s.tokLineStart;
    this.prevEnd = s.prevEnd;
  }

  /**
   * Skips the text up to `offset` (counting its lines, so later locations stay right) and
   * reads the token there.
   */
  skipTo(offset: number): Tok {
    this.countLines(this.pos, offset);
    this.pos = offset;
    return this.next();
  }

  /** Advances to the next token and returns its kind. */
  next(): Tok {
    const src = this.src;
    const n = src.length;
    let p = this.pos;
    this.prevEnd = p;
    // skip whitespace and comments
    for (;;) {
      if (p >= n) break;
      const c = src.charCodeAt(p);
      if (c === 10) {
        p++;
        this.line++;
        this.lineStart = p;
      } else if (c === 32 || c === 9 || c === 13 || c === 0) {
        // LLLexer takes an embedded NUL for a blank too
        p++;
      } else if (c === 59) {
        // ';' comment to end of line
        const nl = src.indexOf('\n', p);
        p = nl < 0 ? n : nl;
      } else break;
    }
    this.start = p;
    this.tokLine = this.line;
    this.tokLineStart = this.lineStart;
    if (p >= n) {
      this.pos = p;
      return (this.tok = Tok.EOF);
    }
    const c = src.charCodeAt(p);
    switch (c) {
      case 37: // %
        return this.lexVar(p, Tok.LocalVar, Tok.LocalVarID);
      case 64: // @
        return this.lexVar(p, Tok.GlobalVar, Tok.GlobalID);
      case 33: {
        // !
        const d = src.charCodeAt(p + 1);
        if (isDigit(d)) {
          let q = p + 1;
          while (q < n && isDigit(src.charCodeAt(q))) q++;
          // LLParser reads `!N` with parseUInt32: no wrapping, an error
          if (q - p > 10 && BigInt(src.slice(p + 1, q)) > 0xffffffffn) this.lexError(p + 1, 'expected 32-bit integer (too large)');
          this.num = idNumber(src, p + 1, q);
          this.pos = q;
          return (this.tok = Tok.MetadataID);
        }
        if (isIdChar(d) || d === 92) {
          let q = p + 1;
          while (q < n && (isIdChar(src.charCodeAt(q)) || src.charCodeAt(q) === 92)) q++;
          this.text = unescapeName(src.slice(p + 1, q));
          this.pos = q;
          return (this.tok = Tok.MetadataVar);
        }
        this.pos = p + 1;
        return (this.tok = Tok.Exclaim);
      }
      case 35: {
        // #
        let q = p + 1;
        if (isIdChar(src.charCodeAt(q)) && !isDigit(src.charCodeAt(q))) {
          // a debug record such as `#dbg_value(...)`: lexed as a word
          while (q < n && isIdChar(src.charCodeAt(q))) q++;
          this.text = src.slice(p, q);
          this.pos = q;
          return (this.tok = Tok.Word);
        }
        while (q < n && isDigit(src.charCodeAt(q))) q++;
        if (q === p + 1) this.lexError(p, "expected attribute group number after '#'");
        this.num = idNumber(src, p + 1, q);
        this.pos = q;
        return (this.tok = Tok.AttrGrpID);
      }
      case 34: {
        // "string" or "label":
        const q = this.lexString(p + 1);
        if (src.charCodeAt(q) === 58) {
          this.pos = q + 1;
          return (this.tok = Tok.LabelStr);
        }
        this.pos = q;
        return (this.tok = Tok.String);
      }
      case 61: this.pos = p + 1; return (this.tok = Tok.Equal);
      case 44: this.pos = p + 1; return (this.tok = Tok.Comma);
      case 42: this.pos = p + 1; return (this.tok = Tok.Star);
      case 40: this.pos = p + 1; return (this.tok = Tok.LParen);
      case 41: this.pos = p + 1; return (this.tok = Tok.RParen);
      case 91: this.pos = p + 1; return (this.tok = Tok.LSquare);
      case 93: this.pos = p + 1; return (this.tok = Tok.RSquare);
      case 123: this.pos = p + 1; return (this.tok = Tok.LBrace);
      case 125: this.pos = p + 1; return (this.tok = Tok.RBrace);
      case 60: this.pos = p + 1; return (this.tok = Tok.Less);
      case 62: this.pos = p + 1; return (this.tok = Tok.Greater);
      case 58: this.pos = p + 1; return (this.tok = Tok.Colon);
      case 124: this.pos = p + 1; return (this.tok = Tok.Pipe);
      default:
        break;
    }
    if (c === 46 && src.charCodeAt(p + 1) === 46 && src.charCodeAt(p + 2) === 46) {
      this.pos = p + 3;
      return (this.tok = Tok.DotDotDot);
    }
    if (isIdChar(c)) {
      let q = p;
      let h = 0;
      for (; q < n; q++) {
        const d = src.charCodeAt(q);
        if (!isIdChar(d)) break;
        h = (h * 31 + d) | 0;
      }
      if (src.charCodeAt(q) === 58 /* : */) {
        // a label definition: `name:` or `12:`
        let allDigits = true;
        for (let k = p; k < q; k++) if (!isDigit(src.charCodeAt(k))) { allDigits = false; break; }
        this.pos = q + 1;
        if (allDigits) {
          this.num = idNumber(src, p, q);
          return (this.tok = Tok.LabelID);
        }
        this.text = src.slice(p, q);
        return (this.tok = Tok.LabelStr);
      }
      if (isDigit(c) || c === 45 /* - */ || (c === 43 && isDigit(src.charCodeAt(p + 1)))) return this.lexNumber(p);
      // c"..." string constants
      if (c === 99 && q === p + 1 && src.charCodeAt(q) === 34) {
        const e = this.lexStringBytes(q + 1);
        this.pos = e;
        return (this.tok = Tok.CString);
      }
      // u0x / s0x hexadecimal integers
      if ((c === 117 || c === 115) && src.charCodeAt(p + 1) === 48 && src.charCodeAt(p + 2) === 120) {
        const v = BigInt('0x' + src.slice(p + 3, q));
        this.text = (c === 115 ? BigInt.asIntN((q - p - 3) * 4, v) : v).toString();
        this.pos = q;
        return (this.tok = Tok.Int);
      }
      this.text = this.intern(p, q, h);
      this.pos = q;
      return (this.tok = Tok.Word);
    }
    if (c === 43 && isDigit(src.charCodeAt(p + 1))) return this.lexNumber(p);
    this.lexError(p, `unexpected character '${String.fromCharCode(c)}'`);
  }

  private lexError(p: number, msg: string): never {
    throw new SourceError(this.file, this.line, p - this.lineStart + 1, msg);
  }

  private lexVar(p: number, named: Tok, numbered: Tok): Tok {
    const src = this.src;
    const n = src.length;
    const d = src.charCodeAt(p + 1);
    if (d === 34) {
      const q = this.lexString(p + 2);
      this.pos = q;
      return (this.tok = named);
    }
    if (isDigit(d)) {
      let q = p + 1;
      while (q < n && isDigit(src.charCodeAt(q))) q++;
      // as LLLexer: a name never starts with a digit, so `%12x` is `%12` and then `x`
      this.num = idNumber(src, p + 1, q);
      this.pos = q;
      return (this.tok = numbered);
    }
    let q = p + 1;
    let h = 0;
    for (; q < n; q++) {
      const e = src.charCodeAt(q);
      if (!isIdChar(e)) break;
      h = (h * 31 + e) | 0;
    }
    if (q === p + 1) this.lexError(p, `expected a name after '${src[p]}'`);
    this.text = this.intern(p + 1, q, h);
    this.pos = q;
    return (this.tok = named);
  }

  /** Lexes a quoted string body starting after the opening quote; sets `text`; returns the offset after the closing quote. */
  private lexString(p: number): number {
    const src = this.src;
    const close = src.indexOf('"', p);
    if (close < 0) this.lexError(p - 1, 'unterminated string');
    let body = src.slice(p, close);
    this.countLines(p, close);
    if (body.indexOf('\\') >= 0) body = unescapeName(body);
    this.text = body;
    return close + 1;
  }

  private lexStringBytes(p: number): number {
    const close = this.src.indexOf('"', p);
    if (close < 0) this.lexError(p - 1, 'unterminated string');
    this.countLines(p, close);
    this.bytes = Uint8Array.from(escapedBytes(this.src.slice(p, close)));
    return close + 1;
  }

  /** Advances `line`/`lineStart` over the newlines in `src[from, to)` (a quoted string, a skipped body). */
  private countLines(from: number, to: number): void {
    const src = this.src;
    for (let k = src.indexOf('\n', from); k >= 0 && k < to; k = src.indexOf('\n', k + 1)) {
      this.line++;
      this.lineStart = k + 1;
    }
  }

  private lexNumber(p: number): Tok {
    const src = this.src;
    const n = src.length;
    let q = p;
    if (src.charCodeAt(q) === 45 || src.charCodeAt(q) === 43) q++;
    // hexadecimal floating point: 0x..., 0xK..., 0xL..., 0xM..., 0xH..., 0xR...
    if (src.charCodeAt(q) === 48 && src.charCodeAt(q + 1) === 120) {
      q += 2;
      const kind = src.charCodeAt(q);
      if (kind === 75 || kind === 76 || kind === 77 || kind === 72 || kind === 82) q++;
      while (q < n && hexVal(src.charCodeAt(q)) >= 0) q++;
      this.text = src.slice(p, q);
      this.pos = q;
      return (this.tok = Tok.Float);
    }
    const digits0 = q;
    while (q < n && isDigit(src.charCodeAt(q))) q++;
    if (q === digits0) this.lexError(p, 'expected a number');
    let isFloat = false;
    if (src.charCodeAt(q) === 46) {
      isFloat = true;
      q++;
      while (q < n && isDigit(src.charCodeAt(q))) q++;
    }
    const e = src.charCodeAt(q);
    if (isFloat && (e === 101 || e === 69)) {
      let r = q + 1;
      if (src.charCodeAt(r) === 43 || src.charCodeAt(r) === 45) r++;
      if (isDigit(src.charCodeAt(r))) {
        while (r < n && isDigit(src.charCodeAt(r))) r++;
        q = r;
      }
    }
    // as LLVM's lexer: a leading '+' only on a floating-point literal (`+1.5`, not `+5`)
    if (!isFloat && src.charCodeAt(p) === 43) this.lexError(p, "'+' may only start a floating-point literal (write 5, not +5)");
    this.text = isFloat ? src.slice(p, q) : this.internAny(p, q);
    this.pos = q;
    return (this.tok = isFloat ? Tok.Float : Tok.Int);
  }

  /**
   * The text `src[p, q)`, reusing an earlier equal string when the cache holds one: the
   * same keywords, types and names recur on every line, and slicing each afresh was a
   * large share of the parser's allocation. `h` is the caller's hash of the characters.
   */
  private intern(p: number, q: number, h: number): string {
    const len = q - p;
    if (len > 32) {
      this.slot = -1;
      return this.src.slice(p, q);
    }
    const slot = (h ^ (h >>> 12) ^ len) & INTERN_MASK;
    this.slot = slot;
    const cached = this.internTable[slot];
    // startsWith compares in a builtin: twice as fast as a charCodeAt loop on short words
    if (cached !== undefined && cached.length === len && this.src.startsWith(cached, p)) return cached;
    const s = this.src.slice(p, q);
    this.internTable[slot] = s;
    return s;
  }

  private internAny(p: number, q: number): string {
    if (q - p > 32) return this.src.slice(p, q);
    const src = this.src;
    let h = 0;
    for (let k = p; k < q; k++) h = (h * 31 + src.charCodeAt(k)) | 0;
    return this.intern(p, q, h);
  }

  private readonly internTable: (string | undefined)[] = new Array<string | undefined>(INTERN_MASK + 1).fill(undefined);

  /** Raw source text between two offsets (for attributes and metadata kept opaquely). */
  slice(from: number, to: number): string {
    return this.src.slice(from, to);
  }

  /** End offset of the current token. */
  get end(): number {
    return this.pos;
  }
}

/**
 * Decodes `\XX` escapes in a quoted name or string. Names are byte strings in LLVM: the
 * bytes decode as UTF-8, and bytes that are not valid UTF-8 are kept as surrogate escapes
 * (see src/util/name-bytes.ts), so printing gives back the same bytes.
 */
export function unescapeName(s: string): string {
  return s.indexOf('\\') < 0 ? s : decodeNameBytes(escapedBytes(s));
}

/**
 * The bytes the body of a quoted name or c-string stands for: `\\` is a backslash, `\XX` a
 * byte, any other character its UTF-8 bytes (surrogate escapes give back their byte).
 */
export function escapedBytes(s: string): number[] {
  const bytes: number[] = [];
  let from = 0; // start of the run of ordinary characters not yet encoded
  const flush = (to: number): void => {
    if (to > from) for (const b of encodeNameBytes(s.slice(from, to))) bytes.push(b);
  };
  for (let k = 0; k < s.length; k++) {
    if (s.charCodeAt(k) !== 92) continue;
    flush(k);
    if (s.charCodeAt(k + 1) === 92) {
      bytes.push(92);
      k++;
    } else {
      const h1 = hexVal(s.charCodeAt(k + 1));
      const h2 = hexVal(s.charCodeAt(k + 2));
      if (h1 >= 0 && h2 >= 0) {
        bytes.push(h1 * 16 + h2);
        k += 2;
      } else bytes.push(92);
    }
    from = k + 1;
  }
  flush(s.length);
  return bytes;
}
