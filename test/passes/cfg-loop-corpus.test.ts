/**
 * The control-flow, loop and interprocedural passes, each alone and in combinations, on
 * every C program of test/programs and on generated programs: clang-19 -O0, opt-19 mem2reg,
 * `noinline` stripped (so the inliner has work), our pipeline with --verify-each, then
 * llvm-as-19 accepts the output and lli-19 prints the same bytes and exit code as on the
 * input. Identical outputs of several pipelines are run once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { inputIR, transform } from '../helpers/differential.js';
import { CACHE_DIR, hasLlvm, listPrograms, llvmAsError, runLli } from '../helpers/llvm.js';
import { stripNoinline } from '../helpers/noinline.js';

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
];

export const COMBINATIONS = [
  'loop-simplify,loop-rotate,licm',
  'inline,simplifycfg',
  'simplifycfg,jump-threading,simplifycfg',
  'loop-rotate,licm,indvars<exit-values=always>,simplifycfg',
  'inline<threshold=200>,tailcallelim,simplifycfg,jump-threading,loop-rotate,licm,indvars,simplifycfg',
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

describe.runIf(hasLlvm())('control-flow and loop passes keep behaviour on test/programs', () => {
  for (const p of listPrograms('test/programs')) {
    it(p.name, async () => {
      const input = stripNoinline(inputIR(readFileSync(p.path, 'utf8'), p.name, { prePasses: 'mem2reg', stdin: p.stdin }));
      await checkPipelines(input, p.name, [...SINGLE_PASSES, ...COMBINATIONS], p.stdin);
    }, 120_000);
  }
});

describe.runIf(hasLlvm())('control-flow and loop passes keep behaviour on generated programs', () => {
  for (let seed = 1; seed <= 50; seed++) {
    it(`c-gen seed ${seed}`, async () => {
      const src = generateCProgram(seed, { size: seed % 5 === 0 ? 'medium' : 'small' });
      const input = stripNoinline(inputIR(src, `cgen-${seed}`, { prePasses: 'mem2reg' }));
      await checkPipelines(input, `cgen-${seed}`, [...SINGLE_PASSES, ...COMBINATIONS]);
    }, 120_000);
  }
});

describe.skipIf(hasLlvm())('control-flow and loop passes (LLVM oracle)', () => {
  it.skip('LLVM 19 tools not found: skipping the behaviour checks', () => {});
});
