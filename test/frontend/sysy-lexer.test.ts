import { describe, expect, it } from 'vitest';
import { Tok, tokenize, tokName } from '../../src/frontend/sysy/lexer.js';

function kinds(src: string): Tok[] {
  return tokenize(src).map((t) => t.kind);
}

function value(src: string): number | string | null {
  const toks = tokenize(src);
  expect(toks).toHaveLength(2);
  return toks[0].value;
}

describe('SysY lexer: token kinds', () => {
  it('recognizes every keyword', () => {
    expect(kinds('int float void const if else while break continue return')).toEqual([
      Tok.KwInt, Tok.KwFloat, Tok.KwVoid, Tok.KwConst, Tok.KwIf, Tok.KwElse, Tok.KwWhile,
      Tok.KwBreak, Tok.KwContinue, Tok.KwReturn, Tok.EOF,
    ]);
  });

  it('recognizes every operator and punctuator, longest match first', () => {
    expect(kinds('+ - * / % ! < > <= >= == != && || = ( ) [ ] { } , ;')).toEqual([
      Tok.Plus, Tok.Minus, Tok.Star, Tok.Slash, Tok.Percent, Tok.Not, Tok.Lt, Tok.Gt, Tok.Le, Tok.Ge,
      Tok.EqEq, Tok.NotEq, Tok.AndAnd, Tok.OrOr, Tok.Assign, Tok.LParen, Tok.RParen, Tok.LBracket,
      Tok.RBracket, Tok.LBrace, Tok.RBrace, Tok.Comma, Tok.Semi, Tok.EOF,
    ]);
    expect(kinds('a<=b==c!=!d')).toEqual([Tok.Ident, Tok.Le, Tok.Ident, Tok.EqEq, Tok.Ident, Tok.NotEq, Tok.Not, Tok.Ident, Tok.EOF]);
    expect(kinds('x=-1')).toEqual([Tok.Ident, Tok.Assign, Tok.Minus, Tok.IntLit, Tok.EOF]);
  });

  it('reads identifiers, including keyword prefixes and underscores', () => {
    const toks = tokenize('_a intx If while_ x9');
    expect(toks.map((t) => t.value)).toEqual(['_a', 'intx', 'If', 'while_', 'x9', null]);
    expect(toks.slice(0, 5).every((t) => t.kind === Tok.Ident)).toBe(true);
  });

  it('records token spans', () => {
    const toks = tokenize('  foo <= 12');
    expect(toks.map((t) => [t.start, t.end])).toEqual([[2, 5], [6, 8], [9, 11], [11, 11]]);
  });

  it('skips line and block comments and white space', () => {
    expect(kinds('a // comment\n b /* x \n y */ c /**/d/***/e')).toEqual([Tok.Ident, Tok.Ident, Tok.Ident, Tok.Ident, Tok.Ident, Tok.EOF]);
    expect(kinds('a/ /b')).toEqual([Tok.Ident, Tok.Slash, Tok.Slash, Tok.Ident, Tok.EOF]);
    expect(kinds('// only a comment')).toEqual([Tok.EOF]);
  });

  it('reads string literals with escapes', () => {
    const t = tokenize('"a\\n\\t\\"b\\\\ %d"');
    expect(t[0].kind).toBe(Tok.String);
    expect(t[0].value).toBe('a\n\t"b\\ %d');
  });

  it('names token kinds for messages', () => {
    expect(tokName(Tok.Semi)).toBe("';'");
    expect(tokName(Tok.KwWhile)).toBe("'while'");
    expect(tokName(Tok.Ident)).toBe('identifier');
    expect(tokName(Tok.EOF)).toBe('end of file');
  });
});

