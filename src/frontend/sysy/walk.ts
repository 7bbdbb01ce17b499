/**
 * `walkDeep`: run a recursive tree algorithm without using the JS call stack.
 *
 * The SysY tree has no depth limit (see ast.ts), so its consumers must not
 * recurse. Writing every pass with hand-made explicit stacks is error-prone
 * when a node needs work before, between and after its children (IR
 * generation of `if`, `while`, `&&`). `walkDeep` keeps the natural recursive
 * shape: write the visitor as a generator and, where a recursive call would
 * be, `yield` the child; the driver runs the child's visitor on its own heap
 * stack of suspended generators and sends the child's result back as the
 * value of the `yield`:
 *
 *   const value = walkDeep<Expr, number>(root, function* visit(e) {
 *     if (e.kind === 'Binary') {
 *       const a = yield e.lhs;          // "recurse" into lhs
 *       const b = yield e.rhs;
 *       return a + b;
 *     }
 *     return e.kind === 'IntLiteral' ? e.value : 0;
 *   });
 *
 * Cost: one generator object per visited node (about the price of a closure);
 * memory grows with the depth, never the JS stack.
 */

export type DeepVisitor<N, R> = (node: N) => Generator<N, R, R>;

export function walkDeep<N, R>(root: N, visit: DeepVisitor<N, R>): R {
  const stack: Generator<N, R, R>[] = [visit(root)];
  let input = undefined as R;
  for (;;) {
    const step = stack[stack.length - 1].next(input);
    if (step.done) {
      stack.pop();
      if (stack.length === 0) return step.value;
      input = step.value;
    } else {
      stack.push(visit(step.value));
      input = undefined as R;
    }
  }
}
