/**
 * Hand-written lexer for SysY 2022 (a C subset).
 *
 * A streaming scanner: `next()` moves to the next token and leaves its kind,
 * span and value in public fields, so the parser allocates nothing per token.
 * Numbers are scanned like C's pp-numbers (greedily, letters and dots
 * included) and then validated, so `09`, `1e`, `0x` and `12abc` are one bad
 * token with a precise message instead of several confusing good ones.
 *
 * Literal values follow C: an integer literal is its mathematical value (the
 * parser/sema decide whether it fits `int`); a floating literal is read as a C
 * `double` and rounded once to IEEE single (`Math.fround`), which is what
 * `float f = 1.1;` does in C. A trailing `f`/`F` is accepted (a C-ism SysY
 * lacks). Hex floats (`0x1.8p3`) are exact: the mantissa is read as a BigInt.
 */

export enum Tok {
  EOF,
  /** A malformed token; `Lexer.error` says why. */
  Error,
  Ident,
  IntLit,
  FloatLit,
  /** A string literal (only legal as the format of `putf`); `Lexer.text` is its decoded value. */
  String,
  KwInt,
  KwFloat,
  KwVoid,
  KwConst,
  KwIf,
  KwElse,
  KwWhile,
  KwBreak,
  KwContinue,
  KwReturn,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Not,
  Lt,
  Gt,
  Le,
  Ge,
  EqEq,
  NotEq,
  AndAnd,
  OrOr,
  Assign,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Semi,
}

const KEYWORDS: ReadonlyMap<string, Tok> = new Map([
  ['int', Tok.KwInt],
  ['float', Tok.KwFloat],
  ['void', Tok.KwVoid],
  ['const', Tok.KwConst],
  ['if', Tok.KwIf],
  ['else', Tok.KwElse],
  ['while', Tok.KwWhile],
  ['break', Tok.KwBreak],
  ['continue', Tok.KwContinue],
  ['return', Tok.KwReturn],
]);

const SPELLING: readonly string[] = [
  'end of file', 'invalid token', 'identifier', 'integer literal', 'floating literal', 'string literal',
  'int', 'float', 'void', 'const', 'if', 'else', 'while', 'break', 'continue', 'return',
  '+', '-', '*', '/', '%', '!', '<', '>', '<=', '>=', '==', '!=', '&&', '||', '=',
  '(', ')', '[', ']', '{', '}', ',', ';',
];

/** How a token kind is named in messages: `';'`, `identifier`, `end of file`. */
export function tokName(kind: Tok): string {
  return kind >= Tok.KwInt ? `'${SPELLING[kind]}'` : SPELLING[kind];
}

// Character classes, indexed by char code (ASCII only; anything else is "other").
const C_DIGIT = 1;
const C_ALPHA = 2; // letters and '_'
const C_HEX = 4;
const CLASS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) CLASS[c] = C_DIGIT | C_HEX;
for (let c = 65; c <= 90; c++) CLASS[c] = C_ALPHA;
for (let c = 97; c <= 122; c++) CLASS[c] = C_ALPHA;
for (let c = 65; c <= 70; c++) CLASS[c] |= C_HEX;
for (let c = 97; c <= 102; c++) CLASS[c] |= C_HEX;
CLASS[95] = C_ALPHA;

function isIdentChar(c: number): boolean {
  return c < 128 && (CLASS[c] & (C_DIGIT | C_ALPHA)) !== 0;
}

export class Lexer {
  readonly src: string;
  pos = 0;
  /** The current token. */
  kind: Tok = Tok.EOF;
  start = 0;
  end = 0;
  /** Value of an IntLit (exact, may exceed int range) or FloatLit (already rounded to float). */
  value = 0;
  /** Identifier name, or decoded string literal. */
  text = '';
  /** Message for a Tok.Error token, and the offset it points at. */
  error = '';
  errorPos = 0;

  constructor(src: string) {
    this.src = src;
    this.next();
  }

