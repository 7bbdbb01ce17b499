/**
 * The "whole process" side of bench/dominators.ts, the counterpart of
 * `opt-19 -passes='print<domtree>' -disable-output FILE.ll`: parse the file, build every
 * defined function's dominator tree (Semi-NCA, as LLVM) and print it in opt's format.
 * Usage: node dominators-main.mjs FILE.ll [chk|seminca]
 */
import { readFileSync, writeSync } from 'node:fs';
import { CFG } from '../src/analysis/cfg.js';
import { computeDominators } from '../src/analysis/dominators.js';
import { parseModule } from '../src/text/parser.js';
import { functionSlots } from '../src/text/slots.js';

const file = process.argv[2];
const algorithm = (process.argv[3] ?? 'seminca') as 'chk' | 'seminca';
const m = parseModule(readFileSync(file, 'utf8'), file);
const out: string[] = [];
for (const fn of m.definedFunctions()) {
  const cfg = new CFG(fn);
  const dt = computeDominators(cfg, { algorithm });
  const slots = functionSlots(fn);
  out.push(`DominatorTree for function: ${fn.name}`, '=============================--------------------------------', 'Inorder Dominator Tree: DFSNumbers invalid: 0 slow queries.');
  for (const v of dt.preorder) {
    const d = dt.depth[v];
    out.push(`${'  '.repeat(d + 1)}[${d + 1}] %${slots.nameOf(cfg.blocks[v]!)} {${dt.dfsIn[v]},${dt.dfsOut[v]}} [${d}]`);
  }
  out.push(`Roots: %${slots.nameOf(fn.entry)} `);
}
writeSync(2, out.join('\n') + '\n');
