/**
 * Deep nesting never overflows the JS stack: the parser, the analyzer and
 * dumpAst use explicit stacks (see the nesting guarantee in ast.ts).
 */
import { describe, expect, it } from 'vitest';
import { analyzeSysY, dumpAst } from '../../src/frontend/sysy/index.js';
import type { Expr, Stmt } from '../../src/frontend/sysy/ast.js';

const N = 10_000;

function analyze(src: string) {
  const r = analyzeSysY(src, 'deep.sy');
  expect(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual([]);
  expect(dumpAst(r.ast).length).toBeGreaterThan(0);
  return r.ast;
}

function mainBody(src: string): Stmt[] {
  const p = analyze(src);
  return p.functions.find((f) => f.name === 'main')!.body!.items as Stmt[];
}

function returned(src: string): Expr {
  const items = mainBody(src);
  return (items[items.length - 1] as Extract<Stmt, { kind: 'Return' }>).value!;
}

describe('deep nesting', () => {
  it(`${N} nested parentheses (no nodes for parentheses)`, () => {
    const e = returned(`int main() { return ${'('.repeat(N)}1 + 2${')'.repeat(N)}; }`);
    expect(e.kind).toBe('Binary');
    expect(e.constValue).toBe(3);
  });

  it(`${N} nested blocks, each declaring a shadowing variable`, () => {
    const items = mainBody(`int main() { ${'{ int x = 1; '.repeat(N)} x = 2; ${'}'.repeat(N)} return 0; }`);
    let depth = 0;
    let s: Stmt = items[0];
    while (s.kind === 'Block') {
      depth++;
      s = s.items[s.items.length - 1] as Stmt;
    }
    expect(depth).toBe(N);
  });

  it(`${N} nested ifs and an if-else chain of ${N}`, () => {
    const items = mainBody(`int main() { int x = 0; ${'if (x < 5) '.repeat(N)} x = x + 1; return x; }`);
    let depth = 0;
    let s: Stmt = items[1];
    while (s.kind === 'If') { depth++; s = s.then; }
    expect(depth).toBe(N);
    const chain = mainBody(`int main() { int x = 0; ${'if (x == 1) x = 2; else '.repeat(N)} x = 3; return x; }`);
    let n = 0;
    let c: Stmt | null = chain[1];
    while (c && c.kind === 'If') { n++; c = c.else; }
    expect(n).toBe(N);
  });

  it(`${N} nested whiles with break and continue at the bottom`, () => {
    const items = mainBody(`int main() { int x = 0; ${'while (x < 5) '.repeat(N)} { x = x + 1; if (x > 2) break; continue; } return x; }`);
    expect(items[1].kind).toBe('While');
  });

  it(`${N} nested unary operators, calls and subscripts`, () => {
    expect(returned(`int main() { return ${'-'.repeat(N)}7; }`).constValue).toBe(7);
    expect(returned(`int main() { return ${'!'.repeat(N + 1)}7; }`).constValue).toBe(0);
    expect(returned(`int main() { return ${'-('.repeat(N)}1${')'.repeat(N)}; }`).constValue).toBe(1);
    expect(returned(`int f(int x) { return x; }\nint main() { return ${'f('.repeat(N)}1${')'.repeat(N)}; }`).kind).toBe('Call');
    expect(returned(`int a[2];\nint main() { return ${'a['.repeat(N)}0${']'.repeat(N)}; }`).kind).toBe('LVal');
  });

  it('long operator chains: 100,000 terms left-deep and 10,000 right-deep', () => {
    expect(returned(`int main() { return ${Array(100_000).fill('1').join(' + ')}; }`).constValue).toBe(100_000);
    expect(returned(`int main() { return ${'1 + ('.repeat(N)}1${')'.repeat(N)}; }`).constValue).toBe(N + 1);
    expect(returned(`int main() { int a = 1; return ${Array(N).fill('a').join(' && ')}; }`).kind).toBe('Logical');
  });

  it('deeply nested initializer braces give a located error, not a crash', () => {
    const r = analyzeSysY(`int main() { int a[2] = ${'{'.repeat(N)}1${'}'.repeat(N)}; return 0; }`, 'deep.sy');
    expect(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual(['1:27 too many braces around scalar initializer']);
    const dims = Array(200).fill('[1]').join('');
    analyze(`int a${dims} = ${'{'.repeat(200)}5${'}'.repeat(200)};\nint main() { return 0; }`);
  });

  it('dumps a very deep tree in linear size', () => {
    const p = analyze(`int main() { return ${'-('.repeat(N)}1${')'.repeat(N)}; }`);
    const text = dumpAst(p);
    expect(text.length).toBeLessThan(N * 200);
    expect(text).toContain(`[${N + 4}] IntLiteral 1 'int' =1`);
  });
});
