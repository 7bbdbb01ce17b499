import { describe, expect, it } from 'vitest';
import { parseSysY, dumpAst } from '../../src/frontend/sysy/index.js';
import type { Expr, FuncDecl, Stmt, Block, DeclStmt, InitList } from '../../src/frontend/sysy/ast.js';

/** Fully parenthesized form of an expression (small trees only). */
function sx(e: Expr): string {
  switch (e.kind) {
    case 'IntLiteral': case 'FloatLiteral': return String(e.value);
    case 'StringLiteral': return JSON.stringify(e.value);
    case 'LVal': return e.name + e.indices.map((i) => `[${sx(i)}]`).join('');
    case 'Call': return `${e.name}(${e.args.map(sx).join(', ')})`;
    case 'Unary': return `(${e.op}${sx(e.operand)})`;
    case 'Binary': case 'Logical': return `(${sx(e.lhs)} ${e.op} ${sx(e.rhs)})`;
    case 'Convert': return `${e.op}(${sx(e.operand)})`;
  }
}

function body(src: string): (Stmt | DeclStmt)[] {
  const r = parseSysY(src, 't.sy');
  expect(r.diagnostics).toEqual([]);
  const main = r.ast.items.find((i) => i.kind === 'FuncDecl' && i.name === 'main') as FuncDecl;
  return main.body!.items;
}

function expr(text: string): string {
  const items = body(`int main() { return ${text}; }`);
  const ret = items[0] as Extract<Stmt, { kind: 'Return' }>;
  return sx(ret.value!);
}

/** Statement structure as a compact string. */
function st(s: Stmt | DeclStmt): string {
  switch (s.kind) {
    case 'If': return `if(${sx(s.cond)}){${st(s.then)}}${s.else ? `else{${st(s.else)}}` : ''}`;
    case 'While': return `while(${sx(s.cond)}){${st(s.body)}}`;
    case 'Block': return `[${s.items.map(st).join(' ')}]`;
    case 'Assign': return `${sx(s.target)}=${sx(s.value)}`;
    case 'ExprStmt': return sx(s.expr);
    case 'Return': return s.value ? `ret ${sx(s.value)}` : 'ret';
    case 'DeclStmt': return 'decl ' + s.decls.map((d) => d.name).join(',');
    default: return s.kind.toLowerCase();
  }
}

describe('SysY parser: expressions', () => {
  it('follows C precedence', () => {
    expect(expr('1 + 2 * 3')).toBe('(1 + (2 * 3))');
    expect(expr('(1 + 2) * 3')).toBe('((1 + 2) * 3)');
    expect(expr('a * b / c % d')).toBe('(((a * b) / c) % d)');
    expect(expr('a - b + c - d')).toBe('(((a - b) + c) - d)');
    expect(expr('a < b + 1')).toBe('(a < (b + 1))');
    expect(expr('a < b == c > d')).toBe('((a < b) == (c > d))');
    expect(expr('a == b != c')).toBe('((a == b) != c)');
    expect(expr('a || b && c')).toBe('(a || (b && c))');
    expect(expr('a && b || c && d')).toBe('((a && b) || (c && d))');
    expect(expr('a <= b && c >= d || e != f')).toBe('(((a <= b) && (c >= d)) || (e != f))');
  });

  it('binds unary operators tighter than binary ones', () => {
    expect(expr('-a * b')).toBe('((-a) * b)');
    expect(expr('!a == b')).toBe('((!a) == b)');
    expect(expr('- - a')).toBe('(-(-a))');
    expect(expr('-+!a')).toBe('(-(+(!a)))');
    expect(expr('a * -b + c')).toBe('((a * (-b)) + c)');
    expect(expr('a - -1')).toBe('(a - (-1))');
    expect(expr('!(a < b)')).toBe('(!(a < b))');
  });

  it('parses calls, indexing and nesting', () => {
    expect(expr('f()')).toBe('f()');
    expect(expr('f(1, g(2, 3), a[1][2])')).toBe('f(1, g(2, 3), a[1][2])');
    expect(expr('a[i + 1][f(a[0])] * 2')).toBe('(a[(i + 1)][f(a[0])] * 2)');
    expect(expr('f((1), ((2)))')).toBe('f(1, 2)');
    expect(expr('a[a[a[0]]]')).toBe('a[a[a[0]]]');
  });

  it('folds -2147483648 into one literal (2147483648 alone does not fit int)', () => {
    expect(expr('-2147483648')).toBe('-2147483648');
    expect(expr('-(2147483648)')).toBe('-2147483648');
    expect(expr('1 - 2147483648')).toBe('(1 - 2147483648)');
  });

  it('keeps string literals for putf', () => {
    const items = body('int main() { putf("%d\\n", 1); return 0; }');
    expect(st(items[0])).toBe('putf("%d\\n", 1)');
  });
});

