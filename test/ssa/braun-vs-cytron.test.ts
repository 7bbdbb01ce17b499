/**
 * Braun et al.'s construction against Cytron's placement, both raw (without LLVM's undef
 * clean-up), on every function of test/programs and 100 generated programs.
 *
 * Cytron's minimal SSA is minimal in definitions: a store counts as a new definition even
 * when it stores the value the variable already holds (`x = y` after `y = x`, or `x = x`),
 * and the phi joining it is then one Braun's construction never keeps (it sees values, and a
 * phi of one value and itself is trivial). So raw counts may differ, always with Braun's
 * lower; after Braun's trivial-phi rule (and, for irreducible control flow, the SCC rule)
 * applied to Cytron's phis, the counts are equal — Braun's result is minimal on reducible CFGs.
 */
import { describe, expect, it } from 'vitest';
import { computeCFG } from '../../src/analysis/cfg.js';
import { computeDominators } from '../../src/analysis/dominators.js';
import { findLoops } from '../../src/analysis/loops.js';
import type { Function } from '../../src/ir/function.js';
import type { Instruction } from '../../src/ir/instruction.js';
import { Opcode } from '../../src/ir/opcodes.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import { promoteMemoryToRegisterBraun } from '../../src/transforms/ssa/mem2reg-braun.js';
import { promoteMemoryToRegister } from '../../src/transforms/ssa/mem2reg.js';
import { removeRedundantPhis } from '../../src/transforms/ssa/redundant-phis.js';
import { parseModule } from '../../src/text/parser.js';
import { inputIR } from '../helpers/differential.js';
import { hasLlvm } from '../helpers/llvm.js';
import { corpusPrograms, generatedPrograms } from './corpus-helpers.js';

function phis(f: Function): Instruction[] {
  const out: Instruction[] = [];
  for (const b of f) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) out.push(i);
  return out;
}

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('Braun vs Cytron phi counts', () => {
  let functions = 0;
  let rawDifferent = 0;
  const programs = [...corpusPrograms(), ...generatedPrograms(1, 100)];
  for (const p of programs) {
    it(p.name, () => {
      const ll = inputIR(p.source, p.name);
      const c = parseModule(ll, p.name);
      const b = parseModule(ll, p.name);
      for (const fc of c.functions) {
        if (fc.isDeclaration()) continue;
        const fb = b.getFunction(fc.name)!;
        const cfg = computeCFG(fc);
        const reducible = findLoops(cfg, computeDominators(cfg)).irreducibleRegions.length === 0;
        const oldC = new Set(phis(fc));
        const oldB = new Set(phis(fb));
        promoteMemoryToRegister(fc, computeDominators(fc), { simplifyPhis: false });
        promoteMemoryToRegisterBraun(fb, computeDominators(fb), { simplifyPhis: false });
        const newC = phis(fc).filter((x) => !oldC.has(x));
        const newB = phis(fb).filter((x) => !oldB.has(x));
        functions++;
        expect(newB.length, `@${fc.name}: Braun places more phis than Cytron`).toBeLessThanOrEqual(newC.length);
        if (newB.length !== newC.length) rawDifferent++;
        // Braun's rules on Cytron's phis
        removeRedundantPhis(fc, newC);
        if (reducible) {
          // nothing redundant is left in Braun's result
          const st = removeRedundantPhis(fb, newB);
          expect(st, `@${fc.name}: Braun left removable phis`).toEqual({ redundant: 0, trivial: 0 });
        } else removeRedundantPhis(fb, newB);
        expect(phis(fb).length, `@${fc.name}`).toBe(phis(fc).length);
      }
      expect(verifyModule(c).map((e) => e.message)).toEqual([]);
      expect(verifyModule(b).map((e) => e.message)).toEqual([]);
    });
  }
  it('summary', () => {
    // a few functions have copies (see above); most place exactly the same phis raw
    expect(functions).toBeGreaterThan(600);
    expect(rawDifferent).toBeLessThan(functions / 20);
  });
});
