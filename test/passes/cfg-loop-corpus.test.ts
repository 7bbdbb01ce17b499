/**
 * The control-flow, loop and interprocedural passes, each alone and in combinations, on
 * every C program of test/programs (generated programs: cfg-loop-generated.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { inputIR } from '../helpers/differential.js';
import { hasLlvm, LLVM_MISSING, listPrograms } from '../helpers/llvm.js';
import { stripNoinline } from '../helpers/noinline.js';
import { checkPipelines, COMBINATIONS, SINGLE_PASSES } from './cfg-loop-check.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('control-flow and loop passes keep behaviour on test/programs', () => {
  for (const p of listPrograms('test/programs')) {
    it(p.name, async () => {
      const input = stripNoinline(inputIR(readFileSync(p.path, 'utf8'), p.name, { prePasses: 'mem2reg', stdin: p.stdin }));
      await checkPipelines(input, p.name, [...SINGLE_PASSES, ...COMBINATIONS], p.stdin);
    }, 120_000);
  }
});

