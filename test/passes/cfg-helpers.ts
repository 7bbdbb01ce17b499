/**
 * Helpers for the unit tests of the control-flow, loop and interprocedural passes: run a
 * pipeline on hand-written IR with --verify-each, and compare a function's results before
 * and after in our interpreter.
 */
import { expect } from 'vitest';
import type { Function } from '../../src/ir/function.js';
import type { Module } from '../../src/ir/module.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import { callFunction } from '../../src/interp/index.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { printFunction, printModule } from '../../src/text/printer.js';
import { findLoops } from '../../src/analysis/loops.js';
import type { LoopInfo } from '../../src/analysis/loops.js';

export interface OptResult {
  m: Module;
  text: string;
  stats: Map<string, Map<string, number>>;
  fn: (name: string) => Function;
  fnText: (name: string) => string;
}

/** Parses `ir`, runs `pipeline` with --verify-each, and returns the result. */
export function opt(ir: string, pipeline: string): OptResult {
  const m = parseModule(ir, 'test.ll');
  expect(verifyModule(m).map((e) => e.message)).toEqual([]);
  const pm = runPipeline(m, pipeline, { verifyEach: true, log: () => {} });
  const fn = (name: string): Function => {
    const f = m.getFunction(name);
    if (f === undefined) throw new Error(`no @${name}`);
    return f;
  };
  return { m, text: printModule(m), stats: pm.stats, fn, fnText: (name) => printFunction(fn(name)) };
}

/** A pass's counter from a run (0 when absent). */
export function stat(r: OptResult, pass: string, counter: string): number {
  return r.stats.get(pass)?.get(counter) ?? 0;
}

/** Calls @name with each argument list before and after `pipeline`; the results must agree. Returns the results. */
export function sameResults(ir: string, pipeline: string, name: string, argLists: unknown[][]): unknown[] {
  const before = parseModule(ir, 'before.ll');
  const after = opt(ir, pipeline).m;
  const out: unknown[] = [];
  for (const args of argLists) {
    const a = callFunction(before, name, args, { maxSteps: 10_000_000 });
    const b = callFunction(after, name, args, { maxSteps: 10_000_000 });
    expect(b.value, `@${name}(${args.join(', ')}) after '${pipeline}'`).toEqual(a.value);
    expect(b.stdout ?? '', `output of @${name}(${args.join(', ')}) after '${pipeline}'`).toEqual(a.stdout ?? '');
    out.push(a.value);
  }
  return out;
}

/** The loops of @name. */
export function loopsOf(r: OptResult, name: string): LoopInfo {
  return findLoops(r.fn(name));
}

/** Number of instructions of an opcode in a function's printed text. */
export function countOps(text: string, opcode: string): number {
  const re = new RegExp(`(= |^\\s+)${opcode} `, 'gm');
  return (text.match(re) ?? []).length;
}
