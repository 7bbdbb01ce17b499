/**
 * Scale: one function of 100,000 instructions and 10,000 variables whose dominator tree is a
 * chain about 5,000 levels deep promotes with both constructions, without recursion, to the
 * same phis (opt-19 places as many on a smaller copy). The full size (1,000,000 instructions,
 * 100,000 variables) and the cost per 1k instructions across sizes are in bench/mem2reg.ts.
 */
import { describe, expect, it } from 'vitest';
import { scaleFunctionIR } from '../../bench/mem2reg-input.js';
import { computeDominators } from '../../src/analysis/dominators.js';
import type { Function } from '../../src/ir/function.js';
import { Opcode } from '../../src/ir/opcodes.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import { promoteMemoryToRegisterBraun } from '../../src/transforms/ssa/mem2reg-braun.js';
import { promoteMemoryToRegister } from '../../src/transforms/ssa/mem2reg.js';
import { parseModule } from '../../src/text/parser.js';
import { inputIRFromText } from './scale-helpers.js';

function phis(f: Function): number {
  let n = 0;
  for (const b of f) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) n++;
  return n;
}

describe('mem2reg at scale', () => {
  const text = scaleFunctionIR({ variables: 10_000, instructions: 100_000 });

  it('promotes 10,000 variables in 100,000 instructions (deep dominator tree) with Cytron and Braun alike', () => {
    const a = parseModule(text, 'scale.ll');
    const b = parseModule(text, 'scale.ll');
    const fa = a.functions.find((f) => f.name === 'scale')!;
    const fb = b.functions.find((f) => f.name === 'scale')!;
    const dt = computeDominators(fa);
    let maxDepth = 0;
    for (const d of dt.depth) if (d > maxDepth) maxDepth = d;
    expect(maxDepth).toBeGreaterThan(4000);
    const sa = promoteMemoryToRegister(fa, dt);
    const sb = promoteMemoryToRegisterBraun(fb, computeDominators(fb));
    expect(sa.allocasPromoted).toBe(10_000);
    expect(sb.allocasPromoted).toBe(10_000);
    expect(verifyModule(a).map((e) => e.message)).toEqual([]);
    expect(verifyModule(b).map((e) => e.message)).toEqual([]);
    for (const i of fa.instructions()) expect(i.op === Opcode.Alloca || i.op === Opcode.Load || i.op === Opcode.Store).toBe(false);
    expect(phis(fa)).toBeGreaterThan(1000);
    expect(phis(fb)).toBe(phis(fa));
  });

  it('places as many phis as opt-19 (on a 20,000-instruction copy)', () => {
    const small = scaleFunctionIR({ variables: 2_000, instructions: 20_000 });
    const opt = inputIRFromText(small, 'mem2reg');
    if (opt === null) return; // no LLVM: the first test still runs
    const ours = parseModule(small, 'scale.ll');
    const f = ours.functions.find((g) => g.name === 'scale')!;
    promoteMemoryToRegister(f, computeDominators(f));
    expect(phis(f)).toBe(phis(parseModule(opt, 'opt').functions.find((g) => g.name === 'scale')!));
  });
});
