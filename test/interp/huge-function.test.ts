/**
 * A function with more SSA values than V8 can give JS locals (one 200,000-instruction
 * block, as a 100,000-term SysY sum compiles to) runs: its values live in an array.
 */
import { expect, it } from 'vitest';
import { runModule } from '../../src/interp/index.js';
import { MAX_JS_LOCALS } from '../../src/interp/codegen.js';
import { parseModule } from '../../src/text/parser.js';

it('runs a function with 200,000 values in one block, and across a call', () => {
  const n = 100_000;
  expect(n * 2).toBeGreaterThan(MAX_JS_LOCALS);
  const lines = ['declare i32 @putchar(i32)', 'define i32 @id(i32 %x) {', '  ret i32 %x', '}', 'define i32 @main() {', '  %c = call i32 @id(i32 1)'];
  let prev = '%c';
  for (let k = 0; k < n; k++) {
    lines.push(`  %a${k} = add i32 ${prev}, 1`, `  %b${k} = sub i32 %a${k}, 0`);
    prev = `%b${k}`;
  }
  lines.push(`  %r = call i32 @id(i32 ${prev})`, `  %m = urem i32 %r, 256`, '  ret i32 %m', '}');
  const r = runModule(parseModule(lines.join('\n'), 'huge.ll'), { stats: true });
  expect(r.exitCode).toBe((n + 1) % 256);
  expect(r.stats!.total).toBe(2 * n + 4 + 2); // main: 2 calls, urem, ret; @id: ret twice
});
