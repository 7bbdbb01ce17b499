/**
 * bench/mem2reg-phis: the phi-count table. For every C program of test/programs and N
 * generated programs (src/fuzz/c-gen.ts), the phis opt-19 -passes=mem2reg places against
 * ours (mem2reg and mem2reg-braun), summed per program, with every function that differs.
 * Also Braun's raw construction against Cytron's raw placement (both without LLVM's undef
 * clean-up): they differ only where a "copy" (x = y with y's value already in x) gives
 * Cytron a definition that carries no new value; after Braun's trivial-phi rule they agree.
 *
 * Run: npx tsx bench/mem2reg-phis.ts [--generated=100]
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { computeDominators } from '../src/analysis/dominators.js';
import { generateCProgram } from '../src/fuzz/c-gen.js';
import type { Function } from '../src/ir/function.js';
import type { Instruction } from '../src/ir/instruction.js';
import type { Module } from '../src/ir/module.js';
import { Opcode } from '../src/ir/opcodes.js';
import { runPipeline } from '../src/passes/index.js';
import { promoteMemoryToRegisterBraun } from '../src/transforms/ssa/mem2reg-braun.js';
import { promoteMemoryToRegister } from '../src/transforms/ssa/mem2reg.js';
import { removeRedundantPhis } from '../src/transforms/ssa/redundant-phis.js';
import { parseModule } from '../src/text/parser.js';
import { table } from './common.js';

const genArg = process.argv.find((a) => a.startsWith('--generated='));
const generated = genArg ? Number(genArg.slice(12)) : 100;

function phis(f: Function): Instruction[] {
  const out: Instruction[] = [];
  for (const b of f) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) out.push(i);
  return out;
}
const fns = (m: Module): Function[] => m.functions.filter((f) => !f.isDeclaration());

const programs: { name: string; source: string }[] = [];
for (const f of readdirSync('test/programs').filter((x) => x.endsWith('.c')).sort()) programs.push({ name: f.slice(0, -2), source: readFileSync(`test/programs/${f}`, 'utf8') });
for (let s = 1; s <= generated; s++) programs.push({ name: `gen-${s}`, source: generateCProgram(s, { size: 'small' }) });

const rows: (string | number)[][] = [];
const diffs: string[] = [];
let totalFns = 0;
let totals = [0, 0, 0];
let rawDiffFns = 0;
let rawAfterTrivialDiffFns = 0;
for (const p of programs) {
  const ll = execFileSync('clang-19', ['-O0', '-Xclang', '-disable-O0-optnone', '-w', '-S', '-emit-llvm', '-x', 'c', '-', '-o', '-'], { input: p.source, maxBuffer: 1 << 28 }).toString();
  const optText = execFileSync('opt-19', ['-passes=mem2reg', '-S', '-'], { input: ll, maxBuffer: 1 << 28 }).toString();
  const opt = parseModule(optText, 'opt');
  const cy = parseModule(ll, p.name);
  runPipeline(cy, 'mem2reg');
  const br = parseModule(ll, p.name);
  runPipeline(br, 'mem2reg-braun');
  let a = 0;
  let b = 0;
  let c = 0;
  for (const f of fns(opt)) {
    const na = phis(f).length;
    const nb = phis(cy.getFunction(f.name)!).length;
    const nc = phis(br.getFunction(f.name)!).length;
    a += na;
    b += nb;
    c += nc;
    totalFns++;
    if (na !== nb || na !== nc) diffs.push(`${p.name} @${f.name}: opt-19 ${na}, mem2reg ${nb}, mem2reg-braun ${nc}`);
  }
  // raw constructions, without LLVM's clean-up
  const rc = parseModule(ll, p.name);
  const rb = parseModule(ll, p.name);
  for (const f of fns(rc)) {
    const g = rb.getFunction(f.name)!;
    const oldC = new Set(phis(f));
    const oldB = new Set(phis(g));
    promoteMemoryToRegister(f, computeDominators(f), { simplifyPhis: false });
    promoteMemoryToRegisterBraun(g, computeDominators(g), { simplifyPhis: false });
    const newC = phis(f).filter((x) => !oldC.has(x));
    const newB = phis(g).filter((x) => !oldB.has(x));
    if (newC.length !== newB.length) rawDiffFns++;
    removeRedundantPhis(f, newC);
    removeRedundantPhis(g, newB);
    if (phis(f).length !== phis(g).length) rawAfterTrivialDiffFns++;
  }
  totals = [totals[0] + a, totals[1] + b, totals[2] + c];
  rows.push([p.name, fns(opt).length, a, b, c, a === b && a === c ? '' : 'DIFF']);
}
console.log(table(['program', 'functions', 'opt-19 phis', 'mem2reg', 'mem2reg-braun', ''], rows));
console.log(`\ntotal: ${programs.length} programs, ${totalFns} functions; phis opt-19 ${totals[0]}, mem2reg ${totals[1]}, mem2reg-braun ${totals[2]}`);
console.log(diffs.length === 0 ? 'every function: the same number of phis as opt-19' : `functions that differ:\n  ${diffs.join('\n  ')}`);
console.log(`raw Braun vs raw Cytron (no undef clean-up): ${rawDiffFns} function(s) differ; after Braun's trivial/SCC rule on both: ${rawAfterTrivialDiffFns}`);
