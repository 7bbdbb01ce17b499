/**
 * Every diagnostic of the SysY frontend, with its exact text and location.
 * Each case is a program and the expected `line:col: severity: message` list.
 */
import { describe, expect, it } from 'vitest';
import { analyzeSysY, formatDiagnostic, formatDiagnostics, SourceFile, SysYError, compileSysYToAst } from '../../src/frontend/sysy/index.js';

function diags(src: string): string[] {
  return analyzeSysY(src, 't.sy').diagnostics.map((d) => `${d.line}:${d.col}: ${d.severity}: ${d.message}`);
}

const M = 'int main() { return 0; }\n';

const cases: [name: string, src: string, expected: string[]][] = [
  // ---- lexical
  ['bad character', 'int main() { int a = 1 @ 2; return 0; }', ["1:24: error: unexpected character '@'"]],
  ['bad octal', 'int a = 019;\n' + M, ["1:9: error: invalid digit '9' in octal constant"]],
  ['bad suffix', 'int a = 12ab;\n' + M, ["1:9: error: invalid suffix 'ab' on integer constant"]],
  ['exponent without digits', 'float a = 1.5e;\n' + M, ["1:11: error: invalid number '1.5e': exponent has no digits"]],
  ['hex float without exponent', 'float a = 0x1.8;\n' + M, ["1:11: error: invalid number '0x1.8': hexadecimal floating constant requires an exponent"]],
  ['unterminated comment', M + '/* open', ['2:1: error: unterminated /* comment']],
  ['unterminated string', 'int main() { putf("abc); return 0; }', [`1:19: error: missing terminating '"' character`]],
  ['single ampersand', 'int main() { if (1 & 2) return 1; return 0; }', ["1:20: error: unexpected character '&' (SysY has no bitwise operators; did you mean '&&'?)"]],
  ['integer literal too large', 'int a = 2147483648;\n' + M, ["1:9: error: integer literal is too large to be represented in type 'int'"]],
  ['hex literal too large', 'int a = 0x80000000;\n' + M, ["1:9: error: integer literal is too large to be represented in type 'int'"]],
  // ---- syntax
  ['missing semicolon', 'int main() {\n  int a = 1\n  return a;\n}', ["2:12: error: expected ';' after declaration"]],
  ['missing semicolon after expression', 'int main() {\n  putint(1)\n  return 0;\n}', ["2:12: error: expected ';' after expression"]],
  ['missing semicolon after return', 'int main() {\n  return 0\n}', ["2:11: error: expected ';' after return statement"]],
  ['missing expression', 'int main() { int a = ; return 0; }', ["1:22: error: expected expression, found ';'"]],
  ['missing close paren', 'int main() { int a = (1 + 2; return 0; }', ["1:28: error: expected ')' to match '(' at column 22, found ';'"]],
  ['missing close bracket', 'int a[3];\nint main() { return a[1; }', ["2:24: error: expected ']' to match '[' at column 22, found ';'"]],
  ['missing if paren', 'int main() { if 1) return 0; return 1; }', ["1:17: error: expected '(' after 'if', found '1'"]],
  ['unclosed block', 'int main() {\n  if (1) {\n    return 0;\n', ["4:1: error: expected '}' to close the block opened at line 2, found end of file"]],
  ['else without if', 'int main() { else return 0; }', ["1:14: error: 'else' without a matching 'if'"]],
  ['assignment to non-lvalue', 'int main() { int a; a + 1 = 2; return 0; }', ['1:27: error: expression is not assignable']],
  ['void variable', 'void x;\n' + M, ["1:6: error: variable 'x' declared void"]],
  ['void local variable', 'int main() { void x; return 0; }', ["1:19: error: variable 'x' declared void"]],
  ['void parameter', 'int f(void x) { return 0; }\n' + M, ["1:12: error: 'void' must be the only parameter"]],
  ['bad top level', 'return 1;\n' + M, ["1:1: error: expected a declaration or function definition, found 'return'"]],
  ['missing identifier', 'int = 3;\n' + M, ["1:5: error: expected identifier after type, found '='"]],
  ['trailing comma in initializer', 'int a[2] = {1, 2,};\n' + M, ["1:18: error: expected expression, found '}'"]],
  ['bad initializer separator', 'int a[2] = {1 2};\n' + M, ["1:15: error: expected ',' or '}' in initializer list, found '2'"]],
  ['missing type after const', 'const x = 1;\n' + M, ["1:7: error: expected 'int' or 'float', found identifier 'x'"]],
  ['missing name in declaration', 'const int = 1;\n' + M, ["1:11: error: expected identifier in declaration, found '='"]],
  ['missing name after comma', 'int a, ;\n' + M, ["1:8: error: expected identifier after ',', found ';'"]],
  ['missing dimension bracket', 'int a[3;\n' + M, ["1:8: error: expected ']' after array size, found ';'"]],
  ['missing parameter name', 'int f(int) { return 0; }\n' + M, ["1:10: error: expected identifier as parameter name, found ')'"]],
  ['missing parameter type', 'int f(x) { return 0; }\n' + M, ["1:7: error: expected parameter type 'int' or 'float', found identifier 'x'"]],
  ['void as a later parameter', 'int f(int a, void b) { return 0; }\n' + M, ["1:14: error: parameter cannot have type 'void'"]],
  ['missing parameter list close', 'int f(int a { return 0; }\n' + M, ["1:13: error: expected ')' after parameters, found '{'"]],
  ['missing function body', 'int f() return 1;\n' + M, ["1:9: error: expected function body '{' or ';', found 'return'"]],
  ['mismatched closing bracket', 'int f(int a) { return a; }\nint main() { return f(1]; }', ["2:24: error: expected ')', found ']'"]],
  ['missing while paren', 'int main() { while (1 { } return 0; }', ["1:23: error: expected ')' after 'while' condition, found '{'"]],
  ['declaration as statement', 'int main() { if (1) int a = 1; return 0; }', ["1:21: error: expected expression, found 'int'"]],
  // ---- names
  ['undeclared variable', 'int main() {\n  return x + 1;\n}', ["2:10: error: use of undeclared identifier 'x'"]],
  ['undeclared function', 'int main() { return f(1); }', ["1:21: error: call to undeclared function 'f'"]],
  ['variable used before its declaration', 'int main() { a = 1; int a; return 0; }', ["1:14: error: use of undeclared identifier 'a'"]],
  ['variable out of scope', 'int main() { { int a = 1; } return a; }', ["1:36: error: use of undeclared identifier 'a'"]],
  ['redefinition of a global', 'int a;\nfloat a;\n' + M, ["2:7: error: redefinition of 'a'", '1:5: note: previous definition is here']],
  ['redefinition of a local', 'int main() {\n  int a = 1;\n  int a = 2;\n  return 0;\n}', ["3:7: error: redefinition of 'a'", '2:7: note: previous definition is here']],
  ['parameter redeclared in body', 'int f(int a) { int a; return 0; }\n' + M, ["1:20: error: redefinition of 'a'", '1:11: note: previous definition is here']],
  ['duplicate parameter', 'int f(int a, float a) { return 0; }\n' + M, ["1:20: error: redefinition of 'a'", '1:11: note: previous definition is here']],
  ['redefinition of a function', 'int f() { return 1; }\nint f() { return 2; }\n' + M, ["2:5: error: redefinition of 'f'", '1:5: note: previous definition is here']],
  ['function and variable clash', 'int f;\nint f() { return 2; }\n' + M, ["2:5: error: redefinition of 'f' as a different kind of symbol", '1:5: note: previous definition is here']],
  ['conflicting prototype', 'int f(int a);\nint f(float a) { return 2; }\n' + M, ["2:5: error: conflicting types for 'f'", '1:5: note: previous declaration is here']],
  ['redefinition of a runtime function', 'int getint() { return 1; }\n' + M, ["1:5: error: redefinition of 'getint', a function of the SysY runtime library"]],
  ['prototype used but not defined', 'int f(int a);\nint main() { return f(1); }', ["1:5: error: function 'f' is used but never defined"]],
  ['calling a variable', 'int main() { int f = 1; return f(); }', ["1:32: error: called object 'f' is not a function (it has type 'int')"]],
  ['function used as a variable', 'int f() { return 1; }\nint main() { return f + 1; }', ["2:21: error: 'f' is a function, not a variable"]],
  // ---- main
  ['no main', 'int f() { return 0; }\n', ["2:1: error: program has no 'main' function"]],
  ['main only declared', 'int main();', ["1:12: error: program has no 'main' function"]],
  ['main returning void', 'void main() { }', ["1:6: error: 'main' must be declared as 'int main()'"]],
  ['main with parameters', 'int main(int argc) { return 0; }', ["1:5: error: 'main' must be declared as 'int main()'"]],
  ['main as a variable', 'int main = 3;', ["1:14: error: program has no 'main' function"]],
  // ---- constants and dimensions
  ['non-constant dimension', 'int n = 3;\nint a[n];\n' + M, ["2:7: error: size of array 'a' is not a constant expression"]],
  ['non-constant local dimension', 'int main() { int n = 3; int a[n + 1]; return 0; }', ["1:31: error: size of array 'a' is not a constant expression"]],
  ['zero dimension', 'int a[0];\n' + M, ["1:7: error: size of array 'a' must be positive, but is 0"]],
  ['negative dimension', 'const int N = 2;\nint a[3][N - 5];\n' + M, ["2:10: error: size of array 'a' must be positive, but is -3"]],
  ['float dimension', 'int a[2.5];\n' + M, ["1:7: error: size of array 'a' has non-integer type 'float'"]],
  ['non-constant parameter dimension', 'int n;\nint f(int a[][n]) { return 0; }\n' + M, ["2:15: error: size of array 'a' is not a constant expression"]],
  ['non-constant global initializer', 'int a = 1;\nint b = a + 1;\n' + M, ['2:9: error: initializer element is not a compile-time constant']],
  ['call in global initializer', 'int a = getint();\n' + M, ['1:9: error: initializer element is not a compile-time constant']],
  ['non-constant global array element', 'int x;\nint a[2] = {1, x};\n' + M, ['2:16: error: initializer element is not a compile-time constant']],
  ['non-constant const initializer', 'int main() { int x = 1; const int c = x * 2; return c; }', ["1:39: error: initializer of const variable 'c' is not a constant expression"]],
  ['const array with non-constant element', 'int main() { int x = 1; const int c[2] = {1, x}; return 0; }', ["1:46: error: initializer of const variable 'c' is not a constant expression"]],
  ['const without initializer', 'const int c;\n' + M, ["1:11: error: const variable 'c' must be initialized"]],
  ['division by zero in constant', 'const int a = 10 / (5 - 5);\n' + M, ['1:18: error: division by zero in constant expression']],
  ['modulo by zero in dimension', 'int a[7 % 0];\n' + M, ['1:9: error: division by zero in constant expression']],
  ['const referring to itself', 'int main() { const int k = k + 1; return 0; }', ["1:28: error: initializer of const variable 'k' is not a constant expression"]],
  // ---- initializers
  ['excess array elements', 'int a[2] = {1, 2, 3};\n' + M, ['1:19: error: excess elements in array initializer']],
  ['excess nested elements', 'int a[2][2] = {{1, 2, 3}, {4}};\n' + M, ['1:23: error: excess elements in array initializer']],
  ['excess elements after elision', 'int a[2][2] = {1, 2, 3, 4, 5};\n' + M, ['1:28: error: excess elements in array initializer']],
  ['excess scalar elements', 'int a[2][2] = {1, {2, 3}};\n' + M, ['1:23: error: excess elements in scalar initializer']],
  ['empty scalar braces', 'int a[2] = {{}, 1};\n' + M, ['1:13: error: scalar initializer cannot be empty']],
  ['too many braces', 'int a[2] = {{{1}}, 1};\n' + M, ['1:14: error: too many braces around scalar initializer']],
  ['scalar with empty braces', 'int a = {};\n' + M, ['1:9: error: scalar initializer cannot be empty']],
  ['scalar with two values', 'int a = {1, 2};\n' + M, ['1:13: error: excess elements in scalar initializer']],
  ['array initialized by a scalar', 'int a[2] = 3;\n' + M, ['1:12: error: array initializer must be an initializer list']],
  ['array in initializer', 'int main() { int a[2]; int b[2] = {a, 1}; return 0; }', ["1:36: error: array 'a' of type 'int[2]' cannot be used as a scalar value"]],
  // ---- assignments
  ['assign to const', 'const int c = 1;\nint main() {\n  c = 2;\n  return 0;\n}', ["3:3: error: cannot assign to const variable 'c'"]],
  ['assign to const array element', 'const int c[2] = {1, 2};\nint main() { c[0] = 2; return 0; }', ["2:14: error: cannot assign to const variable 'c'"]],
  ['assign to array', 'int main() { int a[2]; int b[2]; a = b; return 0; }', ["1:34: error: array type 'int[2]' is not assignable"]],
  ['assign to sub-array', 'int main() { int a[2][2]; a[0] = 1; return 0; }', ["1:27: error: array type 'int[2]' is not assignable"]],
  ['assign to array parameter', 'int f(int a[]) { a = 0; return 0; }\n' + M, ["1:18: error: array type 'int[]' is not assignable"]],
  // ---- loops and returns
  ['break outside loop', 'int main() {\n  break;\n  return 0;\n}', ["2:3: error: 'break' statement not in loop statement"]],
  ['continue outside loop', 'int main() { if (1) continue; return 0; }', ["1:21: error: 'continue' statement not in loop statement"]],
  ['break in a function called from a loop', 'void f() { break; }\nint main() { while (1) f(); return 0; }', ["1:12: error: 'break' statement not in loop statement"]],
  ['return value from void', 'void f() { return 1; }\n' + M, ["1:19: error: void function 'f' should not return a value"]],
  ['return without value', 'int f() { return; }\n' + M, ["1:11: error: non-void function 'f' should return a value"]],
  ['return void call from void', 'void g() {}\nvoid f() { return g(); }\n' + M, ["2:19: error: void function 'f' should not return a value"]],
  ['return array', 'int f() { int a[2]; return a; }\n' + M, ["1:28: error: array 'a' of type 'int[2]' cannot be used as a scalar value"]],
  // ---- void values
  ['void in arithmetic', 'void f() {}\nint main() { return f() + 1; }', ["2:21: error: void value of 'f()' cannot be used in an expression"]],
  ['void initializer', 'void f() {}\nint main() { int x = f(); return 0; }', ["2:22: error: void value of 'f()' cannot be used in an expression"]],
  ['void condition', 'void f() {}\nint main() { if (f()) return 1; return 0; }', ["2:18: error: void value of 'f()' cannot be used in an expression"]],
  ['void argument', 'void f() {}\nint main() { putint(f()); return 0; }', ["2:21: error: void value of 'f()' cannot be used in an expression"]],
  // ---- arrays vs scalars
  ['array in arithmetic', 'int main() { int a[3]; return a + 1; }', ["1:31: error: array 'a' of type 'int[3]' cannot be used as a scalar value"]],
  ['sub-array in condition', 'int main() { int a[3][3]; while (a[1]) {} return 0; }', ["1:34: error: array 'a' of type 'int[3]' cannot be used as a scalar value"]],
  ['indexing a scalar', 'int main() { int x; return x[0]; }', ["1:30: error: subscripted value is not an array ('x' has type 'int')"]],
  ['too many indices', 'int main() { int a[2][2]; return a[0][1][0]; }', ["1:42: error: subscripted value is not an array ('a' has 2 dimensions)"]],
  ['too many indices on a parameter', 'int f(int a[][3]) { return a[0][1][2]; }\n' + M, ['1:36: error: subscripted value is not an array']],
  ['float subscript', 'int main() { int a[2]; return a[1.5]; }', ['1:33: error: array subscript is not an integer']],
  ['modulo of floats', 'int main() { float x = 1; return x % 2; }', ["1:36: error: invalid operands to binary expression ('float' % 'int'): '%' needs two ints"]],
  // ---- calls
  ['too few arguments', 'int f(int a, int b) { return a; }\nint main() { return f(1); }', ["2:21: error: too few arguments to function call 'f', expected 2, have 1"]],
  ['too many arguments', 'int f(int a) { return a; }\nint main() { return f(1, 2); }', ["2:21: error: too many arguments to function call 'f', expected 1, have 2"]],
  ['too many arguments to a runtime function', 'int main() { putint(1, 2); return 0; }', ["1:14: error: too many arguments to function call 'putint', expected 1, have 2"]],
  ['scalar passed for array', 'int f(int a[]) { return a[0]; }\nint main() { return f(3); }', ["2:23: error: argument 1 of 'f' has type 'int', but the parameter has type 'int[]'"]],
  ['array passed for scalar', 'int f(int a) { return a; }\nint main() { int b[2]; return f(b); }', ["2:33: error: argument 1 of 'f' has type 'int[2]', but the parameter has type 'int'"]],
  ['dimension mismatch', 'int f(int a[][4]) { return 0; }\nint main() { int b[3][5]; return f(b); }', ["2:36: error: argument 1 of 'f' has type 'int[3][5]', but the parameter has type 'int[][4]'"]],
  ['rank mismatch', 'int f(int a[]) { return 0; }\nint main() { int b[3][5]; return f(b); }', ["2:36: error: argument 1 of 'f' has type 'int[3][5]', but the parameter has type 'int[]'"]],
  ['element type mismatch', 'int main() { float b[3]; return getarray(b); }', ["1:42: error: argument 1 of 'getarray' has type 'float[3]', but the parameter has type 'int[]'"]],
  ['putf without arguments', 'int main() { putf(); return 0; }', ["1:14: error: too few arguments to function call 'putf', expected at least 1, have 0"]],
  ['putf without a string', 'int main() { putf(1); return 0; }', ["1:19: error: format argument of 'putf' must be a string literal"]],
  ['putf with an array', 'int main() { int a[2]; putf("%d", a); return 0; }', ["1:35: error: cannot pass an array to the variadic arguments of 'putf'"]],
  ['string outside putf', 'int main() { putint("x"); return 0; }', ['1:21: error: a string literal is only allowed as the format argument of putf']],
  ['string statement', 'int main() { "x"; return 0; }', ['1:14: error: a string literal is only allowed as the format argument of putf']],
];

