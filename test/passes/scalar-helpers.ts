/**
 * Shared by the tests of the scalar optimizations (instsimplify, instcombine, sccp,
 * constprop, adce, copyprop, early-cse, lvn, gvn, pre): parsing a function and printing
 * its body for exact expectations, and the differential corpus (test/programs plus
 * seeded generated programs) run through `checkPreservesBehaviour`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import type { Module } from '../../src/ir/module.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import { runPipeline } from '../../src/passes/index.js';
import type { PassManager } from '../../src/pm/pass-manager.js';
import { parseModule } from '../../src/text/parser.js';
import { printFunction } from '../../src/text/printer.js';
import { checkPreservesBehaviour } from '../helpers/differential.js';
import { hasLlvm, listPrograms, LLVM_MISSING } from '../helpers/llvm.js';

/** Runs `pipeline` with --verify-each on IR text; returns the module and the manager. */
export function optimize(ir: string, pipeline: string): { m: Module; pm: PassManager } {
  const m = parseModule(ir, 'test.ll');
  expect(verifyModule(m).map((e) => e.message)).toEqual([]);
  const pm = runPipeline(m, pipeline, { verifyEach: true, log: () => {} });
  return { m, pm };
}

/**
 * The instructions of function `fn` (default: the first definition) after `pipeline`, one
 * per line, trimmed, without comments and blank lines: `['%x = add i32 %a, 1', 'ret i32 %x']`.
 * Block labels appear as `label:` lines.
 */
export function bodyAfter(ir: string, pipeline: string, fn?: string): string[] {
  const { m } = optimize(ir, pipeline);
  const f = fn === undefined ? m.definedFunctions()[0] : m.getFunction(fn)!;
  return bodyLines(printFunction(f));
}

export function bodyLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/;.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('define') && l !== '}');
}

/** The statistic `counter` of `pass` after running `pipeline`. */
export function statOf(pm: PassManager, pass: string, counter: string): number {
  return pm.stats.get(pass)?.get(counter) ?? 0;
}

export interface CorpusProgram {
  name: string;
  source: string;
  stdin?: string;
}

export function corpusPrograms(): CorpusProgram[] {
  return listPrograms('test/programs').map((p) => ({ name: p.name, source: readFileSync(p.path, 'utf8'), stdin: p.stdin }));
}

/** Seeded generated programs (small ones: they run in a few ms under lli). */
export function generatedPrograms(count: number, firstSeed = 1): CorpusProgram[] {
  const out: CorpusProgram[] = [];
  for (let s = firstSeed; s < firstSeed + count; s++) out.push({ name: `gen${s}`, source: generateCProgram(s, { size: 'small' }) });
  return out;
}

/**
 * Lets vitest's worker answer its RPC: tests that only spawn synchronously would keep the
 * event loop's poll phase from running for the whole file, and after 60 s the runner
 * reports 'Timeout calling "onTaskUpdate"'.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * One test per program: every pipeline keeps the program's behaviour under lli-19 (after
 * opt-19's mem2reg, until ours lands), verified after each pass. llvm-as-19 is run on the
 * first pipeline only; lli-19 parses the others anyway.
 */
export function describeDifferential(title: string, pipelines: string[], programs: CorpusProgram[]): void {
  // Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
  describe.runIf(hasLlvm())(title, () => {
    for (const p of programs) {
      it(p.name, async () => {
        for (let k = 0; k < pipelines.length; k++) {
          checkPreservesBehaviour(p.source, p.name, pipelines[k], { prePasses: 'mem2reg', stdin: p.stdin, llvmAs: k === 0 });
          await yieldToEventLoop();
        }
      });
    }
  });
  // Reason: the differential oracle is lli-19/llvm-as-19; this placeholder names what is missing.
  if (!hasLlvm()) describe.skip(`${title} (${LLVM_MISSING})`, () => {});
}
