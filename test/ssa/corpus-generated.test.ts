/**
 * The same checks as corpus-programs.test.ts on 30 generated programs (src/fuzz/c-gen.ts,
 * small preset; SSAKIT_SSA_GENERATED=N to change the count). test/fuzz/ssa.test.ts runs many
 * more, of the medium preset (500); 30 here keep `npm test` inside its budget.
 */
import { describe, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { checkProgram, generatedPrograms } from './corpus-helpers.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('SSA pipelines on generated programs', () => {
  for (const p of generatedPrograms(1, Number(process.env.SSAKIT_SSA_GENERATED ?? 30))) it(p.name, () => checkProgram(p));
});
