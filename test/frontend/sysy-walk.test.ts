import { describe, expect, it } from 'vitest';
import { analyzeSysY, walkDeep } from '../../src/frontend/sysy/index.js';
import type { Expr, Node, Stmt } from '../../src/frontend/sysy/ast.js';
import { childrenOf } from '../../src/frontend/sysy/ast.js';

function mainReturn(src: string): Expr {
  const r = analyzeSysY(src, 'w.sy');
  expect(r.diagnostics).toEqual([]);
  const items = r.ast.functions.find((f) => f.name === 'main')!.body!.items;
  return (items[items.length - 1] as Extract<Stmt, { kind: 'Return' }>).value!;
}

describe('walkDeep', () => {
  it('evaluates a 100,000-deep expression written recursively', () => {
    const root = mainReturn(`int main() { return ${Array(100_000).fill('2').join(' - ')}; }`);
    const value = walkDeep<Expr, number>(root, function* visit(e) {
      if (e.kind === 'Binary') {
        const a = yield e.lhs;
        const b = yield e.rhs;
        return e.op === '-' ? a - b : a + b;
      }
      return e.kind === 'IntLiteral' ? e.value : 0;
    });
    expect(value).toBe(2 - 2 * 99_999);
    expect(value).toBe(root.constValue);
  });

  it('visits nodes before, between and after children (pre/in/post order)', () => {
    const root = mainReturn('int main() { return (1 + 2) * 3; }');
    const log: string[] = [];
    walkDeep<Node, void>(root, function* visit(n) {
      log.push(`enter ${n.kind}`);
      for (const c of childrenOf(n)) yield c;
      log.push(`exit ${n.kind}`);
    });
    expect(log).toEqual([
      'enter Binary', 'enter Binary', 'enter IntLiteral', 'exit IntLiteral', 'enter IntLiteral', 'exit IntLiteral',
      'exit Binary', 'enter IntLiteral', 'exit IntLiteral', 'exit Binary',
    ]);
  });

  it('counts the nodes of 10,000 nested ifs', () => {
    const r = analyzeSysY(`int main() { int x = 0; ${'if (x < 5) '.repeat(10_000)} x = 1; return x; }`, 'w.sy');
    const count = walkDeep<Node, number>(r.ast, function* visit(n) {
      let total = 1;
      for (const c of childrenOf(n)) total += yield c;
      return total;
    });
    expect(count).toBeGreaterThan(40_000);
  });
});