describe('SysY diagnostics', () => {
  for (const [name, src, expected] of cases) {
    it(name, () => {
      expect(diags(src)).toEqual(expected);
    });
  }

  it('reports several semantic errors in one run', () => {
    const src = [
      'int main() {',
      '  int a = b;',
      '  const int c = 1;',
      '  c = 2;',
      '  break;',
      '  return d;',
      '}',
    ].join('\n');
    expect(diags(src)).toEqual([
      "2:11: error: use of undeclared identifier 'b'",
      "4:3: error: cannot assign to const variable 'c'",
      "5:3: error: 'break' statement not in loop statement",
      "6:10: error: use of undeclared identifier 'd'",
    ]);
  });

  it('recovers from syntax errors and reports each (panic mode)', () => {
    const src = [
      'int f() { return 1 }',
      'int g( { }',
      'int a[2] = {1 2};',
      'int main() {',
      '  int b[2] = {{1}, 2 3};',
      '  int x = ;',
      '  x = 1 +;',
      '  if (x { x = 2; }',
      '  while (x) x = ;',
      '  return x',
      '}',
      'int h() { return 0; }',
    ].join('\n');
    expect(diags(src)).toEqual([
      "1:19: error: expected ';' after return statement",
      "2:8: error: expected parameter type 'int' or 'float', found '{'",
      "3:15: error: expected ',' or '}' in initializer list, found '2'",
      "5:22: error: expected ',' or '}' in initializer list, found '3'",
      "6:11: error: expected expression, found ';'",
      "7:10: error: expected expression, found ';'",
      "8:9: error: expected ')' after 'if' condition, found '{'",
      "9:17: error: expected expression, found ';'",
      "10:11: error: expected ';' after return statement",
    ]);
  });

  it('does not analyze a program with syntax errors', () => {
    expect(diags('int main() { int a = ; return y; }')).toEqual(["1:22: error: expected expression, found ';'"]);
  });

  it('stops after 20 syntax errors', () => {
    const src = 'int main() {\n' + 'x = ;\n'.repeat(30) + '}';
    const d = diags(src);
    expect(d).toHaveLength(20);
    expect(d[19]).toBe("21:5: error: expected expression, found ';'");
  });

  it('stops at a lexical error', () => {
    expect(diags('int main() { putf("abc); return 0; }\nint x = ;')).toEqual([`1:19: error: missing terminating '"' character`]);
    expect(diags('int main() { int a = ; @ return 0; }')).toEqual(["1:22: error: expected expression, found ';'", "1:24: error: unexpected character '@'"]);
  });

  it('reports one error for one mistake (no cascades from an ill-typed operand)', () => {
    expect(diags('int main() { return (x + 1) * 2 - (x < 3); }')).toEqual([
      "1:22: error: use of undeclared identifier 'x'",
      "1:36: error: use of undeclared identifier 'x'",
    ]);
  });

  it('formats like clang: location, message, source line, caret', () => {
    const src = 'int main() {\n\tint a = 1;\n\treturn a + b;\n}\n';
    const r = analyzeSysY(src, 'prog.sy');
    expect(formatDiagnostic(r.diagnostics[0], src)).toBe(
      "prog.sy:3:13: error: use of undeclared identifier 'b'\n\treturn a + b;\n\t           ^",
    );
    expect(formatDiagnostics(r.diagnostics, new SourceFile(src, 'prog.sy'))).toBe(
      "prog.sy:3:13: error: use of undeclared identifier 'b'\n\treturn a + b;\n\t           ^\n",
    );
    expect(formatDiagnostic(r.diagnostics[0])).toBe("prog.sy:3:13: error: use of undeclared identifier 'b'");
  });

  it('compileSysYToAst throws a SysYError carrying the diagnostics', () => {
    let caught: unknown;
    try {
      compileSysYToAst('int main() { return y; }', 'e.sy');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SysYError);
    const e = caught as SysYError;
    expect(e.diagnostics).toHaveLength(1);
    expect(e.message).toBe("e.sy:1:21: error: use of undeclared identifier 'y'\nint main() { return y; }\n                    ^");
  });

  it('handles CRLF line endings in locations and snippets', () => {
    const src = 'int main() {\r\n  return z;\r\n}\r\n';
    const r = analyzeSysY(src, 'w.sy');
    expect(formatDiagnostic(r.diagnostics[0], src)).toBe("w.sy:2:10: error: use of undeclared identifier 'z'\n  return z;\n         ^");
  });
});