describe('SysY parser: statements', () => {
  it('attaches else to the nearest if', () => {
    const items = body('int main() { if (a) if (b) x = 1; else x = 2; return 0; }');
    expect(st(items[0])).toBe('if(a){if(b){x=1}else{x=2}}');
  });

  it('parses else-if chains and braces', () => {
    const items = body('int main() { if (a) { x = 1; } else if (b) x = 2; else { if (c) x = 3; } return 0; }');
    expect(st(items[0])).toBe('if(a){[x=1]}else{if(b){x=2}else{[if(c){x=3}]}}');
  });

  it('parses loops, break, continue, empty statements, blocks and declarations', () => {
    const items = body('int main() { int i = 0, j; while (i < 3) { i = i + 1; if (i == 2) continue; break; } ; {} return; }');
    expect(items.map(st)).toEqual(['decl i,j', 'while((i < 3)){[i=(i + 1) if((i == 2)){continue} break]}', 'empty', '[]', 'ret']);
  });

  it('parses assignments to indexed l-values and expression statements', () => {
    const items = body('int main() { a[1][i] = b + 1; f(a); a + 1; }');
    expect(items.map(st)).toEqual(['a[1][i]=(b + 1)', 'f(a)', '(a + 1)']);
  });
});

describe('SysY parser: declarations', () => {
  it('parses globals, consts, arrays, initializer lists and functions', () => {
    const r = parseSysY('const int N = 3, M[2] = {1, 2};\nfloat g[N][2] = {{1.5}, {}, 3};\nint f(int a, float b[], int c[][N]);\nvoid h(void) {}\nint main() { return 0; }', 't.sy');
    expect(r.diagnostics).toEqual([]);
    const [d1, d2, f, h, main] = r.ast.items;
    expect(d1.kind).toBe('DeclStmt');
    const consts = (d1 as DeclStmt).decls;
    expect(consts.map((d) => [d.name, d.isConst, d.elem, d.dimExprs.length, d.storage])).toEqual([
      ['N', true, 'int', 0, 'global'], ['M', true, 'int', 1, 'global'],
    ]);
    const g = (d2 as DeclStmt).decls[0];
    expect(g.elem).toBe('float');
    const init = g.init as InitList;
    expect(init.kind).toBe('InitList');
    expect(init.items.map((i) => (i.kind === 'InitList' ? `{${i.items.length}}` : sx(i)))).toEqual(['{1}', '{0}', '3']);
    const fd = f as FuncDecl;
    expect(fd.body).toBeNull();
    expect(fd.params.map((p) => [p.name, p.elem, p.dimExprs.map((d) => (d ? sx(d) : '_'))])).toEqual([
      ['a', 'int', []], ['b', 'float', ['_']], ['c', 'int', ['_', 'N']],
    ]);
    expect((h as FuncDecl).params).toEqual([]);
    expect((h as FuncDecl).returnType.kind).toBe('void');
    expect((main as FuncDecl).body!.kind).toBe('Block');
  });

  it('gives every declaration a distinct id', () => {
    const r = parseSysY('int a, b[2];\nint f(int x) { int y; return x; }\nint main() { return 0; }', 't.sy');
    const ids: number[] = [];
    for (const it of r.ast.items) {
      if (it.kind === 'DeclStmt') ids.push(...it.decls.map((d) => d.id));
      else { ids.push(it.id, ...it.params.map((p) => p.id)); for (const s of it.body!.items) if (s.kind === 'DeclStmt') ids.push(...s.decls.map((d) => d.id)); }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.max(...ids)).toBeLessThan(r.ast.declCount);
  });

  it('records positions as offsets', () => {
    const src = 'int main() {\n  return 1 + x;\n}';
    const r = parseSysY(src, 't.sy');
    const ret = (r.ast.items[0] as FuncDecl).body!.items[0] as Extract<Stmt, { kind: 'Return' }>;
    expect(r.ast.source.loc(ret.pos)).toEqual({ offset: 15, line: 2, col: 3 });
    expect(r.ast.source.loc(ret.value!.pos)).toEqual({ offset: 24, line: 2, col: 12 }); // the '+'
  });

  it('dumps a parse-only tree', () => {
    const r = parseSysY('int main() { int a[2] = {1}; return a[0]; }', 't.sy');
    expect(dumpAst(r.ast)).toBe([
      'Program t.sy',
      "  FuncDecl main 'int()' #1 <1:5>",
      '    Block <1:12>',
      '      DeclStmt <1:14>',
      "        VarDecl a #0 local 'int[?]' <1:18>",
      '          dim: IntLiteral 2 <1:20>',
      '          init: InitList <1:25>',
      '            IntLiteral 1 <1:26>',
      '      Return <1:30>',
      '        LVal a load <1:37>',
      '          index: IntLiteral 0 <1:39>',
      '',
    ].join('\n'));
  });

  it('drops the broken declaration and keeps the rest after a syntax error', () => {
    const r = parseSysY('int a;\nint b = ;\nint c;', 't.sy');
    expect(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual(["2:9 expected expression, found ';'"]);
    expect(r.ast.items.map((i) => (i.kind === 'DeclStmt' ? i.decls[0].name : i.name))).toEqual(['a', 'c']);
  });
});

describe('SysY parser: blocks as items', () => {
  it('keeps declarations and statements in order inside nested blocks', () => {
    const items = body('int main() { int a; { int b; a = 1; { int c; } } return a; }');
    expect(items.map(st)).toEqual(['decl a', '[decl b a=1 [decl c]]', 'ret a']);
    expect((items[1] as Block).items).toHaveLength(3);
  });
});
