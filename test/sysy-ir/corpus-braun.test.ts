// test/sysy and test/sysy/perf through Braun-mode IR generation (with and without on-the-fly folding).
import { describe, expect, it } from 'vitest';
import { corpusSuite } from './corpus-suite.js';
import { compile, corpus } from './harness.js';

corpusSuite(['braun', 'braun-nofold'], new Set(['braun']));

// The explicit-stack walk (what programs nested deeper than the recursion limit use) gives
// exactly the IR of the recursive walk.
describe('recursive and explicit-stack walks agree', () => {
  it('on every program, in both modes', () => {
    for (const p of corpus()) {
      for (const ssa of ['braun', 'alloca'] as const) {
        expect(compile(p.source, p.name, { ssa, recursionLimit: 0 }).text, p.name).toBe(compile(p.source, p.name, { ssa }).text);
      }
    }
  });
});
