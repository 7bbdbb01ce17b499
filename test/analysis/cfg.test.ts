/**
 * The CFG: dense successor/predecessor arrays, DFS numbers, back and critical edges,
 * unreachable blocks, and functions whose block ids are not in layout order or have holes
 * (a transform inserted and deleted blocks without renumbering).
 */
import { describe, expect, it } from 'vitest';
import { CFG, computeDominators, findLoops, frontierOfTree, liveness, postDominators } from '../../src/analysis/index.js';
import { analyzeFunction } from '../../src/analysis/report.js';
import { BasicBlock, IRBuilder } from '../../src/ir/index.js';
import { parseModule } from '../../src/text/index.js';
import { buildCfgFunction } from './cfg-builder.js';

describe('CFG', () => {
  // 0 -> 1, 2; 1 -> 3; 2 -> 3, 2(self); 3 -> 1 (back), 4; 5 unreachable -> 3
  const fn = buildCfgFunction(['e', 'a', 'b', 'j', 'x', 'dead'], [[1, 2], [3], [3, 2], [1, 4], [], [3]]);
  const cfg = new CFG(fn);

  it('successors in terminator order, predecessors in layout order, distinct', () => {
    expect(Array.from(cfg.successors(0))).toEqual([1, 2]);
    expect(Array.from(cfg.predecessors(3))).toEqual([1, 2, 5]);
    expect(Array.from(cfg.predecessors(1))).toEqual([0, 3]);
    expect(cfg.numSuccessors(4)).toBe(0);
  });

  it('RPO, DFS numbers, reachability', () => {
    expect(Array.from(cfg.rpo)).toEqual([0, 2, 1, 3, 4]);
    expect(cfg.dfs.pre[0]).toBe(0);
    expect(cfg.isReachable(5)).toBe(false);
    expect(Array.from(cfg.unreachableBlocks())).toEqual([5]);
  });

  it('back edges (DFS retreating edges) and critical edges', () => {
    expect(Array.from(cfg.backEdges())).toEqual([2, 2, 3, 1]);
    expect(cfg.isBackEdge(3, 1)).toBe(true);
    expect(cfg.isBackEdge(1, 3)).toBe(false);
    // 0->1 (0 has 2 succs, 1 has 2 preds), 2->3, 2->2, 3->1
    expect(Array.from(cfg.criticalEdges())).toEqual([0, 1, 0, 2, 2, 3, 2, 2, 3, 1]);
    expect(cfg.isCriticalEdge(1, 3)).toBe(false);
  });

  it('counts parallel edges', () => {
    const m = parseModule(`define void @f(i1 %c, i32 %x) {
e:
  br i1 %c, label %t, label %t
t:
  switch i32 %x, label %u [ i32 0, label %u
                            i32 1, label %e2 ]
u:
  ret void
e2:
  ret void
}`, 't.ll');
    const g = new CFG(m.functions[0]);
    expect(g.edgeCount(0, 1)).toBe(2);
    expect(g.edgeCount(1, 2)).toBe(2);
    expect(Array.from(g.successors(1))).toEqual([2, 3]);
    expect(g.isCriticalEdge(0, 1)).toBe(false);
  });

  it('works on functions whose ids are not in layout order and have holes', () => {
    const text = `define i32 @f(i1 %c, i32 %a) {
entry:
  br i1 %c, label %l, label %r
l:
  %x = add i32 %a, 1
  br label %j
r:
  br label %j
j:
  %p = phi i32 [ %x, %l ], [ %a, %r ]
  br i1 %c, label %j, label %exit
exit:
  ret i32 %p
}`;
    const m = parseModule(text, 't.ll');
    const f = m.functions[0];
    const [entry, l] = f.blocks();
    // split entry -> l with a new block (higher id, placed in the middle), and add+erase a block (a hole)
    const mid = f.insertBlockAfter(new BasicBlock('mid'), entry);
    new IRBuilder(mid).br(l);
    entry.last!.setSuccessor(0, mid);
    l.replacePhiIncomingBlock(entry, mid);
    const tmp = f.appendBlock(new BasicBlock('tmp'));
    new IRBuilder(tmp).unreachable();
    tmp.eraseFromParent();
    expect(f.blockIdBound).toBe(7);
    expect(mid.id).toBe(5);

    const before = analyzeFunction(f);
    const g = new CFG(f);
    expect(g.n).toBe(7);
    expect(g.blockOf(6)).toBeNull();
    expect(Array.from(g.order)).toEqual([0, 5, 1, 2, 3, 4]);
    expect(Array.from(g.predecessors(3))).toEqual([1, 2, 3]);
    const dt = computeDominators(g, { algorithm: 'chk' });
    expect(dt.idom[5]).toBe(0);
    expect(dt.idom[1]).toBe(5);
    frontierOfTree(dt, { algorithm: 'cytron' });
    postDominators(g);
    findLoops(g, dt);
    liveness(g);

    f.renumber();
    const after = analyzeFunction(f);
    expect(before).toEqual(after);
    expect(before.blocks).toEqual(['entry', 'mid', 'l', 'r', 'j', 'exit']);
    expect(before.idom.l).toBe('mid');
    expect(before.loops).toEqual([{ header: 'j', blocks: ['j'], latches: ['j'], depth: 1, parent: null }]);
    expect(before.liveOut.l).toEqual(['%c', '%x']); // %a reaches j only through the phi entry from %r
  });
});