  next(): void {
    const s = this.src;
    const n = s.length;
    let p = this.pos;
    // Skip white space and comments.
    for (;;) {
      if (p >= n) break;
      const c = s.charCodeAt(p);
      if (c === 32 || c === 10 || c === 9 || c === 13 || c === 11 || c === 12) {
        p++;
      } else if (c === 47 /* / */ && p + 1 < n) {
        const d = s.charCodeAt(p + 1);
        if (d === 47) {
          p += 2;
          while (p < n && s.charCodeAt(p) !== 10) p++;
        } else if (d === 42 /* * */) {
          const close = s.indexOf('*/', p + 2);
          if (close < 0) {
            this.start = p;
            this.pos = this.end = n;
            this.fail(p, 'unterminated /* comment');
            return;
          }
          p = close + 2;
        } else break;
      } else break;
    }
    this.start = p;
    if (p >= n) {
      this.kind = Tok.EOF;
      this.pos = this.end = n;
      return;
    }
    const c = s.charCodeAt(p);
    if (c < 128 && (CLASS[c] & C_ALPHA) !== 0) {
      let q = p + 1;
      while (q < n && isIdentChar(s.charCodeAt(q))) q++;
      const word = s.slice(p, q);
      this.kind = KEYWORDS.get(word) ?? Tok.Ident;
      this.text = word;
      this.pos = this.end = q;
      return;
    }
    if ((c >= 48 && c <= 57) || (c === 46 && p + 1 < n && isDigit(s.charCodeAt(p + 1)))) {
      this.scanNumber(p);
      return;
    }
    let kind: Tok;
    let len = 1;
    const d = p + 1 < n ? s.charCodeAt(p + 1) : 0;
    switch (c) {
      case 43: kind = Tok.Plus; break;
      case 45: kind = Tok.Minus; break;
      case 42: kind = Tok.Star; break;
      case 47: kind = Tok.Slash; break;
      case 37: kind = Tok.Percent; break;
      case 40: kind = Tok.LParen; break;
      case 41: kind = Tok.RParen; break;
      case 91: kind = Tok.LBracket; break;
      case 93: kind = Tok.RBracket; break;
      case 123: kind = Tok.LBrace; break;
      case 125: kind = Tok.RBrace; break;
      case 44: kind = Tok.Comma; break;
      case 59: kind = Tok.Semi; break;
      case 33: if (d === 61) { kind = Tok.NotEq; len = 2; } else kind = Tok.Not; break;
      case 60: if (d === 61) { kind = Tok.Le; len = 2; } else kind = Tok.Lt; break;
      case 62: if (d === 61) { kind = Tok.Ge; len = 2; } else kind = Tok.Gt; break;
      case 61: if (d === 61) { kind = Tok.EqEq; len = 2; } else kind = Tok.Assign; break;
      case 38:
        if (d === 38) { kind = Tok.AndAnd; len = 2; break; }
        this.pos = this.end = p + 1;
        this.fail(p, "unexpected character '&' (SysY has no bitwise operators; did you mean '&&'?)");
        return;
      case 124:
        if (d === 124) { kind = Tok.OrOr; len = 2; break; }
        this.pos = this.end = p + 1;
        this.fail(p, "unexpected character '|' (SysY has no bitwise operators; did you mean '||'?)");
        return;
      case 34:
        this.scanString(p);
        return;
      default: {
        const cp = s.codePointAt(p)!;
        const width = cp > 0xffff ? 2 : 1;
        this.pos = this.end = p + width;
        this.fail(p, `unexpected character ${describeChar(cp)}`);
        return;
      }
    }
    this.kind = kind;
    this.pos = this.end = p + len;
  }

  private fail(at: number, message: string): void {
    this.kind = Tok.Error;
    this.error = message;
    this.errorPos = at;
  }

