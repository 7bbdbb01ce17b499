/**
 * The in-process half of bench/sysy.ts, run in a fresh process per measurement (bundled by
 * esbuild first, as the shipped CLI is, so enum accesses and imports cost what they cost in
 * production): compiles FILE.sy in one mode and prints the phase times as JSON.
 *
 *   node bench/out/sysy-inproc.mjs FILE.sy braun|braun-nofold|alloca+mem2reg
 */
import { readFileSync } from 'node:fs';
import { analyzeSysY, generateIR, type IRGenStats } from '../src/frontend/sysy/index.js';
import { runPipeline } from '../src/passes/index.js';
import { printModule } from '../src/text/printer.js';

const [file, mode] = process.argv.slice(2);
const src = readFileSync(file, 'utf8');
let t = performance.now();
const r = analyzeSysY(src, file);
if (r.diagnostics.some((d) => d.severity === 'error')) throw new Error(`${file} has errors`);
const frontend = performance.now() - t;
t = performance.now();
const stats = {} as IRGenStats;
const m = generateIR(r.ast, mode === 'alloca+mem2reg' ? { ssa: 'alloca' } : { ssa: 'braun', fold: mode !== 'braun-nofold' }, stats);
const irgen = performance.now() - t;
t = performance.now();
if (mode === 'alloca+mem2reg') runPipeline(m, 'mem2reg');
const mem2reg = performance.now() - t;
let instructions = 0;
let phis = 0;
for (const f of m.functions) for (const b of f) for (const i of b) {
  instructions++;
  if (i.opcodeName === 'phi') phis++;
}
t = performance.now();
const text = printModule(m);
const print = performance.now() - t;
process.stdout.write(JSON.stringify({ frontend, irgen, mem2reg, print, instructions, phis, bytes: text.length, stats }) + '\n');
