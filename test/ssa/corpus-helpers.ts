/**
 * Shared by the SSA corpus tests: the C programs of test/programs and generated programs
 * (src/fuzz/c-gen.ts), each checked after every SSA pipeline: the IR verifies after each
 * pass, llvm-as-19 accepts it, lli-19 and our interpreter print what lli-19 printed before,
 * and mem2reg / mem2reg-braun place as many phis per function as opt-19 -passes=mem2reg.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { generateCProgram, type CGenOptions } from '../../src/fuzz/c-gen.js';
import { Opcode } from '../../src/ir/opcodes.js';
import type { Module } from '../../src/ir/module.js';
import { runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';
import { inputIR, transform } from '../helpers/differential.js';
import { CACHE_DIR, listPrograms, llvmAsError, runLli } from '../helpers/llvm.js';

export const PIPELINES = ['mem2reg', 'mem2reg-braun', 'mem2reg,out-of-ssa', 'mem2reg,reg2mem'];

export interface Program {
  name: string;
  source: string;
  stdin?: string;
}

export function corpusPrograms(): Program[] {
  return listPrograms('test/programs').map((p) => ({ name: p.name, source: readFileSync(p.path, 'utf8'), stdin: p.stdin }));
}

export function generatedPrograms(first: number, count: number, opts: Partial<CGenOptions> = { size: 'small' }): Program[] {
  const out: Program[] = [];
  for (let seed = first; seed < first + count; seed++) out.push({ name: `gen-${seed}`, source: generateCProgram(seed, opts) });
  return out;
}

/** Phis per defined function. */
export function phiCounts(m: Module): Map<string, number> {
  const r = new Map<string, number>();
  for (const f of m.functions) {
    if (f.isDeclaration()) continue;
    let c = 0;
    for (const b of f) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) c++;
    r.set(f.name, c);
  }
  return r;
}

/**
 * Lets the worker's event loop answer vitest's RPC between long synchronous steps (under
 * heavy load a worker that never yields gets "Timeout calling onTaskUpdate").
 */
const breathe = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Runs every pipeline of `pipelines` on `p` with all the checks. */
export async function checkProgram(p: Program, pipelines: readonly string[] = PIPELINES, interpreter = true): Promise<void> {
  const before = inputIR(p.source, p.name);
  const beforeFile = join(CACHE_DIR, `ssa-before-${process.pid}.ll`);
  writeFileSync(beforeFile, before);
  const ref = runLli(beforeFile, p.stdin);
  expect(ref.timedOut).toBe(false);
  const expected = ref.stdout.toString('latin1');
  const afterFile = join(CACHE_DIR, `ssa-after-${process.pid}.ll`);
  const optCounts = phiCounts(parseModule(inputIR(p.source, p.name, { prePasses: 'mem2reg' }), 'opt'));
  for (const pipeline of pipelines) {
    await breathe();
    const { module, text } = transform(before, pipeline, p.name);
    expect(llvmAsError(text), `llvm-as-19 rejected the output of ${pipeline}`).toBeNull();
    writeFileSync(afterFile, text);
    const got = runLli(afterFile, p.stdin);
    expect(got.stdout.toString('latin1'), `lli-19 output after ${pipeline}`).toBe(expected);
    expect(got.exitCode, `lli-19 exit code after ${pipeline}`).toBe(ref.exitCode);
    if (interpreter) {
      await breathe();
      const ours = runModule(parseModule(text, p.name), { stdin: p.stdin ?? '', stdout: 'collect', stderr: 'collect' });
      expect(ours.stdoutBytes!.toString('latin1'), `interpreter output after ${pipeline}`).toBe(expected);
      expect(ours.exitCode, `interpreter exit code after ${pipeline}`).toBe(ref.exitCode);
    }
    if (pipeline === 'mem2reg' || pipeline === 'mem2reg-braun') {
      const counts = phiCounts(module);
      for (const [fn, c] of optCounts) expect(counts.get(fn), `phis in @${fn} after ${pipeline} (opt-19 has ${c})`).toBe(c);
    }
  }
}
