/**
 * Regression: bit vectors whose words have bit 31 set must still converge (the solver once
 * compared a signed transfer result with a Uint32Array entry, so loops never stabilised
 * once value #31 was live around a back edge).
 */
import { expect, it } from 'vitest';
import { liveness } from '../../src/analysis/dataflow/liveness.js';
import { parseModule } from '../../src/text/parser.js';

it('liveness converges with more than 32 values live around a loop', () => {
  const n = 70;
  const defs = Array.from({ length: n }, (_, k) => `  %v${k} = add i32 %a, ${k}`).join('\n');
  const uses = Array.from({ length: n }, (_, k) => `  %u${k} = add i32 ${k === 0 ? '%a' : `%u${k - 1}`}, %v${k}`).join('\n');
  const text = `define i32 @f(i32 %a, i1 %c) {
entry:
${defs}
  br label %loop
loop:
  br i1 %c, label %loop, label %exit
exit:
${uses}
  ret i32 %u${n - 1}
}`;
  const fn = parseModule(text, 'wide.ll').getFunction('f')!;
  const live = liveness(fn);
  const loop = fn.blocks()[1];
  const names = live.liveIn(loop.id).map((v) => v.name);
  for (let k = 0; k < n; k++) expect(names).toContain(`v${k}`);
  expect(live.liveOut(loop.id).length).toBe(n + 2); // the v's, %a and %c (the loop's own condition)
});
