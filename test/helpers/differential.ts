/**
 * Differential checking of transforms: a program's IR before and after a pipeline must
 * behave the same (stdout bytes and exit code) under lli-19, the output must verify and
 * be accepted by llvm-as-19. Shared by the SSA and optimization tests.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runModule } from '../../src/interp/index.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import type { Module } from '../../src/ir/module.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { CACHE_DIR, clangToLL, llvmAsError, OPT, runLli, runTool, type OptLevel } from './llvm.js';

export interface DiffOptions {
  /** clang level of the input (default O0). */
  level?: OptLevel;
  /** opt-19 passes applied to the input first (e.g. 'mem2reg' to test on SSA form). */
  prePasses?: string;
  stdin?: string;
  /** Also check with llvm-as-19 (default true). */
  llvmAs?: boolean;
  /** Also run the transformed module in our interpreter and compare (default true). */
  interp?: boolean;
}

/** The input IR text for a C source under `opts` (cached). */
export function inputIR(cSource: string, name: string, opts: DiffOptions = {}): string {
  const ll = clangToLL(cSource, opts.level ?? 'O0', [], name);
  if (!opts.prePasses) return readFileSync(ll, 'utf8');
  const out = join(CACHE_DIR, `${name.replace(/[^A-Za-z0-9_]/g, '_').slice(-40)}-${opts.prePasses.replace(/[^A-Za-z0-9]/g, '_')}-${ll.split('-').pop()}`);
  const r = runTool(OPT, [`-passes=${opts.prePasses}`, '-S', ll, '-o', out]);
  if (r.status !== 0) throw new Error(`opt-19 failed: ${r.stderr}`);
  return readFileSync(out, 'utf8');
}

/**
 * Runs `pipeline` on the IR with --verify-each; returns the transformed module and its
 * printed text. Fails the test with the pass name when the verifier rejects the IR.
 */
export function transform(irText: string, pipeline: string, name = 'input'): { module: Module; text: string } {
  const m = parseModule(irText, name);
  expect(verifyModule(m).map((e) => e.message)).toEqual([]);
  runPipeline(m, pipeline, { verifyEach: true, log: () => {} });
  const text = printModule(m);
  return { module: m, text };
}

/** Checks that `pipeline` keeps the behaviour of the program under lli-19. */
export function checkPreservesBehaviour(cSource: string, name: string, pipeline: string, opts: DiffOptions = {}): string {
  const before = inputIR(cSource, name, opts);
  const { module, text } = transform(before, pipeline, name);
  if (opts.llvmAs !== false) expect(llvmAsError(text), `llvm-as-19 rejected the output of '${pipeline}' on ${name}`).toBeNull();
  const beforeFile = join(CACHE_DIR, `diff-before-${process.pid}.ll`);
  const afterFile = join(CACHE_DIR, `diff-after-${process.pid}.ll`);
  writeFileSync(beforeFile, before);
  writeFileSync(afterFile, text);
  const a = runLli(beforeFile, opts.stdin);
  const b = runLli(afterFile, opts.stdin);
  expect(b.timedOut, 'transformed program timed out').toBe(false);
  expect(b.stdout.toString('latin1'), `stdout differs after '${pipeline}' on ${name}`).toBe(a.stdout.toString('latin1'));
  expect(b.exitCode, `exit code differs after '${pipeline}' on ${name}`).toBe(a.exitCode);
  if (opts.interp !== false) {
    const r = runModule(module, { stdin: opts.stdin ?? '', stdout: 'collect', stderr: 'collect', maxSteps: 2e9 });
    expect(r.stdoutBytes!.toString('latin1'), `our interpreter's stdout differs from lli-19's after '${pipeline}' on ${name}`).toBe(a.stdout.toString('latin1'));
    expect(r.exitCode, `our interpreter's exit code differs after '${pipeline}' on ${name}`).toBe(a.exitCode);
  }
  return text;
}
