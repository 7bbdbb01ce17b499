/**
 * mem2reg, mem2reg-braun, mem2reg+out-of-ssa and mem2reg+reg2mem on every C program of
 * test/programs: verifier after each pass, llvm-as-19, lli-19 and our interpreter agree with
 * lli-19 on the input, and the phi counts per function equal opt-19's (corpus-helpers.ts).
 */
import { describe, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { checkProgram, corpusPrograms } from './corpus-helpers.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('SSA pipelines on test/programs', () => {
  for (const p of corpusPrograms()) it(p.name, () => checkProgram(p));
});
