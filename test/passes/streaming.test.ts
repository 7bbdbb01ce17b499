/**
 * optimizeText (src/driver/streaming.ts): processing a module function by function must
 * give exactly what reading the whole module gives — the same text, the same verifier
 * problems, the same errors — on every clang-19 program of the corpus and on the edge
 * cases of streaming (forward references, errors after some functions were processed).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canStream, optimizeText, type OptimizeTextResult } from '../../src/driver/streaming.js';
import { parsePipeline } from '../../src/passes/index.js';
import { clangFileToLL, hasLlvm, listPrograms, LLVM_MISSING, OptLevel } from '../helpers/llvm.js';

const llvm = hasLlvm();
const PIPELINES = ['', 'mem2reg', 'mem2reg-braun', 'mem2reg,redundant-phis', 'reg2mem', 'mem2reg,out-of-ssa', 'repeat<2>(mem2reg)'];

function both(text: string, pipeline: string): [OptimizeTextResult, OptimizeTextResult] {
  const s = optimizeText(text, 'in.ll', { pipeline });
  const w = optimizeText(text, 'in.ll', { pipeline, streaming: false });
  return [s, w];
}

function messages(r: OptimizeTextResult): { input: string[]; output: string[] } {
  return { input: r.inputProblems.map((e) => e.message), output: r.outputProblems.map((e) => e.message) };
}

// Reason for runIf: needs clang-19 to make the corpus's .ll files.
describe.runIf(llvm)('streaming = whole module, on the corpus', () => {
  for (const level of ['O0', 'O2'] as OptLevel[]) {
    for (const p of listPrograms('test/programs')) {
      it(`${p.name} -${level}`, () => {
        const text = readFileSync(clangFileToLL(p.path, level), 'utf8');
        for (const pipeline of PIPELINES) {
          const [s, w] = both(text, pipeline);
          expect(s.streamed, pipeline).toBe(canStream(text, parsePipeline(pipeline)));
          expect(w.streamed).toBe(false);
          expect(s.output, pipeline).toBe(w.output);
          expect(s.output).not.toBeNull();
        }
      });
    }
  }
});

// Reason: a placeholder registered only when clang-19 is absent, so that the corpus tests
// above, which need it, are explained in the report instead of vanishing silently.
if (!llvm) {
  // Reason: placeholder naming the missing LLVM tools (clang-19 makes the corpus above).
  // Reason for skip: needs clang-19/llvm-19 as the oracles (apt-get install clang-19 llvm-19); .ci/run installs them, and the skipped entry names what is missing.
  it.skip(`LLVM tools are missing: ${LLVM_MISSING}`, () => {});
}

const TWO = `
@g = global i32 0
declare i32 @ext(i32)

define i32 @first(i32 %a) {
entry:
  %p = alloca i32
  store i32 %a, ptr %p
  %v = load i32, ptr %p
  %r = call i32 @later(i32 %v)
  ret i32 %r
}

define internal i32 @later(i32 %x) {
entry:
  %q = alloca i32
  store i32 %x, ptr %q
  %y = load i32, ptr %q
  %z = call i32 @ext(i32 %y)
  store i32 %z, ptr @g
  ret i32 %z
}

attributes #0 = { nounwind }
`;

describe('streaming edge cases', () => {
  it('a call to a function defined further on verifies and prints as in the whole module', () => {
    const [s, w] = both(TWO, 'mem2reg');
    expect(s.streamed).toBe(true);
    expect(s.inputProblems).toEqual([]);
    expect(s.output).toBe(w.output);
    expect(s.output).toContain('%r = call i32 @later(i32 %a)');
    expect(s.output).not.toContain('alloca');
  });

  it('a use of a global that is never defined is the same located error in both ways', () => {
    const text = TWO.replace('@ext(i32 %y)', '@nowhere(i32 %y)');
    expect(() => optimizeText(text, 'in.ll', { pipeline: 'mem2reg' })).toThrow(/in\.ll:\d+:\d+: error: use of undefined value '@nowhere'/);
    expect(() => optimizeText(text, 'in.ll', { pipeline: 'mem2reg', streaming: false })).toThrow(/use of undefined value '@nowhere'/);
  });

  it('a syntax error after processed functions is reported where it is, with no output', () => {
    const text = TWO + '\ndefine void @bad() {\nentry:\n  ret void extra\n}\n';
    let a = '';
    let b = '';
    try {
      optimizeText(text, 'in.ll', { pipeline: 'mem2reg' });
    } catch (e) {
      a = (e as Error).message;
    }
    try {
      optimizeText(text, 'in.ll', { pipeline: 'mem2reg', streaming: false });
    } catch (e) {
      b = (e as Error).message;
    }
    expect(a).toMatch(/^in\.ll:\d+:\d+: error: /);
    expect(a).toBe(b);
  });

  it('a broken function: the same problems in module order, nothing printed, no pass run after it', () => {
    // %u is used in a block that its definition does not dominate
    const broken = `
define i32 @ok(i32 %a) {
entry:
  ret i32 %a
}

define i32 @bad(i1 %c) {
entry:
  br i1 %c, label %t, label %f
t:
  %u = add i32 1, 2
  br label %f
f:
  ret i32 %u
}

define i32 @bad2() {
entry:
  %v = add i32 %w, 1
  %w = add i32 %v, 1
  ret i32 %v
}
`;
    const [s, w] = both(broken, 'mem2reg');
    expect(s.streamed).toBe(true);
    expect(s.output).toBeNull();
    expect(w.output).toBeNull();
    expect(messages(s)).toEqual(messages(w));
    expect(s.inputProblems.length).toBeGreaterThanOrEqual(2);
    expect(s.inputProblems[0].message).toContain('@bad');
  });

  it('falls back to the whole module when streaming cannot give the same result', () => {
    const p = parsePipeline('mem2reg');
    expect(canStream(TWO, p)).toBe(true);
    expect(canStream(TWO, parsePipeline('sccp'))).toBe(false); // not marked local
    expect(canStream(TWO, parsePipeline('O2'))).toBe(false); // module passes
    expect(canStream(TWO, p, { verifyEach: true })).toBe(false);
    expect(canStream(TWO, p, { printAfterAll: true })).toBe(false);
    expect(canStream(TWO, p, { bisectLimit: 3 })).toBe(false);
    expect(canStream(TWO.replace('@g = global', '@0 = global').replaceAll('ptr @g', 'ptr @0'), p)).toBe(false);
    expect(canStream(TWO + '@t = global ptr blockaddress(@first, %entry)\n', p)).toBe(false);
    const r = optimizeText(TWO, 'in.ll', { pipeline: 'sccp' });
    expect(r.streamed).toBe(false);
    expect(r.output).toContain('define i32 @first');
  });

  it('keeps stats and timings across functions', () => {
    const s = optimizeText(TWO, 'in.ll', { pipeline: 'mem2reg', instrumentation: { timePasses: true } });
    const w = optimizeText(TWO, 'in.ll', { pipeline: 'mem2reg', streaming: false, instrumentation: { timePasses: true } });
    expect(s.pm!.statsReport()).toBe(w.pm!.statsReport());
    expect(s.pm!.timings.get('mem2reg')!.runs).toBe(2);
  });
});
