import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { runPipeline } from '../../src/passes/index.js';
import { checkPreservesBehaviour } from '../helpers/differential.js';
import { hasLlvm, listPrograms } from '../helpers/llvm.js';

describe('dce', () => {
  it('removes unused pure instructions and what they used, keeps side effects', () => {
    const m = parseModule(`
declare void @g(i32)
define i32 @f(i32 %a, ptr %p) {
  %x = add i32 %a, 1
  %y = mul i32 %x, 2
  %z = load i32, ptr %p
  %v = load volatile i32, ptr %p
  call void @g(i32 %a)
  store i32 %a, ptr %p
  ret i32 %a
}`);
    runPipeline(m, 'dce', { verifyEach: true });
    const out = printModule(m);
    expect(out).not.toMatch(/%x =|%y =|%z =/);
    expect(out).toMatch(/load volatile/);
    expect(out).toMatch(/call void @g/);
    expect(out).toMatch(/store i32 %a/);
  });

  it('counts what it removed', () => {
    const m = parseModule(`define void @f(i32 %a) {\n  %x = add i32 %a, 1\n  %y = add i32 %x, 1\n  ret void\n}`);
    const pm = runPipeline(m, 'dce');
    expect(pm.stats.get('dce')?.get('instructions removed')).toBe(2);
  });
});

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('dce keeps behaviour on the C corpus', () => {
  for (const p of listPrograms('test/programs').slice(0, 20)) {
    it(p.name, () => {
      checkPreservesBehaviour(readFileSync(p.path, 'utf8'), p.name, 'dce', { prePasses: 'mem2reg', stdin: p.stdin });
    });
  }
});
