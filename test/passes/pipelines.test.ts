/**
 * The standard pipelines (src/passes/pipelines.ts) keep their declared order constraints,
 * and the check catches a pipeline that breaks one.
 */
import { describe, expect, it } from 'vitest';
import { ensureRegistered, parsePipeline } from '../../src/passes/index.js';
import { ORDER_CONSTRAINTS, orderViolations, PIPELINE_STEPS, PIPELINES, pipelineString, type PipelineStep } from '../../src/passes/pipelines.js';

describe('standard pipelines', () => {
  it('keep every order constraint', () => {
    for (const [name, steps] of Object.entries(PIPELINE_STEPS)) expect(orderViolations(steps), name).toEqual([]);
  });

  it('give every pass a reason, and name registered passes only', () => {
    ensureRegistered();
    const walk = (steps: readonly PipelineStep[]): void => {
      for (const s of steps) {
        expect(s.why.length, JSON.stringify(s)).toBeGreaterThan(10);
        if ('body' in s) walk(s.body);
      }
    };
    for (const [name, steps] of Object.entries(PIPELINE_STEPS)) {
      walk(steps);
      expect(PIPELINES[name]).toBe(pipelineString(steps));
      expect(() => parsePipeline(PIPELINES[name])).not.toThrow();
    }
  });

  it('the constraints name registered passes', () => {
    ensureRegistered();
    for (const c of ORDER_CONSTRAINTS) for (const p of [c.first, ...c.then]) expect(() => parsePipeline(p), p).not.toThrow();
  });

  it('the check catches a broken order', () => {
    const swapped: PipelineStep[] = [
      { pass: 'mem2reg', why: 'x'.repeat(11) },
      { fixpoint: 2, why: 'x'.repeat(11), body: [{ pass: 'licm', why: 'x'.repeat(11) }, { pass: 'loop-simplify', why: 'x'.repeat(11) }, { pass: 'sccp', why: 'x'.repeat(11) }] },
    ];
    const v = orderViolations(swapped);
    expect(v.some((l) => l.startsWith('licm (step 2) runs without loop-simplify before it'))).toBe(true);
    expect(v.some((l) => l.startsWith('sccp (step 4) is not followed by simplifycfg'))).toBe(true);
    expect(orderViolations([{ pass: 'gvn', why: '' }, { pass: 'mem2reg', why: '' }])).toEqual([expect.stringMatching(/^gvn \(step 1\) runs without mem2reg before it/)]);
    // a constraint binds only pipelines that run its first pass
    expect(orderViolations([{ pass: 'gvn', why: '' }])).toEqual([]);
  });
});
