/**
 * The control-flow, loop and interprocedural passes on 12 generated programs
 * (src/fuzz/c-gen.ts; every fifth of the medium preset; SSAKIT_CFG_GENERATED=N for more:
 * 12 keep `npm test` inside its budget, test/fuzz/cfg-loop-passes.test.ts runs 300 programs): the combinations and the passes that
 * rebuild control flow alone, checked like test/programs in cfg-loop-corpus.test.ts.
 */
import { describe, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { inputIR } from '../helpers/differential.js';
import { hasLlvm } from '../helpers/llvm.js';
import { stripNoinline } from '../helpers/noinline.js';
import { checkPipelines, COMBINATIONS } from './cfg-loop-check.js';

const ALONE = ['jump-threading', 'loop-rotate', 'licm', 'indvars', 'tailcallelim', 'inline'];

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('control-flow and loop passes keep behaviour on generated programs', () => {
  for (let seed = 1; seed <= Number(process.env.SSAKIT_CFG_GENERATED ?? 12); seed++) {
    it(`c-gen seed ${seed}`, async () => {
      const src = generateCProgram(seed, { size: seed % 5 === 0 ? 'medium' : 'small' });
      const input = stripNoinline(inputIR(src, `cgen-${seed}`, { prePasses: 'mem2reg' }));
      await checkPipelines(input, `cgen-${seed}`, [...ALONE, ...COMBINATIONS]);
    }, 120_000);
  }
});

