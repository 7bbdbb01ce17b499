import { describe, expect, it } from 'vitest';
import { analyzeSysY, dumpAst, typeToString } from '../../src/frontend/sysy/index.js';
import type { Expr, FuncDecl, Program, Stmt, VarDecl, DeclStmt, Call, LVal } from '../../src/frontend/sysy/ast.js';

function ok(src: string): Program {
  const r = analyzeSysY(src, 's.sy');
  expect(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual([]);
  return r.ast;
}

/** Expression with types and conversions: `(+:float itof(a:int) b:float)`. */
function tx(e: Expr): string {
  const t = typeToString(e.type);
  const c = e.constValue !== undefined ? `=${e.constValue}` : '';
  switch (e.kind) {
    case 'IntLiteral': case 'FloatLiteral': return `${e.value}:${t}`;
    case 'StringLiteral': return `str:${t}`;
    case 'LVal': return `${e.name}${e.indices.map((i) => `[${tx(i)}]`).join('')}:${t}${c}@${e.access}`;
    case 'Call': return `${e.name}(${e.args.map(tx).join(', ')}):${t}`;
    case 'Unary': return `(${e.op}:${t}${c} ${tx(e.operand)})`;
    case 'Binary': case 'Logical': return `(${e.op}:${t}${c} ${tx(e.lhs)} ${tx(e.rhs)})`;
    case 'Convert': return `${e.op}:${t}${c}(${tx(e.operand)})`;
  }
}

function mainItems(p: Program): (Stmt | DeclStmt)[] {
  const main = p.functions.find((f) => f.name === 'main')!;
  return main.body!.items;
}

/** Type-annotated form of `return EXPR;` in a main with the given declarations. */
function typed(decls: string, e: string, ret = 'int'): string {
  const p = ok(`${decls}\n${ret} f() { return ${e}; }\nint main() { return 0; }`);
  const f = p.functions.find((x) => x.name === 'f')!;
  const r = f.body!.items[0] as Extract<Stmt, { kind: 'Return' }>;
  return tx(r.value!);
}

/** Folded value of const `x` in `const T x = EXPR;`. */
function folded(type: string, e: string, pre = ''): number | undefined {
  const p = ok(`${pre}\nconst ${type} x = ${e};\nint main() { return 0; }`);
  const d = p.globals.find((g) => g.name === 'x')!;
  return d.constValue;
}

describe('sema: types and implicit conversions', () => {
  it('applies the usual arithmetic conversions', () => {
    expect(typed('int a; float b;', 'a + b', 'float')).toBe('(+:float itof:float(a:int@load) b:float@load)');
    expect(typed('int a; float b;', 'b * a', 'float')).toBe('(*:float b:float@load itof:float(a:int@load))');
    expect(typed('int a; int b;', 'a / b')).toBe('(/:int a:int@load b:int@load)');
  });

  it('compares in the common type and yields int', () => {
    expect(typed('int a; float b;', 'a < b')).toBe('(<:int itof:float(a:int@load) b:float@load)');
    expect(typed('float b;', 'b == 1')).toBe('(==:int b:float@load itof:float=1(1:int))');
  });

  it('leaves logical operands alone and yields int', () => {
    expect(typed('float a; int b;', 'a && b')).toBe('(&&:int a:float@load b:int@load)');
    expect(typed('float a;', '!a')).toBe('(!:int a:float@load)');
  });

  it('converts returns to the return type', () => {
    expect(typed('float b;', 'b')).toBe('ftoi:int(b:float@load)');
    expect(typed('int a;', 'a', 'float')).toBe('itof:float(a:int@load)');
  });

  it('converts assignments, initializers and arguments', () => {
    const p = ok('float g(float x, int y) { return x + y; }\nint main() { int i = 1.5; float f = i; i = f; f = g(i, f); return 0; }');
    const items = mainItems(p);
    const i = (items[0] as DeclStmt).decls[0];
    expect(i.initializer).toMatchObject({ kind: 'scalar' });
    expect(tx((i.initializer as { expr: Expr }).expr)).toBe('ftoi:int=1(1.5:float)');
    const f = (items[1] as DeclStmt).decls[0];
    expect(tx((f.initializer as { expr: Expr }).expr)).toBe('itof:float(i:int@load)');
    const a1 = items[2] as Extract<Stmt, { kind: 'Assign' }>;
    expect(`${tx(a1.target)} = ${tx(a1.value)}`).toBe('i:int@store = ftoi:int(f:float@load)');
    const a2 = items[3] as Extract<Stmt, { kind: 'Assign' }>;
    expect(tx(a2.value)).toBe('g(itof:float(i:int@load), ftoi:int(f:float@load)):float');
  });

  it('types indexing of arrays and array parameters', () => {
    const p = ok('int f(int a[][3], int b[]) { return a[1][2] + b[0]; }\nint g(int c[][3]) { return f(c, c[1]); }\nint main() { int m[2][3]; return f(m, m[0]) + g(m); }');
    const f = p.functions[0];
    expect(f.params.map((x) => typeToString(x.type))).toEqual(['int[][3]', 'int[]']);
    expect(f.params[0].type).toEqual({ kind: 'pointer', elem: 'int', dims: [3] });
    const r = f.body!.items[0] as Extract<Stmt, { kind: 'Return' }>;
    expect(tx(r.value!)).toBe('(+:int a[1:int][2:int]:int@load b[0:int]:int@load)');
    const g = p.functions[1];
    const call = (g.body!.items[0] as Extract<Stmt, { kind: 'Return' }>).value as Call;
    // A pointer parameter is passed by value; a partially indexed one decays.
    expect(call.args.map(tx)).toEqual(['c:int[][3]@load', 'decay:int[](c[1:int]:int[3]@address)']);
    const mainRet = (mainItems(p)[1] as Extract<Stmt, { kind: 'Return' }>).value!;
    expect(tx(mainRet)).toBe('(+:int f(decay:int[][3](m:int[2][3]@address), decay:int[](m[0:int]:int[3]@address)):int g(decay:int[][3](m:int[2][3]@address)):int)');
  });

  it('promotes float varargs of putf to double', () => {
    const p = ok('int main() { float x = 1; putf("%f %d", x, 2); return 0; }');
    const call = (mainItems(p)[1] as Extract<Stmt, { kind: 'ExprStmt' }>).expr;
    expect(tx(call)).toBe('putf(str:string, fpext:double(x:float@load), 2:int):void');
  });

  it('marks starttime/stoptime for lowering with the line number', () => {
    const p = ok('int main() {\n  starttime();\n  stoptime();\n  return 0;\n}');
    const [s1, s2] = mainItems(p) as Extract<Stmt, { kind: 'ExprStmt' }>[];
    const c1 = s1.expr as Call;
    const c2 = s2.expr as Call;
    expect([c1.callee!.linkName, c1.callee!.lineArgument, c1.line]).toEqual(['_sysy_starttime', true, 2]);
    expect([c2.callee!.linkName, c2.line]).toEqual(['_sysy_stoptime', 3]);
    expect(p.runtime.filter((f) => f.used).map((f) => f.name)).toEqual(['starttime', 'stoptime']);
  });

  it('predeclares the runtime with the contest signatures', () => {
    const p = ok('int main() { return 0; }');
    const sig = (f: FuncDecl) => `${f.returnType.kind} ${f.name}(${f.params.map((x) => typeToString(x.type)).join(', ')}${f.isVariadic ? ', ...' : ''})`;
    expect(p.runtime.map(sig)).toEqual([
      'int getint()', 'int getch()', 'float getfloat()', 'int getarray(int[])', 'int getfarray(float[])',
      'void putint(int)', 'void putch(int)', 'void putfloat(float)', 'void putarray(int, int[])',
      'void putfarray(int, float[])', 'void putf(string, ...)', 'void starttime()', 'void stoptime()',
    ]);
  });
});

describe('sema: constant folding', () => {
  it('folds ints with 32-bit wrap and truncating division', () => {
    expect(folded('int', '7 / 2')).toBe(3);
    expect(folded('int', '-7 / 2')).toBe(-3);
    expect(folded('int', '7 / -2')).toBe(-3);
    expect(folded('int', '-7 % 2')).toBe(-1);
    expect(folded('int', '7 % -2')).toBe(1);
    expect(folded('int', '-6 % 3')).toBe(0);
    expect(Object.is(folded('int', '-6 % 3'), 0)).toBe(true); // never -0
    expect(folded('int', '2147483647 + 1')).toBe(-2147483648);
    expect(folded('int', '65536 * 65536')).toBe(0);
    expect(folded('int', '-2147483648 / -1')).toBe(-2147483648);
    expect(folded('int', '-2147483648 % -1')).toBe(0);
    expect(folded('int', '-(-2147483648)')).toBe(-2147483648);
  });

  it('folds comparisons and logic to 0/1', () => {
    expect(folded('int', '(1 < 2) + (2 <= 2) * 2 + (3 == 4) * 4 + (1 != 2) * 8')).toBe(11);
    expect(folded('int', '!0 + !5 * 2 + (0 || 3) * 4 + (2 && 0) * 8')).toBe(5);
    expect(folded('int', '1.5 > 1')).toBe(1);
  });

  it('folds floats in single precision, rounding after every step', () => {
    const f = Math.fround;
    expect(folded('float', '0.1 + 0.2')).toBe(f(f(0.1) + f(0.2)));
    expect(folded('float', '1.0 / 3')).toBe(f(1 / 3));
    expect(folded('float', '16777216.0 + 1')).toBe(16777216);
    expect(folded('float', '16777216.0 + 1 + 1')).toBe(16777216); // (2^24 + 1) rounds back each time
    expect(folded('float', '0.1 * 3')).toBe(f(f(0.1) * 3));
    expect(folded('float', '3.4e38 * 10')).toBe(Infinity);
    expect(folded('float', '1 / 0.0')).toBe(Infinity);
    expect(folded('float', '-0.5 * 0')).toBe(-0);
    expect(folded('float', '16777217')).toBe(16777216);
  });

  it('converts between int and float like C', () => {
    expect(folded('int', '7.9')).toBe(7);
    expect(folded('int', '-7.9')).toBe(-7);
    expect(folded('int', '0.99999')).toBe(0);
    expect(folded('int', '2.5 * 2')).toBe(5);
    expect(folded('int', '1 / 2 * 2.0')).toBe(0);
    expect(folded('float', '7 / 2')).toBe(3);
    expect(folded('float', '7 / 2.0')).toBe(3.5);
  });

  it('folds const variables and const array elements', () => {
    expect(folded('int', 'A * B[1][0] + B[0][1]', 'const int A = 3, B[2][2] = {{1, 2}, {5}};')).toBe(17);
    expect(folded('int', 'B[1][1]', 'const int B[2][2] = {{1, 2}, {5}};')).toBe(0);
    expect(folded('float', 'F[2] * 2', 'const float F[3] = {1, 2, 0x1.8p1};')).toBe(6);
  });

  it('folds array dimensions into the type', () => {
    const p = ok('const int N = 4;\nint a[N * 2][N - 1 + 0x2];\nint main() { return 0; }');
    expect(typeToString(p.globals[1].type)).toBe('int[8][5]');
  });

  it('does not fold what is not constant, and does not require it where C does not', () => {
    const p = ok('int g = 3;\nint main() { int x = g + 1; int y = 1 / 0; return x + y; }');
    const [dx, dy] = mainItems(p).slice(0, 2).map((s) => (s as DeclStmt).decls[0]);
    expect((dx.initializer as { expr: Expr }).expr.constValue).toBeUndefined();
    expect((dy.initializer as { expr: Expr }).expr.constValue).toBeUndefined();
  });
});

describe('sema: scopes', () => {
  it('resolves each use to the innermost declaration, with distinct ids', () => {
    const p = ok('int x = 1;\nint main() {\n  int r = x;\n  int x = 2;\n  { int x = 3; r = r + x; }\n  return r + x;\n}');
    const gx = p.globals[0];
    const items = mainItems(p);
    const r = (items[0] as DeclStmt).decls[0];
    const lx = (items[1] as DeclStmt).decls[0];
    const inner = items[2] as Extract<Stmt, { kind: 'Block' }>;
    const ix = (inner.items[0] as DeclStmt).decls[0];
    const useG = (r.initializer as { expr: LVal }).expr;
    expect(useG.decl).toBe(gx);
    const assign = inner.items[1] as Extract<Stmt, { kind: 'Assign' }>;
    expect(assign.target.decl).toBe(r);
    expect(((assign.value as Extract<Expr, { kind: 'Binary' }>).rhs as LVal).decl).toBe(ix);
    const ret = items[3] as Extract<Stmt, { kind: 'Return' }>;
    expect(((ret.value as Extract<Expr, { kind: 'Binary' }>).rhs as LVal).decl).toBe(lx);
    expect(new Set([gx.id, r.id, lx.id, ix.id]).size).toBe(4);
  });

  it('scopes a declaration from its declarator on (C 6.2.1)', () => {
    const p = ok('int main() { int x = 5; { int x = x + 1; return x; } }');
    const inner = mainItems(p)[1] as Extract<Stmt, { kind: 'Block' }>;
    const d = (inner.items[0] as DeclStmt).decls[0];
    const init = (d.initializer as { expr: Extract<Expr, { kind: 'Binary' }> }).expr;
    expect((init.lhs as LVal).decl).toBe(d);
  });

  it('links break/continue to their loop and return to its function', () => {
    const p = ok('int main() { while (1) { while (0) continue; break; } return 0; }');
    const outer = mainItems(p)[0] as Extract<Stmt, { kind: 'While' }>;
    const body = outer.body as Extract<Stmt, { kind: 'Block' }>;
    const inner = body.items[0] as Extract<Stmt, { kind: 'While' }>;
    expect((inner.body as Extract<Stmt, { kind: 'Continue' }>).loop).toBe(inner);
    expect((body.items[1] as Extract<Stmt, { kind: 'Break' }>).loop).toBe(outer);
    const ret = mainItems(p)[1] as Extract<Stmt, { kind: 'Return' }>;
    expect(ret.func!.name).toBe('main');
  });

  it('lets a prototype and its definition be one function', () => {
    const p = ok('int odd(int n);\nint even(int n) { if (n == 0) return 1; return odd(n - 1); }\nint odd(int n) { if (n == 0) return 0; return even(n - 1); }\nint main() { return even(4); }');
    const proto = p.items[0] as FuncDecl;
    const def = p.functions.find((f) => f.name === 'odd')!;
    expect(proto.definition).toBe(def);
    expect(def.definition).toBe(def);
    expect(p.functions.map((f) => f.name)).toEqual(['even', 'odd', 'main']);
  });

  it('allows shadowing runtime functions and globals by locals', () => {
    ok('int main() { int getint = 3; int main = 4; return getint + main; }');
  });
});

describe('sema: the annotated dump', () => {
  it('shows types, constants, resolved ids and conversions', () => {
    const p = ok('const int N = 2;\nfloat a[N] = {1, 2.5};\nint main() {\n  int i = a[1];\n  return i;\n}');
    expect(dumpAst(p)).toBe([
      'Program s.sy',
      '  DeclStmt <1:1>',
      "    VarDecl N #0 global const 'int' =2 <1:11>",
      "      init: IntLiteral 2 'int' =2 <1:15>",
      '  DeclStmt <2:1>',
      "    VarDecl a #1 global 'float[2]' <2:7>",
      '      init: array of 2, 2 listed',
      "        [0] Convert itof 'float' =1.0",
      "          IntLiteral 1 'int' =1 <2:15>",
      "        [1] FloatLiteral 2.5 'float' =2.5 <2:18>",
      "  FuncDecl main 'int()' #3 <3:5>",
      '    Block <3:12>',
      '      DeclStmt <4:3>',
      "        VarDecl i #2 local 'int' <4:7>",
      "          init: Convert ftoi 'int'",
      "            LVal a ->#1 load 'float' <4:11>",
      "              index: IntLiteral 1 'int' =1 <4:13>",
      '      Return <5:3>',
      "        LVal i ->#2 load 'int' <5:10>",
      '',
    ].join('\n'));
  });

  it('gives every declaration, including the runtime, an id below declCount', () => {
    const p = ok('int g;\nint main() { int x; return 0; }');
    const decls: (VarDecl | FuncDecl)[] = [...p.globals, ...p.functions, ...p.runtime, ...p.runtime.flatMap((f) => f.params)];
    const ids = decls.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Math.max(...ids)).toBeLessThan(p.declCount);
  });
});
