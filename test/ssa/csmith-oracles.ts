/**
 * Checks against opt-19 on one Csmith program (clang -O0), shared by the normal suite's small
 * slices (test/ssa/phis-csmith.test.ts, test/analysis/print-trees.test.ts) and the fuzz
 * suite's large ones (test/fuzz/csmith-ssa-oracles.test.ts):
 *  - our mem2reg places as many phis per function as `opt-19 -passes=mem2reg` (pruned SSA
 *    with LLVM's clean-up is unique, so the counts must be equal function by function);
 *  - print<domtree|postdomtree|loops> print byte for byte what opt-19 prints.
 * Seeds are fresh on each run unless SSAKIT_SEED=N is set; callers print them.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { verifyModule } from '../../src/analysis/verifier.js';
import type { Module } from '../../src/ir/module.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/index.js';
import { setSCEVPrintSink } from '../../src/transforms/loop/print-scev.js';
import { clangToLL, OPT, runTool } from '../helpers/llvm.js';
import { csmithProgram } from '../interp/diff-helpers.js';

/** The first seed of a run: SSAKIT_SEED, or a fresh random one. */
export function freshSeed(): number {
  return Number(process.env.SSAKIT_SEED ?? Math.floor(Math.random() * 1e9));
}

function phisPerFunction(m: Module): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of m.definedFunctions()) out[f.name] = f.instructions().filter((i) => i.opcodeName === 'phi').length;
  return out;
}

/** The -O0 IR of Csmith program `seed` (a path), and the same after opt-19's mem2reg (text). */
function csmithIR(seed: number): { raw: string; ssa: string } {
  const { source, flags } = csmithProgram(seed);
  const raw = clangToLL(source, 'O0', flags, `csmith-${seed}`);
  const r = runTool(OPT, ['-passes=mem2reg', '-S', raw]);
  expect(r.status, r.stderr).toBe(0);
  return { raw, ssa: r.stdout.toString() };
}

/** Checks our mem2reg's phi counts on Csmith program `seed`; returns opt's phi total. */
export function checkPhiCounts(seed: number): number {
  const { raw, ssa } = csmithIR(seed);
  const want = phisPerFunction(parseModule(ssa, `opt-${seed}`));
  const m = parseModule(readFileSync(raw, 'utf8'), `csmith-${seed}`);
  runPipeline(m, 'mem2reg');
  expect(verifyModule(m).map((e) => e.message)).toEqual([]);
  expect(phisPerFunction(m), `csmith seed ${seed}`).toEqual(want);
  let total = 0;
  for (const k in want) total += want[k];
  return total;
}

const PRINTERS = ['domtree', 'postdomtree', 'loops'];

function ours(ll: string, printer: string): string {
  let out = '';
  const old = setSCEVPrintSink((t) => (out += t));
  try {
    runPipeline(parseModule(ll, 'input'), `print<${printer}>`);
  } finally {
    setSCEVPrintSink(old);
  }
  return out;
}

/** What opt-19 prints for `print<printer>` on `ll`. */
export function optPrints(ll: string, printer: string): string {
  const r = runTool(OPT, [`-passes=print<${printer}>`, '-disable-output'], { input: ll });
  expect(r.status, r.stderr).toBe(0);
  return r.stderr;
}

/** The three printers on `ll` equal opt-19's output. */
export function expectSamePrints(ll: string, name: string): void {
  for (const p of PRINTERS) expect(ours(ll, p), `print<${p}> on ${name}`).toBe(optPrints(ll, p));
}

/** The printers on Csmith program `seed` after opt-19's mem2reg. */
export function checkPrintsOnCsmith(seed: number): void {
  expectSamePrints(csmithIR(seed).ssa, `csmith-${seed}`);
}
