/**
 * print<scalar-evolution>: what ScalarEvolution knows about a function, in the layout of
 * `opt-19 -passes='print<scalar-evolution>'` (LLVM's ScalarEvolution::print): each integer
 * instruction with its expression and, in a loop, its value at the loop's exit; then each
 * loop's backedge-taken count. Each expression's unsigned and signed ranges (`U:`/`S:`) come
 * from src/analysis/scev-range.ts, as does the constant max count. The pass is `print` with
 * the analysis as its one required parameter, as in LLVM's pipeline syntax.
 */
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { intType } from '../../ir/types.js';
import { NW, SK, type SCEV } from '../../analysis/scev-expr.js';
import type { Loop } from '../../analysis/loops.js';
import type { ScalarEvolution } from '../../analysis/scalar-evolution.js';
import { scevRanges } from '../../analysis/scev-range.js';
import { backedgeTakenInfo } from '../../analysis/scev-exits.js';
import { blockLabel, printInstruction, printType, printValue } from '../../text/printer.js';
import { ScalarEvolutionAnalysis } from '../../pm/analyses.js';
import { definePass, param } from '../../pm/define-pass.js';
import { printDomTreeLLVM, printLoopsLLVM, printPostDomTreeLLVM } from '../../analysis/print-trees.js';

let sink: (text: string) => void = (t) => {
  (globalThis as { process?: { stderr: { write(s: string): void } } }).process?.stderr.write(t);
};

/** Where the printer writes (stderr by default, as opt does); returns the previous sink. */
export function setSCEVPrintSink(f: (text: string) => void): (text: string) => void {
  const old = sink;
  sink = f;
  return old;
}

const loopName = (l: Loop): string => blockLabel(l.info.cfg.blockOf(l.header)!);

function flagText(f: number): string {
  return (f & NW.NUW ? '<nuw>' : '') + (f & NW.NSW ? '<nsw>' : '') + (f & (NW.NUW | NW.NSW) ? '' : f & NW.NW ? '<nw>' : '');
}

/** An expression as LLVM prints it (SCEV::print). */
export function scevText(s: SCEV): string {
  switch (s.kind) {
    case SK.Const:
      return String(s.c);
    case SK.Unknown:
      return printValue(s.value!);
    case SK.Add:
      return `(${s.ops.map(scevText).join(' + ')})${flagText(s.flags)}`;
    case SK.Mul:
      return `(${s.ops.map(scevText).join(' * ')})${flagText(s.flags)}`;
    case SK.UDiv:
      return `(${scevText(s.ops[0])} /u ${scevText(s.ops[1])})`;
    case SK.SMax:
      return `(${s.ops.map(scevText).join(' smax ')})`;
    case SK.UMax:
      return `(${s.ops.map(scevText).join(' umax ')})`;
    case SK.SMin:
      return `(${s.ops.map(scevText).join(' smin ')})`;
    case SK.UMin:
      return `(${s.ops.map(scevText).join(' umin ')})`;
    case SK.AddRec:
      return `{${s.ops.map(scevText).join(',+,')}}${flagText(s.flags)}<${loopName(s.loop!)}>`;
    case SK.ZExt:
    case SK.SExt:
    case SK.Trunc: {
      const name = s.kind === SK.ZExt ? 'zext' : s.kind === SK.SExt ? 'sext' : 'trunc';
      return `(${name} i${s.ops[0].bits} ${scevText(s.ops[0])} to i${s.bits})`;
    }
  }
  return '<<?>>';
}

/** The whole report for one function. */
export function printScalarEvolution(fn: Function, se: ScalarEvolution): string {
  const li = se.li;
  const ranges = scevRanges(se);
  let out = `Printing analysis 'Scalar Evolution Analysis' for function '${fn.name}':\nClassifying expressions for: @${fn.name}\n`;
  for (const b of fn.blocks()) {
    for (let i: Instruction | null = b.first; i !== null; i = i.next) {
      if (!i.type.isInt() || i.op === Opcode.ICmp) continue; // LLVM skips compares
      const s = se.get(i);
      out += `  ${printInstruction(i).trim()}\n  -->  ${scevText(s)} U: ${ranges.unsigned(s)} S: ${ranges.signed(s)}`;
      const l = se.loopOf(b);
      if (l !== null) {
        const e = se.exitValue(s, l);
        out += `\t\tExits: ${e === null ? '<<Unknown>>' : scevText(e)}`;
      }
      out += '\n';
    }
  }
  out += `Determining loop execution counts for: @${fn.name}\n`;
  // innermost first, as LLVM walks the loop tree
  const order: Loop[] = [];
  const stack = [...li.topLevel].reverse();
  const post: Loop[] = [];
  while (stack.length > 0) {
    const l = stack.pop()!;
    post.push(l);
    for (const c of l.subLoops) stack.push(c);
  }
  for (let k = post.length - 1; k >= 0; k--) order.push(post[k]);
  const withType = (n: SCEV) => (n.kind === SK.Const ? `${printType(intType(n.bits))} ${n.c}` : scevText(n));
  for (const l of order) {
    // as LLVM's PrintLoopInfo: the exact count, each exit's, the constant and symbolic maxima
    const info = backedgeTakenInfo(se, l);
    const many = info.exits.length !== 1;
    const name = loopName(l);
    const exitName = (b: number) => li.cfg.blockOf(b)!.name;
    out += `Loop ${name}: ${many ? '<multiple exits> ' : ''}${info.exact === null ? 'Unpredictable backedge-taken count.' : `backedge-taken count is ${withType(info.exact)}`}\n`;
    if (many) for (const e of info.exits) out += `  exit count for ${exitName(e.block)}: ${e.count === null ? '***COULDNOTCOMPUTE***' : withType(e.count)}\n`;
    const max = ranges.constantMaxBTC(l);
    const bits = info.symbolicMax?.bits ?? 0;
    out += `Loop ${name}: ${max === null ? 'Unpredictable constant max backedge-taken count. ' : `constant max backedge-taken count is ${printType(intType(bits))} ${BigInt.asIntN(bits, max)}`}\n`;
    out += `Loop ${name}: ${info.symbolicMax === null ? 'Unpredictable symbolic max backedge-taken count. ' : `symbolic max backedge-taken count is ${withType(info.symbolicMax)}`}\n`;
    if (many) for (const e of info.exits) out += `  symbolic max exit count for ${exitName(e.block)}: ${e.count === null ? '***COULDNOTCOMPUTE***' : withType(e.count)}\n`;
  }
  return out;
}

const TREE_PRINTERS = { domtree: printDomTreeLLVM, postdomtree: printPostDomTreeLLVM, loops: printLoopsLLVM };

export const printPass = definePass<{ analysis: 'scalar-evolution' | keyof typeof TREE_PRINTERS }>({
  name: 'print',
  description: "print<scalar-evolution|domtree|postdomtree|loops>: what the analysis finds, as opt-19 prints it (to stderr)",
  params: { analysis: param.word('analysis', ['scalar-evolution', 'domtree', 'postdomtree', 'loops'], 'the analysis to print') },
  instanceName: (p) => `print<${p.analysis}>`,
  run(fn, ctx, p) {
    // the trees and loops: analysis/print-trees.ts
    if (p.analysis !== 'scalar-evolution') sink(TREE_PRINTERS[p.analysis](fn));
    else sink(printScalarEvolution(fn, ctx.analyses.get(ScalarEvolutionAnalysis)));
    return { changed: false };
  },
});
