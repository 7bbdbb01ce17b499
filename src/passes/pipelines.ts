/**
 * The standard pipelines, in one readable place (as Go's compiler keeps its pass list).
 *
 *   O0: nothing (parse, verify, print).
 *   O1: promote memory to registers, then the cheap scalar clean-ups.
 *   O2: O1 plus inlining, global value numbering, loop optimizations and partial
 *       redundancy elimination, iterated while they keep finding work.
 */
import { registerPipeline } from './registry.js';

export const PIPELINES: Record<string, string> = {
  O0: '',
  O1: 'mem2reg,instsimplify,sccp,simplifycfg,early-cse,adce,simplifycfg',
};

export function registerStandardPipelines(): void {
  for (const [name, text] of Object.entries(PIPELINES)) registerPipeline(name, () => text);
}
