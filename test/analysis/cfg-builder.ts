/**
 * Builds functions with a given CFG through the IRBuilder, for tests and benchmarks:
 * a block with no successors returns, one successor branches, two branch on the i1
 * argument %c, more switch on the i32 argument %x.
 */
import { BasicBlock, ConstantInt, Function, IRBuilder, Module, functionType, i1, i32, voidType } from '../../src/ir/index.js';

export function buildCfgFunction(names: string[], succs: number[][], fnName = 'f', module?: Module): Function {
  const fn = new Function(fnName, functionType(voidType, [i1, i32]), ['c', 'x']);
  module?.addFunction(fn);
  const blocks = names.map((nm) => fn.appendBlock(new BasicBlock(nm)));
  const b = new IRBuilder();
  for (let i = 0; i < blocks.length; i++) {
    b.setInsertPoint(blocks[i]);
    const s = succs[i] ?? [];
    if (s.length === 0) b.ret();
    else if (s.length === 1) b.br(blocks[s[0]]);
    else if (s.length === 2) b.condBr(fn.args[0], blocks[s[0]], blocks[s[1]]);
    else b.switch(fn.args[1], blocks[s[0]], s.slice(1).map((t, k) => [ConstantInt.get(i32, k), blocks[t]] as [ConstantInt, BasicBlock]));
  }
  return fn;
}

/** From an edge list over named nodes; the first name is the entry. */
export function buildFromEdges(names: string[], edges: [string, string][], fnName = 'f'): Function {
  const idx = new Map(names.map((n, i) => [n, i]));
  const succs: number[][] = names.map(() => []);
  for (const [a, b] of edges) succs[idx.get(a)!].push(idx.get(b)!);
  return buildCfgFunction(names, succs, fnName);
}
