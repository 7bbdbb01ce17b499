/**
 * Shared by cfg-loop-corpus.test.ts and cfg-loop-generated.test.ts: the pipelines checked and
 * the check itself (clang-19 -O0 + opt-19 mem2reg input with noinline stripped → our pipeline
 * with --verify-each → llvm-as-19 accepts → lli-19 prints the same bytes and exit code).
 * Identical outputs of several pipelines are run once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { transform } from '../helpers/differential.js';
import { CACHE_DIR, llvmAsError, runLli } from '../helpers/llvm.js';

export const SINGLE_PASSES = [
  'simplifycfg',
  'simplifycfg<no-select>',
  'jump-threading',
  'loop-simplify',
  'loop-rotate',
  'licm',
  'indvars',
  'tailcallelim',
  'inline',
  'loop-idiom',
  'loop-deletion',
  'sroa',
  'dse',
];

export const COMBINATIONS = [
  'loop-simplify,loop-rotate,licm',
  'inline,simplifycfg',
  'simplifycfg,jump-threading,simplifycfg',
  'loop-rotate,licm,indvars<exit-values=always>,simplifycfg',
  'loop-rotate,indvars,loop-idiom,simplifycfg',
  'loop-rotate,loop-deletion,simplifycfg',
  'inline<threshold=200>,tailcallelim,simplifycfg,jump-threading,loop-rotate,licm,indvars,simplifycfg',
  'inline,sroa,loop-simplify,loop-rotate,licm,gvn,dse,instcombine',
];

let fileCounter = 0;
function runText(text: string, stdin: string | undefined) {
  const f = join(CACHE_DIR, `cfgloop-${process.pid}-${fileCounter++}.ll`);
  writeFileSync(f, text);
  return runLli(f, stdin);
}

/** llvm-as-19's verdict, cached by content (the outputs repeat from run to run). */
function llvmAsCached(text: string): string | null {
  mkdirSync(CACHE_DIR, { recursive: true });
  const f = join(CACHE_DIR, `llvm-as-ok-${createHash('sha1').update(text).digest('hex').slice(0, 20)}`);
  if (existsSync(f)) return null;
  const err = llvmAsError(text);
  if (err === null) writeFileSync(f, '');
  return err;
}

/** Lets the worker answer vitest's RPC between long synchronous steps. */
const breathe = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Runs every pipeline on one input and checks the behaviour of each distinct output. */
export async function checkPipelines(input: string, name: string, pipelines: readonly string[], stdin?: string): Promise<void> {
  const base = printModule(parseModule(input, name));
  const byText = new Map<string, string[]>();
  for (const p of pipelines) {
    const { text } = transform(input, p, name);
    const l = byText.get(text);
    if (l === undefined) byText.set(text, [p]);
    else l.push(p);
    await breathe();
  }
  const before = runText(input, stdin);
  expect(before.timedOut, `${name}: input timed out`).toBe(false);
  for (const [text, ps] of byText) {
    if (text === base) continue;
    await breathe();
    expect(llvmAsCached(text), `llvm-as-19 rejected the output of '${ps[0]}' on ${name}`).toBeNull();
    const after = runText(text, stdin);
    expect(after.timedOut, `'${ps[0]}' on ${name} timed out`).toBe(false);
    expect(after.stdout.toString('latin1'), `stdout differs after '${ps.join("' / '")}' on ${name}`).toBe(before.stdout.toString('latin1'));
    expect(after.exitCode, `exit code differs after '${ps.join("' / '")}' on ${name}`).toBe(before.exitCode);
  }
}