describe('SysY lexer: integer literals', () => {
  it('decimal, octal and hexadecimal', () => {
    expect(value('0')).toBe(0);
    expect(value('123')).toBe(123);
    expect(value('0123')).toBe(83);
    expect(value('00')).toBe(0);
    expect(value('0x1F')).toBe(31);
    expect(value('0XaBc')).toBe(0xabc);
    expect(value('2147483647')).toBe(2147483647);
    expect(tokenize('0x1F')[0].kind).toBe(Tok.IntLit);
  });

  it('keeps values beyond int range exact (the analyzer decides)', () => {
    expect(value('2147483648')).toBe(2147483648);
    expect(value('0xFFFFFFFF')).toBe(4294967295);
  });
});

describe('SysY lexer: floating literals', () => {
  const f = Math.fround;
  it('decimal forms', () => {
    expect(value('1.5')).toBe(1.5);
    expect(value('.5')).toBe(0.5);
    expect(value('2.')).toBe(2);
    expect(value('1e3')).toBe(1000);
    expect(value('1E-3')).toBe(f(0.001));
    expect(value('2.5e+1')).toBe(25);
    expect(value('0.1')).toBe(f(0.1));
    expect(value('1.f')).toBe(1);
    expect(value('3.25F')).toBe(3.25);
    expect(tokenize('1.5')[0].kind).toBe(Tok.FloatLit);
    expect(tokenize('1e3')[0].kind).toBe(Tok.FloatLit);
  });

  it('rounds once from double to single, as C does for float f = <literal>', () => {
    expect(value('3.14159265358979')).toBe(f(3.14159265358979));
    expect(value('16777217.0')).toBe(16777216);
    expect(value('1e39')).toBe(Infinity);
    expect(value('1e-50')).toBe(0);
  });

  it('hexadecimal floats', () => {
    expect(value('0x1.8p3')).toBe(12);
    expect(value('0x.8p1')).toBe(1);
    expect(value('0X10P-2')).toBe(4);
    expect(value('0x1p-126')).toBe(2 ** -126);
    expect(value('0x1p-149')).toBe(2 ** -149);
    expect(value('0x1.fffffep127')).toBe(f(3.4028234663852886e38));
    expect(value('0x1.000001p0')).toBe(1); // ties to even at float precision
    expect(value('0x1.000003p0')).toBe(1 + 2 ** -22);
    expect(value('0xA.Bp0')).toBe(10.6875);
    expect(value('0x1p+4f')).toBe(16);
  });
});

describe('SysY lexer: errors', () => {
  function err(src: string): string {
    const toks = tokenize(src);
    const last = toks[toks.length - 1];
    expect(last.kind).toBe(Tok.Error);
    return String(last.value);
  }
  it('reports bad characters', () => {
    expect(err('a @ b')).toBe("unexpected character '@'");
    expect(err('#include')).toBe("unexpected character '#'");
    expect(err('a & b')).toBe("unexpected character '&' (SysY has no bitwise operators; did you mean '&&'?)");
    expect(err('a | b')).toBe("unexpected character '|' (SysY has no bitwise operators; did you mean '||'?)");
    expect(err('x\u00e9')).toBe('unexpected character U+00E9');
  });
  it('reports bad numbers', () => {
    expect(err('09')).toBe("invalid digit '9' in octal constant");
    expect(err('0x')).toBe("invalid number '0x': no digits after '0x'");
    expect(err('1e')).toBe("invalid number '1e': exponent has no digits");
    expect(err('1e+')).toBe("invalid number '1e+': exponent has no digits");
    expect(err('0x1.8')).toBe("invalid number '0x1.8': hexadecimal floating constant requires an exponent");
    expect(err('12abc')).toBe("invalid suffix 'abc' on integer constant");
    expect(err('1.5x')).toBe("invalid suffix 'x' on floating constant");
    expect(err('1.2.3')).toBe("invalid suffix '.3' on floating constant");
    expect(err('10u')).toBe("invalid suffix 'u' on integer constant");
  });
  it('reports unterminated comments and strings', () => {
    expect(err('a /* never closed')).toBe('unterminated /* comment');
    expect(err('"abc')).toBe(`missing terminating '"' character`);
    expect(err('"a\\qb"')).toBe("unknown escape sequence '\\q'");
  });
});