  private scanString(p: number): void {
    const s = this.src;
    const n = s.length;
    let q = p + 1;
    let out = '';
    let chunk = q;
    for (;;) {
      if (q >= n || s.charCodeAt(q) === 10) {
        this.pos = this.end = q;
        this.fail(p, `missing terminating '"' character`);
        return;
      }
      const c = s.charCodeAt(q);
      if (c === 34) break;
      if (c === 92 /* \ */) {
        out += s.slice(chunk, q);
        const e = q + 1 < n ? s[q + 1] : '';
        const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '0': '\0', a: '\x07', b: '\b', f: '\f', v: '\v', '?': '?' };
        if (!(e in map)) {
          this.pos = this.end = q + 2;
          this.fail(q, `unknown escape sequence '\\${e}'`);
          return;
        }
        out += map[e];
        q += 2;
        chunk = q;
        continue;
      }
      q++;
    }
    out += s.slice(chunk, q);
    this.kind = Tok.String;
    this.text = out;
    this.pos = this.end = q + 1;
  }

  private scanNumber(p: number): void {
    const s = this.src;
    const n = s.length;
    // C pp-number: digits, letters, '_', '.', and a sign right after e/E/p/P.
    let q = p + 1;
    while (q < n) {
      const c = s.charCodeAt(q);
      if (isIdentChar(c) || c === 46) {
        q++;
      } else if ((c === 43 || c === 45) && isExpChar(s.charCodeAt(q - 1), s, p)) {
        q++;
      } else break;
    }
    this.pos = this.end = q;
    const text = s.slice(p, q);
    const msg = this.interpretNumber(text);
    if (msg !== null) this.fail(p, msg);
  }

  /** Sets kind/value for a pp-number; returns an error message or null. */
  private interpretNumber(t: string): string | null {
    const isHex = t.length >= 2 && t[0] === '0' && (t[1] === 'x' || t[1] === 'X');
    if (isHex) {
      let i = 2;
      let mant = '';
      let fracDigits = 0;
      while (i < t.length && isHexDigit(t.charCodeAt(i))) mant += t[i++];
      let isFloat = false;
      if (i < t.length && t[i] === '.') {
        isFloat = true;
        i++;
        while (i < t.length && isHexDigit(t.charCodeAt(i))) {
          mant += t[i++];
          fracDigits++;
        }
      }
      if (mant === '') return `invalid number '${t}': no digits after '0x'`;
      if (i < t.length && (t[i] === 'p' || t[i] === 'P')) {
        isFloat = true;
        i++;
        let sign = 1;
        if (t[i] === '+' || t[i] === '-') sign = t[i++] === '-' ? -1 : 1;
        const e0 = i;
        while (i < t.length && isDigit(t.charCodeAt(i))) i++;
        if (i === e0) return `invalid number '${t}': exponent has no digits`;
        if (i < t.length && !((t[i] === 'f' || t[i] === 'F') && i === t.length - 1)) return `invalid suffix '${t.slice(i)}' on floating constant`;
        const exp = sign * Number(t.slice(e0, i)) - 4 * fracDigits;
        this.kind = Tok.FloatLit;
        this.value = Math.fround(scaleByPow2(Number(BigInt('0x' + mant)), exp));
        return null;
      }
      if (isFloat) return `invalid number '${t}': hexadecimal floating constant requires an exponent`;
      if (i < t.length) return `invalid suffix '${t.slice(i)}' on integer constant`;
      this.kind = Tok.IntLit;
      this.value = parseBig(mant, 16);
      return null;
    }
    // Decimal or octal.
    let i = 0;
    while (i < t.length && isDigit(t.charCodeAt(i))) i++;
    let isFloat = false;
    if (i < t.length && t[i] === '.') {
      isFloat = true;
      i++;
      while (i < t.length && isDigit(t.charCodeAt(i))) i++;
    }
    if (i < t.length && (t[i] === 'e' || t[i] === 'E')) {
      isFloat = true;
      i++;
      if (t[i] === '+' || t[i] === '-') i++;
      const e0 = i;
      while (i < t.length && isDigit(t.charCodeAt(i))) i++;
      if (i === e0) return `invalid number '${t}': exponent has no digits`;
    }
    if (isFloat) {
      const body = t.slice(0, i);
      if (i < t.length && !((t[i] === 'f' || t[i] === 'F') && i === t.length - 1)) return `invalid suffix '${t.slice(i)}' on floating constant`;
      this.kind = Tok.FloatLit;
      this.value = Math.fround(Number(body));
      return null;
    }
    if (i < t.length) return `invalid suffix '${t.slice(i)}' on integer constant`;
    if (t.length > 1 && t[0] === '0') {
      for (let k = 1; k < t.length; k++) {
        if (t[k] === '8' || t[k] === '9') return `invalid digit '${t[k]}' in octal constant`;
      }
      this.kind = Tok.IntLit;
      this.value = parseBig(t.slice(1), 8);
      return null;
    }
    this.kind = Tok.IntLit;
    this.value = parseBig(t, 10);
    return null;
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHexDigit(c: number): boolean {
  return c < 128 && (CLASS[c] & C_HEX) !== 0;
}

/** Whether the char before a '+'/'-' inside a pp-number is an exponent letter. */
function isExpChar(prev: number, s: string, numStart: number): boolean {
  if (prev === 101 || prev === 69) {
    // 'e'/'E' is an exponent only in a decimal number (in hex it is a digit).
    const c1 = s.charCodeAt(numStart + 1);
    return !(s.charCodeAt(numStart) === 48 && (c1 === 120 || c1 === 88));
  }
  return prev === 112 || prev === 80; // p P
}

/** Value of digits in `radix`; saturates at 2^53 (anything that large is an error anyway). */
function parseBig(digits: string, radix: number): number {
  let v = 0;
  for (let i = 0; i < digits.length; i++) {
    v = v * radix + parseInt(digits[i], radix);
    if (v > 2 ** 53) return 2 ** 53;
  }
  return v;
}

/** x * 2^e without intermediate overflow/underflow (e may be large). */
function scaleByPow2(x: number, e: number): number {
  while (e > 1000) { x *= 2 ** 1000; e -= 1000; if (!isFinite(x)) return x; }
  while (e < -1000) { x *= 2 ** -1000; e += 1000; if (x === 0) return x; }
  return x * 2 ** e;
}

function describeChar(cp: number): string {
  if (cp >= 33 && cp < 127) return `'${String.fromCharCode(cp)}'`;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A token as a plain object, for tests and tools (`tokenize`). */
export interface Token {
  kind: Tok;
  start: number;
  end: number;
  /** Numeric value for IntLit/FloatLit, name for Ident, decoded text for String, message for Error. */
  value: number | string | null;
}

/** All tokens up to and including EOF (or the first Error token). */
export function tokenize(src: string): Token[] {
  const lx = new Lexer(src);
  const out: Token[] = [];
  for (;;) {
    let value: number | string | null = null;
    if (lx.kind === Tok.IntLit || lx.kind === Tok.FloatLit) value = lx.value;
    else if (lx.kind === Tok.Ident || lx.kind === Tok.String) value = lx.text;
    else if (lx.kind === Tok.Error) value = lx.error;
    out.push({ kind: lx.kind, start: lx.start, end: lx.end, value });
    if (lx.kind === Tok.EOF || lx.kind === Tok.Error) return out;
    lx.next();
  }
}
